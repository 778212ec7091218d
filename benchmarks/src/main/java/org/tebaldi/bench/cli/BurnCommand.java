package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tebaldi.bench.burn.BurnCampaign;
import org.tebaldi.bench.burn.BurnReport;
import org.tebaldi.bench.burn.BurnResult;
import org.tebaldi.bench.burn.BurnRun;
import org.tebaldi.bench.burn.Scenario;
import org.tebaldi.bench.burn.ScenarioDraw;
import org.tebaldi.bench.burn.ScenarioFiles;
import org.tebaldi.bench.burn.Shrinker;
import org.tebaldi.core.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi burn}: the fault-injecting burn test on the simulated runtime (docs/architecture.md,
 * "Verification"; package {@code org.tebaldi.bench.burn}). Three forms: {@code --seeds N [--first S] [--minutes M]
 * [--threads T]} runs seeds in parallel with progress lines and writes {@code burn.csv} and {@code burn.json};
 * {@code --seed S} runs one seed verbosely; {@code --replay FILE.json} runs a scenario file. A failed seed is shrunk,
 * its scenario and the shrunk one are written as JSON to the output directory, and the replay command printed.
 * Exit codes: 0 all passed, 1 a seed failed, 2 bad input, 3 the files could not be written.
 */
@Command(name = "burn", description = "Fault-injecting burn test on the simulated runtime: random trees, workloads "
        + "and faults per seed, every run checked; failures shrunk to a replayable scenario.")
final class BurnCommand implements Callable<Integer> {
    /** The most candidate runs of one shrink. */
    static final int SHRINK_RUNS = 150;
    /** The most failures shrunk after a campaign (the others are listed). */
    static final int SHRINK_FAILURES = 3;

    /** slf4j-simple's level property, set to {@code error} unless given on the command line. */
    static final String QUIET_LOGS = "org.slf4j.simpleLogger.defaultLogLevel";

    @Spec
    CommandSpec spec;

    @Option(names = "--seeds", paramLabel = "N", description = "run N seeds (with --minutes: at most N)")
    Long seeds;

    @Option(names = "--first", paramLabel = "S", defaultValue = "1", description = "first seed (default: 1)")
    long first;

    @Option(names = "--minutes", paramLabel = "M", description = "stop starting seeds after M minutes")
    Double minutes;

    @Option(names = "--threads", paramLabel = "T", description = "parallel runs (default: the number of cores)")
    Integer threads;

    @Option(names = "--seed", paramLabel = "S", description = "run one seed, verbosely")
    Long seed;

    @Option(names = "--replay", paramLabel = "FILE.json", description = "run a scenario file (e.g. a shrunk one)")
    Path replay;

    @Option(names = "--out", paramLabel = "DIR", description = "where burn.csv, burn.json and failing scenarios go "
            + "(default: results/burn-<time>/)")
    Path out;

    @Option(names = "--no-shrink", description = "do not shrink failures")
    boolean noShrink;

    @Option(names = "--streamed", description = "also check each history streamed while it runs, as verify runs do "
            + "(scenarios without crashes or data-server restarts)")
    boolean streamed;

    /** Runs {@code s} with the checks asked for. */
    private BurnResult run(Scenario s) {
        return streamed ? new BurnRun(s).streamed().run() : new BurnRun(s).run();
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // thousands of crashes and recoveries: the nodes' warnings would drown the progress lines
        if (System.getProperty(QUIET_LOGS) == null) {
            System.setProperty(QUIET_LOGS, "error");
        }
        try {
            int forms = (seed != null ? 1 : 0) + (replay != null ? 1 : 0)
                    + (seeds != null || minutes != null ? 1 : 0);
            if (forms != 1) {
                throw new ConfigException("command line", 0, "", "give exactly one of --seeds N / --minutes M, "
                        + "--seed S, --replay FILE.json", "e.g. 'tebaldi burn --seeds 1000'");
            }
            if (seeds != null && seeds < 1 || minutes != null && !(minutes > 0) || threads != null && threads < 1) {
                throw new ConfigException("command line", 0, "", "--seeds, --minutes and --threads must be positive",
                        "e.g. --seeds 1000 --threads 2");
            }
            RunDirectory.checkOut(out);
            if (replay != null) {
                Scenario s = ScenarioFiles.read(replay);
                return single(o, s, "replay of " + replay, false);
            }
            if (seed != null) {
                return single(o, ScenarioDraw.draw(seed), "seed " + seed, true);
            }
            return campaign(o);
        } catch (ConfigException x) {
            err.println(x.getMessage());
            err.flush();
            return ExitCodes.CONFIG;
        } catch (IOException x) {
            err.println("cannot write the burn results: " + x);
            err.flush();
            return ExitCodes.RUN_FAILED;
        }
    }

    private int single(PrintWriter o, Scenario s, String what, boolean shrink) throws IOException {
        o.println(what + ": scenario");
        o.println(ScenarioFiles.toJson(s));
        BurnResult r = run(s);
        o.println(r.describe());
        o.println("history: " + r.historyTxns() + " transactions");
        if (r.passed()) {
            return ExitCodes.OK;
        }
        if (shrink && !noShrink) {
            report(o, r, dir());
        }
        return ExitCodes.CHECK_FAILED;
    }

    private int campaign(PrintWriter o) throws InterruptedException, IOException {
        int t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        long n = seeds != null ? seeds : Long.MAX_VALUE;
        long ms = minutes != null ? (long) (minutes * 60_000) : Long.MAX_VALUE;
        Path dir = dir();
        o.println("burn: seeds from " + first + (seeds != null ? ", " + seeds + " seeds" : "")
                + (minutes != null ? ", at most " + minutes + " min" : "") + " on " + t + " threads; results in "
                + dir);
        o.flush();
        BurnCampaign c = new BurnCampaign(first, n, ms, t, 5_000, s -> run(ScenarioDraw.draw(s)));
        List<BurnResult> results = c.run(o);
        Map<Long, Path> shrunk = new LinkedHashMap<>();
        int shrinks = 0;
        for (BurnResult r : results) {
            if (!r.passed()) {
                o.println("FAILED " + r.describe());
                if (!noShrink && shrinks++ < SHRINK_FAILURES) {
                    shrunk.put(r.scenario().seed(), report(o, r, dir));
                } else {
                    java.nio.file.Files.createDirectories(dir);
                    Path file = dir.resolve("seed-" + r.scenario().seed() + ".json");
                    ScenarioFiles.write(r.scenario(), file);
                    o.println("scenario file: " + file + " (not shrunk); replay: scripts/tebaldi burn --replay " + file);
                }
            }
        }
        BurnReport.write(dir, results, c.wallMillis(), t, shrunk);
        BurnReport.print(o, results, c.wallMillis(), t);
        o.println("  files: " + dir.resolve("burn.csv") + ", " + dir.resolve("burn.json"));
        return shrunk.isEmpty() && results.stream().allMatch(BurnResult::passed) ? ExitCodes.OK
                : ExitCodes.CHECK_FAILED;
    }

    /** Shrinks a failure, writes the original and the shrunk scenario, prints the replay command. */
    private Path report(PrintWriter o, BurnResult r, Path dir) throws IOException {
        long s = r.scenario().seed();
        java.nio.file.Files.createDirectories(dir);
        Path original = dir.resolve("seed-" + s + ".json");
        ScenarioFiles.write(r.scenario(), original);
        o.println("failing seed " + s + " (" + r.verdict().label() + "): shrinking …");
        o.flush();
        Shrinker sh = new Shrinker(this::run, line -> {
            o.println(line);
            o.flush();
        }, SHRINK_RUNS);
        BurnResult small = sh.shrink(r);
        Path file = dir.resolve("seed-" + s + "-shrunk.json");
        ScenarioFiles.write(small.scenario(), file);
        o.println("shrunk in " + sh.runs() + " runs: " + small.describe());
        o.println(ScenarioFiles.toJson(small.scenario()));
        o.println("scenario files: " + original + ", " + file);
        o.println("replay: scripts/tebaldi burn --replay " + file);
        return file;
    }

    private Path dir() {
        return out != null ? out : RunDirectory.of("results", "burn", LocalDateTime.now(), Path.of(""));
    }
}
