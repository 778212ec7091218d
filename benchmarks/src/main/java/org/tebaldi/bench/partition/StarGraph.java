package org.tebaldi.bench.partition;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Key;

/**
 * The workload graph of contention-aware partitioning (Zamanian et al., SIGMOD 2020, §4.2): one vertex per sampled record (r-vertex) and one per
 * sampled transaction (t-vertex), an edge from each transaction to every record it accessed — a star per
 * transaction, no record–record edges. Every edge of a record weighs its contention likelihood (scaled to an integer
 * of at least 1, METIS needs positive weights; the minimum also co-optimizes for fewer distributed transactions,
 * §4.4); r-vertices weigh their sampled accesses (the load metric "number of record accesses", §4.3), t-vertices 0.
 * Vertices are numbered records first, then transactions.
 */
public final class StarGraph {
    /** Edge weight of P_c = 1. */
    public static final int SCALE = 1000;

    private final List<Key> records = new ArrayList<>();
    private final Map<Key, Integer> index = new HashMap<>();
    private final long[] recordWeight;
    private final int[] edgeWeight;
    /** Per transaction, the record indexes of its star. */
    private final List<int[]> stars = new ArrayList<>();

    /**
     * @param txns        the sampled transactions
     * @param likelihoods P_c of every record they accessed ({@link ContentionModel#likelihoods})
     */
    public StarGraph(List<ContentionStats.Txn> txns, Map<Key, Double> likelihoods) {
        Map<Key, long[]> counts = ContentionModel.counts(txns);
        counts.keySet().stream().sorted().forEach(k -> {
            index.put(k, records.size());
            records.add(k);
        });
        recordWeight = new long[records.size()];
        edgeWeight = new int[records.size()];
        for (int i = 0; i < records.size(); i++) {
            long[] rw = counts.get(records.get(i));
            recordWeight[i] = rw[0] + rw[1];
            edgeWeight[i] = Math.max(1, (int) Math.round(likelihoods.getOrDefault(records.get(i), 0.0) * SCALE));
        }
        for (ContentionStats.Txn t : txns) {
            int[] star = t.accesses().keySet().stream().mapToInt(index::get).sorted().toArray();
            if (star.length > 0) {
                stars.add(star);
            }
        }
    }

    /** Number of r-vertices. */
    public int records() {
        return records.size();
    }

    /** Number of t-vertices. */
    public int transactions() {
        return stars.size();
    }

    /** The record of r-vertex {@code i}. */
    public Key record(int i) {
        return records.get(i);
    }

    /** The r-vertex of {@code k}, or -1. */
    public int vertexOf(Key k) {
        return index.getOrDefault(k, -1);
    }

    /** The weight of every edge of r-vertex {@code i}. */
    public int edgeWeight(int i) {
        return edgeWeight[i];
    }

    /** The r-vertices of transaction {@code t}'s star. */
    public int[] star(int t) {
        return stars.get(t).clone();
    }

    /** Number of edges (each counted once). */
    public long edges() {
        long m = 0;
        for (int[] s : stars) {
            m += s.length;
        }
        return m;
    }

    /**
     * Writes the graph in METIS's format (METIS 5 manual §4.1.1): {@code n m 011} (vertex and edge weights), then
     * per vertex its weight and its (1-based neighbour, edge weight) pairs.
     */
    public void writeMetis(Writer w) throws IOException {
        int r = records.size();
        List<List<Integer>> txnsOf = new ArrayList<>(r);
        for (int i = 0; i < r; i++) {
            txnsOf.add(new ArrayList<>());
        }
        for (int t = 0; t < stars.size(); t++) {
            for (int i : stars.get(t)) {
                txnsOf.get(i).add(t);
            }
        }
        w.write((r + stars.size()) + " " + edges() + " 011\n");
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < r; i++) {
            line.setLength(0);
            line.append(recordWeight[i]);
            for (int t : txnsOf.get(i)) {
                line.append(' ').append(r + t + 1).append(' ').append(edgeWeight[i]);
            }
            w.write(line.append('\n').toString());
        }
        for (int[] s : stars) {
            line.setLength(0);
            line.append(0);
            for (int i : s) {
                line.append(' ').append(i + 1).append(' ').append(edgeWeight[i]);
            }
            w.write(line.append('\n').toString());
        }
    }
}
