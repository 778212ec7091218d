package org.tebaldi.server.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.node.Lease;

/**
 * Lease fencing of a data server (docs/reliability.md, "No split brain"): with a lease in the configuration the
 * fencing feature runs last; while the lease is held votes pass and requests go to the server; once it ran out
 * votes are held back (counted) — and pass again once it is renewed.
 */
class DsFencingTest {
    private final AtomicBoolean held = new AtomicBoolean(true);
    private final Lease lease = new Lease() {
        @Override
        public boolean held() {
            return held.get();
        }

        @Override
        public long lengthMillis() {
            return 1_000;
        }
    };

    private DataServer server(boolean fenced) {
        Catalog cat = new Catalog();
        cat.add("a", 1, -1, false, Catalog.longCol("v"));
        Database db = new Database(cat);
        db.interactive("upd", false, List.of("a"));
        CcTree tree = CcTree.build(TreeLoader.readSpec("{root: {cc: 2pl, txns: [upd]}}", "test"), "test");
        ClusterConfig cfg = new ClusterConfig(db, tree, 1, 2, null, false);
        return new DataServer(0, fenced ? cfg.withLease(lease) : cfg, 16, Runnable::run, null);
    }

    @Test
    void fencingRunsLastAndOnlyWithALease() {
        assertEquals(List.of(DsTermination.class, DsReconfig.class, DsFencing.class),
                server(true).features().list().stream().<Class<?>>map(Object::getClass).toList());
        assertFalse(server(false).features().find(DsFencing.class).isPresent());
    }

    @Test
    void votesWaitForTheLease() {
        DsFencing f = server(true).features().find(DsFencing.class).orElseThrow();
        AtomicLong voted = new AtomicLong();
        f.beforeVote(null, 1, 7, e -> voted.set(e));
        assertEquals(7, voted.get(), "lease held: the vote leaves");
        held.set(false);
        f.beforeVote(null, 1, 8, e -> voted.set(e));
        assertEquals(7, voted.get(), "lease out: the vote is held back");
        Map<String, Long> c = new HashMap<>();
        f.counters(c);
        assertEquals(1L, c.get("fencedVotes"));
        held.set(true);
        f.beforeVote(null, 1, 9, e -> voted.set(e));
        assertEquals(9, voted.get(), "renewed: votes leave again");
    }

    @Test
    void onlyRequestsAreFenced() {
        DsFencing f = server(true).features().find(DsFencing.class).orElseThrow();
        held.set(false);
        assertFalse(f.intercept(NodeId.tc(0), "not a request"), "commits, aborts and replication pass");
    }
}
