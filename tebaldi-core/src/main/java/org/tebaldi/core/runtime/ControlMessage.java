package org.tebaldi.core.runtime;

/**
 * Marks runtime plumbing (loading, status, history collection, shutdown in process mode) as opposed to protocol
 * traffic: transports do not count such messages in {@link MessageStats}, so message-per-transaction figures
 * stay those of the protocol (dissertation §4.5.2).
 */
public interface ControlMessage {
}
