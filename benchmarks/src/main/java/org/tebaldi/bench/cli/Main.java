package org.tebaldi.bench.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Entry point of {@code scripts/tebaldi} (README, "The two commands"), the fat jar's main class. Subcommands: {@code run}
 * ({@link RunCommand}), {@code tune} ({@link TuneCommand}), {@code node} ({@link NodeCommand}),
 * {@code recover} ({@link RecoverCommand}), {@code calibrate} ({@link CalibrateCommand}),
 * {@code calibrate-durability} ({@link CalibrateDurabilityCommand}), {@code validate} ({@link ValidateCommand}),
 * {@code paper-chart} ({@link PaperChartCommand}), {@code burn} ({@link BurnCommand}), {@code tree}
 * ({@link TreeCommand}), {@code report} ({@link ReportCommand}), {@code check-history} ({@link CheckHistoryCommand}),
 * {@code nemesis} ({@link NemesisCommand}), {@code help}.
 * Exit codes: {@link ExitCodes}.
 */
@Command(name = "tebaldi", description = "Tebaldi-J: modular concurrency control experiments.",
        subcommands = {RunCommand.class, TuneCommand.class, NodeCommand.class, RecoverCommand.class,
                CalibrateCommand.class, CalibrateDurabilityCommand.class, ValidateCommand.class,
                PaperChartCommand.class, BurnCommand.class,
                PartitionCommand.class, TreeCommand.class, ReportCommand.class, CheckHistoryCommand.class, NemesisCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @Spec
    CommandSpec spec;

    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(execute(args, out, err));
    }

    /**
     * Runs the command line in-process, printing to {@code out} and {@code err}.
     *
     * @return the exit code ({@link ExitCodes}); picocli usage errors are {@link ExitCodes#CONFIG}
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            err.println("internal error (please report): " + e);
            e.printStackTrace(err);
            err.flush();
            return ExitCodes.RUN_FAILED;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: use 'tebaldi run "
                + "EXPERIMENT.yaml [--set key=value]... [--out DIR]'");
    }
}
