package org.tebaldi.core.runtime.cost;

/**
 * Work units a handler reports beyond those its message carries ({@link CostUnits}), for a handler whose work is not
 * in its message (docs/simulation.md, "Cost model"): e.g. a coordinator's handler of a data server's persisted epoch,
 * which makes every transaction of the new cut durable — one handler in two hundred of the same message does that
 * work. The handler calls {@link #add}; whoever times or charges it — handler profiling of the embedded runtime, the
 * simulated cluster's cores — calls {@link #take} right after it, on the same thread, and counts the units with the
 * message's. Per thread; saturating.
 */
public final class HandlerUnits {
    /**
     * The kind of version collection (docs/simulation.md, "Version collection"): a data server's GC-epoch ticks and
     * the handlers that settle and prune an epoch's versions, with the chains and versions they went through as
     * units. Split off the role's timer key: a table that lacks {@code <role> timer/version-gc} charges such a timer
     * the role's timer key, as it charged it before the split (a collecting message handler: the message's own key,
     * as for every message kind).
     */
    public static final String VERSION_GC = "version-gc";

    private static final ThreadLocal<int[]> UNITS = ThreadLocal.withInitial(() -> new int[1]);
    private static final ThreadLocal<String[]> KIND = ThreadLocal.withInitial(() -> new String[1]);

    private HandlerUnits() {
    }

    /**
     * The running timer task is of kind {@code kind} (e.g. {@code lock-timeout}): it is charged and timed under its own
     * key, {@code "<role> timer/<kind>"} ({@link HandlerProfile#timerKey(org.tebaldi.core.runtime.Role, String)}),
     * not the role's one timer key — so that a timer that is frequent in some runs and cheap (a lock wait's time-out)
     * is not charged what a node's periodic work costs on average. The same for a message handler: {@code "<role>
     * <class>/<kind>"} ({@link HandlerProfile#key(org.tebaldi.core.runtime.Role, Object, String)}) — e.g. a watermark
     * reply that prunes SSI's read marks, not the one that collects old versions. A timer key a cost table lacks is
     * charged the role's mean ({@link CostTable#fallback}), a message key the message's own ({@link
     * CostTable#cost(String, String)}), until a calibration that runs it.
     */
    public static void kind(String kind) {
        KIND.get()[0] = kind;
    }

    /** The kind reported since the last call (null if none), and resets it. */
    public static String takeKind() {
        String[] k = KIND.get();
        String v = k[0];
        k[0] = null;
        return v;
    }

    /** The running handler did {@code n} more units of work (n ≥ 0). */
    public static void add(int n) {
        int[] u = UNITS.get();
        u[0] = (int) Math.min(Integer.MAX_VALUE, (long) u[0] + Math.max(0, n));
    }

    /** The units reported since the last call, and resets them to 0. */
    public static int take() {
        int[] u = UNITS.get();
        int v = u[0];
        u[0] = 0;
        return v;
    }
}
