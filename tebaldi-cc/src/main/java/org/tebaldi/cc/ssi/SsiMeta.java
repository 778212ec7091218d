package org.tebaldi.cc.ssi;

/**
 * What an SSI TC part tells the data servers about a transaction: its start (snapshot) timestamp, which is its
 * batch's, and the batch id (equal to the start timestamp). Absent (null meta) for update transactions under the
 * root optimization, which read no snapshot (dissertation §4.4.3).
 */
record SsiMeta(long startTs) {
}
