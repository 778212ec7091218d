package org.example.xlock;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.OptionDraw;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.tree.CcNode;

/**
 * "Exclusive-lock-everything", a mechanism written outside the framework's source tree (docs/architecture.md,
 * "Adding a mechanism"): as a CC-tree leaf, every operation — read or write — takes an exclusive lock on its key at
 * the data server, held until the transaction ends (strict two-phase locking with X locks only, Bernstein,
 * Hadzilacos and Goodman 1987, §3.2). A request that conflicts waits in the lock's FIFO queue; a wait longer than
 * {@code lockTimeout} (duration, default 20ms) aborts the transaction, which breaks deadlocks. Leaf only: it
 * reports no dependencies to a parent. Registered through {@code META-INF/services/org.tebaldi.core.cc.Mechanism}.
 */
public final class ExclusiveLocking implements Mechanism {
    /** Default lock-wait timeout, µs. */
    public static final long DEFAULT_TIMEOUT_MICROS = 20_000;

    @Override
    public String name() {
        return "xlock";
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        for (String k : node.options().keySet()) {
            if (!k.equals("lockTimeout")) {
                problems.add("option '" + k + "' is unknown to xlock (options: lockTimeout)");
            }
        }
        try {
            if (node.durationOption("lockTimeout", DEFAULT_TIMEOUT_MICROS) <= 0) {
                problems.add("option 'lockTimeout' must be positive");
            }
        } catch (IllegalArgumentException e) {
            problems.add("option 'lockTimeout': " + e.getMessage());
        }
        if (!node.isLeaf()) {
            problems.add("xlock is a leaf only: it reports no dependencies to order its children by; put it under "
                    + "2pl or ssi, or use it as the whole tree");
        }
        return problems;
    }

    /** Random trees: a short lock timeout keeps simulated runs brisk. */
    @Override
    public List<OptionDraw> randomOptions() {
        return List.of(OptionDraw.fixed("lockTimeout", "20ms", OptionDraw.Scope.EVERY_NODE));
    }

    /** All the work happens at the data servers: the coordinator's part does nothing. */
    @Override
    public TcPart<Void> tcPart(CcNode node, TcServices services) {
        return new TcPart<>() {
        };
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new ExclusiveDsPart(node, services, node.durationOption("lockTimeout", DEFAULT_TIMEOUT_MICROS));
    }
}
