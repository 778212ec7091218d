package org.tebaldi.core.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Group relations and paths on loaded trees (dissertation §4.1, Fig 4.6d; partition-by-instance §5.4.2). */
class CcNodeTest {
    private final CcTree t = TreeLoader.parse(Fixtures.TPCC_3LAYER, "3layer.yaml", Fixtures.ctx(Fixtures.tpcc()));
    // pre-order ids: 0 ssi, 1 none[OS,SL], 2 2pl "updates", 3 rp[NO,PAY], 4 rp[DEL]

    @Test
    void idsAreInPreOrder() {
        assertEquals("ssi none 2pl rp rp",
                String.join(" ", t.nodes().stream().map(CcNode::mechanism).toList()));
        assertEquals(3, t.leafFor("payment").id());
        assertEquals(4, t.leafFor("delivery").id());
        assertEquals(1, t.leafFor("stock_level").id());
        assertEquals(2, t.leafFor("delivery").parent().id());
        assertEquals(2, t.leafFor("delivery").depth());
    }

    @Test
    void theShapeIsTheCanonicalFormWithoutOptions() {
        assertEquals("ssi{batchInterval=5ms}{2pl\"updates\"{rp[delivery],rp[new_order, payment]},"
                + "none[order_status, stock_level]}", t.canonical());
        assertEquals("ssi{2pl\"updates\"{rp[delivery],rp[new_order, payment]},none[order_status, stock_level]}",
                t.shape());
    }

    @Test
    void pathRunsFromRootToNode() {
        assertArrayEquals(new int[] {0, 2, 3}, ids(t.path(3)));
        assertArrayEquals(new int[] {0, 2, 4}, ids(t.path(4)));
        assertArrayEquals(new int[] {0, 1}, ids(t.path(1)));
        assertArrayEquals(new int[] {0}, ids(t.path(0)));
        for (CcNode n : t.nodes()) {
            CcNode[] p = t.path(n.id());
            assertEquals(n.depth() + 1, p.length);
            assertEquals(n, p[p.length - 1]);
        }
    }

    @Test
    void childIndexOfNamesTheChildHoldingTheLeaf() {
        CcNode root = t.root();
        CcNode updates = t.node(2);
        assertEquals(0, root.childIndexOf(1));
        assertEquals(1, root.childIndexOf(3));
        assertEquals(1, root.childIndexOf(4));
        assertEquals(0, updates.childIndexOf(3));
        assertEquals(1, updates.childIndexOf(4));
        assertEquals(-1, updates.childIndexOf(1));
        assertEquals(-1, updates.childIndexOf(-1));
        assertEquals(0, t.node(3).childIndexOf(3));
        assertEquals(-1, t.node(3).childIndexOf(4));
        assertTrue(updates.contains(4));
        assertFalse(updates.contains(1));
    }

    @Test
    void sameGroupFollowsTheChildSubtrees() {
        CcNode root = t.root();
        CcNode updates = t.node(2);
        // new_order (leaf 3) and delivery (leaf 4): same group at the root (both below 2pl), different at 2pl
        assertTrue(root.sameGroup(10, 3, 0, 11, 4, 0));
        assertFalse(updates.sameGroup(10, 3, 0, 11, 4, 0));
        assertTrue(updates.sameGroup(10, 3, 0, 12, 3, 0));
        // stock_level (leaf 1) vs payment (leaf 3): different groups at the root, not in 2pl's subtree
        assertFalse(root.sameGroup(20, 1, 0, 21, 3, 0));
        assertFalse(updates.sameGroup(20, 1, 0, 21, 3, 0));
        // the initial load (leaf -1) is in no group
        assertFalse(root.sameGroup(0, -1, 0, 21, 3, 0));
        // at a leaf, only a transaction with itself
        assertTrue(t.node(3).sameGroup(30, 3, 0, 30, 3, 0));
        assertFalse(t.node(3).sameGroup(30, 3, 0, 31, 3, 0));
    }

    @Test
    void partitionByInstanceSeparatesInstances() {
        CcTree s = TreeLoader.parse(Fixtures.SEATS, "seats.yaml", Fixtures.ctx(Fixtures.seats()));
        CcNode tso = s.leafFor("new_reservation");
        CcNode twoPl = tso.parent();
        int upd = s.leafFor("update_reservation").id();
        assertTrue(twoPl.sameGroup(1, tso.id(), 7, 2, tso.id(), 7), "same flight: same TSO instance");
        assertFalse(twoPl.sameGroup(1, tso.id(), 7, 2, tso.id(), 8), "other flight: other TSO instance");
        assertFalse(twoPl.sameGroup(1, tso.id(), 7, 2, upd, 7));
        assertTrue(s.root().sameGroup(1, tso.id(), 7, 2, tso.id(), 8), "the root sees the whole 2pl subtree");
    }

    private static int[] ids(CcNode[] path) {
        return Arrays.stream(path).mapToInt(CcNode::id).toArray();
    }
}
