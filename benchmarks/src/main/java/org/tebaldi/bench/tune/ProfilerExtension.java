package org.tebaldi.bench.tune;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.tebaldi.autoconf.profiler.ConflictEdge;
import org.tebaldi.autoconf.profiler.ProfilerMonitor;
import org.tebaldi.autoconf.profiler.WindowReport;
import org.tebaldi.bench.experiment.ProfilerSpec;
import org.tebaldi.bench.run.Hosting;
import org.tebaldi.bench.run.RunExtension;
import org.tebaldi.bench.run.RunResult;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Runs the profiler beside an experiment (dissertation §5.3): coordinators and data servers log their blocking
 * events and send them in batches to a profiler monitor node (in processes mode hosted by the runner and found
 * through ZooKeeper), which scores conflict edges per analysis window. Writes {@code profile.csv}: one row per window — start and end (ms since the first window), events,
 * the bottleneck edge and its score (ms of blocking), and the top five edges.
 */
public class ProfilerExtension implements RunExtension {
    /** File name of the per-window profile. */
    public static final String PROFILE = "profile.csv";

    private final ProfilerSpec spec;
    private final Database db;
    private ProfilerMonitor monitor;

    public ProfilerExtension(ProfilerSpec spec, Database db) {
        this.spec = spec;
        this.db = db;
    }

    @Override
    public ClusterConfig configure(ClusterConfig cfg) {
        return cfg.withProfiling(spec.flushMicros());
    }

    @Override
    public void beforeStart(Hosting host) {
        monitor = new ProfilerMonitor(spec.windowMicros());
        host.addNode(new NodeId(Role.MONITOR, 0), monitor);
    }

    /** The monitor (after {@link #beforeStart}). */
    public ProfilerMonitor monitor() {
        return monitor;
    }

    @Override
    public void writeFiles(Path dir, RunResult result) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(PROFILE), csv(monitor.reports(), db), StandardCharsets.UTF_8);
    }

    /** The profile as CSV text. */
    static String csv(List<WindowReport> reports, Database db) {
        StringBuilder b = new StringBuilder("startMs,endMs,events,bottleneck,bottleneckMs,topEdges\n");
        long origin = reports.isEmpty() ? 0 : reports.get(0).startMicros();
        for (WindowReport r : reports) {
            b.append(String.format(Locale.ROOT, "%.1f,%.1f,%d,%s,%.1f,\"%s\"%n", (r.startMicros() - origin) / 1000.0,
                    (r.endMicros() - origin) / 1000.0, r.events(),
                    r.bottleneck() == null ? "" : WindowReport.name(db, r.bottleneck()), r.bottleneckScore() / 1000.0,
                    top(r.edges(), db)));
        }
        return b.toString();
    }

    private static String top(Map<ConflictEdge, Long> edges, Database db) {
        return edges.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(5)
                .map(e -> WindowReport.name(db, e.getKey()) + "=" + String.format(Locale.ROOT, "%.1f",
                        e.getValue() / 1000.0)).collect(Collectors.joining("; "));
    }
}
