package org.tebaldi.cc.ssi;

/**
 * What a DST coordinator tells the data servers about an update transaction: its coordinator's hybrid clock when
 * it started, a lower bound on its commit timestamp (the commit takes {@code max(bounds, clock)} and the clock never
 * goes back). A data server folds it into the transaction's bound, so a snapshot read below it never waits for the
 * transaction (DST's staleness: writers that started after the snapshot's time are skipped without waiting).
 */
record DstStart(long lowerBound) {
}
