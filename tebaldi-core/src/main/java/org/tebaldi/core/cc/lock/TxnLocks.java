package org.tebaldi.core.cc.lock;

import java.util.ArrayList;

/**
 * What one transaction holds and waits for at one lock-based CC node of one data server (its per-level state).
 * Each held lock carries the tag it was acquired with (RP: the step), so locks can be released by tag.
 */
public final class TxnLocks {
    final ArrayList<LockState> held = new ArrayList<>(4);
    final ArrayList<LockState.Waiter> waiting = new ArrayList<>(1);

    /** Number of locks held. */
    public int held() {
        return held.size();
    }
}
