package org.tebaldi.core.history;

/**
 * Adya's Direct Serialization Graph (dissertation §2.2.3; Adya 1999) in compressed sparse row form: nodes are
 * dense transaction indices of a {@link History} (only committed ones have edges), the out-edges of node
 * {@code v} are positions {@code offsets[v] .. offsets[v+1]-1} of {@code targets} and {@code labels}; a label
 * packs the {@link EdgeType} (top two bits) and the dense key (low 30 bits). 8 bytes per edge. Edges out of
 * T0 are counted in {@code edgeCounts} but not stored: T0 has no incoming edge, so it is on no cycle.
 */
final class Dsg {
    private static final EdgeType[] TYPES = EdgeType.values();

    final int nodes;
    final int[] offsets;
    final int[] targets;
    final int[] labels;
    final long[] edgeCounts;

    Dsg(int nodes, int[] offsets, int[] targets, int[] labels, long[] edgeCounts) {
        this.nodes = nodes;
        this.offsets = offsets;
        this.targets = targets;
        this.labels = labels;
        this.edgeCounts = edgeCounts;
    }

    static int label(EdgeType type, int key) {
        return type.ordinal() << 30 | key;
    }

    static EdgeType type(int label) {
        return TYPES[label >>> 30];
    }

    static int key(int label) {
        return label & ((1 << 30) - 1);
    }

    /** Whether stored edge {@code e} is an anti-dependency. */
    boolean isRw(int e) {
        return labels[e] >>> 30 == EdgeType.RW.ordinal();
    }
}
