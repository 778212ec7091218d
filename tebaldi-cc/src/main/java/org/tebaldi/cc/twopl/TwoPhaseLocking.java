package org.tebaldi.cc.twopl;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.OptionDraw;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.lock.DeadlockPolicy;
import org.tebaldi.core.config.Durations;
import org.tebaldi.core.tree.CcNode;

/**
 * Two-phase locking as a CC-tree node, leaf or inner (dissertation §4.4.1; nexus locks §3.3.2). All of its
 * work happens at the data servers: the TC part does nothing.
 *
 * <p>Options: {@code lockTimeout} (duration, default 100ms) — a parked lock request aborts its transaction
 * after this long, which breaks deadlocks; {@code deadlock}: {@code timeout} (default), {@code wait-die} (a younger
 * transaction that conflicts with an older holder aborts at once; the timeout still applies), {@code no-wait} (a
 * lock request that cannot be granted at once aborts its transaction: the flat 2PL baseline of Sundial's and COCO's
 * evaluations), {@code detect} (a request whose wait would close a cycle of waits in this node's lock table at its
 * data server aborts at once; the timeout still breaks other cycles — RP's default, docs/mechanisms.md)
 * or {@code wound-wait} (an older requester wounds — aborts — a younger conflicting holder and waits
 * for it; a younger requester waits: Rosenkrantz et al. 1978, {@link WoundWaitDsPart}).
 */
public final class TwoPhaseLocking implements Mechanism, org.tebaldi.core.cc.LabelledCounters {
    /** Default lock-wait timeout, µs. */
    public static final long DEFAULT_TIMEOUT_MICROS = 100_000;

    /** The {@code deadlock} value of wound-wait, which this package implements on top of the lock table. */
    static final String WOUND_WAIT = "wound-wait";

    @Override
    public String name() {
        return "2pl";
    }

    /** Random trees: a 20 ms lock timeout, and a deadlock flavour drawn on every node. */
    @Override
    public List<OptionDraw> randomOptions() {
        return List.of(OptionDraw.fixed("lockTimeout", "20ms", OptionDraw.Scope.EVERY_NODE),
                OptionDraw.drawn("deadlock", OptionDraw.Scope.EVERY_NODE, false, "timeout", "wait-die", "no-wait"));
    }

    /**
     * {@code summary.json} key {@code woundWait}: wounds under {@code deadlock: wound-wait}, counted at the data
     * server where an older requester wounded a younger transaction ({@link WoundWaitDsPart}).
     */
    @Override
    public List<org.tebaldi.core.cc.CounterGroup> counterGroups() {
        return List.of(new org.tebaldi.core.cc.CounterGroup("woundWait", "wound-wait", "2pl.", List.of("wounds"),
                List.of()));
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        for (String k : node.options().keySet()) {
            if (!k.equals("lockTimeout") && !k.equals("deadlock")) {
                problems.add("option '" + k + "' is unknown to 2pl (options: lockTimeout, deadlock)");
            }
        }
        try {
            if (node.durationOption("lockTimeout", DEFAULT_TIMEOUT_MICROS) <= 0) {
                problems.add("option 'lockTimeout' must be positive");
            }
        } catch (IllegalArgumentException e) {
            problems.add("option 'lockTimeout': " + e.getMessage());
        }
        String d = node.option("deadlock", DeadlockPolicy.TIMEOUT.option());
        if (DeadlockPolicy.parse(d) == null && !d.equals(WOUND_WAIT)) {
            problems.add("option 'deadlock' must be " + DeadlockPolicy.choices().replace(" or ", ", ") + " or '"
                    + WOUND_WAIT + "', not '" + d + "'");
        }
        return problems;
    }

    /**
     * A 2PL node keeps no per-group state: a new child group is regulated by the same nexus locks as the others
     * (dissertation §5.5.2 uses a 2PL parent for its online update).
     */
    @Override
    public boolean acceptsNewChildren(CcNode node) {
        return !node.isLeaf();
    }

    @Override
    public TcPart<Void> tcPart(CcNode node, TcServices services) {
        if (woundWait(node)) {
            return new WoundWaitTcPart(node, services);
        }
        return new TcPart<>() {
        };
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        long timeout = node.durationOption("lockTimeout", DEFAULT_TIMEOUT_MICROS);
        if (woundWait(node)) {
            return new WoundWaitDsPart(node, services, timeout);
        }
        return new TwoPlDsPart(node, services, timeout,
                DeadlockPolicy.parse(node.option("deadlock", DeadlockPolicy.TIMEOUT.option())));
    }

    private static boolean woundWait(CcNode node) {
        return node.option("deadlock", DeadlockPolicy.TIMEOUT.option()).equals(WOUND_WAIT);
    }

    @Override
    public String toString() {
        return name() + " (lock timeout default " + Durations.format(DEFAULT_TIMEOUT_MICROS) + ")";
    }
}
