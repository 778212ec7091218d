package org.tebaldi.bench.nemesis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.process.NodeNetwork;

/**
 * A private network for a process-mode cluster (docs/reliability.md, "Nemesis"): a Linux bridge whose host side
 * ({@value #HOST}: the runner with its client endpoints and the embedded ZooKeeper) carries {@code 10.X.Y.1}, and one
 * network namespace per node, joined to the bridge by a veth pair, with address {@code 10.X.Y.(10+i)}. Partitions
 * are blackhole routes ({@code ip route replace blackhole ADDR/32}) on both sides of every cut pair — in a node's
 * namespace, or in the host's for its side — so packets in both directions are dropped and open TCP connections
 * go half-open, as across a failed switch; {@link #heal} removes them. Needs root ({@code ip netns add}); every
 * namespace, the bridge and every route are removed by {@link #close} and, if this JVM exits first, by a shutdown
 * hook. Traffic stays on the bridge.
 */
public final class NetFabric implements NodeNetwork, AutoCloseable {
    /** The name of the host side (runner and ZooKeeper) in partitions. */
    public static final String HOST = "host";

    /** Namespaces cannot be created here (not root, or the kernel refuses): one line saying why. */
    public static final class Unavailable extends Exception {
        Unavailable(String why) {
            super(why);
        }
    }

    private final String tag;
    private final String prefix;
    private final String bridge;
    private final Map<String, String> addr = new LinkedHashMap<>(); // endpoint -> address
    private final Map<String, String> ns = new LinkedHashMap<>();   // node endpoint -> namespace
    private final List<String[]> cuts = new ArrayList<>();          // {endpoint whose side drops, address dropped}
    private final Thread hook = new Thread(this::cleanUp, "tebaldi-netns-cleanup");
    private boolean closed;

    private NetFabric(String tag, String subnet) {
        this.tag = tag;
        this.prefix = subnet;
        this.bridge = "tb" + tag;
    }

    /**
     * Creates the bridge; each node's namespace is created when the cluster first asks for its address.
     *
     * @throws Unavailable if namespaces cannot be created here (not root, no {@code ip}, or refused); nothing is
     *                     left behind
     */
    public static NetFabric create() throws Unavailable {
        String tag = Long.toString(ProcessHandle.current().pid() % 100_000, 36) + Integer.toString(
                (int) (System.nanoTime() & 0xfff), 36);
        String subnet = freeSubnet();
        NetFabric f = new NetFabric(tag, subnet);
        try {
            f.ip("netns", "add", "tb" + tag + "-probe");
            f.ip("netns", "del", "tb" + tag + "-probe");
        } catch (IllegalStateException e) {
            throw new Unavailable("network namespaces are not allowed here (" + e.getMessage().strip()
                    + "): the nemesis needs root and 'ip netns add'");
        }
        Runtime.getRuntime().addShutdownHook(f.hook);
        try {
            f.build();
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
        return f;
    }

    private static String freeSubnet() {
        String routes;
        try {
            routes = run(List.of("ip", "-4", "route", "show", "table", "all"));
        } catch (IllegalStateException e) {
            routes = "";
        }
        java.util.Random r = new java.util.Random();
        for (int k = 0; k < 200; k++) {
            String s = "10." + (200 + r.nextInt(50)) + "." + r.nextInt(250) + ".";
            if (!routes.contains(s)) {
                return s;
            }
        }
        throw new IllegalStateException("no free 10.x.y.0/24 subnet for the nemesis bridge");
    }

    private void build() {
        ip("link", "add", bridge, "type", "bridge");
        ip("addr", "add", prefix + "1/24", "dev", bridge);
        ip("link", "set", bridge, "up");
        addr.put(HOST, prefix + "1");
    }

    /** Node {@code n}'s namespace, created (with its veth and address) the first time. */
    private synchronized String space(NodeId n) {
        String name = n.toString();
        if (ns.containsKey(name)) {
            return ns.get(name);
        }
        if (closed) {
            throw new IllegalStateException("the nemesis network is closed");
        }
        int i = ns.size();
        if (i >= 200) {
            throw new IllegalStateException("at most 200 nodes on one nemesis bridge");
        }
        String space = bridge + "-" + name;
        String veth = bridge + "v" + i;
        String a = prefix + (10 + i);
        ip("netns", "add", space);
        ns.put(name, space);
        ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", space);
        ip("link", "set", veth, "master", bridge, "up");
        ip("-n", space, "addr", "add", a + "/24", "dev", "eth0");
        ip("-n", space, "link", "set", "eth0", "up");
        ip("-n", space, "link", "set", "lo", "up");
        addr.put(name, a);
        return space;
    }

    /** The endpoints: {@value #HOST} and every node so far ({@code ds0}, {@code tc1}, ...). */
    public synchronized Set<String> endpoints() {
        return new LinkedHashSet<>(addr.keySet());
    }

    /** A node's address on the bridge. */
    @Override
    public String hostOf(NodeId n) {
        space(n);
        return addr.get(n.toString());
    }

    @Override
    public List<String> wrap(NodeId n, List<String> cmd) {
        List<String> w = new ArrayList<>(List.of("ip", "netns", "exec", space(n)));
        w.addAll(cmd);
        return w;
    }

    @Override
    public String runnerHost() {
        return addr.get(HOST);
    }

    @Override
    public String zkHost() {
        return addr.get(HOST);
    }

    /**
     * Cuts every endpoint of {@code a} off from every endpoint of {@code b} (both directions), until {@link #heal}.
     *
     * @throws IllegalArgumentException naming an unknown endpoint
     */
    public synchronized void partition(Collection<String> a, Collection<String> b) {
        Map<String, List<String>> bySide = new LinkedHashMap<>();
        for (String x : a) {
            for (String y : b) {
                if (!addr.containsKey(x) || !addr.containsKey(y)) {
                    throw new IllegalArgumentException("unknown endpoint " + (addr.containsKey(x) ? y : x)
                            + " (endpoints: " + addr.keySet() + ")");
                }
                if (!x.equals(y)) {
                    bySide.computeIfAbsent(x, k -> new ArrayList<>()).add(addr.get(y));
                    bySide.computeIfAbsent(y, k -> new ArrayList<>()).add(addr.get(x));
                }
            }
        }
        bySide.forEach((side, dsts) -> {
            routes(side, "replace", dsts);
            dsts.forEach(d -> cuts.add(new String[]{side, d}));
        });
    }

    /** One {@code ip -batch} per side (a loaded machine starts processes slowly). */
    private void routes(String side, String verb, List<String> dsts) {
        List<String> c = new ArrayList<>(List.of("ip"));
        if (!side.equals(HOST)) {
            c.addAll(List.of("-n", ns.get(side)));
        }
        c.addAll(List.of("-force", "-batch", "-"));
        StringBuilder in = new StringBuilder();
        for (String d : new LinkedHashSet<>(dsts)) {
            in.append("route ").append(verb).append(" blackhole ").append(d).append("/32\n");
        }
        run(c, in.toString());
    }

    /** Removes every cut: the network is whole again. */
    public synchronized void heal() {
        Map<String, List<String>> bySide = new LinkedHashMap<>();
        for (String[] c : cuts) {
            bySide.computeIfAbsent(c[0], k -> new ArrayList<>()).add(c[1]);
        }
        cuts.clear();
        bySide.forEach((side, dsts) -> {
            try {
                routes(side, "del", dsts);
            } catch (IllegalStateException gone) {
                // removed with its namespace
            }
        });
    }

    /** Heals, then removes every namespace (and its veth) and the bridge. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        cleanUp();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running
        }
    }

    private synchronized void cleanUp() {
        if (closed) {
            return;
        }
        closed = true;
        heal();
        for (String space : ns.values()) {
            quietly("ip", "netns", "del", space);
        }
        quietly("ip", "link", "del", bridge);
    }

    private static void quietly(String... cmd) {
        try {
            run(List.of(cmd));
        } catch (IllegalStateException e) {
            // already gone
        }
    }

    private void ip(String... args) {
        List<String> c = new ArrayList<>(List.of("ip"));
        c.addAll(List.of(args));
        run(c);
    }

    /** Runs a command (e.g. {@code ip netns list}); its output. @throws IllegalStateException with its output if it fails or takes over 20 s */
    public static String run(List<String> cmd) {
        return run(cmd, "");
    }

    private static String run(List<String> cmd, String stdin) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish in 20 s");
            }
            String s = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + ": " + s.strip());
            }
            return s;
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", cmd) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", cmd) + ": interrupted", e);
        }
    }

    /** The tag in every name this fabric created ({@code tb<tag>...}). */
    public String tag() {
        return tag;
    }
}
