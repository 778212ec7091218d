package org.tebaldi.core.runtime.cost;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.runtime.Envelope;
import org.tebaldi.core.runtime.Role;

/**
 * Handler timings gathered for calibration (docs/simulation.md, "Calibration"): per handler key
 * ({@code "<role> <message class>"}, {@code "<role> timer"}), the count and the sums a least-squares fit of
 * {@code time = base + perUnit × units + cold × coldStart} needs (units: {@link CostUnits}; coldStart: 1 when the
 * handler is the first of a mailbox run — its node was idle — else 0). One instance per node, written by the one thread running that node
 * at a time (the runtime's hand-over gives the happens-before); {@link #mergeInto} at the end of a run.
 */
public final class HandlerProfile {
    /** Sums for one handler key; times in ns. */
    public static final class Sums {
        public long count;
        public double units;
        public double nanos;
        public double unitsNanos;
        public double unitsSquared;
        public double colds;
        public double coldsNanos;
        public double coldsSquared;
        public double unitsColds;
        public double nanosSquared;

        void add(int u, int cold, long ns) {
            count++;
            units += u;
            nanos += ns;
            unitsNanos += (double) u * ns;
            unitsSquared += (double) u * u;
            colds += cold;
            coldsNanos += (double) cold * ns;
            coldsSquared += (double) cold * cold;
            unitsColds += (double) u * cold;
            nanosSquared += (double) ns * ns;
        }

        /** Adds one warm sample of {@code units} work units that took {@code ns} ns (e.g. a store's write group). */
        public void sample(int units, long ns) {
            add(units, 0, ns);
        }

        /** Adds {@code o}'s counts and sums to these (e.g. the same key over several runs). */
        public void addAll(Sums o) {
            count += o.count;
            units += o.units;
            nanos += o.nanos;
            unitsNanos += o.unitsNanos;
            unitsSquared += o.unitsSquared;
            colds += o.colds;
            coldsNanos += o.coldsNanos;
            coldsSquared += o.coldsSquared;
            unitsColds += o.unitsColds;
            nanosSquared += o.nanosSquared;
        }
    }

    /** One message of each class in this many (the first included) is kept as a sample, for its encoded size. */
    public static final int SAMPLE_EVERY = 100;
    /** At most this many samples are kept per message class and node. */
    public static final int SAMPLE_MAX = 50;

    private final String rolePrefix;
    private final Map<String, Sums> byName = new java.util.HashMap<>();
    private final Map<String, List<Object>> samples = new java.util.HashMap<>();
    private final Sums timers = new Sums();
    private volatile boolean enabled;

    /** @param role the node's role (the key's first word) */
    public HandlerProfile(Role role) {
        this.rolePrefix = role.cli() + " ";
    }

    /** Starts or stops recording (e.g. on at the start of the measured window). */
    public void enabled(boolean on) {
        enabled = on;
    }

    /** Whether handlers are being recorded. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Records one message handler of {@code ns} ns ({@code cold}: it began a mailbox run); keeps {@code msg} as a
     * sample if it is the first of its class or a multiple of {@value #SAMPLE_EVERY} (at most {@value #SAMPLE_MAX}
     * per class; see {@link #samplesInto}).
     */
    public void message(Object msg, boolean cold, long ns) {
        message(msg, 0, cold, ns);
    }

    /**
     * As {@link #message(Object, boolean, long)}, with {@code extraUnits} the handler reported beyond its message's
     * ({@link HandlerUnits}).
     */
    public void message(Object msg, int extraUnits, boolean cold, long ns) {
        String name = Envelope.name(msg);
        Sums s = byName.computeIfAbsent(name, c -> new Sums());
        if (s.count % SAMPLE_EVERY == 0) {
            List<Object> l = samples.computeIfAbsent(name, c -> new ArrayList<>());
            if (l.size() < SAMPLE_MAX) {
                l.add(msg);
            }
        }
        s.add(units(msg) + extraUnits, cold ? 1 : 0, ns);
    }

    /**
     * As {@link #message(Object, int, boolean, long)} for a handler that reported a kind ({@link HandlerUnits#kind};
     * null: none): timed under {@code "<class>/<kind>"}, so that the message's other handlers keep their own cost.
     */
    public void message(Object msg, int extraUnits, String kind, boolean cold, long ns) {
        if (kind == null) {
            message(msg, extraUnits, cold, ns);
        } else {
            byName.computeIfAbsent(Envelope.name(msg) + "/" + kind, c -> new Sums()).add(units(msg) + extraUnits,
                    cold ? 1 : 0, ns);
        }
    }

    /** Records one timer task of {@code ns} ns ({@code cold}: it began a mailbox run). */
    public void timer(boolean cold, long ns) {
        timers.add(0, cold ? 1 : 0, ns);
    }

    /** As {@link #timer(boolean, long)} for a task of a reported kind ({@link HandlerUnits#kind}; null: none). */
    public void timer(String kind, boolean cold, long ns) {
        timer(kind, 0, cold, ns);
    }

    /**
     * As {@link #timer(String, boolean, long)} for a task that reported {@code units} work units ({@link
     * HandlerUnits#add}: e.g. the chains a version-collection tick looked at), so that its cost is fitted per unit.
     */
    public void timer(String kind, int units, boolean cold, long ns) {
        if (kind == null) {
            timers.add(units, cold ? 1 : 0, ns);
        } else {
            byName.computeIfAbsent(TIMER + "/" + kind, c -> new Sums()).add(units, cold ? 1 : 0, ns);
        }
    }

    /**
     * The key a message's handler is charged under at a node of {@code role}: {@code "<role> <class>"}, an
     * {@link Envelope} by what it carries ({@code "ds CcEnvelope/Watch"}).
     */
    public static String key(Role role, Object msg) {
        return role.cli() + " " + Envelope.name(msg);
    }

    /** The key of a message's handler that reported kind {@code kind}: {@code "<role> <class>/<kind>"}. */
    public static String key(Role role, Object msg, String kind) {
        return key(role, msg) + "/" + kind;
    }

    /** The key of a timer task at a node of {@code role}. */
    public static String timerKey(Role role) {
        return role.cli() + " " + TIMER;
    }

    /** The key of a timer task of kind {@code kind} ({@link HandlerUnits#kind}) at a node of {@code role}. */
    public static String timerKey(Role role, String kind) {
        return timerKey(role) + "/" + kind;
    }

    private static final String TIMER = "timer";

    /** Work units of {@code msg} ({@link CostUnits}, else 0). */
    public static int units(Object msg) {
        return msg instanceof CostUnits c ? c.costUnits() : 0;
    }

    /** Adds this node's sums into {@code out}, by handler key. */
    public void mergeInto(Map<String, Sums> out) {
        byName.forEach((c, s) -> out.computeIfAbsent(rolePrefix + c, k -> new Sums()).addAll(s));
        if (timers.count > 0) {
            out.computeIfAbsent(rolePrefix + "timer", k -> new Sums()).addAll(timers);
        }
    }

    /**
     * Adds the messages kept as samples into {@code out}, by message name ({@link Envelope#name}), e.g. to measure their
     * encoded size after the run. Same threading rule as {@link #mergeInto}.
     */
    public void samplesInto(Map<String, List<Object>> out) {
        samples.forEach((c, l) -> out.computeIfAbsent(c, k -> new ArrayList<>()).addAll(l));
    }

    /** A fresh sorted map for {@link #mergeInto}. */
    public static Map<String, Sums> newTotals() {
        return new TreeMap<>();
    }
}
