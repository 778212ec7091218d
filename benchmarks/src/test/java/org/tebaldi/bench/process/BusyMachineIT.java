package org.tebaldi.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.driver.LiveRun;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.runtime.NodeId;

/**
 * Process mode holds on a busy machine (docs/cluster.md, "Process mode", failure detection): a short TPC-C run with one
 * JVM per node runs next to two busy-looping threads (in this JVM, which also hosts the embedded ZooKeeper server
 * and the client endpoints), and data server ds1 is frozen with SIGSTOP for 5 s mid-run and then continued with
 * SIGCONT. With the default 15-s ZooKeeper session the frozen node stays a member (its session outlives the
 * pause; SUSPENDED is not death), the run completes, the cluster commits again after the pause, and the history
 * collected from every node is serializable and TPC-C consistent. The run lasts 14 s and until it committed 2 s
 * after SIGCONT (its duration only a bound), so that a slower recovery on a loaded machine is waited for. Runs
 * under failsafe after {@code package} built the fat jar (Linux: {@code kill -STOP}); loopback only, with its own
 * embedded ZooKeeper.
 */
class BusyMachineIT {
    private static final int STOP_AT_SECOND = 3;
    private static final long STOP_MILLIS = 5_000;

    @TempDir
    Path tmp;

    @Test
    void aRunSurvivesBusyCoresAndADataServerStoppedFor5Seconds() throws Exception {
        var e = ExperimentLoader.parse("""
                name: busy-machine
                workload: {name: tpcc, warehouses: 2, items: 1000, customersPerDistrict: 60, ordersPerDistrict: 60}
                tree: {root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, stock_level]}}
                cluster: {mode: processes, dataServers: 2, coordinators: 2}
                clients: 8
                warmup: 1s
                duration: 300s
                verify: true
                """, tmp.resolve("x.yaml"), List.of(), tmp);
        AtomicBoolean spin = new AtomicBoolean(true);
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (spin.get()) {
                    x += System.nanoTime() & 1; // a core kept busy the whole run
                }
                if (x == 42) {
                    System.out.print("");
                }
            }, "busy-loop-" + i);
            t.setDaemon(true);
            t.start();
            busy.add(t);
        }
        AtomicReference<ProcessExperimentRun> holder = new AtomicReference<>();
        AtomicReference<String> stopped = new AtomicReference<>();
        AtomicReference<Throwable> stopFailure = new AtomicReference<>();
        List<Long> resumedAtSecond = new CopyOnWriteArrayList<>();
        AtomicLong resumedAt = new AtomicLong(); // System.nanoTime() after SIGCONT
        AtomicLong startedAt = new AtomicLong();
        List<Long> membershipFailures = new CopyOnWriteArrayList<>();
        RunListener freezer = new RunListener() {
            @Override
            public void tick(ProgressTick t) {
                var pc = holder.get().cluster();
                if (pc != null) {
                    membershipFailures.add((long) pc.failedNodes().size());
                }
                if (t.second() == STOP_AT_SECOND && stopped.get() == null && pc != null) {
                    long pid = pc.process(NodeId.ds(1)).pid();
                    stopped.set("ds1 pid " + pid);
                    Thread th = new Thread(() -> {
                        try {
                            signal("STOP", pid);
                            stopped.set("ds1 pid " + pid + " state " + state(pid));
                            TimeUnit.MILLISECONDS.sleep(STOP_MILLIS);
                        } catch (Exception x) {
                            stopFailure.set(x);
                        } finally {
                            try {
                                signal("CONT", pid);
                            } catch (Exception x) {
                                stopFailure.compareAndSet(null, x);
                            }
                            resumedAtSecond.add(t.second() + STOP_MILLIS / 1000);
                            resumedAt.set(System.nanoTime());
                        }
                    }, "sigstop-ds1");
                    th.setDaemon(true);
                    th.start();
                }
            }
        };
        RunResult r;
        try {
            RunExtension ender = new RunExtension() { // 14 s, and until commits 2 s after SIGCONT
                @Override
                public void started(LiveRun live) {
                    startedAt.set(live.startNanos());
                    CompletableFuture.runAsync(() -> {
                        try {
                            Waits.until(() -> Waits.since(live.startNanos(), 14) && resumedAt.get() != 0, 240);
                            Waits.until(() -> Waits.since(resumedAt.get(), 2.1), 10); // a timeline bucket past 2 s
                            long base = live.commits();
                            Waits.until(() -> Waits.since(resumedAt.get(), 5) && live.commits() > base, 120);
                        } finally {
                            live.finish();
                        }
                    });
                }
            };
            ProcessExperimentRun run = new ProcessExperimentRun(e, freezer, tmp.resolve("nodes"), null,
                    NodeLauncher.command(), ender);
            holder.set(run);
            r = run.run();
        } finally {
            spin.set(false);
            for (Thread t : busy) {
                t.join(1000);
            }
        }
        assertEquals(null, stopFailure.get(), "kill -STOP / -CONT worked");
        assertTrue(stopped.get() != null && stopped.get().endsWith("state T"), "ds1 was stopped: " + stopped.get());
        assertEquals(1, resumedAtSecond.size(), "ds1 was continued");
        assertTrue(membershipFailures.stream().allMatch(n -> n == 0), "no node left the membership: "
                + membershipFailures);
        assertTrue(r.checks().serializable(), r.checks().report());
        assertTrue(r.checks().consistent(), () -> r.checks().consistency().summary() + " "
                + r.checks().consistency().problems());
        long lateMs = (resumedAt.get() - startedAt.get()) / 1_000_000 + 2_000;
        assertTrue(Waits.commitsAfter(r.driver().timeline(), lateMs) > 0, "committing again 2 s after ds1 was "
                + "continued (" + lateMs + " ms into the run): " + r.driver().timeline());
        assertTrue(Files.readString(tmp.resolve("nodes").resolve("ds1.log")).contains("session 15000 ms"),
                "ds1 got the default 15-s session");
    }

    private static void signal(String sig, long pid) throws Exception {
        Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).redirectErrorStream(true).start();
        if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
            throw new IllegalStateException("kill -" + sig + " " + pid + " failed: "
                    + new String(k.getInputStream().readAllBytes()));
        }
    }

    /** The process state letter from {@code /proc/PID/stat} (T = stopped), after up to 1 s for the signal. */
    private static String state(long pid) throws Exception {
        String s = "?";
        for (int i = 0; i < 100; i++) {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            s = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
            if (s.equals("T")) {
                return s;
            }
            Thread.sleep(10);
        }
        return s;
    }
}
