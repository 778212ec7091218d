package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.node.ClusterConfig;

/** The loader sizes the cluster from the expectations, places rows by partition, and the snapshot reads them. */
class ClusterLoaderTest {
    @Test
    void sizesPlacesAndSnapshots() {
        Catalog c = new Catalog();
        TableSchema part = c.add("part", 1, 0, false, Catalog.longCol("v"));
        TableSchema repl = c.add("repl", 1, -1, true, Catalog.longCol("v"));
        Database db = new Database(c);
        db.interactive("t", false);
        CcTree tree = CcTree.build(TreeSpec.leaf("2pl", "t"), "test");
        try (EmbeddedRuntime rt = new EmbeddedRuntime(1, 0)) {
            int[] expected = {-1};
            ClusterLoader l = new ClusterLoader(c, 3, n -> {
                expected[0] = n;
                return new Cluster(rt, new ClusterConfig(db, tree, 1, 3, null, false), n);
            });
            l.expect("part", 10);
            l.expect("repl", 4);
            assertThrows(IllegalArgumentException.class, () -> l.expect("nope", 1));
            for (int i = 0; i < 10; i++) {
                l.load(Key.of(part, i), part.row((long) i));
            }
            for (int i = 0; i < 4; i++) {
                l.load(Key.of(repl, i), repl.row(1L));
            }
            assertThrows(IllegalArgumentException.class, () -> l.load(Key.of(part, 99), repl.row(1L)));
            Cluster cluster = l.finish();
            assertEquals(4 + 4, expected[0], "ceil(10/3) partitioned + 4 replicated keys per data server");
            assertEquals(14, l.rows());
            List<Integer> perDs = cluster.dataServers().stream().map(d -> d.store().keyCount()).toList();
            assertEquals(List.of(4 + 4, 3 + 4, 3 + 4), perDs, "key i of 'part' on server i mod 3, 'repl' on all");
            ClusterSnapshot s = ClusterSnapshot.of(c, cluster.dataServers().stream().map(DataServer::store).toList());
            assertEquals(10, s.count("part"));
            assertEquals(4, s.count("repl"));
            assertEquals(7L, s.get(Key.of(part, 7)).getLong("v"));
            long[] sum = {0};
            s.forEach("part", (k, r) -> sum[0] += r.getLong("v"));
            assertEquals(45, sum[0]);
        }
    }
}
