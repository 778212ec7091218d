package org.tebaldi.server.phases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.msg.AbortRequest;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.ValidateRequest;
import org.tebaldi.server.sim.BankWorkload;
import org.tebaldi.server.sim.SimHarness;

/**
 * One batched request per involved data server and one reply per phase, whatever the tree depth
 * (dissertation §4.5.2): the same workload and seed under a depth-1 tree and a depth-3 tree (the same group
 * nested under two more 2PL levels) sends exactly the same messages.
 */
class MessagesPerPhaseTest {
    private static Map<String, Long> run(CcTree tree, long seed) {
        SimHarness.Stats s = new SimHarness.Stats();
        Cluster c = new SimHarness(new BankWorkload(6), tree).clients(6, 25).run(seed, s);
        Map<String, Long> m = c.stats().snapshot();
        assertEquals(c.stats().count(ExecRequest.class), c.stats().count(ExecReply.class), "one reply per request");
        assertEquals(c.stats().count(ValidateRequest.class), c.stats().count(ValidateReply.class));
        assertTrue(c.stats().count(CommitRequest.class) > 0);
        assertTrue(c.stats().count(AbortRequest.class) > 0, "the workload exercises aborts too");
        return m;
    }

    @Test
    void depthOneAndDepthThreeSendTheSameMessages() {
        CcTree depth1 = CcTree.build(TreeSpec.leaf("2pl", "transfer", "audit"), "depth1");
        CcTree depth3 = CcTree.build(TreeSpec.inner("2pl", TreeSpec.inner("2pl",
                TreeSpec.leaf("2pl", "transfer", "audit"))), "depth3");
        assertEquals(1, depth1.height());
        assertEquals(3, depth3.height());
        for (long seed = 1; seed <= 5; seed++) {
            Map<String, Long> a = run(depth1, seed);
            Map<String, Long> b = run(depth3, seed);
            assertEquals(a, b, "seed " + seed + ": per-phase message counts differ between depth 1 and 3");
        }
    }
}
