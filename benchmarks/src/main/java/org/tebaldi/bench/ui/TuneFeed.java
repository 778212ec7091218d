package org.tebaldi.bench.ui;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;
import org.tebaldi.autoconf.configurator.Bottleneck;
import org.tebaldi.autoconf.configurator.Candidate;
import org.tebaldi.autoconf.configurator.Configurator;
import org.tebaldi.autoconf.configurator.Iteration;
import org.tebaldi.autoconf.configurator.Window;
import org.tebaldi.autoconf.tuning.SwapEvent;
import org.tebaldi.core.tree.CcTree;

/**
 * The tuning daemon's progress (dissertation Fig 5.1) as live-view events: each iteration's bottleneck, every
 * candidate screened with its mean and gain interval and verdict, or why it was rejected, the decision (adopted or
 * kept), the daemon's watching and re-entries, and each reconfiguration as it completes, labelled as putting the
 * candidate under test in or the incumbent back. Runs on the configurator's thread.
 */
final class TuneFeed implements Configurator.Listener {
    private final LiveState state;
    private final LongSupplier nowMs;
    private final Supplier<List<SwapEvent>> swaps;
    private final LongUnaryOperator ms;
    private volatile String candidate;
    private int swapsSeen;

    /**
     * @param nowMs milliseconds since the run started
     * @param swaps the reconfigurations so far, in order
     * @param ms    a {@link System#nanoTime()} reading as milliseconds since the run started
     */
    TuneFeed(LiveState state, LongSupplier nowMs, Supplier<List<SwapEvent>> swaps, LongUnaryOperator ms) {
        this.state = state;
        this.nowMs = nowMs;
        this.swaps = swaps;
        this.ms = ms;
    }

    /**
     * A swap completed: adds the reconfigurations not yet shown — when it started and ended (ms since the run
     * started), the protocol and its report (and the phases' durations alone), the tree, and whether it put the
     * candidate under test in or the incumbent back.
     */
    @Override
    public void swapped(int i, String swap) {
        List<SwapEvent> l = swaps.get();
        for (; swapsSeen < l.size(); swapsSeen++) {
            SwapEvent e = l.get(swapsSeen);
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("n", swapsSeen + 1);
            o.put("iteration", i);
            o.put("startMs", ms.applyAsLong(e.startNanos()));
            o.put("endMs", ms.applyAsLong(e.endNanos()));
            o.put("protocol", e.result().protocol());
            o.put("note", e.result().note());
            o.put("tree", e.tree());
            o.put("role", e.tree().equals(candidate) ? "candidate" : "incumbent");
            String d = e.result().describe();
            String head = e.result().protocol() + (e.result().note() == null ? "" : " (" + e.result().note() + ")")
                    + ":";
            o.put("describe", d);
            o.put("phases", d.startsWith(head) ? d.substring(head.length()).trim() : d);
            o.put("forceAborted", e.result().forceAborted());
            state.swap(o);
        }
    }

    private void event(String kind, String fmt, Object... args) {
        state.event(kind, nowMs.getAsLong(), String.format(Locale.ROOT, fmt, args));
    }

    @Override
    public void analyzed(int i, Bottleneck b, double base) {
        if (b == null) {
            event("analyzed", "iteration %d: no blocking; %,.0f txn/s", i, base);
        } else {
            event("analyzed", "iteration %d: bottleneck %s, %.1f ms blocked per s; %,.0f txn/s", i, b.edge(),
                    b.scoreMicrosPerSec() / 1000, base);
        }
    }

    @Override
    public void testing(int i, int index, int count, Candidate c) {
        candidate = c.tree().describe();
        event("testing", "iteration %d: candidate %d/%d %s", i, index, count, c);
    }

    @Override
    public void measured(int i, Window w) {
        event("measured", "%s window %,.0f txn/s%s", w.tree(), w.txnPerSec(),
                w.settleSamples() > 0 ? String.format(Locale.ROOT, " (settled %d ms)", w.settleSamples() * 100) : "");
    }

    @Override
    public void tried(int i, Iteration.Trial t) {
        if (t.rejected() != null) {
            event("rejected", "rejected %s: %s", t.candidate().tree().describe(), t.rejected());
        } else {
            event("measured-candidate", "%s: %,.0f txn/s, gain %s -> %s", t.candidate().tree().describe(),
                    t.txnPerSec(), t.estimate().describe(), t.verdict());
        }
        candidate = null;
    }

    @Override
    public void confirming(int i, Iteration.Trial winner) {
        candidate = winner.candidate().tree().describe();
        event("confirming", "confirming %s on fresh windows", candidate);
    }

    @Override
    public void decided(Iteration it, String swap) {
        candidate = null;
        if (it.improved()) {
            event("adopted", "iteration %d: adopted %s (%,.0f txn/s, gain %s)", it.number(), it.adopted().describe(),
                    it.adoptedTxnPerSec(), it.confirmation().describe());
        } else {
            event("kept", "iteration %d: kept %s (%,.0f txn/s)", it.number(), it.start().describe(),
                    it.startTxnPerSec());
        }
    }

    @Override
    public void finished(String why) {
        event("finished", "tuning done: %s", why);
    }

    @Override
    public void watching(CcTree tree, double reference, String edge) {
        event("watching", "daemon watches %s, reference %,.0f txn/s", tree.describe(), reference);
    }

    @Override
    public void reentering(String why) {
        event("reentering", "daemon re-enters tuning: %s", why);
    }

    @Override
    public void engineDrift(String why) {
        event("engine-drift", "daemon: %s", why);
    }
}
