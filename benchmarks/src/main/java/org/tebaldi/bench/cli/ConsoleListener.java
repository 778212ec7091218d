package org.tebaldi.bench.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.tebaldi.bench.driver.ProgressTick;
import org.tebaldi.bench.report.ConsoleFormat;
import org.tebaldi.bench.run.RunListener;

/** Prints a run's progress: load progress at most once a second, one line per second of the run, phases. */
final class ConsoleListener implements RunListener {
    private static final long LOAD_PRINT_NANOS = 1_000_000_000L;
    private final PrintWriter out;
    private long lastLoadPrint = System.nanoTime();

    ConsoleListener(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void loading(String stage, long done, long total) {
        long now = System.nanoTime();
        if (now - lastLoadPrint >= LOAD_PRINT_NANOS || (total > 0 && done == total)) {
            lastLoadPrint = now;
            String of = total > 0 ? String.format(Locale.ROOT, "/%,d (%.0f%%)", total, 100.0 * done / total) : "";
            out.println(String.format(Locale.ROOT, "load  %s %,d%s", stage, done, of));
            out.flush();
        }
    }

    @Override
    public void loaded(long rows, long millis) {
        out.println(String.format(Locale.ROOT, "loaded %,d rows in %.1f s", rows, millis / 1000.0));
        out.flush();
    }

    @Override
    public void tick(ProgressTick tick) {
        out.println(ConsoleFormat.progress(tick));
        out.flush();
    }

    @Override
    public void note(String line) {
        out.println(line);
        out.flush();
    }

    @Override
    public void phase(String what) {
        out.println(what + " ...");
        out.flush();
    }
}
