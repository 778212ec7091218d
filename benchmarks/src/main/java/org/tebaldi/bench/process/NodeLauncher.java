package org.tebaldi.bench.process;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tebaldi.bench.cli.Main;

/**
 * The command that starts one node process: the same fat jar as the runner ({@code java -jar
 * benchmarks/target/tebaldi.jar node}), found as the system property {@value #JAR_PROPERTY}, else the jar this
 * class was loaded from, else {@code <tebaldi.home>/benchmarks/target/tebaldi.jar}. JVM options:
 * {@code -XX:+ExitOnOutOfMemoryError} (a node that runs out of memory exits at once, so the runner sees it leave and
 * reports it, instead of thrashing in GC) and {@code -XX:TieredStopAtLevel=1} (C1 only: in a 13-s TPC-C run on
 * 2 cores the C2 compiler threads of the node JVMs used more CPU than the nodes' own work — 7.2 of 12.5 CPU-seconds
 * in the measured window — and C2-compiled code had not yet paid that back; docs/cluster.md "Process mode"), then the
 * environment variable {@value #OPTS_ENV} ({@code -XX:TieredStopAtLevel=4} there brings C2 back). The runner inserts
 * each node's {@code -Xmx} from {@link org.tebaldi.server.process.HeapPlan} (the machine's memory divided among
 * the nodes) right after {@code java}, so an {@code -Xmx} in {@value #OPTS_ENV} (e.g. {@code -Xmx2g}) overrides it.
 */
public final class NodeLauncher {
    /** System property naming the fat jar. */
    public static final String JAR_PROPERTY = "tebaldi.jar";
    /** Extra JVM options of node processes. */
    public static final String OPTS_ENV = "TEBALDI_NODE_JAVA_OPTS";

    private NodeLauncher() {
    }

    /**
     * The command prefix, up to and including {@code node}.
     *
     * @throws IllegalStateException if no fat jar can be found
     */
    public static List<String> command() {
        Path jar = jar();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:+ExitOnOutOfMemoryError");
        cmd.add("-XX:TieredStopAtLevel=1");
        String opts = System.getenv(OPTS_ENV);
        if (opts != null && !opts.isBlank()) {
            cmd.addAll(Arrays.asList(opts.trim().split("\\s+")));
        }
        cmd.addAll(List.of("-jar", jar.toString(), "node"));
        return cmd;
    }

    static Path jar() {
        String p = System.getProperty(JAR_PROPERTY);
        if (p != null && !p.isBlank()) {
            return existing(Path.of(p));
        }
        try {
            Path self = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (self.toString().endsWith(".jar") && Files.isRegularFile(self)) {
                return self;
            }
        } catch (URISyntaxException | RuntimeException ignored) {
            // fall through to the repository layout
        }
        String home = System.getProperty("tebaldi.home", "");
        return existing(Path.of(home.isBlank() ? "." : home, "benchmarks", "target", "tebaldi.jar"));
    }

    private static Path existing(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("process mode starts node JVMs from the fat jar, but " + jar.toAbsolutePath()
                    + " does not exist (build it with: mvn -B -q -DskipTests package)");
        }
        return jar.toAbsolutePath();
    }
}
