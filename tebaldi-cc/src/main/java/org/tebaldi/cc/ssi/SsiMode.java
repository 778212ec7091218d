package org.tebaldi.cc.ssi;

import org.tebaldi.core.db.Database;
import org.tebaldi.core.tree.CcNode;

/**
 * Whether an SSI node can use the root optimization (dissertation §4.4.3): it is the root and at most one of its
 * children holds update transactions. Then update transactions need no start timestamp, batching, pivot checks
 * or waiting: consistent ordering comes from committing them in their in-group order, and read-only groups read
 * snapshots (the initial tree of Fig 5.2 is of this kind, equivalent to multiversion 2PL).
 */
final class SsiMode {
    /** Option: the staleness a DST snapshot accepts (duration, default 0: read at the coordinator's clock). */
    static final String STALENESS = "staleness";
    /**
     * Option (DST only): how read-only transactions read — {@code snapshot} (default, serializable) or {@code
     * read-committed}, the baseline of DST's evaluation (NSDI 2021 §5: "RC"): the latest committed version, no claim,
     * no wait; not serializable, for measurements only.
     */
    static final String RO_READS = "roReads";

    /** Whether read-only transactions read committed data instead of snapshots (option {@link #RO_READS}). */
    static boolean readCommitted(CcNode node) {
        return node.option(RO_READS, "snapshot").equals("read-committed");
    }
    private SsiMode() {
    }

    /**
     * Whether the node runs DST ({@code timestamps: dst}).
     *
     * @throws IllegalArgumentException if it does but cannot: DST roots only a tree under the root optimization
     */
    static boolean dst(CcNode node, Database db) {
        if (org.tebaldi.core.cc.ts.TimestampScheme.of(node) != org.tebaldi.core.cc.ts.TimestampScheme.DST) {
            return false;
        }
        if (!rootOptimized(node, db)) {
            throw new IllegalArgumentException("ssi with timestamps: dst needs the root optimization: at most one "
                    + "child of the root may hold update transactions (DST derives commit timestamps from the one "
                    + "update subtree's conflicts; give every other child only read-only types). General-mode ssi "
                    + "(several update groups) stays on gts: it certifies update batches itself — first updater "
                    + "wins asks whether a version committed after the batch's start, which needs start and commit "
                    + "timestamps from one monotonic source, and the pivot check and the batch watermark run at the "
                    + "central batch manager, a service DST would not remove; DST's rules (NSDI 2021 §3) order only "
                    + "read-only snapshots against an update subtree another mechanism serializes");
        }
        return true;
    }

    /**
     * Why the tree shape at {@code node} cannot run {@code timestamps: dst}, or null. DST's commit timestamps follow
     * the order in which transactions access each tuple (RW1/RW2), so it may root only a tree whose update subtree
     * orders conflicting transactions in access order: mechanisms without {@code Property.MULTIVERSION} (2PL, RP,
     * none, ...). A multiversion child (SSI and TSO declare the property) may order a transaction before one whose
     * write it missed after that one committed — its commit timestamp would then exceed its successor's, and a
     * snapshot could see the successor without it. RP's in-group exposure (reading an uncommitted write) is covered:
     * the reader's bound is taken at validation, after the writer it read from committed and installed its timestamp.
     */
    static String dstShapeProblem(CcNode node) {
        if (!node.isRoot() || node.isLeaf()) {
            return "option 'timestamps': dst runs only at an ssi root with children (an update subtree and read-only "
                    + "snapshot groups), under the root optimization";
        }
        String mv = multiversionBelow(node);
        return mv == null ? null : "option 'timestamps': dst cannot root a tree with a '" + mv + "' node below it: "
                + "DST's timestamps follow each tuple's access order, which a multiversion mechanism does not keep "
                + "(use single-version mechanisms below a dst root, e.g. 2pl, rp or none)";
    }

    private static String multiversionBelow(CcNode n) {
        if (n.isLeaf()) {
            return null;
        }
        for (CcNode c : n.children()) {
            if (org.tebaldi.core.cc.Mechanisms.get(c.mechanism()).properties()
                    .contains(org.tebaldi.core.cc.Mechanism.Property.MULTIVERSION)) {
                return c.mechanism();
            }
            String below = multiversionBelow(c);
            if (below != null) {
                return below;
            }
        }
        return null;
    }

    static boolean rootOptimized(CcNode node, Database db) {
        if (!node.isRoot() || node.isLeaf()) {
            return false;
        }
        int updateChildren = 0;
        for (CcNode child : node.children()) {
            if (hasUpdates(child, db)) {
                updateChildren++;
            }
        }
        return updateChildren <= 1;
    }

    private static boolean hasUpdates(CcNode n, Database db) {
        if (n.isLeaf()) {
            for (String t : n.txns()) {
                if (db.hasType(t) && !db.type(t).readOnly()) {
                    return true;
                }
            }
            return false;
        }
        for (CcNode c : n.children()) {
            if (hasUpdates(c, db)) {
                return true;
            }
        }
        return false;
    }
}
