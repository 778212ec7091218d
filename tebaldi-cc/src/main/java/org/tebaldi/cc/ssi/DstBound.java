package org.tebaldi.cc.ssi;

import org.tebaldi.core.cc.CcReport;

/**
 * DST's lower bound on an update transaction's commit timestamp from one data server (RW1 of Decentralized Scalar
 * Timestamps, NSDI 2021, §3.1/§4.1): one more than the largest timestamp installed on a tuple the transaction read
 * or wrote there, taken when it validated there (after its in-group dependencies committed). Reported with the
 * vote; the TC part commits at a timestamp at least the largest bound.
 */
record DstBound(long bound) implements CcReport {
}
