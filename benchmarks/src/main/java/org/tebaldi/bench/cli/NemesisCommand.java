package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.tebaldi.bench.nemesis.NemesisRun;
import org.tebaldi.bench.nemesis.NetFabric;
import org.tebaldi.bench.run.RunListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi nemesis --out DIR [--seed S] [--schedules N] [--seconds T] [--replicas R] [--fencing lease|off]
 * [--tree YAML] [--session-timeout MS]} (docs/reliability.md, "Nemesis"): N runs of the list-append workload in
 * process mode, every node in a network namespace of its own on a private bridge, each under the fault schedule of
 * seed S, S+1, …; each run's schedule, events, history and verdict under {@code DIR/seed-S/}, and one line per run
 * in {@code DIR/campaign.txt}. A run that cannot start for lack of free memory is tried again, 30 s apart, up to
 * {@value #MEMORY_RETRIES} times. Exit codes: 0 every run passed, 1 a run failed, 2 bad input or network namespaces
 * not allowed here (one line says which), 3 the results could not be written.
 */
@Command(name = "nemesis", description = {"Run the list-append workload on node processes in network namespaces "
        + "under a seeded schedule of faults (partitions, kill -9 and restart, SIGSTOP/SIGCONT), heal, and check.",
        "Needs root ('ip netns add'). Results per seed under --out."})
final class NemesisCommand implements Callable<Integer> {
    /**
     * Times a run that could not start because the machine's free memory was short of the node JVMs' plan (a shared
     * machine) is tried again, 30 s apart, before it counts as failed.
     */
    static final int MEMORY_RETRIES = 10;

    @Spec
    CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "results directory")
    Path out;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "first schedule's seed "
            + "(default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--schedules", defaultValue = "1", paramLabel = "N", description = "runs, seeds S..S+N-1 "
            + "(default: ${DEFAULT-VALUE})")
    int schedules;

    @Option(names = "--seconds", defaultValue = "30", paramLabel = "T", description = "workload length of each "
            + "run, s, at least 20 (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--replicas", defaultValue = "1", paramLabel = "R", description = "replication factor, 1..3 "
            + "(default: ${DEFAULT-VALUE}: off)")
    int replicas;

    @Option(names = "--fencing", defaultValue = "lease", paramLabel = "lease|off", description = "replication."
            + "fencing (default: ${DEFAULT-VALUE})")
    String fencing;

    @Option(names = "--tree", defaultValue = NemesisRun.TREE_2PL, paramLabel = "YAML", description = "the CC tree "
            + "over t_a, t_b, t_c, t_ro: inline YAML or a tree file (default: 2PL)")
    String tree;

    @Option(names = "--session-timeout", defaultValue = "6000", paramLabel = "MS", description = "ZooKeeper "
            + "session timeout of the nodes, ms, 4000..60000 (default: ${DEFAULT-VALUE})")
    int sessionMillis;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter outw = spec.commandLine().getOut();
        String bad = schedules < 1 ? "--schedules must be at least 1"
                : seconds < 20 ? "--seconds must be at least 20 (faults start after 1 s; the last 40%, at least 12 s, is left for recovery)"
                : replicas < 1 || replicas > 3 ? "--replicas must be 1, 2 or 3 (3 data servers)"
                : !fencing.equals("lease") && !fencing.equals("off") ? "--fencing must be lease or off"
                : sessionMillis < 4000 || sessionMillis > 60_000 ? "--session-timeout must be 4000..60000 ms" : null;
        if (bad != null) {
            err.println("tebaldi nemesis: " + bad);
            err.flush();
            return ExitCodes.CONFIG;
        }
        List<String> lines = new ArrayList<>();
        int failed = 0;
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(out);
            for (int i = 0; i < schedules; i++) {
                long s = seed + i;
                NemesisRun run = new NemesisRun(s, seconds, replicas, fencing.equals("lease"), tree, sessionMillis,
                        out.resolve("seed-" + s));
                outw.println("nemesis: seed " + s + " (" + (i + 1) + "/" + schedules + ") ...");
                outw.flush();
                NemesisRun.Verdict v = run.run(new RunListener() { });
                for (int wait = 0; wait < MEMORY_RETRIES && v.summary().contains("cannot fit its"); wait++) {
                    outw.println("  seed " + s + ": not started, the shared machine's memory is short; again in 30 s");
                    outw.flush();
                    Thread.sleep(30_000);
                    v = run.run(new RunListener() { });
                }
                failed += v.passed() ? 0 : 1;
                String line = "seed " + s + ": " + v.schedule().faults().size() + " faults; " + v.summary();
                lines.add(line);
                outw.println("  " + line);
                outw.flush();
                Files.write(out.resolve("campaign.txt"), lines);
            }
        } catch (NetFabric.Unavailable e) {
            err.println("tebaldi nemesis: " + e.getMessage());
            err.flush();
            return ExitCodes.CONFIG;
        } catch (IOException e) {
            err.println("tebaldi nemesis: cannot write the results under " + out + ": " + e.getMessage());
            err.flush();
            return ExitCodes.RUN_FAILED;
        }
        String total = String.format(java.util.Locale.ROOT, "%d run(s), %d failed, %.1f min", schedules, failed,
                (System.nanoTime() - t0) / 60e9);
        lines.add(total);
        try {
            Files.write(out.resolve("campaign.txt"), lines);
        } catch (IOException e) {
            err.println("tebaldi nemesis: cannot write " + out.resolve("campaign.txt") + ": " + e.getMessage());
            return ExitCodes.RUN_FAILED;
        }
        outw.println("nemesis: " + total);
        outw.flush();
        return failed == 0 ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }
}
