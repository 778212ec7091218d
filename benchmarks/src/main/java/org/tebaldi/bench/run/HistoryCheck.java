package org.tebaldi.bench.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.tebaldi.bench.experiment.VerifyMode;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.HistorySpill;
import org.tebaldi.core.history.HistoryStream;
import org.tebaldi.core.history.SpillCheck;
import org.tebaldi.server.cluster.Cluster;

/**
 * The serializability check of an embedded run, placed by its {@link VerifyMode} (docs/architecture.md,
 * "Verification"). The nodes hand their history over every {@value #HANDOVER_MICROS} µs; {@code after} and
 * {@code process} spill the hand-overs to {@code <run dir>/history} ({@link HistorySpill}) and check the spill —
 * after the cluster stopped, in this JVM ({@link SpillCheck}), or in a checker process started now at the lowest
 * scheduling priority ({@code nice -n 19 java ... check-history --follow --delete}) that follows the spill;
 * {@code streamed} checks in this JVM while the run goes on ({@link HistoryStream}). All three feed the same
 * chunks, with the same pruning passes every {@value #PASS_MILLIS} ms, to the same bounded-memory checker. A spill
 * whose check failed is kept (with the command to check it again); otherwise it is deleted.
 */
final class HistoryCheck implements AutoCloseable {
    /** Every node hands its history over this often, µs. */
    static final long HANDOVER_MICROS = 100_000;
    /** The check adds what was handed over and prunes this often, ms. */
    static final long PASS_MILLIS = 250;
    /** Heap of the checker process. */
    static final String CHECKER_HEAP = "-Xmx2g";

    /**
     * What the check found.
     *
     * @param serializable the verdict
     * @param report       the checker's summary (counts, first violations)
     * @param line         one line for the console about where and how the check ran
     */
    record Verdict(boolean serializable, String report, String line) {
    }

    private final VerifyMode mode;
    private final RunListener listener;
    private final Path spillDir;
    private final boolean tempDir;
    private HistoryStream stream;
    private HistorySpill spill;
    private Process checker;
    private Thread checkerOutput;
    private volatile String checkerLastLine = "";
    private long checkerCpuAtWindow = -1;
    private long checkerCpuInWindow = -1;
    private boolean keep;

    private HistoryCheck(VerifyMode mode, RunListener listener, Path spillDir, boolean tempDir) {
        this.mode = mode;
        this.listener = listener;
        this.spillDir = spillDir;
        this.tempDir = tempDir;
    }

    /**
     * Starts checking {@code cluster}'s history by {@code mode}; call before the cluster starts.
     *
     * @param runDir the run directory (the spill goes to {@code runDir/history}); null: a temporary directory
     * @throws RunFailedException if the spill or the checker process cannot be started
     */
    static HistoryCheck start(VerifyMode mode, Cluster cluster, Path runDir, RunListener listener)
            throws RunFailedException {
        try {
            boolean temp = runDir == null && mode.spills();
            Path dir = !mode.spills() ? null : temp ? Files.createTempDirectory("tebaldi-history-")
                    : runDir.resolve("history");
            HistoryCheck c = new HistoryCheck(mode, listener, dir, temp);
            if (mode == VerifyMode.STREAMED) {
                c.stream = cluster.streamHistory(HANDOVER_MICROS);
                c.stream.startChecking(PASS_MILLIS);
            } else {
                c.spill = new HistorySpill(dir, cluster.historySources(), PASS_MILLIS, HistorySpill.DEFAULT_SEGMENT_BYTES);
                cluster.handOverHistory(c.spill, HANDOVER_MICROS);
                if (mode == VerifyMode.PROCESS) {
                    c.startChecker();
                }
            }
            return c;
        } catch (IOException e) {
            throw new RunFailedException("cannot start the history check (" + mode.key() + "): " + e.getMessage(), e);
        }
    }

    /** The streamed check, for memory.csv's held-transaction columns; null in the other modes. */
    HistoryStream stream() {
        return stream;
    }

    /** The measured window starts: the checker process's CPU is counted from here. */
    void windowStarted() {
        checkerCpuAtWindow = checkerCpuNanos();
    }

    /** The measured window ends. */
    void windowEnded() {
        long now = checkerCpuNanos();
        if (checkerCpuAtWindow >= 0 && now >= 0) {
            checkerCpuInWindow = now - checkerCpuAtWindow;
        }
    }

    /**
     * Once the cluster stopped: every node's last hand-over, then the verdict.
     *
     * @throws RunFailedException if the spill could not be written or read, or the checker process failed
     * @throws InterruptedException if interrupted while waiting
     */
    Verdict finish(Cluster cluster) throws RunFailedException, InterruptedException {
        cluster.finishHistoryStream();
        if (stream != null) {
            stream.check();
            String held = stream.describeHeld();
            CheckResult r = stream.finish();
            return new Verdict(r.serializable(), r.summary(), "history checked while running: "
                    + verdictWord(r.serializable()) + "; at most " + stream.maxHeld()
                    + " transactions held at once; before the end: " + held);
        }
        try {
            spill.finish();
        } catch (IOException e) {
            stopChecker();
            throw new RunFailedException("the history spill in " + spillDir + " failed: " + e.getMessage(), e);
        }
        Verdict v = mode == VerifyMode.PROCESS ? awaitChecker() : checkHere();
        if (v.serializable()) {
            deleteSpill();
        } else {
            keep = true;
            listener.phase("the spilled history stays in " + spillDir + " (check it again: scripts/tebaldi "
                    + "check-history " + spillDir + ")");
        }
        return v;
    }

    private Verdict checkHere() throws RunFailedException, InterruptedException {
        long mb = spill.bytes() >> 20;
        listener.phase(String.format(Locale.ROOT, "checking the history spilled during the run (%,d chunks, %,d MB)",
                spill.chunks(), mb));
        long[] last = {System.nanoTime()};
        SpillCheck.Result r;
        try {
            r = new SpillCheck(spillDir, spill.sources()).onProgress((segments, bytes, held) -> {
                if (System.nanoTime() - last[0] > 2_000_000_000L) {
                    last[0] = System.nanoTime();
                    listener.phase(String.format(Locale.ROOT, "  checked %,d of %,d MB; holding %,d transactions",
                            bytes >> 20, mb, held));
                }
            }).run();
        } catch (IOException e) {
            throw new RunFailedException("the history check of " + spillDir + " failed: " + e.getMessage(), e);
        }
        return new Verdict(r.verdict().serializable(), r.verdict().summary(), String.format(Locale.ROOT,
                "history checked after the run from its spill: %s; %,d MB in %.1f s; at most %,d transactions held "
                        + "at once; before the end: %s", verdictWord(r.verdict().serializable()), r.bytes() >> 20,
                r.millis() / 1000.0, r.maxHeld(), r.heldBeforeEnd()));
    }

    private void startChecker() throws IOException {
        List<String> cmd = new ArrayList<>();
        for (String nice : List.of("/usr/bin/nice", "/bin/nice")) {
            if (Files.isExecutable(Path.of(nice))) {
                cmd.addAll(List.of(nice, "-n", "19"));
                break;
            }
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(CHECKER_HEAP, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "org.tebaldi.bench.cli.Main", "check-history", spillDir.toString(), "--follow", "--delete",
                "--verdict", verdictFile().toString()));
        checker = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Path log = spillDir.resolveSibling("history-check.log");
        checkerOutput = new Thread(() -> copyOutput(log), "history-checker-output");
        checkerOutput.setDaemon(true);
        checkerOutput.start();
    }

    private Path verdictFile() {
        return spillDir.resolve("verdict.json");
    }

    private void copyOutput(Path log) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(checker.getInputStream(),
                StandardCharsets.UTF_8)); Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                checkerLastLine = line;
                w.write(line);
                w.write('\n');
                w.flush();
            }
        } catch (IOException ignored) {
            // the checker is gone; its exit code tells
        }
    }

    private Verdict awaitChecker() throws RunFailedException, InterruptedException {
        listener.phase("waiting for the checker process (pid " + checker.pid() + ", following " + spillDir + ")");
        long t0 = System.nanoTime();
        while (!checker.waitFor(2, java.util.concurrent.TimeUnit.SECONDS)) {
            listener.phase("  checker process: " + checkerLastLine);
        }
        checkerOutput.join(5_000);
        int code = checker.exitValue();
        Path log = spillDir.resolveSibling("history-check.log");
        if (code != 0 && code != 1 || !Files.isRegularFile(verdictFile())) {
            throw new RunFailedException("the checker process failed (exit " + code + "; its output: " + log + "): "
                    + checkerLastLine, null);
        }
        try {
            com.fasterxml.jackson.databind.JsonNode v = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(verdictFile().toFile());
            boolean ok = v.get("serializable").asBoolean();
            String cpu = checkerCpuInWindow < 0 ? "" : String.format(Locale.ROOT, "; it used %.2f s of CPU in the "
                    + "measured window", checkerCpuInWindow / 1e9);
            return new Verdict(ok, v.get("summary").asText(), String.format(Locale.ROOT,
                    "history checked by a checker process (nice 19) following the spill: %s; %,d MB; at most %,d "
                            + "transactions held at once%s; %.1f s after the run; before the end: %s", verdictWord(ok),
                    v.get("bytes").asLong() >> 20, v.get("maxHeld").asInt(), cpu, (System.nanoTime() - t0) / 1e9,
                    v.get("heldBeforeEnd").asText()));
        } catch (IOException | RuntimeException e) {
            throw new RunFailedException("cannot read the checker process's verdict " + verdictFile() + ": " + e, e);
        }
    }

    private long checkerCpuNanos() {
        if (checker == null) {
            return -1;
        }
        return checker.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    private static String verdictWord(boolean serializable) {
        return serializable ? "serializable" : "NOT serializable";
    }

    private void deleteSpill() {
        if (!Files.exists(spillDir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(spillDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            listener.phase("cannot delete the spilled history " + spillDir + ": " + e.getMessage());
        }
    }

    private void stopChecker() {
        if (checker != null && checker.isAlive()) {
            try {
                checker.getOutputStream().close(); // end of input: the checker stops following
            } catch (IOException ignored) {
                // already closed
            }
            checker.destroy();
        }
    }

    /** Stops the background check, the spill writer and the checker process, if still running. */
    @Override
    public void close() {
        if (stream != null) {
            stream.close();
        }
        if (spill != null) {
            spill.close();
        }
        stopChecker();
        if (tempDir && spillDir != null && !keep) {
            deleteSpill();
        }
    }
}
