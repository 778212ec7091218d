package org.tebaldi.server.process;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.zk.Membership;

/**
 * The node processes a {@link ProcessCluster} launched (docs/cluster.md, "Process mode"): starts each with the node
 * command, its heap from the {@link HeapPlan} and its {@code --role ...} arguments, wrapped by the
 * {@link NodeNetwork} (e.g. in its network namespace), output appended to {@code <node>.log}; evicts a node whose
 * process exited from membership at once; starts a node again after it died; waits for registrations; stops them
 * all.
 */
final class NodeProcesses {
    private static final Logger LOG = LoggerFactory.getLogger(NodeProcesses.class);

    private final ProcessCluster.Spec spec;
    private final Map<NodeId, Long> heapMb;
    private final String connect;
    private final Membership membership;
    private final Set<NodeId> failed;
    private final Map<NodeId, Process> processes = new ConcurrentHashMap<>();
    private volatile boolean closing;

    /**
     * @param heapMb  each node's {@code -Xmx}, MiB (empty: the command's own)
     * @param connect the ZooKeeper connect string the nodes use
     * @param failed  the nodes whose membership ended (shared with the cluster; a restarted node leaves it)
     */
    NodeProcesses(ProcessCluster.Spec spec, Map<NodeId, Long> heapMb, String connect, Membership membership,
                  Set<NodeId> failed) {
        this.spec = spec;
        this.heapMb = heapMb;
        this.connect = connect;
        this.membership = membership;
        this.failed = failed;
    }

    /** Whether a node command starts a JVM directly (its first element is a {@code java} executable). */
    static boolean isJava(List<String> cmd) {
        String exe = Path.of(cmd.get(0)).getFileName().toString();
        return exe.equals("java") || exe.equals("java.exe");
    }

    /** Launches every node. @throws IllegalStateException if the log directory or a process cannot be created */
    void launchAll(List<NodeId> nodes) {
        try {
            Files.createDirectories(spec.logDir());
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the node log directory " + spec.logDir() + ": " + e, e);
        }
        for (NodeId n : nodes) {
            launch(n, List.of());
        }
    }

    private void launch(NodeId n, List<String> extra) {
        List<String> cmd = new ArrayList<>(spec.nodeCommand());
        if (isJava(cmd) && heapMb.containsKey(n)) {
            cmd.add(1, "-Xmx" + heapMb.get(n) + "m");
        }
        cmd.addAll(List.of("--role", n.role().cli(), "--id", Integer.toString(n.index()), "--zk", connect,
                "--cluster", spec.name(), "--host", spec.network().hostOf(n), "--session-timeout",
                Integer.toString(spec.sessionMillis()), "--exit-on-stdin-eof", "--fencing",
                spec.fencing() ? "lease" : "off", "--credentials",
                ClusterCredentials.beside(spec.logDir()).toString()));
        cmd.addAll(extra);
        cmd = spec.network().wrap(n, cmd);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(logOf(n).toFile()));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + n + " (" + String.join(" ", cmd) + "): " + e, e);
        }
        processes.put(n, p);
        p.onExit().thenRun(() -> exited(n, p));
    }

    /**
     * A launched node's process exited: unless the cluster is closing, it is evicted from membership at once, so
     * the other nodes see it leave without waiting for its ZooKeeper session to time out.
     */
    private void exited(NodeId n, Process p) {
        if (closing || processes.get(n) != p) {
            return;
        }
        LOG.warn("{} exited with code {}", n, p.exitValue());
        try {
            membership.evict(n);
        } catch (IllegalStateException e) {
            LOG.warn("{}: {} (its session times out instead)", n, e.getMessage());
        }
    }

    /**
     * Starts node {@code n} again with {@code extra} arguments once its process died and the cluster saw it leave,
     * and waits until it registered.
     *
     * @throws IllegalStateException if {@code n} was not launched here, still runs, or does not come back within
     *                               the start timeout
     */
    void relaunch(NodeId n, List<String> extra) throws InterruptedException {
        Process old = processes.get(n);
        if (old == null) {
            throw new IllegalStateException(n + " was not launched by this cluster");
        }
        if (!old.waitFor(spec.startMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(n + " is still running; kill it first");
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(spec.startMillis());
        while (!failed.contains(n) && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        launch(n, extra);
        Set<NodeId> missing = Set.of(n);
        while (!missing.isEmpty() && System.nanoTime() < end) {
            missing = membership.await(List.of(n), 200);
            if (!processes.get(n).isAlive()) {
                throw new IllegalStateException(n + " exited with code " + processes.get(n).exitValue()
                        + " after its restart; its output: " + tail(logOf(n)));
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException(n + " did not register within " + spec.startMillis() + " ms of its restart");
        }
        failed.remove(n);
    }

    /**
     * External nodes: waits for an operator or a supervisor to start data server {@code ds} again — it reads the
     * failover decision in ZooKeeper and opens {@code host}'s replica — until the start timeout.
     *
     * @throws IllegalStateException if it does not register in time
     */
    void awaitPromoted(NodeId ds, int host) throws InterruptedException {
        LOG.warn("{} failed: its failover to ds{}'s replica is recorded in ZooKeeper; start it again with: tebaldi "
                + "node --role ds --id {} --zk {} --cluster {} --credentials {} (it opens that replica)", ds, host,
                ds.index(), connect, spec.name(), ClusterCredentials.beside(spec.logDir()));
        if (!membership.await(List.of(ds), spec.startMillis()).isEmpty()) {
            throw new IllegalStateException(ds + " was not started again within " + spec.startMillis()
                    + " ms of its failover");
        }
        failed.remove(ds);
    }

    /**
     * Waits until every node in {@code nodes} registered.
     *
     * @throws IllegalStateException naming the node and its log if a launched node exits or one does not register in
     *                               time
     */
    void awaitNodes(List<NodeId> nodes) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(spec.startMillis());
        while (true) {
            Set<NodeId> missing = membership.await(nodes, 100);
            if (missing.isEmpty()) {
                return;
            }
            for (Map.Entry<NodeId, Process> e : processes.entrySet()) {
                if (!e.getValue().isAlive()) {
                    throw new IllegalStateException(e.getKey() + " exited with code " + e.getValue().exitValue()
                            + " before registering; its output: " + tail(logOf(e.getKey())));
                }
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException("node(s) " + missing + " did not register within "
                        + spec.startMillis() + " ms" + (processes.isEmpty() ? "" : "; output of "
                        + missing.iterator().next() + ": " + tail(logOf(missing.iterator().next()))));
            }
        }
    }

    /** Where node {@code n}'s output goes. */
    Path logOf(NodeId n) {
        return spec.logDir().resolve(n + ".log");
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n  ", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** The process of a launched node, or null. */
    Process process(NodeId n) {
        return processes.get(n);
    }

    /** True if a launched process has exited. */
    boolean anyExited() {
        return processes.values().stream().anyMatch(p -> !p.isAlive());
    }

    /** The cluster is closing: exits are no longer failures. */
    void closing() {
        closing = true;
    }

    /** Waits up to 5 s in all for the processes to exit (after they were asked), then kills the rest. */
    void awaitExit() {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Process p : processes.values()) {
            try {
                long left = end - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        destroyAll();
    }

    /** Kills every process still alive (a stopped one too: SIGKILL ends it) and waits up to 5 s for each. */
    void destroyAll() {
        for (Process p : processes.values()) {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
        for (Process p : processes.values()) {
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
