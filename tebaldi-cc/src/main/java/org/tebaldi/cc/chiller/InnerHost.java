package org.tebaldi.cc.chiller;

/**
 * Chiller's per-request metadata (shipped with every request once chosen): the index of the data server that hosts
 * the transaction's inner region (Chiller §3.3 step 2). Hot records on other servers are locked as outer-region
 * records there.
 *
 * @param server data server index, 0..n-1
 */
public record InnerHost(int server) {
}
