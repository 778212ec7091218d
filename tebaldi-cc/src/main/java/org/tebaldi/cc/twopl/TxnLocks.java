package org.tebaldi.cc.twopl;

import java.util.ArrayList;

/** What one transaction holds and waits for at one 2PL node of one data server (its per-level state). */
final class TxnLocks {
    final ArrayList<LockState> held = new ArrayList<>(4);
    final ArrayList<LockState.Waiter> waiting = new ArrayList<>(1);
}
