package org.tebaldi.core.service;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.Consumer;
import org.tebaldi.core.cc.CcServices;

/**
 * Batching at one CC node of one coordinator (dissertation §4.2.2 "procrastinate", §4.4.3, §4.4.4): the
 * transactions of one child group that start within {@code intervalMicros} of the batch's opening share its
 * timestamp, which the {@link TimestampService} issues and registers; a batch closes when its interval ends and
 * is reported finished once closed and all its members left. Callbacks run on the owning node.
 */
public final class GroupBatches {
    /** One batch: its timestamp (once known), members still running, whether it still accepts members. */
    public static final class Batch {
        final Object group;
        long ts = -1;
        int members;
        boolean closed;
        final List<Consumer<Batch>> waiting = new ArrayList<>(2);
        /** Gives up on the timestamp request (cancelled once it is answered). */
        org.tebaldi.core.runtime.Cancellable expiry;

        Batch(Object group) {
            this.group = group;
        }

        /** The batch timestamp (shared start timestamp of its members). */
        public long ts() {
            return ts;
        }
    }

    private final CcServices node;
    private final TsClient ts;
    private final long intervalMicros;
    private final HashMap<Object, Batch> current = new HashMap<>();

    /** @param intervalMicros how long a batch accepts new members, µs (0: only those that asked while it opened) */
    public GroupBatches(CcServices node, TsClient ts, long intervalMicros) {
        this.node = node;
        this.ts = ts;
        this.intervalMicros = intervalMicros;
    }

    /**
     * The batch group of {@code t} at {@code node}: at a leaf, the transaction alone (every transaction is its own
     * group); at an inner node, the child subtree holding its leaf — one group per instance when that child is a
     * partition-by-instance leaf (dissertation §4.4.3, §4.4.4, §5.4.2).
     */
    public static Object keyFor(org.tebaldi.core.tree.CcNode node, org.tebaldi.core.cc.TxnView t) {
        if (node.isLeaf()) {
            return t.id();
        }
        int child = node.childIndexOf(t.leaf());
        org.tebaldi.core.tree.CcNode c = node.children().get(child);
        return new GroupKey(child, c.isLeaf() && c.instanceBy() != null ? t.instance() : 0);
    }

    private record GroupKey(int child, long instance) {
    }

    /**
     * Adds a member to the open batch of {@code group} (opening one if needed); {@code joined} runs once the
     * batch's timestamp is known.
     *
     * @param group a key with deterministic equals/hashCode (e.g. a record)
     */
    public void join(Object group, Consumer<Batch> joined) {
        Batch b = current.get(group);
        if (b == null || b.closed) {
            Batch nb = new Batch(group);
            current.put(group, nb);
            nb.waiting.add(joined);
            ts.openBatch(x -> opened(nb, x));
            // a timestamp that is slow to come (a failed or paused service, a request asked again after a dropped
            // connection) must not wedge the group: after the wait timeout without a timestamp the next member
            // opens a new batch (those waiting end by their own timeouts; when the timestamp comes, the members
            // that ended leave the batch, which then finishes)
            nb.expiry = node.schedule(node.waitTimeoutMicros(), () -> {
                if (nb.ts < 0 && current.get(group) == nb) {
                    current.remove(group);
                }
            });
        } else if (b.ts < 0) {
            b.waiting.add(joined);
        } else {
            b.members++;
            joined.accept(b);
        }
    }

    private void opened(Batch b, long t) {
        b.ts = t;
        if (b.expiry != null) {
            b.expiry.cancel();
        }
        List<Consumer<Batch>> w = new ArrayList<>(b.waiting);
        b.waiting.clear();
        b.members += w.size();
        if (intervalMicros <= 0) {
            close(b);
        } else {
            node.schedule(intervalMicros, () -> close(b));
        }
        for (Consumer<Batch> c : w) {
            c.accept(b);
        }
    }

    private void close(Batch b) {
        if (b.closed) {
            return;
        }
        b.closed = true;
        if (current.get(b.group) == b) {
            current.remove(b.group);
        }
        if (b.members == 0) {
            ts.finishBatch(b.ts);
        }
    }

    /**
     * The timestamp service failed: no open batch takes new members any more (their timestamps belong to the old
     * term; the next member of each group opens a batch in the new term). Batches still waiting for their timestamp
     * are dropped (their members end by their timeouts).
     */
    public void closeAll() {
        for (Batch b : new ArrayList<>(current.values())) {
            if (b.ts < 0) {
                current.remove(b.group);
            } else {
                close(b);
            }
        }
    }

    /** A member of {@code b} finished (committed or aborted). */
    public void leave(Batch b) {
        b.members--;
        if (b.closed && b.members == 0) {
            ts.finishBatch(b.ts);
        }
    }
}
