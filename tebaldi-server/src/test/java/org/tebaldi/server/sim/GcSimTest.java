package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * Garbage collection in GC epochs (dissertation §4.5.3): hot-key bank transfers leave each key with a handful of
 * versions when GC runs — for locking, snapshot (SSI, confirmed by the watermark), timestamp (TSO) trees and
 * Sundial with the coordinators' caches (confirmed once every coordinator's cache dropped the older versions) —
 * while without GC every committed write stays; the run's history is serializable either way (SimHarness checks).
 */
class GcSimTest {
    static Stream<Arguments> trees() {
        return Stream.of(Arguments.of(TreeSpec.leaf("2pl", "transfer", "audit")),
                Arguments.of(TreeSpec.leaf("ssi", "transfer", "audit")),
                Arguments.of(TreeSpec.leaf("tso", "transfer", "audit")),
                Arguments.of(TreeSpec.inner("ssi", TreeSpec.leaf("2pl", "transfer"), TreeSpec.leaf("none", "audit"))),
                Arguments.of(TreeSpec.leaf("sundial", "transfer", "audit").option("cache", "hybrid")));
    }

    private static long[] versionsAndKeys(Cluster c) {
        long v = 0;
        long k = 0;
        for (DataServer d : c.dataServers()) {
            v += d.store().versionCount();
            k += d.store().keyCount();
        }
        return new long[] {v, k};
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void versionsStayFewPerKeyWithGcAndPileUpWithout(TreeSpec spec) {
        CcTree tree = CcTree.build(spec, "gc");
        SimHarness.Stats s1 = new SimHarness.Stats();
        Cluster on = new SimHarness(new BankWorkload(4), tree).clients(4, 150).run(7, s1);
        long[] a = versionsAndKeys(on);
        SimHarness.Stats s2 = new SimHarness.Stats();
        Cluster off = new SimHarness(new BankWorkload(4), tree).clients(4, 150).gcEpoch(0).run(7, s2);
        long[] b = versionsAndKeys(off);
        System.out.printf("%s: with GC %d versions for %d keys (%d committed); without GC %d versions%n",
                tree.describe(), a[0], a[1], s1.committed, b[0]);
        assertTrue(a[0] <= 3 * a[1], "with GC: " + a[0] + " versions for " + a[1] + " keys");
        assertTrue(b[0] > 10 * b[1], "without GC versions pile up: " + b[0] + " for " + b[1] + " keys");
        long pruned = on.dataServers().stream().mapToLong(DataServer::prunedVersions).sum();
        assertTrue(pruned > 0, "versions were pruned");
    }
}
