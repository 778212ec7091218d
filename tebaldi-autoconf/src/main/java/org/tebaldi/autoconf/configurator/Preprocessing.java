package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;

/**
 * CC-specific preprocessing of candidates (dissertation §5.4.2): every node's mechanism checks it can run there
 * (runtime pipelining's static analysis must succeed — a nested pipeline follows its RP ancestors' order, so parents'
 * reorderings take priority), and a leaf whose mechanism benefits from partition-by-instance also yields a variant
 * partitioned by the input that separates instances.
 */
public final class Preprocessing {
    private final Database db;
    private final Function<String, Mechanism> mechanisms;

    public Preprocessing(Database db, Function<String, Mechanism> mechanisms) {
        this.db = db;
        this.mechanisms = mechanisms;
    }

    /** The candidate's runnable variants (empty if a mechanism cannot run it), with the reason in {@code why[0]}. */
    public List<Candidate> apply(Candidate c, String[] why) {
        List<Candidate> out = new ArrayList<>();
        try {
            for (CcNode n : c.tree().nodes()) {
                mechanisms.apply(n.mechanism()).preprocess(n, db);
            }
        } catch (IllegalArgumentException e) {
            why[0] = e.getMessage();
            return out;
        }
        out.add(c);
        for (CcNode leaf : c.tree().leaves()) {
            if (leaf.instanceBy() != null) {
                continue;
            }
            List<String> inputs = mechanisms.apply(leaf.mechanism()).instanceInputs(leaf, db);
            if (!inputs.isEmpty()) {
                TreeSpec root = c.tree().toSpec();
                Specs.at(root, leaf).instanceBy(inputs.get(0));
                out.add(new Candidate(Specs.build(root, c.strategy()), c.strategy() + ", " + leaf.mechanism()
                        + " per " + inputs.get(0) + " (partition-by-instance)"));
            }
        }
        return out;
    }
}
