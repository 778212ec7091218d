package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.tebaldi.bench.view.ReportPage;
import org.tebaldi.bench.view.ReportRun;
import org.tebaldi.core.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi report RUN_DIR... --out report.html} (docs/experiments.md, "Looking at runs"): one self-contained HTML page over
 * the runs ({@link ReportPage}); a sweep's directory stands for its points ({@link ReportRun#load}). Exit codes:
 * {@value ExitCodes#CONFIG} for a bad RUN_DIR or {@code --out} (one message, nothing written),
 * {@value ExitCodes#RUN_FAILED} if the page cannot be written.
 */
@Command(name = "report", description = "Write one self-contained HTML page comparing runs: configurations, "
        + "throughput/latency/abort charts, trees, checks.")
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "run directories written by 'tebaldi run' or "
            + "'tebaldi tune' (a sweep's directory: each of its points)")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--out", paramLabel = "FILE.html", description = "the page (default: report.html here)")
    Path out = Path.of("report.html");

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        List<ReportRun> runs = new ArrayList<>();
        try {
            if (Files.isDirectory(out) || !out.getFileName().toString().matches("(?i).*\\.html?")) {
                throw new ConfigException("--out", 0, "", "'" + out + "' is " + (Files.isDirectory(out)
                        ? "a directory" : "not an .html file"), "name the page, e.g. --out report.html");
            }
            for (Path d : dirs) {
                runs.addAll(ReportRun.load(d));
            }
        } catch (ConfigException x) {
            stderr.println(x.getMessage());
            stderr.flush();
            return ExitCodes.CONFIG;
        }
        try {
            String html = ReportPage.html(runs, note -> stderr.println("note: " + note));
            Path parent = out.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.writeString(out, html, StandardCharsets.UTF_8);
        } catch (IOException x) {
            stderr.println("cannot write " + out + ": " + x.getMessage());
            stderr.flush();
            return ExitCodes.RUN_FAILED;
        }
        stdout.println("wrote " + out + " (" + runs.size() + " run(s))");
        stdout.flush();
        return ExitCodes.OK;
    }
}
