package org.tebaldi.cc.ssi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.OptionDraw;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.ts.TimestampScheme;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.service.TimestampService;
import org.tebaldi.core.tree.CcNode;

/**
 * Serializable snapshot isolation as a CC-tree node (dissertation §4.4.3; Cahill et al. 2008, Fekete et al.
 * 2005): multiversion reads from a snapshot, first-updater-wins between batches, pivot batches refused by the
 * {@link BatchManager}. Needs the timestamp service and the batch manager. The root optimization (one update
 * child group under the root) is chosen automatically.
 *
 * <p>Options: {@code batchInterval} (duration, default 5ms): how long a child group's batch accepts members;
 * {@code timestamps} ({@code gts}, default: the timestamp service; {@code dst}: decentralized scalar timestamps,
 * only at a root under the root optimization over single-version update subtrees, {@link SsiMode#dstShapeProblem});
 * {@code staleness} (duration, default 0, DST only): how far behind its coordinator's clock a read-only snapshot
 * reads, which lets it skip waiting for writers that prepared within that window; {@code roReads} ({@code
 * snapshot}, default; {@code read-committed}: DST's evaluation baseline, not serializable, DST only).
 */
public final class SerializableSnapshotIsolation implements Mechanism {
    /** Default batch interval, µs. */
    public static final long DEFAULT_BATCH_MICROS = 5_000;

    @Override
    public String name() {
        return "ssi";
    }

    /** Multiversion: it hands out timestamped snapshots. */
    @Override
    public Set<Property> properties() {
        return Set.of(Property.MULTIVERSION);
    }

    /** Random trees: a 1 ms batch interval, and DST snapshots on half of the roots DST's rule allows. */
    @Override
    public List<OptionDraw> randomOptions() {
        return List.of(OptionDraw.fixed("batchInterval", "1ms", OptionDraw.Scope.EVERY_NODE),
                OptionDraw.drawn("timestamps", OptionDraw.Scope.DST_ROOT, false, null, "dst"));
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        for (String k : node.options().keySet()) {
            if (!k.equals("batchInterval") && !k.equals(TimestampScheme.OPTION) && !k.equals(SsiMode.STALENESS)
                    && !k.equals(SsiMode.RO_READS)) {
                problems.add("option '" + k + "' is unknown to ssi (options: batchInterval, timestamps, staleness, "
                        + "roReads)");
            }
        }
        String scheme = TimestampScheme.problem(node);
        if (scheme != null) {
            problems.add(scheme);
        } else if (TimestampScheme.of(node) == TimestampScheme.DST) {
            String shape = SsiMode.dstShapeProblem(node);
            if (shape != null) {
                problems.add(shape);
            }
        } else if (node.options().containsKey(SsiMode.STALENESS) || node.options().containsKey(SsiMode.RO_READS)) {
            problems.add("option '" + (node.options().containsKey(SsiMode.STALENESS) ? SsiMode.STALENESS
                    : SsiMode.RO_READS) + "': only read-only transactions under timestamps: dst take it (add "
                    + "timestamps: dst)");
        }
        String ro = node.option(SsiMode.RO_READS, "snapshot");
        if (!ro.equals("snapshot") && !ro.equals("read-committed")) {
            problems.add("option 'roReads': unknown value '" + ro + "' (allowed: snapshot, read-committed)");
        }
        try {
            if (node.durationOption(SsiMode.STALENESS, 0) < 0) {
                problems.add("option 'staleness': must not be negative");
            }
        } catch (IllegalArgumentException e) {
            problems.add("option 'staleness': " + e.getMessage());
        }
        try {
            node.durationOption("batchInterval", DEFAULT_BATCH_MICROS);
        } catch (IllegalArgumentException e) {
            problems.add("option 'batchInterval': " + e.getMessage());
        }
        return problems;
    }

    /**
     * Efficient (dissertation §5.4.1) only where it needs no batching: at the root, with at most one group of update
     * transactions below it (the root optimization) — or, as a lone leaf root, over at most one update type.
     */
    @Override
    public boolean efficientAt(CcNode node, org.tebaldi.core.db.Database db) {
        if (!node.isRoot()) {
            return false;
        }
        return node.isLeaf() ? node.txns().stream().filter(t -> !db.type(t).readOnly()).count() <= 1
                : SsiMode.rootOptimized(node, db);
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        return new SsiTcPart(node, services, node.durationOption("batchInterval", DEFAULT_BATCH_MICROS));
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new SsiDsPart(node, services);
    }

    @Override
    public Map<Role, Supplier<Actor>> services() {
        return Map.of(Role.TS, TimestampService::new, Role.BATCH, BatchManager::new);
    }

    /** Under {@code timestamps: dst} no service: timestamps are the nodes' own, no batch is ever opened. */
    @Override
    public Map<Role, Supplier<Actor>> services(CcNode node) {
        return TimestampScheme.problem(node) == null && TimestampScheme.of(node) == TimestampScheme.DST ? Map.of()
                : services();
    }
}
