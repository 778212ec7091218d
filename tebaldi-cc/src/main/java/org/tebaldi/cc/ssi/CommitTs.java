package org.tebaldi.cc.ssi;

/**
 * SSI's commit metadata (dissertation §4.4.3): the commit timestamp the TC part took at validation, with which the
 * data servers stamp the transaction's versions. Not sent for a transaction that took none (read-only under the
 * root optimization).
 */
record CommitTs(long cts) {
}
