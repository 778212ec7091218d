package org.tebaldi.autoconf.profiler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.tebaldi.core.profile.BlockingBatch;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;

/**
 * The profiler's performance monitor node (dissertation §5.3.2): collects the blocking events the nodes send in
 * batches and, every analysis window, scores ordered type pairs with nested-wait attribution
 * ({@link ContentionScores}), sums them into conflict edges and names the bottleneck. Events of the previous
 * window stay available for nested-wait lookups. Reports can be read from any thread ({@link #reports()}) or pushed
 * to a listener, which runs on the monitor's thread.
 */
public final class ProfilerMonitor implements Actor {
    private static final int KEEP_REPORTS = 10_000;

    private final long windowMicros;
    private final CopyOnWriteArrayList<WindowReport> reports = new CopyOnWriteArrayList<>();
    private volatile Consumer<WindowReport> listener = r -> { };
    private List<BlockingEvent> current = new ArrayList<>();
    private List<BlockingEvent> previous = List.of();
    private NodeContext ctx;
    private long windowStart;

    /** @param windowMicros analysis window, µs */
    public ProfilerMonitor(long windowMicros) {
        if (windowMicros <= 0) {
            throw new IllegalArgumentException("analysis window must be positive, got " + windowMicros);
        }
        this.windowMicros = windowMicros;
    }

    /** Receives each window's report on the monitor's thread. */
    public void setListener(Consumer<WindowReport> l) {
        this.listener = l;
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
        windowStart = ctx.nowMicros();
        ctx.schedule(windowMicros, this::closeWindow);
    }

    @Override
    public void onMessage(NodeId from, Object msg) {
        if (msg instanceof BlockingBatch b) {
            long[] e = b.events();
            for (int i = 0; i + BlockingBatch.STRIDE <= e.length; i += BlockingBatch.STRIDE) {
                current.add(new BlockingEvent(e[i], (int) e[i + 1], e[i + 2], (int) e[i + 3], e[i + 4],
                        Math.max(e[i + 4], e[i + 5])));
            }
        }
    }

    private void closeWindow() {
        long end = ctx.nowMicros();
        List<BlockingEvent> known = new ArrayList<>(previous);
        known.addAll(current);
        ContentionScores s = ContentionScores.of(current, known);
        WindowReport r = new WindowReport(windowStart, end, current.size(), s.pairs(), s.edges(), s.bottleneck());
        reports.add(r);
        if (reports.size() > KEEP_REPORTS) {
            reports.remove(0);
        }
        previous = current;
        current = new ArrayList<>();
        windowStart = end;
        listener.accept(r);
        ctx.schedule(windowMicros, this::closeWindow);
    }

    /** The reports so far, oldest first (a snapshot; safe from any thread). */
    public List<WindowReport> reports() {
        return List.copyOf(reports);
    }
}
