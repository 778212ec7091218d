package org.tebaldi.server.msg;

import org.tebaldi.core.runtime.cost.CostUnits;

/** Messages of asynchronous flushing in GCP epochs (dissertation §4.5.4). */
public final class Durable {
    private Durable() {
    }

    /**
     * DS → every TC: every log record this server stamped with an epoch up to {@code epoch} is on disk, and so is the
     * outcome of every transaction it precommitted in those epochs. {@code round}: the last recovery round the
     * server finished (reports of another round are ignored).
     */
    public record Persisted(int ds, long round, long epoch) {
    }

    /**
     * TC → client: the durable notification of committed transactions ({@code lost} false), or — after a recovery
     * dropped their epochs — the news that they are lost ({@code lost} true, with {@code reason}). {@code seq} &gt; 0
     * (with the transaction timeout on): the coordinator's number for this notice, which the client acknowledges
     * with {@link Ack}; an unacknowledged notice is sent again (a connection that drops loses what is in flight).
     * 0: no acknowledgement wanted.
     */
    public record Txns(long seq, long[] txnIds, boolean lost, String reason) implements CostUnits {
        /** Work units: the transactions named. */
        @Override
        public int costUnits() {
            return txnIds.length;
        }
    }

    /** Client → TC: notice {@code seq} ({@link Txns}) arrived (sent for every copy, a repeated one too). */
    public record Ack(long seq) {
    }
}
