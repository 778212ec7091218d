package org.tebaldi.bench.experiment;

/**
 * The {@code cluster:} section of an experiment (DESIGN.md §3, §9).
 *
 * @param mode               {@code embedded} (the only mode available so far)
 * @param transport          {@code local} (the only transport available so far)
 * @param dataServers        number of data servers, at least 1 (default 1)
 * @param coordinators       number of transaction coordinators (and client endpoints), at least 1 (default 1)
 * @param networkDelayMicros emulated one-way network delay, µs (default 50, WORKLOADS.md)
 * @param threads            executor threads, 0 = one per core (default 0)
 */
public record ClusterSpec(String mode, String transport, int dataServers, int coordinators, long networkDelayMicros,
                          int threads) {
}
