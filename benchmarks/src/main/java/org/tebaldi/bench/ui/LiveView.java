package org.tebaldi.bench.ui;

import java.io.IOException;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunListener;
import org.tebaldi.core.db.TxnType;

/**
 * The live view of one run ({@code tebaldi run|tune EXP.yaml --ui [PORT]}, docs/experiments.md "Live view"): the state the page
 * shows, the HTTP server serving it, and the hooks that feed it from the run. Start it before the run (so a taken
 * port fails before anything else happens), wrap the run's extension and listener with it, close it after.
 */
public final class LiveView implements AutoCloseable {
    private final LiveState state;
    private final UiServer server;
    private UiExtension extension;

    private LiveView(LiveState state, UiServer server) {
        this.state = state;
        this.server = server;
    }

    /**
     * Starts serving the view of {@code e}.
     *
     * @param command {@code run} or {@code tune}
     * @param host    the address to bind (e.g. {@code 127.0.0.1})
     * @param port    the port, 0 for any free one
     * @throws IOException if the address cannot be bound
     */
    public static LiveView start(Experiment e, String command, String host, int port) throws IOException {
        LiveState s = new LiveState(e.name(), command,
                e.workload().database().types().stream().map(TxnType::name).toList(), e.tree().tree());
        return new LiveView(s, new UiServer(s, host, port));
    }

    /** The page's address. */
    public String url() {
        return server.url();
    }

    /** The run's extension with the view's sampler around it. */
    public RunExtension extension(RunExtension inner) {
        extension = new UiExtension(inner, state, server::push);
        return extension;
    }

    /** The run's listener, also showing the run's phase on the page. */
    public RunListener listener(RunListener inner) {
        return UiExtension.listener(state, inner);
    }

    /** Shows {@code status} (e.g. that the run ended) and pushes it to the browsers. */
    public void status(String status) {
        state.status(status);
        server.push();
    }

    /** Stops sampling (if the run did not) and the server. */
    @Override
    public void close() {
        if (extension != null) {
            try {
                extension.stopSampling();
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        }
        server.close();
    }
}
