package org.tebaldi.cc.tso;

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
import org.tebaldi.core.config.Durations;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.service.TimestampService;
import org.tebaldi.core.cc.ts.TimestampScheme;
import org.tebaldi.core.tree.CcNode;

/**
 * Multiversion timestamp ordering as a CC-tree node (dissertation §4.4.4; Reed 1978, Bernstein et al.): per
 * transaction timestamps as a leaf (one TSO instance per input value with {@code instanceBy}), per batch
 * timestamps and commit in batch order as an inner node; promises make readers wait for a promised write instead
 * of aborting the writer. Needs the timestamp service.
 *
 * <p>Options: {@code promises} (boolean, default true; leaf only), {@code promiseTimeout} (duration, default
 * 100ms: a reader stops waiting for a promised write after this long), {@code batchInterval} (duration, default
 * 5ms; inner only), {@code timestamps} (the timestamp-scheme SPI, {@link TimestampScheme}: {@code gts}, the default,
 * takes each transaction's timestamp from the central service, registered there for the watermark; {@code dst},
 * leaves only, takes it from the coordinator's hybrid clock (TsoTcPart, TsoClock) — no service, garbage collection and
 * read-mark cleanup by a per-data-server floor instead of the watermark).
 */
public final class TimestampOrdering implements Mechanism {
    /** Default batch interval of an inner TSO node, µs. */
    public static final long DEFAULT_BATCH_MICROS = 5_000;
    /** Default longest wait for a promised write, µs. */
    public static final long DEFAULT_PROMISE_TIMEOUT_MICROS = 100_000;

    @Override
    public String name() {
        return "tso";
    }

    /** Multiversion: it keeps versions by timestamp and reads at a snapshot. */
    @Override
    public Set<Property> properties() {
        return Set.of(Property.MULTIVERSION);
    }

    /** Random trees: a 1 ms batch interval inside, and on half of the leaves the coordinators' hybrid clocks. */
    @Override
    public List<OptionDraw> randomOptions() {
        return List.of(OptionDraw.fixed("batchInterval", "1ms", OptionDraw.Scope.INNER),
                OptionDraw.drawn("timestamps", OptionDraw.Scope.LEAF, true, null, "dst"));
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        for (String k : node.options().keySet()) {
            if (!List.of("promises", "promiseTimeout", "batchInterval", TimestampScheme.OPTION).contains(k)) {
                problems.add("option '" + k + "' is unknown to tso (options: promises, promiseTimeout, batchInterval, "
                        + "timestamps)");
            }
        }
        String scheme = TimestampScheme.problem(node);
        if (scheme != null) {
            problems.add(scheme);
        } else if (TimestampScheme.of(node) == TimestampScheme.DST && !node.isLeaf()) {
            problems.add("option 'timestamps': dst runs only on tso leaves, not on an inner tso node: an inner tso "
                    + "commits its batches in timestamp order by waiting until every batch below a timestamp "
                    + "finished at every coordinator, which only the central service's registry of open batches "
                    + "knows (a decentralized registry would have every coordinator tell every other of each batch "
                    + "it opens and finishes: more messages than the service's); use timestamps: gts here, or dst "
                    + "on the tso leaves below");
        }
        for (String k : List.of("promiseTimeout", "batchInterval")) {
            try {
                node.durationOption(k, 1);
            } catch (IllegalArgumentException e) {
                problems.add("option '" + k + "': " + e.getMessage());
            }
        }
        Object p = node.options().get("promises");
        if (p != null && !(p instanceof Boolean) && !"true".equals(p) && !"false".equals(p)) {
            problems.add("option 'promises' must be true or false, not '" + p + "'");
        }
        return problems;
    }

    /**
     * Partition-by-instance candidates (dissertation §5.4.2): inputs every stored procedure of the leaf has and uses
     * directly as a key part of some write, most used first (e.g. SEATS' {@code flight_id}).
     */
    @Override
    public List<String> instanceInputs(CcNode leaf, org.tebaldi.core.db.Database db) {
        return InstanceInputs.of(leaf, db);
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        return new TsoTcPart(node, services, node.boolOption("promises", true),
                node.durationOption("batchInterval", DEFAULT_BATCH_MICROS));
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new TsoDsPart(node, services, node.durationOption("promiseTimeout", DEFAULT_PROMISE_TIMEOUT_MICROS));
    }

    @Override
    public Map<Role, Supplier<Actor>> services() {
        return Map.of(Role.TS, TimestampService::new);
    }

    /** No timestamp service for a {@code timestamps: dst} leaf: its timestamps and floors are local. */
    @Override
    public Map<Role, Supplier<Actor>> services(CcNode node) {
        return dst(node) ? Map.of() : services();
    }

    /** Whether {@code node} runs on DST timestamps (a valid {@code timestamps: dst} on a leaf). */
    static boolean dst(CcNode node) {
        return node.isLeaf() && TimestampScheme.problem(node) == null && TimestampScheme.of(node) == TimestampScheme.DST;
    }

    @Override
    public String toString() {
        return name() + " (batch interval " + Durations.format(DEFAULT_BATCH_MICROS) + ")";
    }
}
