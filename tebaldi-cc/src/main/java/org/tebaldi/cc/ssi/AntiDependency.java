package org.tebaldi.cc.ssi;

import org.tebaldi.core.cc.CcReport;

/**
 * An anti-dependency (rw edge) between two batches that a data server found (dissertation §4.4.3): a transaction of
 * batch {@code readerBatch} read a version older than one written by a transaction of batch {@code writerBatch}.
 * Reported by the DS part with the operation that created it and brought by the TC part to the batch manager's
 * pivot check. Batches are named by their start timestamp.
 */
record AntiDependency(long readerBatch, long writerBatch) implements CcReport {
}
