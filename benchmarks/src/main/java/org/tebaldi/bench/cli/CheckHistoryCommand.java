package org.tebaldi.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.tebaldi.core.history.SpillCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi check-history SPILL_DIR [--follow] [--delete] [--verdict FILE]}: checks a history spill
 * (docs/architecture.md, "Verification") for serializability with bounded memory and prints the verdict. A run with
 * {@code verify: process} starts this command as its checker process ({@code --follow}: segments are waited for
 * while the standard input stays open, i.e. while the run that writes them lives); a spill a run kept (a failed
 * check keeps it) can be checked again by hand. {@code --verdict} writes the verdict as JSON
 * ({@code serializable, summary, maxHeld, heldBeforeEnd, chunks, bytes, segments, millis}). Exit codes: 0
 * serializable, 1 not serializable, 2 no spill there, 3 the spill is incomplete or damaged.
 */
@Command(name = "check-history", description = "Check a run's spilled history (serializability, bounded memory).")
final class CheckHistoryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SPILL_DIR", description = "the spill's directory (<run dir>/history)")
    Path dir;

    @Option(names = "--follow", description = "wait for segments still being written while standard input is open")
    boolean follow;

    @Option(names = "--delete", description = "delete each segment once checked")
    boolean delete;

    @Option(names = "--verdict", paramLabel = "FILE", description = "write the verdict as JSON")
    Path verdict;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SpillCheck check;
        try {
            check = SpillCheck.of(dir);
        } catch (IOException e) {
            err.println(e.getMessage() + " (name the history directory of a run: <run dir>/history)");
            return ExitCodes.CONFIG;
        }
        if (follow) {
            AtomicBoolean open = new AtomicBoolean(true);
            Thread stdin = new Thread(() -> drain(System.in, open), "stdin-watch");
            stdin.setDaemon(true);
            stdin.start();
            check.follow(open::get, 100);
        }
        if (delete) {
            check.deleteChecked();
        }
        check.onProgress((segments, bytes, held) -> {
            out.println(String.format(Locale.ROOT, "checked %d segment(s), %,d MB; holding %,d transactions",
                    segments, bytes >> 20, held));
            out.flush();
        });
        SpillCheck.Result r;
        try {
            r = check.run();
        } catch (IOException e) {
            err.println("the history check failed: " + e.getMessage());
            return ExitCodes.RUN_FAILED;
        }
        out.println("serializability: " + r.verdict().summary());
        out.println(String.format(Locale.ROOT, "checked %,d chunks (%,d MB) in %.1f s; at most %,d transactions held",
                r.chunks(), r.bytes() >> 20, r.millis() / 1000.0, r.maxHeld()));
        if (verdict != null) {
            try {
                write(r, verdict);
            } catch (IOException e) {
                err.println("cannot write " + verdict + ": " + e.getMessage());
                return ExitCodes.RUN_FAILED;
            }
        }
        return r.verdict().serializable() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    /** Writes {@code r} as JSON to {@code file}, atomically (a reader never sees half a verdict). */
    static void write(SpillCheck.Result r, Path file) throws IOException {
        ObjectNode o = new ObjectMapper().createObjectNode();
        o.put("serializable", r.verdict().serializable());
        o.put("summary", r.verdict().summary());
        o.put("maxHeld", r.maxHeld());
        o.put("heldBeforeEnd", r.heldBeforeEnd());
        o.put("chunks", r.chunks());
        o.put("bytes", r.bytes());
        o.put("segments", r.segments());
        o.put("millis", r.millis());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), o);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static void drain(InputStream in, AtomicBoolean open) {
        byte[] b = new byte[256];
        try {
            while (in.read(b) >= 0) {
                // the run never writes; end of input means it is gone
            }
        } catch (IOException ignored) {
            // closed
        }
        open.set(false);
    }
}
