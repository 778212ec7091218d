package org.tebaldi.core.history.listappend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records what list-append clients observed, from any number of threads: one {@link Attempt} per transaction
 * attempt (its micro-operations in program order, then its outcome), and the final read of every key made after
 * the run quiesced. {@link #history()} is the checker's input; an attempt that never ended counts as of unknown
 * outcome. Memory grows with the history (one entry per micro-operation).
 */
public final class ListAppendRecorder {
    private final AtomicLong nextId = new AtomicLong();
    private final ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    private final Map<String, List<Long>> finalReads = new ConcurrentHashMap<>();

    /** One transaction attempt being recorded; its methods may be called from different threads in turn. */
    public static final class Attempt {
        private final long id;
        private final List<MicroOp> ops = new ArrayList<>();
        private Outcome outcome;
        private boolean durable;

        private Attempt(long id) {
            this.id = id;
        }

        /** The attempt's id in the history (1, 2, … in begin order; not the engine's transaction id). */
        public long id() {
            return id;
        }

        /** Records {@code append(key, value)} (call when the append is issued). */
        public synchronized void append(String key, long value) {
            ops.add(MicroOp.append(key, value));
        }

        /** Records {@code read(key) → observed} (call when the answer arrived). */
        public synchronized void read(String key, List<Long> observed) {
            ops.add(MicroOp.read(key, observed));
        }

        /**
         * Records the outcome; only the first call counts.
         *
         * @throws NullPointerException if {@code o} is null
         */
        public synchronized void end(Outcome o) {
            java.util.Objects.requireNonNull(o, "outcome");
            if (outcome == null) {
                outcome = o;
            }
        }

        /** Records the durable notification of its commit (dissertation §4.5.4). */
        public synchronized void durable() {
            durable = true;
        }

        /** A crash lost what was not durable: a commit without its durable notification becomes unknown. */
        private synchronized void crashed() {
            if (outcome == Outcome.COMMITTED && !durable) {
                outcome = Outcome.UNKNOWN;
            }
        }

        private synchronized ObservedTxn snapshot() {
            return new ObservedTxn(id, outcome == null ? Outcome.UNKNOWN : outcome, ops);
        }
    }

    /** Starts recording a new attempt. */
    public Attempt begin() {
        Attempt a = new Attempt(nextId.incrementAndGet());
        attempts.add(a);
        return a;
    }

    /** Records the final read of {@code key} (made after every client stopped), replacing an earlier one. */
    public void finalRead(String key, List<Long> observed) {
        finalReads.put(key, List.copyOf(observed));
    }

    /**
     * Records a crash of the whole cluster that keeps only durable transactions (durability, dissertation §4.5.4):
     * every attempt committed so far without its durable notification becomes of unknown outcome — it may or may
     * not have survived, so its reads prove nothing and its appends count only if a later committed read or the
     * final read shows them. Call it when the crash happens, before clients resume.
     */
    public void crash() {
        attempts.forEach(Attempt::crashed);
    }

    /** Attempts begun so far. */
    public long attempts() {
        return nextId.get();
    }

    /** What was recorded so far; attempts still running are of unknown outcome. */
    public ListAppendHistory history() {
        List<ObservedTxn> txns = new ArrayList<>();
        for (Attempt a : attempts) {
            txns.add(a.snapshot());
        }
        return new ListAppendHistory(txns, new java.util.TreeMap<>(finalReads));
    }
}
