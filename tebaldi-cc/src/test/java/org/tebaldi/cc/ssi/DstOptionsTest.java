package org.tebaldi.cc.ssi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.ts.HybridClock;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/** The {@code timestamps} and {@code staleness} options of ssi, and DST's hybrid timestamps. */
class DstOptionsTest {
    private static List<String> problems(TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "test");
        return new SerializableSnapshotIsolation().checkOptions(tree.root());
    }

    private static TreeSpec root(String... options) {
        TreeSpec s = TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "a"), TreeSpec.leaf("none", "b"));
        for (int i = 0; i < options.length; i += 2) {
            s.option(options[i], options[i + 1]);
        }
        return s;
    }

    @Test
    void dstAtAnSsiRootOverSingleVersionChildrenIsFine() {
        assertEquals(List.of(), problems(root("timestamps", "dst", "staleness", "5ms")));
        assertEquals(List.of(), problems(root("timestamps", "gts")));
    }

    @Test
    void anUnknownSchemeGetsOneMessageNamingTheAllowedValues() {
        List<String> p = problems(root("timestamps", "vts"));
        assertEquals(1, p.size(), p.toString());
        assertEquals("option 'timestamps': unknown timestamp scheme 'vts' (allowed: gts, dst)", p.get(0));
    }

    @Test
    void dstRefusesMultiversionChildrenAndLeaves() {
        List<String> p = problems(TreeSpec.inner("ssi", TreeSpec.leaf("tso", "a"), TreeSpec.leaf("none", "b"))
                .option("timestamps", "dst"));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).contains("'tso' node below it"), p.get(0));
        List<String> leaf = problems(TreeSpec.leaf("ssi", "a", "b").option("timestamps", "dst"));
        assertTrue(leaf.get(0).contains("only at an ssi root with children"), leaf.toString());
    }

    @Test
    void stalenessNeedsDst() {
        List<String> p = problems(root("staleness", "5ms"));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("option 'staleness'"), p.get(0));
    }

    @Test
    void roReadsTakesSnapshotOrReadCommittedUnderDst() {
        assertEquals(List.of(), problems(root("timestamps", "dst", "roReads", "read-committed")));
        List<String> p = problems(root("timestamps", "dst", "roReads", "dirty"));
        assertEquals(List.of("option 'roReads': unknown value 'dirty' (allowed: snapshot, read-committed)"), p);
        assertTrue(problems(root("roReads", "snapshot")).get(0).startsWith("option 'roReads'"));
    }

    @Test
    void hybridTimestampsAre48BitMillisecondsAnd16BitCounters() {
        long[] now = {5_000_000};
        HybridClock c = new HybridClock(() -> now[0]);
        long t0 = c.now();
        assertEquals(5_000L << 16, t0);
        long t1 = c.commit(t0 + 1); // above a tuple's timestamp: the logical part counts
        assertEquals(1, HybridClock.logical(t1));
        now[0] = 4_000_000; // the clock steps back (skew): timestamps never do
        assertEquals(t1, c.now());
        assertEquals(5_000_000, HybridClock.physicalMicros(t1));
        c.observe(t1 + 10);
        assertEquals(t1 + 10, c.commit(0));
    }
}
