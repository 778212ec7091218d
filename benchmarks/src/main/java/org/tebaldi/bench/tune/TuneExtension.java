package org.tebaldi.bench.tune;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.tebaldi.autoconf.configurator.Configurator;
import org.tebaldi.autoconf.configurator.Iteration;
import org.tebaldi.autoconf.reconfig.ReconfigServer;
import org.tebaldi.autoconf.tuning.LiveTarget;
import org.tebaldi.autoconf.tuning.SwapEvent;
import org.tebaldi.autoconf.tuning.TuningClock;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.experiment.AutoconfSpec;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.run.Hosting;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.runtime.SimulatedRuntime;
import org.tebaldi.core.runtime.SimulatedThread;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;

/**
 * The tuning daemon beside an experiment (dissertation §5.1, Fig 5.1): the profiler runs, a reconfiguration server
 * joins the cluster (in processes mode: hosted by the runner, found by the nodes through ZooKeeper, and each tree it
 * swaps to published there), and once warm-up ended (fixed, or when throughput settled: {@code warmup: {min, max}})
 * a thread runs the {@link Configurator} against the live cluster ({@link LiveTarget}), then measures the final
 * tree for {@code autoconf.final} and ends the run.
 * If the run's {@code duration} ends first, tuning is interrupted and the report says so. On a simulated cluster
 * (docs/autoconf.md, "Tuning a simulated cluster") the same code runs as a {@link SimulatedThread}: every sample,
 * analysis period, swap and the final measurement is timed and waited for in virtual time, between simulation
 * events, so that a seed reproduces the whole session; the profiler monitor and the reconfiguration server are
 * simulated nodes whose handlers the cost model charges on the service machine.
 */
public final class TuneExtension extends ProfilerExtension {
    private final Experiment e;
    private final TuneConsole console;
    private ReconfigServer server;
    private volatile LiveTarget target;
    private Thread thread;
    /** The simulation the cluster runs on, or null for a live cluster. */
    private SimulatedRuntime sim;
    private SimulatedThread simThread;
    private volatile TuningClock clock = TuningClock.REAL;
    private volatile List<Iteration> iterations = List.of();
    private volatile List<TuneConsole.Reentry> reentries = List.of();
    private volatile List<TuneConsole.Reentry> drifts = List.of();
    private volatile String outcome = "not started (the run ended during warm-up)";
    private volatile double finalTxnPerSec = Double.NaN;
    private volatile Throwable failure;
    private volatile long runStartNanos;
    private volatile Configurator.Listener extra;

    /**
     * How long the reconfiguration server waits for a node's answer before sending its request again, µs: a
     * dropped connection loses the messages in flight; the nodes answer repeated requests idempotently.
     */
    static final long RESEND_MICROS = 500_000;

    public TuneExtension(Experiment e, TuneConsole console) {
        super(e.profiler().on(), e.workload().database());
        this.e = e;
        this.console = console;
    }

    /**
     * Also hands the configurator's progress to {@code l} (e.g. the live view), on the tuning thread; call before
     * the run starts.
     */
    public TuneExtension listen(Configurator.Listener l) {
        this.extra = l;
        return this;
    }

    /** Every reconfiguration so far, in order (empty before tuning started). */
    public List<SwapEvent> swaps() {
        LiveTarget t = target;
        return t == null ? List.of() : t.swaps();
    }

    /** Candidates may use any mechanism: its service nodes must run from the start. */
    @Override
    public boolean allServices() {
        return true;
    }

    @Override
    public void beforeStart(Hosting host) {
        super.beforeStart(host);
        NodeId id = new NodeId(Role.CONFIGURATOR, 0);
        server = new ReconfigServer(id, host.runtime(), e.cluster().coordinators(), e.cluster().dataServers(),
                e.tree().tree(), org.tebaldi.core.cc.Mechanisms::get).resendAfter(RESEND_MICROS);
        server.onSwap(host::treeChanged);
        host.addNode(id, server);
        sim = host.runtime() instanceof SimulatedRuntime s ? s : null;
    }

    @Override
    public void started(LiveRun run) {
        runStartNanos = run.startNanos();
        AutoconfSpec a = e.autoconf();
        Configurator c = new Configurator(TreeContext.of(e.workload().database()), settings(a));
        if (sim != null) {
            simThread = new SimulatedThread(sim, "tebaldi-tuner", () -> tune(run, c));
            clock = TuningClock.simulated(simThread);
        }
        target = new LiveTarget(monitor(), server, e.workload().database(), run::commits,
                new LiveTarget.Settings(a.analysisMicros(), a.protocol().equals("online"), a.forceAbortMicros()), clock)
                .typeCommits(run::typeCommits);
        if (simThread != null) {
            simThread.start(); // runs until its first wait (for the measured window)
            return;
        }
        thread = new Thread(() -> tune(run, c), "tebaldi-tuner");
        thread.setDaemon(true);
        thread.start();
    }

    /** The configurator's settings from the experiment's {@code autoconf} section (durations in samples). */
    static Configurator.Settings settings(AutoconfSpec a) {
        long sample = LiveTarget.SAMPLE_MICROS;
        return new Configurator.Settings(a.mechanisms(), a.maxIterations(), a.minGain(), a.minScore(),
                a.maxCandidates(), a.edgesPerIteration(), a.rounds(), a.maxRounds(),
                a.confidence(), a.abandonedConfidence(),
                (int) (a.measureMicros() / sample), (int) (a.settleWindowMicros() / sample), 0.05,
                (int) Math.max(a.settleWindowMicros() / sample, a.settleMicros() / sample));
    }

    private void tune(LiveRun run, Configurator c) {
        TuneConsole.Recorder rec = console.recorder(clock::nanos);
        iterations = rec.iterations();
        reentries = rec.reentries();
        drifts = rec.drifts();
        try {
            run.awaitMeasuring(); // a fixed warm-up, or one that ends when throughput settled
            CcTree start = e.tree().tree();
            console.start(start);
            outcome = "running";
            Configurator.Listener l = extra == null ? rec : new TwoListeners(rec, extra);
            c.run(start, target, l);
            outcome = rec.finishedWhy();
            if (e.autoconf().daemon()) {
                console.daemon(outcome);
                outcome = "daemon";
                c.watch(rec.last(), target, l, new Configurator.Watch(e.autoconf().drift(), AutoconfSpec.PERSIST));
            }
            long t0 = clock.nanos();
            long c0 = run.commits();
            clock.sleepMicros(e.autoconf().finalMicros());
            finalTxnPerSec = (run.commits() - c0) * 1e9 / (clock.nanos() - t0);
            console.done(outcome, rec.last(), finalTxnPerSec);
            run.finish();
        } catch (InterruptedException x) {
            if (outcome.equals("daemon")) {
                outcome = "daemon stayed on until the run's duration ended; re-entered tuning "
                        + rec.reentries().size() + " times" + (rec.tuning() ? " (the last pass was interrupted)" : "");
            } else if (!outcome.startsWith("not started")) {
                outcome = "interrupted: the run's duration ended before tuning did (raise duration)";
            }
            console.interrupted(outcome);
        } catch (RuntimeException x) {
            failure = x;
            outcome = "failed: " + x;
            console.interrupted(outcome);
            run.finish();
        }
    }

    /** On a simulated cluster the window ends in virtual time: tuning still under way is interrupted there. */
    @Override
    public void windowEnded() {
        if (simThread != null) {
            simThread.interrupt();
        }
    }

    @Override
    public void stopped() throws InterruptedException {
        if (simThread != null) {
            simThread.interrupt(); // the run was cut short (else windowEnded did it): ends it at this instant
            if (simThread.failure() != null && failure == null) {
                failure = simThread.failure();
            }
            return;
        }
        if (thread != null) {
            thread.interrupt();
            thread.join(TimeUnit.MINUTES.toMillis(1));
        }
    }

    /** An exception that ended tuning, or null. */
    public Throwable failure() {
        return failure;
    }

    @Override
    public void writeFiles(Path dir, RunResult result) throws IOException {
        super.writeFiles(dir, result);
        TuneFiles.write(dir, e, iterations, target == null ? List.of() : target.swaps(), outcome, finalTxnPerSec,
                runStartNanos, result, reentries, drifts);
    }
}
