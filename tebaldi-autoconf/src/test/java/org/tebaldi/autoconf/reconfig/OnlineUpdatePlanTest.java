package org.tebaldi.autoconf.reconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.NodeState;
import org.tebaldi.core.tree.TreeSpec;

/** Where the online update puts the new subtree (dissertation §5.5.2, Figs 5.10 and 5.18). */
class OnlineUpdatePlanTest {
    /** {@code ssi{none[os,sl], 2pl{X, 2pl[del]}}}. */
    private static CcTree tpcc(TreeSpec updates) {
        return CcTree.build(TreeSpec.inner("ssi", TreeSpec.leaf("none", "os", "sl"),
                TreeSpec.inner("2pl", updates, TreeSpec.leaf("2pl", "del"))).placeAt("root"), "t");
    }

    private static OnlineUpdatePlan.Result plan(CcTree from, CcTree to) {
        return OnlineUpdatePlan.of(from, to, Mechanisms::get);
    }

    @Test
    void fig518ReplacesTheWholeRpSubtreeUnderThe2plNode() {
        CcTree old = tpcc(TreeSpec.inner("rp", TreeSpec.leaf("rp", "pay"), TreeSpec.leaf("2pl", "no")));
        CcTree target = tpcc(TreeSpec.inner("rp", TreeSpec.leaf("rp", "pay"), TreeSpec.leaf("rp", "no")));
        OnlineUpdatePlan p = plan(old, target).plan();
        CcNode rp = old.leafFor("no").parent();
        assertEquals(rp.id(), p.replaced(), "the rp node does not accept new children: the update moves up to it");
        assertEquals(rp.parent().id(), p.parent());
        assertEquals("ssi{none[os,sl],2pl{~rp{rp[pay],2pl[no]},2pl[del],rp{rp[pay],rp[no]}}}", p.merged().describe());
        assertEquals("ssi{none[os,sl],2pl{-rp{rp[pay],2pl[no]},2pl[del],rp{rp[pay],rp[no]}}}", p.retired().describe());
        for (CcNode n : old.nodes()) {
            CcNode same = p.merged().node(n.id());
            assertEquals(n.mechanism(), same.mechanism(), "ids of the running tree are kept: " + n);
        }
        CcNode newNo = p.merged().leafFor("no");
        assertTrue(newNo.id() >= old.size(), "the new subtree gets fresh ids");
        assertEquals(NodeState.DRAINING, p.merged().node(old.leafFor("no").id()).state());
        assertEquals(NodeState.RETIRED, p.retired().node(old.leafFor("no").id()).state());
        assertEquals(newNo.id(), p.retired().leafFor("no").id());
        assertTrue(p.merged().root().sameGroup(1, old.leafFor("no").id(), 0, 2, newNo.id(), 0),
                "at the root, old and new transactions stay in one group");
        CcNode twoPl = p.merged().node(p.parent());
        assertTrue(!twoPl.sameGroup(1, old.leafFor("no").id(), 0, 2, newNo.id(), 0),
                "the 2pl parent regulates old against new");
    }

    @Test
    void aLeafChangeBelowA2plNodeReplacesOnlyThatLeaf() {
        CcTree old = tpcc(TreeSpec.leaf("2pl", "no", "pay"));
        CcTree target = tpcc(TreeSpec.leaf("rp", "no", "pay"));
        OnlineUpdatePlan p = plan(old, target).plan();
        assertEquals(old.leafFor("no").id(), p.replaced());
        assertEquals("ssi{none[os,sl],2pl{-2pl[no,pay],2pl[del],rp[no,pay]}}", p.retired().describe());
    }

    @Test
    void aChangeReachingTheRootFallsBack() {
        CcTree old = CcTree.build(TreeSpec.inner("ssi", TreeSpec.leaf("none", "os"), TreeSpec.leaf("2pl", "no", "pay"))
                .placeAt("root"), "t");
        CcTree target = CcTree.build(TreeSpec.inner("ssi", TreeSpec.leaf("none", "os"),
                TreeSpec.inner("2pl", TreeSpec.leaf("rp", "no"), TreeSpec.leaf("2pl", "pay"))).placeAt("root"), "t");
        OnlineUpdatePlan.Result r = plan(old, target);
        assertNull(r.plan());
        assertTrue(r.whyNot().contains("root"), r.whyNot());
    }

    @Test
    void childOrderIsNoChange() {
        CcTree a = tpcc(TreeSpec.leaf("2pl", "no", "pay"));
        CcTree b = CcTree.build(TreeSpec.inner("ssi", TreeSpec.inner("2pl", TreeSpec.leaf("2pl", "del"),
                TreeSpec.leaf("2pl", "pay", "no")), TreeSpec.leaf("none", "sl", "os")).placeAt("root"), "t");
        assertEquals("no change", plan(a, b).whyNot());
    }

    @Test
    void retiredSubtreesAreIgnoredByTheNextUpdate() {
        CcTree old = tpcc(TreeSpec.leaf("2pl", "no", "pay"));
        CcTree mid = tpcc(TreeSpec.leaf("rp", "no", "pay"));
        CcTree last = tpcc(TreeSpec.inner("2pl", TreeSpec.leaf("rp", "no"), TreeSpec.leaf("tso", "pay")));
        CcTree running = plan(old, mid).plan().retired();
        OnlineUpdatePlan p = plan(running, last).plan();
        assertEquals(mid.leafFor("no").id() > 0 ? running.leafFor("no").id() : -1, p.replaced());
        assertEquals("ssi{none[os,sl],2pl{-2pl[no,pay],2pl[del],-rp[no,pay],2pl{rp[no],tso[pay]}}}",
                p.retired().describe());
        assertEquals("ssi{none[os,sl],2pl{2pl[del],2pl{rp[no],tso[pay]}}}",
                CcTree.build(p.retired().activeSpec(), "x").describe());
        assertEquals("no change", plan(p.retired(), last).whyNot());
    }
}
