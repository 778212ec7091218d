package org.tebaldi.server.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.cc.OptionDraw;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.tree.CompositionRules;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.tree.Verdict;

/**
 * Random CC trees for the conformance suite and the burn test: depth up to {@code maxDepth}, mechanisms drawn from every registered
 * mechanism the composability rules cover (test-only mechanisms, which the rules do not know, stay out), every
 * parent/child pair one the rules do not forbid, read-only-leaf mechanisms ({@link Mechanism#readOnlyLeaf}) only as
 * leaves over read-only types, mechanisms the rules forbid over every child only as leaves, and each node's options
 * as its mechanism declares them ({@link Mechanism#randomOptions}, {@link OptionDraw}); no mechanism is named here
 * (docs/architecture.md, "Adding a mechanism"). Deterministic per seed.
 */
public final class RandomTrees {
    private final CompositionRules rules = CompositionRules.standard();
    /** Mechanisms that regulate conflicts (may be inner nodes and leaves of update types). */
    private final List<String> regulating = new ArrayList<>();
    /** Mechanisms that are leaves of read-only types only. */
    private final List<String> readOnlyLeaves = new ArrayList<>();
    /** Regulating mechanisms the rules allow over at least one mechanism (leaf-only ones stay out). */
    private final List<String> inner = new ArrayList<>();
    private final Database db;
    private final Random rnd;
    /**
     * Draws of options declared {@link OptionDraw#apart}, apart from {@link #rnd} so the trees of a seed stay what
     * they were before those draws existed.
     */
    private final Random apart;
    private final int maxDepth;

    /**
     * @param db       the database whose transaction types the trees cover
     * @param seed     seed of the draws
     * @param maxDepth the deepest level (1: a single leaf)
     */
    public RandomTrees(Database db, long seed, int maxDepth) {
        this.db = db;
        this.rnd = new Random(seed);
        this.apart = new Random(seed ^ 0x7473_6473L);
        this.maxDepth = maxDepth;
        Mechanisms.all().forEach((name, m) -> {
            if (rules.mechanisms().contains(name)) {
                (m.readOnlyLeaf() ? readOnlyLeaves : regulating).add(name);
            }
        });
        for (String m : regulating) {
            if (!rules.childrenOf(m, java.util.EnumSet.of(Verdict.ALLOWED, Verdict.INEFFICIENT)).isEmpty()) {
                inner.add(m);
            }
        }
    }

    /** A random tree over all the database's types. */
    public TreeSpec next() {
        List<String> types = new ArrayList<>();
        db.types().forEach(t -> types.add(t.name()));
        Collections.shuffle(types, rnd);
        TreeSpec root = node(null, types, 1);
        if (!root.children.isEmpty() && dstAllowed(root)) {
            draw(root, OptionDraw.Scope.DST_ROOT); // e.g. DST snapshots wherever their rule allows them
        }
        return root;
    }

    /**
     * Whether an ssi root may take {@code timestamps: dst} (docs/mechanisms.md, "DST"): at most one child holds
     * update types (the root optimization) and no multiversion mechanism (ssi, tso) lies below it.
     */
    private boolean dstAllowed(TreeSpec root) {
        if (!root.cc.equals("ssi") || root.children.isEmpty()) {
            return false;
        }
        int updateChildren = 0;
        for (TreeSpec c : root.children) {
            if (multiversionIn(c)) {
                return false;
            }
            if (!readOnly(typesOf(c, new ArrayList<>()))) {
                updateChildren++;
            }
        }
        return updateChildren <= 1;
    }

    private static boolean multiversionIn(TreeSpec s) {
        if (Mechanisms.get(s.cc).properties().contains(Mechanism.Property.MULTIVERSION)) {
            return true;
        }
        return s.children.stream().anyMatch(RandomTrees::multiversionIn);
    }

    private static List<String> typesOf(TreeSpec s, List<String> out) {
        out.addAll(s.txns);
        s.children.forEach(c -> typesOf(c, out));
        return out;
    }

    private boolean readOnly(List<String> types) {
        return types.stream().allMatch(t -> db.type(t).readOnly());
    }

    private String pick(String parent, List<String> candidates) {
        List<String> ok = new ArrayList<>();
        for (String c : candidates) {
            if (parent == null || rules.verdict(parent, c) != Verdict.FORBIDDEN) {
                ok.add(c);
            }
        }
        return ok.get(rnd.nextInt(ok.size()));
    }

    private TreeSpec node(String parent, List<String> types, int depth) {
        boolean leaf = depth == maxDepth || types.size() == 1 || rnd.nextInt(3) == 0;
        if (leaf) {
            List<String> leafMechs = new ArrayList<>(regulating);
            if (readOnly(types)) {
                leafMechs.addAll(readOnlyLeaves);
            }
            TreeSpec leafSpec = withOptions(TreeSpec.leaf(pick(parent, leafMechs), types.toArray(new String[0])));
            if (parent == null) {
                draw(leafSpec, OptionDraw.Scope.WHOLE_TREE);
            }
            return leafSpec;
        }
        String mech = pick(parent, inner);
        int groups = 2 + rnd.nextInt(Math.min(2, types.size() - 1));
        List<List<String>> split = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            split.add(new ArrayList<>());
        }
        for (int i = 0; i < types.size(); i++) {
            split.get(i < groups ? i : rnd.nextInt(groups)).add(types.get(i));
        }
        TreeSpec s = TreeSpec.inner(mech);
        for (List<String> g : split) {
            s.children.add(node(mech, g, depth + 1));
        }
        return withOptions(s);
    }

    /** The options the node's mechanism declares for every node and for its kind of node (inner or leaf). */
    private TreeSpec withOptions(TreeSpec s) {
        OptionDraw.Scope kind = s.children.isEmpty() ? OptionDraw.Scope.LEAF : OptionDraw.Scope.INNER;
        for (OptionDraw d : Mechanisms.get(s.cc).randomOptions()) {
            if (d.scope() == OptionDraw.Scope.EVERY_NODE || d.scope() == kind) {
                set(s, d);
            }
        }
        return s;
    }

    private void draw(TreeSpec s, OptionDraw.Scope scope) {
        for (OptionDraw d : Mechanisms.get(s.cc).randomOptions()) {
            if (d.scope() == scope) {
                set(s, d);
            }
        }
    }

    private void set(TreeSpec s, OptionDraw d) {
        List<String> vs = d.values();
        String v = vs.size() == 1 ? vs.get(0) : vs.get((d.apart() ? apart : rnd).nextInt(vs.size()));
        if (v != null) {
            s.option(d.option(), v);
        }
    }
}
