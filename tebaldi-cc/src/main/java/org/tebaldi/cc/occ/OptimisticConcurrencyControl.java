package org.tebaldi.cc.occ;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.OptionDraw;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.config.Durations;
import org.tebaldi.core.cc.ts.TimestampScheme;
import org.tebaldi.core.cc.ts.TimestampSource;
import org.tebaldi.core.cc.ts.TimestampSources;
import org.tebaldi.core.tree.CcNode;

/**
 * Silo-style optimistic concurrency control as a leaf of a CC tree ("PT-OCC" in COCO, Lu et al., VLDB 2021, §5.1;
 * Silo, Tu et al., SOSP 2013, §4): reads take no lock and remember the version (TID) they read, writes stay
 * private until commit; validation locks the write set (aborting on a lock already held — nobody waits), then
 * validates the read set (a changed or locked record aborts); the commit TID is above every TID read or
 * overwritten and in the coordinator's current epoch. Leaf only: the composability rules forbid it over any child,
 * with the reason (docs/mechanisms.md, "OCC").
 *
 * <p>Options: {@code epoch} (duration, default 40ms, Silo's epoch length): the epoch part of the TIDs a coordinator
 * hands out is its clock divided by this; {@code timestamps} (the timestamp-scheme SPI, {@link TimestampScheme}):
 * {@code gts}, the default, keeps those epoch TIDs ({@link Tid}; Silo's epochs never ask the timestamp service, so
 * 0 service messages), {@code dst} takes TIDs from the coordinator's hybrid clock (48-bit milliseconds, 16-bit
 * counter; {@link TimestampSource#commitTs} above every TID read or overwritten and the coordinator's last, the
 * clock moved past the largest TID the servers reported) — also 0 service messages.
 */
public final class OptimisticConcurrencyControl implements Mechanism {
    /** Default epoch length, µs (Silo §4.2 advances its global epoch every 40 ms). */
    public static final long DEFAULT_EPOCH_MICROS = 40_000;

    @Override
    public String name() {
        return "occ";
    }

    /** Random trees: TIDs from the coordinators' hybrid clocks on half of the leaves. */
    @Override
    public List<OptionDraw> randomOptions() {
        return List.of(OptionDraw.drawn("timestamps", OptionDraw.Scope.LEAF, true, null, "dst"));
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        for (String k : node.options().keySet()) {
            if (!k.equals("epoch") && !k.equals(TimestampScheme.OPTION)) {
                problems.add("option '" + k + "' is unknown to occ (options: epoch, timestamps)");
            }
        }
        String scheme = TimestampScheme.problem(node);
        if (scheme != null) {
            problems.add(scheme);
        }
        try {
            if (node.durationOption("epoch", DEFAULT_EPOCH_MICROS) <= 0) {
                problems.add("option 'epoch' must be positive");
            }
        } catch (IllegalArgumentException e) {
            problems.add("option 'epoch': " + e.getMessage());
        }
        return problems;
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        TimestampSource tids = TimestampScheme.of(node) == TimestampScheme.DST
                ? TimestampSources.of(TimestampScheme.DST, services, null) : null;
        return new OccTcPart(node, services, node.durationOption("epoch", DEFAULT_EPOCH_MICROS), tids);
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new OccDsPart(node, services);
    }

    @Override
    public String toString() {
        return name() + " (epoch default " + Durations.format(DEFAULT_EPOCH_MICROS) + ")";
    }
}
