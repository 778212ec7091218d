package org.tebaldi.cc.rp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.tebaldi.cc.rp.analysis.RpAnalysis;
import org.tebaldi.cc.rp.analysis.StepPlan;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.tree.CcNode;

/**
 * The pipeline of one RP node (dissertation §4.4.2): the static analysis over the transaction types of its
 * subtree, consistent with the pipeline of the nearest RP ancestor (whose reordering takes priority, §5.4.2),
 * giving each table its step and each stored procedure its reordered body. Computed once per configuration — keyed
 * by the database and the canonical forms of the node's subtree and of its RP ancestors' subtrees — and shared by
 * every TC and DS part of that node, by the configurator's preprocessing of the same candidate, and by later trees
 * that contain the same pipeline (so reconfigurations do not repeat the analysis). Databases are held weakly.
 */
final class RpPlan {
    private static final Map<Database, Map<String, RpPlan>> CACHE =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private final StepPlan plan;
    private final Map<String, Procedure> procedures;
    private final int[] stepOfTable;

    private RpPlan(RpAnalysis.Result r, Catalog catalog) {
        this.plan = r.plan();
        this.procedures = r.procedures();
        this.stepOfTable = new int[catalog.tables().size()];
        for (int i = 0; i < stepOfTable.length; i++) {
            stepOfTable[i] = plan.stepOf(catalog.table(i).name());
        }
    }

    /**
     * The plan of RP node {@code node}.
     *
     * @throws IllegalArgumentException if a type of the subtree cannot be analyzed (see {@link RpAnalysis})
     */
    static RpPlan of(CcNode node, Database db) {
        Map<String, RpPlan> plans = CACHE.computeIfAbsent(db, d -> new ConcurrentHashMap<>());
        String key = key(node);
        RpPlan p = plans.get(key);
        if (p == null) {
            StepPlan outer = null;
            for (CcNode a = node.parent(); a != null; a = a.parent()) {
                if (a.mechanism().equals(node.mechanism())) {
                    outer = of(a, db).plan;
                    break;
                }
            }
            List<TxnType> types = new ArrayList<>();
            collect(node, db, types);
            p = new RpPlan(RpAnalysis.analyze(types, db.catalog(), outer), db.catalog());
            plans.putIfAbsent(key, p);
        }
        return p;
    }

    /** The node's subtree and its RP ancestors' subtrees, canonically: what the analysis depends on. */
    private static String key(CcNode node) {
        StringBuilder b = new StringBuilder(node.canonical());
        for (CcNode a = node.parent(); a != null; a = a.parent()) {
            if (a.mechanism().equals(node.mechanism())) {
                b.append(" in ").append(a.canonical());
            }
        }
        return b.toString();
    }

    private static void collect(CcNode n, Database db, List<TxnType> out) {
        if (n.isLeaf()) {
            for (String t : n.txns()) {
                out.add(db.type(t));
            }
        }
        for (CcNode c : n.children()) {
            collect(c, db, out);
        }
    }

    /** Step of table {@code tableId}, or -1 if it belongs to no step (replicated, or unknown to the group). */
    int stepOf(int tableId) {
        return stepOfTable[tableId];
    }

    /** The reordered procedure of {@code type}, or null if the type is not a stored procedure of this group. */
    Procedure procedure(String type) {
        return procedures.get(type);
    }

    /** Number of steps; steps are numbered 1 .. steps(). */
    int steps() {
        return plan.size();
    }

    /** E.g. {@code 1:{warehouse} 2:{district} ...}. */
    String describe() {
        return plan.describe();
    }
}
