package org.tebaldi.bench.jmh;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;

/**
 * The cost of one message between actors of the embedded runtime (docs/performance.md): the mailbox, the
 * scheduling of the receiving actor on a worker thread, the wake-ups, and the emulated network delay's queue — the
 * part of a transaction's cost that the {@code DirectRuntime} benchmarks ({@link CcPathBenchmark}) leave out.
 * Actor pairs ({@code pairs} of them, each pair on its own coordinator and data-server address) bounce
 * {@code window} messages per pair back and forth until {@link #MESSAGES} = 100,000 messages were handled in all;
 * the invocation ends when the last one arrives. JMH reports ms per invocation: × 10 gives ns per message. With a delay the figure
 * includes the workers' idle time whenever fewer messages are in flight than a core can handle in the delay.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
@State(Scope.Benchmark)
public class MessageBenchmark {
    /** Messages handled per invocation, in all pairs. */
    public static final int MESSAGES = 100_000;

    /** Emulated one-way delay, µs (0: none; 50: the experiments' default). */
    @Param({"0", "50"})
    public long delayMicros;

    /** Messages each pair keeps in flight. */
    @Param({"1", "64"})
    public int window;

    /** Actor pairs (each pair a coordinator and a data server address). */
    @Param({"4"})
    public int pairs;

    private EmbeddedRuntime rt;
    private Bouncer[] bouncers;
    private volatile CountDownLatch done;

    /**
     * A starter sends {@code window} messages, then one more for each that comes back until it sent its budget, and
     * signals once the whole budget came back; a responder sends every message straight back.
     */
    private final class Bouncer implements Actor {
        final NodeId peer;
        final boolean starter;
        NodeContext ctx;
        int budget;
        int sent;
        int received;

        Bouncer(NodeId peer, boolean starter) {
            this.peer = peer;
            this.starter = starter;
        }

        @Override
        public void onStart(NodeContext c) {
            ctx = c;
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            if (!starter) {
                ctx.send(peer, msg);
                return;
            }
            if (msg instanceof Go go) {
                budget = go.messages;
                received = 0;
                sent = Math.min(window, budget);
                for (int i = 0; i < sent; i++) {
                    ctx.send(peer, Integer.valueOf(i));
                }
                return;
            }
            received++;
            if (sent < budget) {
                sent++;
                ctx.send(peer, msg);
            } else if (received == budget) {
                done.countDown();
            }
        }
    }

    /** Starts an invocation: the starter's budget of round trips. */
    private record Go(int messages) {
    }

    /** Starts the runtime and the actors. */
    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        rt = new EmbeddedRuntime(0, delayMicros);
        bouncers = new Bouncer[pairs * 2];
        for (int p = 0; p < pairs; p++) {
            bouncers[2 * p] = new Bouncer(NodeId.ds(p), true);
            bouncers[2 * p + 1] = new Bouncer(NodeId.tc(p), false);
            rt.spawn(NodeId.tc(p), bouncers[2 * p]);
            rt.spawn(NodeId.ds(p), bouncers[2 * p + 1]);
        }
        Thread.sleep(50);
    }

    /** Stops the runtime. */
    @TearDown(Level.Trial)
    public void tearDown() {
        rt.close();
    }

    /**
     * {@link #MESSAGES} messages in all pairs.
     *
     * @return the signals still missing (0), so that nothing is optimized away
     * @throws InterruptedException if interrupted while waiting
     */
    @Benchmark
    public long messages() throws InterruptedException {
        int roundTrips = MESSAGES / (2 * pairs);
        done = new CountDownLatch(pairs);
        for (int p = 0; p < pairs; p++) {
            rt.inject(NodeId.tc(p), new Go(roundTrips));
        }
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("messages did not arrive");
        }
        return done.getCount();
    }
}
