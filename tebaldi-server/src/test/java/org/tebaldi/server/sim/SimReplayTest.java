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
 * -Dreplay.workload=mix|bank|bank-procedures|list-append -Dreplay.tree='{root: {cc: 2pl, txns: [rw1, rw2, ro]}}'
 * -Dreplay.seed=13 [-Dreplay.txns=T1.169,T1.172]}. Odd seeds use node pauses, as in {@link SimSuite}.
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
            case "list-append" -> new ListAppendWorkload(5);
            default -> new MixWorkload(5);
        };
        CcTree tree = CcTree.build(TreeLoader.readSpec(treeYaml, "replay.tree"), "replay");
        Cluster c = new SimHarness(workload, tree).model(seed % 2 == 1 ? SimulatedRuntime.Model.withPauses()
                : SimulatedRuntime.Model.jittery()).run(seed, new SimHarness.Stats());
        History h = History.merge(c.historyLogs());
        System.out.println("REPLAY " + tree.describe() + " seed " + seed + ": "
                + SerializabilityChecker.check(h).summary(5));
        String focus = System.getProperty("replay.txns");
        if (focus != null) {
            printTxns(h, java.util.Arrays.stream(focus.split(",")).map(String::trim).toList());
        }
    }

    /** Prints every read of the named transactions (labels as in the report, e.g. T1.169) and their keys' orders. */
    private static void printTxns(History h, java.util.List<String> labels) {
        java.util.Set<Integer> keys = new java.util.TreeSet<>();
        for (int r = 0; r < h.readCount(); r++) {
            String reader = h.label(h.readReader(r));
            if (labels.stream().anyMatch(l -> reader.startsWith(l + "("))) {
                keys.add(h.readKey(r));
                System.out.println("  read #" + r + " by " + reader + " of " + h.key(h.readKey(r)) + " returned "
                        + h.label(h.readWriter(r)) + " write " + h.readWriteSeq(r));
            }
        }
        for (int k : keys) {
            StringBuilder b = new StringBuilder("  order of " + h.key(k) + ":");
            for (int i = 0; i < h.versionOrderLength(k); i++) {
                b.append(' ').append(h.label(h.versionOrderAt(k, i)));
            }
            System.out.println(b);
        }
    }
}
