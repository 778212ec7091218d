package org.tebaldi.core.runtime;

/** Handle of a scheduled timer. */
@FunctionalInterface
public interface Cancellable {
    /** Cancels the timer if it has not fired yet; idempotent. */
    void cancel();
}
