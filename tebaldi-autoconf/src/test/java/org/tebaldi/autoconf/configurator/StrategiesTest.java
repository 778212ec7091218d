package org.tebaldi.autoconf.configurator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/** The optimization stage's proposals on small trees (dissertation §5.4.1, Figs 5.7–5.9). */
class StrategiesTest {
    private static final List<String> MECHS = List.of("rp", "tso");

    private static List<String> propose(TreeSpec tree, String t1, String t2) {
        return Strategies.propose(CcTree.build(tree.placeAt("root"), "t"), t1, t2, MECHS).stream()
                .map(c -> c.tree().describe()).toList();
    }

    @Test
    void sameTypeMovesItToANewLeafUnderTheOriginalMechanism() {
        // Fig 5.7: T1 gets a leaf of each mechanism; a 2PL node keeps regulating T1 against the leaf's others
        assertEquals(List.of("2pl{rp[a],2pl[b]}", "2pl{tso[a],2pl[b]}"),
                propose(TreeSpec.leaf("2pl", "a", "b"), "a", "a"));
        // alone in its leaf: just the leaf's mechanism changes
        assertEquals(List.of("rp[a]", "tso[a]"), propose(TreeSpec.leaf("2pl", "a"), "a", "a"));
        // the current mechanism is not proposed again
        assertEquals(List.of("2pl{tso[a],2pl[b]}"), propose(TreeSpec.inner("2pl", TreeSpec.leaf("rp", "a"),
                TreeSpec.leaf("2pl", "b")), "a", "a"));
    }

    @Test
    void sameGroupPutsANewNodeBetweenTheTwoTypes() {
        // Fig 5.8: each type keeps the original mechanism among its own instances
        assertEquals(List.of("2pl{rp{2pl[a],2pl[b]},2pl[c]}", "2pl{tso{2pl[a],2pl[b]},2pl[c]}"),
                propose(TreeSpec.leaf("2pl", "a", "b", "c"), "a", "b"));
        assertEquals(List.of("rp{2pl[a],2pl[b]}", "tso{2pl[a],2pl[b]}"),
                propose(TreeSpec.leaf("2pl", "a", "b"), "a", "b"));
    }

    @Test
    void distinctGroupsWorkBelowTheLowestCommonAncestor() {
        TreeSpec t = TreeSpec.inner("ssi", TreeSpec.leaf("none", "r"),
                TreeSpec.inner("2pl", TreeSpec.leaf("tso", "a"), TreeSpec.leaf("2pl", "b")));
        List<String> c = propose(t, "a", "b");
        // Fig 5.9a: move b into a's group, or a into b's group
        assertTrue(c.contains("ssi{none[r],tso[a,b]}"), c::toString);
        assertTrue(c.contains("ssi{none[r],2pl[b,a]}"), c::toString);
        // Fig 5.9b: a new node of each mechanism on the path from the LCA, with the mover beneath it
        assertTrue(c.contains("ssi{none[r],rp{tso[a],2pl[b]}}"), c::toString);
        assertTrue(c.contains("ssi{none[r],tso{tso[a],2pl[b]}}"), c::toString);
        // nothing above the LCA changes: the none leaf and the SSI root stay
        assertTrue(c.stream().allMatch(x -> x.startsWith("ssi{none[r],")), c::toString);
        assertEquals(c.size(), c.stream().distinct().count());
    }

    @Test
    void distinctGroupsOnALongerPath() {
        TreeSpec t = TreeSpec.inner("2pl", TreeSpec.leaf("rp", "a"),
                TreeSpec.inner("2pl", TreeSpec.leaf("tso", "b"), TreeSpec.leaf("2pl", "c")));
        List<String> c = propose(t, "a", "b");
        // b beneath the root (then regulated against c by the root), or into a's leaf
        assertTrue(c.contains("2pl{rp[a],2pl[c],tso[b]}"), c::toString);
        assertTrue(c.contains("2pl{rp[a,b],2pl[c]}"), c::toString);
        // a into b's leaf (a beneath the inner 2pl node gives the first tree again: proposed once)
        assertTrue(c.contains("2pl{tso[b,a],2pl[c]}"), c::toString);
        assertTrue(c.stream().noneMatch(x -> x.equals("2pl{tso[b],2pl[c],rp[a]}")), "deduplicated: " + c);
        // new nodes: above the inner 2pl node, and above b's leaf (the same as above a's leaf, proposed once)
        assertTrue(c.contains("rp{2pl{tso[b],2pl[c]},rp[a]}"), c::toString);
        assertTrue(c.contains("2pl{rp{rp[a],tso[b]},2pl[c]}"), c::toString);
        assertTrue(c.stream().noneMatch(x -> x.equals("2pl{rp{tso[b],rp[a]},2pl[c]}")), "deduplicated: " + c);
        // moving a beneath the root again would be the current tree
        assertTrue(c.stream().noneMatch(x -> x.equals("2pl{2pl{tso[b],2pl[c]},rp[a]}")), c::toString);
    }

    @Test
    void unknownTypesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> propose(TreeSpec.leaf("2pl", "a"), "a", "zz"));
    }
}
