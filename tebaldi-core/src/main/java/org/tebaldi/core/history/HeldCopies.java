package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.history.HeldKey.PendingRead;
import org.tebaldi.core.history.HeldTxn.Edge;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.TxnIds;

/**
 * Copied writes in the {@link IncrementalChecker}'s held graph (docs/architecture.md, "Verification"). A node that
 * serves a read its data server did not serve — a coordinator's cache of remote reads (Sundial §4), a backup
 * replica — records the version's write again before the read ({@link HistoryLog#copy}), since its chunk may reach
 * the check before the data server's chunk holding the write. A copy of a writer the check does not hold is
 * therefore either early (the data server's write record is still to come) or of a committed writer checked and
 * dropped long ago, whose id is no longer remembered and whose key's state went with it (burn seed 122: an online
 * update from TicToc to Sundial with the hybrid cache; a cached version of a TicToc writer dropped 150 virtual ms
 * before). Which one is known once every source handed over a chunk after the copy's: the data server recorded
 * the write before the version could reach the copying node, so a later chunk of it holds the write or follows
 * it. Until then the writer is held without an outcome, known only from copies ({@link HeldTxn#copiedIn}); a
 * record of its own makes it an ordinary held transaction, and otherwise it is <i>settled</i> as the dropped
 * committed writer it is: its readers read the key's newest final version from a writer gone (the wr edge comes
 * from {@link HeldTxn#GONE}, the rw edge goes to the next final version) and it is forgotten. A final version of
 * the key reported meanwhile settles it first: the data server's chunk with that final record holds or follows
 * the early writer's write, so a writer still known only from copies then is a dropped one. A read of a key the
 * copies do not cover is taken as a read of a writer not held ({@link HeldDsg}): the data server of that key logs
 * the write before any read of it, so the writer was dropped (burn seed 1145). Not thread-safe.
 */
final class HeldCopies {
    private final HeldDsg g;
    /** Writers held only for copies of their writes (some may have become ordinary since). */
    private final List<HeldTxn> copied = new ArrayList<>();

    HeldCopies(HeldDsg g) {
        this.g = g;
    }

    /** The copied write {@code w} in chunk number {@code chunk}. */
    void copy(HistoryLog.Write w, long chunk) {
        if (g.copyOfDroppedWrite(w)) {
            return;
        }
        long id = w.writer();
        HeldTxn n = g.txns.get(id);
        if (n == null && !g.dropped.contains(id)) {
            n = new HeldTxn(id, HeldTxn.UNKNOWN);
            n.copiedIn = chunk;
            g.txns.put(id, n);
            copied.add(n);
        } else if (n == null) {
            n = g.txn(id); // dropped recently after it aborted: back as aborted (a cache never serves one)
        }
        g.writeSeq(n, w);
    }

    /**
     * Before pass work: settles every writer known only from copies made in a chunk before {@code complete} (every
     * source handed over a chunk after it; {@link Long#MAX_VALUE} after the run).
     */
    void settle(long complete) {
        List<HeldTxn> due = new ArrayList<>();
        copied.removeIf(n -> {
            if (n.copiedIn < 0 || n.dropped) {
                return true;
            }
            if (n.copiedIn < complete) {
                due.add(n);
                return true;
            }
            return false;
        });
        due.forEach(this::settle);
    }

    /** A final version of {@code ks}'s key arrives: the writers known only from copies that were read are dropped ones. */
    void settleReadersOf(HeldKey ks) {
        if (ks == null || ks.pending == null || copied.isEmpty()) {
            return;
        }
        List<HeldTxn> due = new ArrayList<>();
        for (Long wid : ks.pending.keySet()) {
            HeldTxn w = g.txns.get(wid);
            if (w != null && w.copiedIn >= 0) {
                due.add(w);
            }
        }
        due.forEach(this::settle);
    }

    /** {@code w}, known only from copies, is a committed writer checked and dropped before: its readers read it gone. */
    private void settle(HeldTxn w) {
        if (w.copiedIn < 0 || g.txns.get(w.id) != w) {
            return;
        }
        g.txns.remove(w.id);
        w.copiedIn = -1;
        if (w.out != null) {
            for (Edge e : w.out) {
                if (e.to().in != null) {
                    e.to().in.remove(e);
                }
            }
        }
        if (w.writes != null) {
            for (Map.Entry<Key, Integer> e : w.writes.entrySet()) {
                readGone(w.id, e.getKey(), e.getValue());
            }
        }
        w.drop();
        g.dropped.add(w);
    }

    /** The pending reads of {@code wid}'s version of {@code k} become reads of the key's version from a writer gone. */
    private void readGone(long wid, Key k, int seq) {
        HeldKey ks = g.keys.get(k);
        List<PendingRead> reads = ks == null || ks.pending == null ? null : ks.pending.remove(wid);
        if (reads == null) {
            return;
        }
        if (ks.tailId == HeldKey.UNKNOWN_TAIL) {
            ks.tailId = wid;
            ks.tail = HeldTxn.GONE;
            ks.tailSeq = seq;
        }
        for (PendingRead p : reads) {
            HeldTxn r = p.reader();
            if (r.dropped) {
                continue;
            }
            if (ks.tailId == wid) {
                g.edge(ks.tail, r, EdgeType.WR, k);
                g.checkSeq(r, TxnIds.format(wid), wid, k, p.writeSeq(), ks.tailSeq);
                ks.tailReaders.add(r);
            } else {
                g.superseded(r, k, wid, p.writeSeq(), ks);
            }
        }
    }
}
