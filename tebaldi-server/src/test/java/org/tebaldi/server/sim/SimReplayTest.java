package org.tebaldi.server.sim;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.server.cluster.Cluster;

/**
 * Replays one simulated run and prints its checker report — a debugging aid, skipped unless asked for:
 * {@code mvn -pl tebaldi-server -am test -Dtest=SimReplayTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dreplay.workload=mix|bank|bank-procedures -Dreplay.tree='{root: {cc: 2pl, txns: [rw1, rw2, ro]}}'
 * -Dreplay.seed=13}. Odd seeds use node pauses, as in {@link SimSuite}.
 */
class SimReplayTest {
    @Test
    void replay() {
        String treeYaml = System.getProperty("replay.tree");
        assumeTrue(treeYaml != null, "set -Dreplay.tree to replay a run");
        long seed = Long.getLong("replay.seed", 1);
        String w = System.getProperty("replay.workload", "mix");
        SimWorkload workload = switch (w) {
            case "bank" -> new BankWorkload(6);
            case "bank-procedures" -> new BankWorkload(6, true);
            default -> new MixWorkload(5);
        };
        CcTree tree = CcTree.build(TreeLoader.readSpec(treeYaml, "replay.tree"), "replay");
        Cluster c = new SimHarness(workload, tree).model(seed % 2 == 1 ? SimulatedRuntime.Model.withPauses()
                : SimulatedRuntime.Model.jittery()).run(seed, new SimHarness.Stats());
        System.out.println("REPLAY " + tree.describe() + " seed " + seed + ": "
                + SerializabilityChecker.check(History.merge(c.historyLogs())).summary(5));
    }
}
