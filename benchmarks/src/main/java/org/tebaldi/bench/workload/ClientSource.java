package org.tebaldi.bench.workload;

/**
 * The transactions of one closed-loop client, one after the other (no think time). The driver asks for the next
 * request only when the previous one committed or failed for good; a retried attempt reuses the same request.
 * Used by one logical client at a time, possibly from different threads in turn; must not block.
 */
@FunctionalInterface
public interface ClientSource {
    /** The client's next transaction. */
    TxnRequest next();
}
