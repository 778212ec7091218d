package org.tebaldi.cc.rp;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.OptionDraw;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.cc.lock.DeadlockPolicy;
import org.tebaldi.core.tree.CcNode;

/**
 * Runtime pipelining as a CC-tree node, leaf or inner (dissertation §4.4.2, §2.3.1; Xie et al., Callas, SOSP
 * 2015): a static analysis orders the tables of its group's transaction types into steps and reorders stored
 * procedures accordingly; at run time transactions hold step-level locks, expose step-committed writes, enter a
 * step only after the transactions they depend on passed it, and commit after them.
 *
 * <p>Options: {@code lockTimeout} (duration, default 1s: step-lock wait), {@code stepTimeout} (duration,
 * default 1s: wait to enter a step); either timing out aborts the transaction (deadlocks between groups);
 * {@code stepRule}: {@code paper} (default, §4.4.2: entering step b finishes every step below b, the end of execution
 * every step) or {@code strict} ({@link StepRule}); {@code dependencies}: {@code direct} (default, §4.3) or
 * {@code all} ({@link DependencyRule}); {@code deadlock}: {@code detect} (default: a step-lock wait that closes a
 * cycle of step-lock waits at its data server aborts at once — §4.4.2 isolates a step's operations with 2PL, and two
 * transactions updating the same rows of one step in opposite orders, as TPC-C's new_order does with stock rows,
 * deadlock there), or a {@link DeadlockPolicy} of 2PL's ({@code timeout}: only {@code lockTimeout} breaks them). The
 * argument for the defaults is in docs/mechanisms.md "Runtime pipelining". The timeouts' default is long on purpose:
 * a pipeline's waits grow with its queue, and an RP abort cascades to every reader of
 * the aborted transaction's step-committed writes (TPC-C 3-layer at 800 clients on 2 cores: 100 ms gave 902 txn/s
 * with 91% aborts, 86,822 of them cascading; 1 s gave 2,594 txn/s with 0.8% aborts).
 */
public final class RuntimePipelining implements Mechanism {
    /** Default timeouts, µs. */
    public static final long DEFAULT_TIMEOUT_MICROS = 1_000_000;
    /**
     * How step locks break deadlocks by default: a step-lock wait that would close a cycle of waits at its data server
     * aborts its transaction at once (docs/mechanisms.md "Runtime pipelining", deadlocks within a step).
     */
    public static final DeadlockPolicy DEFAULT_DEADLOCK = DeadlockPolicy.DETECT;
    /** The options, in the order messages list them. */
    private static final List<String> OPTIONS = List.of("lockTimeout", "stepTimeout", "stepRule", "dependencies",
            "deadlock");
    /**
     * System property naming rules to switch off, comma-separated — {@code crossWait} (cross-group dependencies need
     * not have finished the step), {@code inGroupWait} (in-group ones need not have started it), {@code handOn} (an
     * aborted predecessor hands nothing on) — for the tests that show each rule matters (docs/mechanisms.md). Read
     * when a node's parts are made; never set outside those tests.
     */
    public static final String ABLATE = "tebaldi.rp.ablate";

    private static java.util.Set<String> ablated() {
        String v = System.getProperty(ABLATE, "");
        return v.isBlank() ? java.util.Set.of() : java.util.Set.of(v.split(","));
    }

    @Override
    public String name() {
        return "rp";
    }

    /** Random trees: a 20 ms lock timeout. */
    @Override
    public List<OptionDraw> randomOptions() {
        return List.of(OptionDraw.fixed("lockTimeout", "20ms", OptionDraw.Scope.EVERY_NODE));
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        for (String k : node.options().keySet()) {
            if (!OPTIONS.contains(k)) {
                problems.add("option '" + k + "' is unknown to rp (options: " + String.join(", ", OPTIONS) + ")");
            }
        }
        try {
            StepRule.parse(node.option("stepRule", "paper"));
            DependencyRule.parse(node.option("dependencies", "direct"));
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        String d = node.option("deadlock", DEFAULT_DEADLOCK.option());
        if (DeadlockPolicy.parse(d) == null) {
            problems.add("option 'deadlock' must be " + DeadlockPolicy.choices() + ", not '" + d + "'");
        }
        for (String k : List.of("lockTimeout", "stepTimeout")) {
            try {
                if (node.durationOption(k, DEFAULT_TIMEOUT_MICROS) <= 0) {
                    problems.add("option '" + k + "' must be positive");
                }
            } catch (IllegalArgumentException e) {
                problems.add("option '" + k + "': " + e.getMessage());
            }
        }
        return problems;
    }

    /** Runs the static analysis for the node's group (dissertation §4.4.2, §5.4.2). */
    @Override
    public void preprocess(CcNode node, org.tebaldi.core.db.Database db) {
        RpPlan.of(node, db);
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        return new RpTcPart(node, services, node.durationOption("stepTimeout", DEFAULT_TIMEOUT_MICROS),
                StepRule.parse(node.option("stepRule", "paper")), ablated());
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new RpDsPart(node, services, node.durationOption("lockTimeout", DEFAULT_TIMEOUT_MICROS),
                DependencyRule.parse(node.option("dependencies", "direct")), !ablated().contains("handOn"),
                DeadlockPolicy.parse(node.option("deadlock", DEFAULT_DEADLOCK.option())));
    }
}
