package org.tebaldi.core.history;

import java.util.List;

/**
 * Builds the {@link Dsg} over committed transactions in two scans of the history (count out-degrees, then
 * fill), and on the first scan reports the read anomalies (dissertation §2.2.3): G1a (a committed transaction
 * read a version of an aborted or unfinished writer) and G1b (it read a write its writer later overwrote), and
 * the read-side record inconsistencies (a read of a version missing from the key's version order, a write
 * sequence number out of range, a read logged for T0). Reads of a transaction's own writes and self-edges are
 * ignored. Edges: ww between consecutive committed versions of a key, wr from a version's writer to each
 * committed reader, rw from a reader of version i to the writer of version i+1.
 */
final class DsgBuilder {
    private final History h;
    private final VersionOrders vo;
    private final ViolationCollector out;
    private final int[] offsets;
    private final long[] edgeCounts = new long[EdgeType.values().length];
    private boolean fill;
    private int[] cursor;
    private int[] targets;
    private int[] labels;

    private DsgBuilder(History h, VersionOrders vo, ViolationCollector out) {
        this.h = h;
        this.vo = vo;
        this.out = out;
        this.offsets = new int[h.txnCount() + 1];
    }

    static Dsg build(History h, VersionOrders vo, ViolationCollector out) {
        DsgBuilder b = new DsgBuilder(h, vo, out);
        b.scan();
        int n = h.txnCount();
        long sum = 0;
        for (int v = 0; v < n; v++) {
            sum += b.offsets[v + 1];
            if (sum > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("DSG too large: more than " + sum + " edges");
            }
            b.offsets[v + 1] = (int) sum;
        }
        b.fill = true;
        b.cursor = b.offsets.clone();
        b.targets = new int[(int) sum];
        b.labels = new int[(int) sum];
        b.scan();
        b.cursor = null;
        return new Dsg(n, b.offsets, b.targets, b.labels, b.edgeCounts);
    }

    private void scan() {
        for (int k = 0; k < h.keyCount(); k++) {
            int len = vo.length(k);
            for (int i = 1; i < len; i++) {
                edge(vo.at(k, i - 1), vo.at(k, i), EdgeType.WW, k);
            }
        }
        for (int r = 0; r < h.readCount(); r++) {
            int reader = h.readReader(r);
            int writer = h.readWriter(r);
            if (!h.committed(reader) || reader == writer) {
                continue;
            }
            int k = h.readKey(r);
            if (reader == History.INITIAL) {
                if (!fill) {
                    out.record(() -> "T0 logged a read of " + h.key(k) + "; ignored", 0L);
                }
                continue;
            }
            if (!h.committed(writer)) {
                if (!fill) {
                    reportAbortedRead(reader, writer, k, h.readWriteSeq(r));
                }
                continue;
            }
            if (!fill && writer != History.INITIAL) {
                checkWriteSeq(reader, writer, k, h.readWriteSeq(r));
            }
            int pos = vo.position(writer, k);
            if (pos < 0) {
                if (!fill) {
                    out.record(() -> "committed " + h.label(reader) + " read " + h.key(k) + " written by "
                            + h.label(writer) + ", a version missing from the key's version order",
                            h.txnId(reader), h.txnId(writer));
                }
                continue;
            }
            edge(writer, reader, EdgeType.WR, k);
            if (pos + 1 < vo.length(k)) {
                edge(reader, vo.at(k, pos + 1), EdgeType.RW, k);
            }
        }
    }

    private void edge(int from, int to, EdgeType type, int key) {
        if (from == to) {
            return;
        }
        if (!fill) {
            edgeCounts[type.ordinal()]++;
            if (from != History.INITIAL) {
                offsets[from + 1]++;
            }
        } else if (from != History.INITIAL) {
            int e = cursor[from]++;
            targets[e] = to;
            labels[e] = Dsg.label(type, key);
        }
    }

    private void reportAbortedRead(int reader, int writer, int k, int seq) {
        out.report(ViolationType.ABORTED_READ, () -> new Violation(ViolationType.ABORTED_READ,
                "aborted read: committed " + h.label(reader) + " read " + h.key(k) + " write #" + seq + " of "
                        + h.label(writer) + ", which " + VersionOrders.statusText(h.status(writer)),
                List.of(h.txnId(reader), h.txnId(writer)), List.of()));
    }

    private void checkWriteSeq(int reader, int writer, int k, int seq) {
        int last = h.finalWriteSeq(writer, k);
        if (last == 0) {
            out.record(() -> "committed " + h.label(reader) + " read " + h.key(k) + " write #" + seq + " of "
                    + h.label(writer) + ", but no write of it to that key was logged",
                    h.txnId(reader), h.txnId(writer));
        } else if (seq < 1 || seq > last) {
            out.record(() -> "committed " + h.label(reader) + " read " + h.key(k) + " write #" + seq + " of "
                    + h.label(writer) + ", whose logged writes to that key are #1..#" + last,
                    h.txnId(reader), h.txnId(writer));
        } else if (seq < last) {
            out.report(ViolationType.INTERMEDIATE_READ, () -> new Violation(ViolationType.INTERMEDIATE_READ,
                    "intermediate read: committed " + h.label(reader) + " read " + h.key(k) + " write #" + seq
                            + " of " + h.label(writer) + ", whose final write to that key is #" + last,
                    List.of(h.txnId(reader), h.txnId(writer)), List.of()));
        }
    }
}
