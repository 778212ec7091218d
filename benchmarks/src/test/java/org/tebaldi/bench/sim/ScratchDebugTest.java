package org.tebaldi.bench.sim;

import org.junit.jupiter.api.Test;
import org.tebaldi.bench.seats.SeatsConfig;
import org.tebaldi.bench.seats.SeatsWorkload;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.txn.TxnIds;
import org.tebaldi.server.ds.DataServer;

class ScratchDebugTest {
    @Test
    void debug() {
        long seed = Long.getLong("dbg.seed", 574);
        SeatsWorkload w = new SeatsWorkload(new SeatsConfig(3, 24, 40, 3, 0.4, 6, 7L));
        CcTree tree = SimSeeds.shippedTree(System.getProperty("dbg.tree", "seats-ssi-2pl"), w);
        SimWorkloadRun run = new SimWorkloadRun(w, tree, seed, seed % 2 == 1 ? SimulatedRuntime.Model.withPauses()
                : SimulatedRuntime.Model.jittery(), 2, 3);
        run.runClients(8, 20);
        System.out.println(run.serializability().summary(3));
        for (String k : System.getProperty("dbg.keys", "2:0;5:0,17").split(";")) {
            String[] tp = k.split(":");
            String[] ps = tp[1].split(",");
            long[] parts = new long[ps.length];
            for (int i = 0; i < ps.length; i++) {
                parts[i] = Long.parseLong(ps[i]);
            }
            Key key = Key.of(Integer.parseInt(tp[0]), parts);
            for (DataServer d : run.cluster().dataServers()) {
                VersionChain c = d.store().find(key);
                if (c == null) {
                    continue;
                }
                System.out.println("ds" + d.dsIndex() + " " + key);
                for (Version v : c.versions()) {
                    System.out.println("   " + TxnIds.format(v.writer()) + " committed=" + v.committed() + " stamp0="
                            + v.stamp(0) + " aux0=" + v.auxStamp(0) + " " + v.value());
                }
            }
        }
    }
}
