package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

class QuickSimTest {
    @Test
    void bankMonolithic2pl() {
        for (long seed = 1; seed <= 20; seed++) {
            BankWorkload w = new BankWorkload(6);
            CcTree tree = CcTree.build(TreeSpec.leaf("2pl", "transfer", "audit"), "test");
            SimHarness.Stats s = new SimHarness.Stats();
            new SimHarness(w, tree).run(seed, s);
            System.out.println("seed " + seed + " committed=" + s.committed + " aborted=" + s.aborted + " audits=" + w.audits()
                    + " t=" + s.virtualMicros);
            assertTrue(s.committed > 0);
        }
    }

    @Test
    void mixNested() {
        for (long seed = 1; seed <= 20; seed++) {
            MixWorkload w = new MixWorkload(5);
            CcTree tree = CcTree.build(TreeSpec.inner("2pl", TreeSpec.leaf("2pl", "rw1"), TreeSpec.leaf("none", "ro"),
                    TreeSpec.leaf("2pl", "rw2")), "test");
            SimHarness.Stats s = new SimHarness.Stats();
            new SimHarness(w, tree).run(seed, s);
            System.out.println("seed " + seed + " committed=" + s.committed + " aborted=" + s.aborted + " t=" + s.virtualMicros);
        }
    }
}
