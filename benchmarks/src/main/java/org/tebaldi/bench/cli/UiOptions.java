package org.tebaldi.bench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.ui.LiveView;
import org.tebaldi.core.config.ConfigException;
import java.util.Stack;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The live view's options of {@code run} and {@code tune} (docs/experiments.md "Live view"): {@code --ui [PORT]} serves a
 * read-only page showing the run as it goes (no PORT, or 0: any free port; the address is printed), bound to
 * {@code --ui-host} (default the loopback address 127.0.0.1).
 */
final class UiOptions {
    @Option(names = "--ui", arity = "0..1", paramLabel = "PORT", parameterConsumer = PortOrNothing.class,
            description = "serve a live view of the run on http://127.0.0.1:PORT/ (no PORT or 0: any free port; "
            + "the address is printed)")
    Integer port;

    /**
     * Takes the argument after {@code --ui} as its port only when it is a number, so that {@code --ui EXP.yaml}
     * leaves the file to the positional parameters (picocli's optional values would try to read it as a port).
     */
    static final class PortOrNothing implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec arg, CommandSpec spec) {
            if (!args.isEmpty() && args.peek().matches("-?\\d{1,9}")) {
                arg.setValue(Integer.parseInt(args.pop()));
            } else {
                arg.setValue(0);
            }
        }
    }

    @Option(names = "--ui-host", paramLabel = "HOST", defaultValue = "127.0.0.1", description = "address the live "
            + "view binds (default ${DEFAULT-VALUE}: this machine only; 0.0.0.0 shows it to the network)")
    String host;

    /**
     * Checks that the view can show {@code e}.
     *
     * @throws ConfigException naming {@code --ui}, for a port out of range, a sweep, or an experiment that does not
     *                         run a Tebaldi cluster in real time
     */
    void check(Experiment e, boolean sweep) {
        if (port == null) {
            return;
        }
        if (port < 0 || port > 65_535) {
            throw new ConfigException("--ui", 0, "", "port " + port + " is out of range", "give a port from 1 to "
                    + "65535, or 0 (or nothing) for any free port");
        }
        if (sweep) {
            throw new ConfigException("--ui", 0, "", "the live view shows one run, not a sweep", "run one point "
                    + "(one file, a single value per field), or leave --ui out");
        }
        if (e.target().isPostgresql() || e.cluster().simulated()) {
            throw new ConfigException("--ui", 0, "", "the live view watches a Tebaldi cluster running in real time; "
                    + "experiment '" + e.name() + "' runs " + (e.cluster().simulated() ? "simulated" : "on PostgreSQL"),
                    "leave --ui out for this experiment");
        }
    }

    /**
     * Starts the view (null without {@code --ui}) and prints its address.
     *
     * @throws IOException if the address cannot be bound
     */
    LiveView start(Experiment e, String command, PrintWriter out) throws IOException {
        if (port == null) {
            return null;
        }
        LiveView v = LiveView.start(e, command, host, port);
        out.println("live view: " + v.url() + (host.equals("127.0.0.1") || host.equals("localhost")
                ? " (read-only, this machine only)" : " (read-only, bound to " + host + ")"));
        out.flush();
        return v;
    }
}
