package org.tebaldi.core.runtime.cost;

import java.util.Map;
import java.util.TreeMap;
import org.tebaldi.core.runtime.Role;

/**
 * Handler timings gathered for calibration (docs/simulation.md, "Calibration"): per handler key
 * ({@code "<role> <message class>"}, {@code "<role> timer"}), the count and the sums a least-squares fit of
 * {@code time = base + perUnit × units} needs. One instance per node, written by the one thread running that node
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

        void add(int u, long ns) {
            count++;
            units += u;
            nanos += ns;
            unitsNanos += (double) u * ns;
            unitsSquared += (double) u * u;
        }

        void addAll(Sums o) {
            count += o.count;
            units += o.units;
            nanos += o.nanos;
            unitsNanos += o.unitsNanos;
            unitsSquared += o.unitsSquared;
        }
    }

    private final String rolePrefix;
    private final Map<Class<?>, Sums> byClass = new java.util.HashMap<>();
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

    /** Records one message handler of {@code ns} ns. */
    public void message(Object msg, long ns) {
        byClass.computeIfAbsent(msg.getClass(), c -> new Sums()).add(units(msg), ns);
    }

    /** Records one timer task of {@code ns} ns. */
    public void timer(long ns) {
        timers.add(0, ns);
    }

    /** The key a message's handler is charged under at a node of {@code role}. */
    public static String key(Role role, Object msg) {
        return role.cli() + " " + msg.getClass().getSimpleName();
    }

    /** The key of a timer task at a node of {@code role}. */
    public static String timerKey(Role role) {
        return role.cli() + " timer";
    }

    /** Work units of {@code msg} ({@link CostUnits}, else 0). */
    public static int units(Object msg) {
        return msg instanceof CostUnits c ? c.costUnits() : 0;
    }

    /** Adds this node's sums into {@code out}, by handler key. */
    public void mergeInto(Map<String, Sums> out) {
        byClass.forEach((c, s) -> out.computeIfAbsent(rolePrefix + c.getSimpleName(), k -> new Sums()).addAll(s));
        if (timers.count > 0) {
            out.computeIfAbsent(rolePrefix + "timer", k -> new Sums()).addAll(timers);
        }
    }

    /** A fresh sorted map for {@link #mergeInto}. */
    public static Map<String, Sums> newTotals() {
        return new TreeMap<>();
    }
}
