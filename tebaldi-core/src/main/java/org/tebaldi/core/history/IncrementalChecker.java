package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.history.HeldKey.PendingRead;
import org.tebaldi.core.history.HeldTxn.Edge;
import org.tebaldi.core.history.HeldTxn.Issue;
import org.tebaldi.core.model.Key;

/**
 * The serializability check of {@link SerializabilityChecker} (Adya's DSG, dissertation §2.2.3) on a history that
 * arrives in chunks while the run goes on, holding only what can still join a cycle, so that memory stays bounded
 * on a run of any length (docs/architecture.md, "Verification"). Same violations: G1a aborted reads, G1b
 * intermediate reads, G1c and G2 cycles (one per non-trivial strongly connected component), and record
 * inconsistencies. The held graph and how records enter it are {@link HeldDsg}'s; this class prunes it.
 *
 * <p><b>Input.</b> Every recording node ({@code source}, 0 .. sources-1) hands over what it recorded since its last
 * hand-over as one {@link HistoryLog} chunk ({@link #add}); chunks are numbered in hand-over order, and a node's
 * hand-over must happen after every record of it that it contains. Data servers report each key's version order
 * as it becomes final ({@link HistoryLog#finalVersion}: a committed version before the newest settled one, i.e.
 * nothing can be ordered before it any more — the storage's GC watermark, dissertation §4.5.3); the last chunks
 * (after the run) report the remaining committed versions. Assumptions, all true of the data servers and
 * coordinators: a committed transaction's reads and writes are recorded before its outcome is recorded anywhere
 * (the coordinator decides a commit after every reply); an operation of an aborted transaction may be recorded
 * after its abort (the coordinator aborts without waiting for the operations in flight), and then the data server
 * that recorded it records the abort too; a node's records appear in its chunks in the order recorded; a read of a
 * version is recorded at the data server of the key before the next version of the key is reported final there.
 *
 * <p><b>Pruning rule</b> (sound: nothing dropped can be on a cycle found later). A transaction is <i>complete</i>
 * once every source has handed over a chunk after the chunk with its first outcome: all its reads and writes have
 * arrived if it committed. A committed transaction T is <i>sealed</i> once it is complete, every writer it read
 * from is resolved, and each of its versions is final: then no transaction can get an edge <i>into</i> T any more
 * — no wr (its reads are in), no ww (the version before T's on each key is known and nothing can be placed
 * between), no rw (every read of the version T overwrote was recorded before T's version became final, so is in).
 * A sealed T whose ancestors (transitively along incoming edges, including edges out of transactions whose outcome
 * is not known yet) are all sealed is <i>final</i>: every cycle through it lies among final transactions and is
 * already in the graph. Each {@link #prune} pass checks the graph of the final transactions (their strongly
 * connected components are complete) and drops them. Per key only the newest final version's writer, the readers
 * of that version (their future rw edge to the next version) and the readers of versions not yet final are kept,
 * and a key's state goes once its newest final writer was dropped and no held transaction read it. An aborted
 * transaction is dropped once it is complete and every source that logged a write of it logged its abort too (a
 * data server logs the abort when it removes the versions): no reader can observe them any more, and every read
 * of them was logged before. An operation of it logged later brings it back, aborted ({@link HeldDsg}); it is
 * dropped again by the same rule. A write a node logged again before a read it served ({@link HistoryLog#copy}: a
 * coordinator's cache, a backup replica) does not bring back a committed writer dropped before: ignored while the
 * id is remembered or its version is the key's newest final one, else settled once every source handed over a
 * chunk after the copy's ({@link HeldCopies}). What is not caught once its state is dropped: a read of a
 * version older than the key's newest final version arriving after that version's writer was dropped (a store
 * that served a pruned version), which would need the whole version order.
 *
 * <p>Not thread-safe; {@link HistoryStream} feeds it from the nodes' threads. Memory is proportional to the held
 * transactions, their edges and the held keys ({@link #held()}, {@link #heldKeys()}); a pass is linear in them.
 */
public final class IncrementalChecker {
    /** Most sources: each is a bit of a transaction's write and abort masks. */
    public static final int MAX_SOURCES = 64;
    /** Passes the ids of dropped transactions are remembered, so that a late duplicate outcome is not counted. */
    static final int DROPPED_KEPT_PASSES = DroppedTxns.KEPT_PASSES;

    private final long[] lastChunk;
    private final ViolationCollector out;
    private final HeldDsg g;
    private long chunk;
    private int pass;
    private int maxHeld;

    /**
     * @param sources          number of nodes that hand over chunks (each must hand over regularly, even empty
     *                         chunks, or nothing becomes complete)
     * @param maxStoredPerType violations of each type kept in the result (all are counted)
     * @throws IllegalArgumentException if {@code sources < 1} or {@code maxStoredPerType < 0}
     */
    public IncrementalChecker(int sources, int maxStoredPerType) {
        if (sources < 1 || sources > MAX_SOURCES || maxStoredPerType < 0) {
            throw new IllegalArgumentException("need 1 <= sources <= " + MAX_SOURCES
                    + " and maxStoredPerType >= 0: " + sources + ", " + maxStoredPerType);
        }
        this.lastChunk = new long[sources];
        Arrays.fill(lastChunk, -1);
        this.out = new ViolationCollector(maxStoredPerType);
        this.g = new HeldDsg(out);
    }

    /**
     * Adds the records source {@code source} handed over since its previous chunk: outcomes, writes, reads, then
     * final versions (within a chunk this order is always safe).
     *
     * @throws IllegalArgumentException if {@code source} is out of range
     */
    public void add(int source, HistoryLog log) {
        if (source < 0 || source >= lastChunk.length) {
            throw new IllegalArgumentException("source " + source + " not in 0.." + (lastChunk.length - 1));
        }
        long c = chunk++;
        lastChunk[source] = c;
        g.add(source, c, log);
        maxHeld = Math.max(maxHeld, g.txns.size());
    }

    /** Transactions held now. */
    public int held() {
        return g.txns.size();
    }

    /**
     * Held transactions without an outcome yet: each keeps every transaction that depends on it held, so once the
     * run is quiet this must be 0 (after the run, they are reported unfinished).
     */
    public int heldWithoutOutcome() {
        int n = 0;
        for (HeldTxn t : g.txns.values()) {
            n += t.status == HeldTxn.UNKNOWN ? 1 : 0;
        }
        return n;
    }

    /** Most transactions held at once so far. */
    public int maxHeld() {
        return maxHeld;
    }

    /**
     * What is held and why, for diagnosis: held transactions by state (no outcome yet — with the lowest such id,
     * which pins every transaction that depends on it —, aborted, not complete, waiting for writers' outcomes,
     * versions not final, sealed but depending on an unsealed one), each source's last chunk number, held keys.
     */
    public String describeHeld() {
        int unknown = 0;
        int incomplete = 0;
        int waiting = 0;
        int unfinal = 0;
        int sealedUnsafe = 0;
        int abortedHeld = 0;
        long complete = completeBefore();
        HeldTxn oldestUnknown = null;
        for (HeldTxn n : g.txns.values()) {
            if (n.status == HeldTxn.UNKNOWN) {
                unknown++;
                if (oldestUnknown == null || n.id < oldestUnknown.id) {
                    oldestUnknown = n;
                }
            } else if (n.status == HeldTxn.ABORTED) {
                abortedHeld++;
            } else if (n.outcomeChunk >= complete) {
                incomplete++;
            } else if (!n.resolved) {
                waiting++;
            } else if (n.unfinal > 0) {
                unfinal++;
            } else {
                sealedUnsafe++;
            }
        }
        return "held " + g.txns.size() + ": unknown " + unknown + " (oldest " + (oldestUnknown == null ? "-"
                : oldestUnknown.label() + " reads-in " + (oldestUnknown.in == null ? 0 : oldestUnknown.in.size())
                + " writes " + (oldestUnknown.writes == null ? 0 : oldestUnknown.writes.size())) + "), aborted "
                + abortedHeld + ", incomplete " + incomplete + ", waiting for writers " + waiting
                + ", versions not final " + unfinal + ", sealed but below an unsealed one " + sealedUnsafe
                + "; last chunks " + Arrays.toString(lastChunk) + "; keys " + g.keys.size();
    }

    /** Keys with state held now. */
    public int heldKeys() {
        return g.keys.size();
    }

    /** Transactions dropped so far (checked and forgotten). */
    public long droppedCount() {
        return g.droppedCount;
    }

    /** A transaction whose first outcome is in a chunk before this number is complete. */
    private long completeBefore() {
        long complete = Long.MAX_VALUE;
        for (long l : lastChunk) {
            complete = Math.min(complete, l);
        }
        return complete;
    }

    /**
     * One pruning pass: resolves the transactions that became complete (reporting their read anomalies), reports
     * the cycles among the final transactions and drops them (see the class comment for the rule).
     */
    public void prune() {
        pass++;
        long complete = completeBefore();
        g.copies.settle(complete);
        List<HeldTxn> finals = new ArrayList<>();
        List<HeldTxn> expiredAborts = new ArrayList<>();
        for (HeldTxn n : g.txns.values()) {
            if (!n.resolved && n.status != HeldTxn.UNKNOWN && n.outcomeChunk < complete) {
                resolve(n, false);
            }
            if (n.status == HeldTxn.ABORTED && n.resolved && (n.writeSources & ~n.abortSources) == 0) {
                expiredAborts.add(n);
            }
        }
        int stamp = pass;
        ArrayList<HeldTxn> stack = new ArrayList<>();
        for (HeldTxn n : g.txns.values()) {
            if (n.status != HeldTxn.ABORTED && !n.sealed() && n.mark != stamp) {
                n.mark = stamp;
                stack.add(n);
                while (!stack.isEmpty()) {
                    HeldTxn u = stack.remove(stack.size() - 1);
                    if (u.out == null) {
                        continue;
                    }
                    for (Edge e : u.out) {
                        HeldTxn v = e.to();
                        if (v.mark != stamp && v.status != HeldTxn.ABORTED && !v.dropped) {
                            v.mark = stamp;
                            stack.add(v);
                        }
                    }
                }
            }
        }
        for (HeldTxn n : g.txns.values()) {
            if (n.status == HeldTxn.COMMITTED && n.mark != stamp) {
                finals.add(n);
            }
        }
        HeldCycles.report(finals, -pass, out);
        for (HeldTxn n : finals) {
            g.drop(n);
        }
        for (HeldTxn n : expiredAborts) {
            g.drop(n);
        }
        g.sweep(pass);
    }

    /**
     * Resolves {@code n} (status known and complete): a committed reader's read anomalies are reported, unless a
     * writer it read from is still unresolved (then it waits; at the end, {@code end}, such a writer never
     * finished).
     */
    private void resolve(HeldTxn n, boolean end) {
        if (n.status == HeldTxn.COMMITTED && n.in != null) {
            for (Edge e : n.in) {
                if (e.type() == EdgeType.WR && e.from().status == HeldTxn.UNKNOWN && !end) {
                    return;
                }
            }
            for (Edge e : n.in) {
                if (e.type() == EdgeType.WR && !e.from().committed()) {
                    HeldTxn w = e.from();
                    String what = w.status == HeldTxn.ABORTED ? "aborted" : "never finished";
                    out.report(ViolationType.ABORTED_READ, () -> new Violation(ViolationType.ABORTED_READ,
                            "aborted read: committed " + n.label() + " read " + e.key() + " of " + w.label()
                                    + ", which " + what, List.of(n.id, w.id), List.of()));
                }
            }
        }
        if (n.status == HeldTxn.COMMITTED && n.issues != null) {
            for (Issue i : n.issues) {
                out.report(i.type(), () -> new Violation(i.type(), i.message().get(), List.of(n.id, i.writer()),
                        List.of()));
            }
        }
        n.issues = null;
        n.resolved = true;
    }

    /**
     * Ends the check once every source handed over its last chunk (after the run): every transaction is final,
     * those without an outcome are unfinished; reports what remains and returns the verdict over the whole run.
     */
    public CheckResult finish() {
        pass++;
        g.copies.settle(Long.MAX_VALUE);
        int unfinished = heldWithoutOutcome();
        for (HeldTxn n : g.txns.values()) {
            if (!n.resolved && n.status != HeldTxn.UNKNOWN) {
                resolve(n, true);
            }
        }
        List<HeldTxn> all = new ArrayList<>();
        for (HeldTxn n : g.txns.values()) {
            if (n.status == HeldTxn.COMMITTED) {
                all.add(n);
                if (n.unfinal > 0) {
                    n.writes.forEach((k, seq) -> {
                        if (seq > 0) {
                            out.record(() -> "committed " + n.label() + " wrote " + k + " (final write #" + seq
                                    + ") but is missing from its version order", n.id);
                        }
                    });
                }
            }
        }
        for (Map.Entry<Key, HeldKey> e : g.keys.entrySet()) {
            if (e.getValue().pending == null) {
                continue;
            }
            e.getValue().pending.forEach((wid, list) -> {
                HeldTxn w = g.txns.get(wid);
                if (w == null || !w.committed()) {
                    return;
                }
                for (PendingRead p : list) {
                    if (p.reader().committed()) {
                        out.record(() -> "committed " + p.reader().label() + " read " + e.getKey()
                                + " written by " + w.label() + ", a version missing from the key's version order",
                                p.reader().id, wid);
                    }
                }
            });
        }
        HeldCycles.report(all, -pass, out);
        for (HeldTxn n : new ArrayList<>(g.txns.values())) {
            g.drop(n);
        }
        g.keys.clear();
        return new CheckResult(out.stored(), out.counts(), g.edgeCounts, g.committed, g.aborted, unfinished,
                (int) Math.min(Integer.MAX_VALUE, g.reads));
    }
}
