package org.tebaldi.bench.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tebaldi.bench.process.FactoryResolver;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.server.process.NodeHost;
import org.tebaldi.server.process.NodeOptions;
import org.tebaldi.server.zk.ZkConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tebaldi node --role tc|ds|ts|batch|monitor|configurator --zk HOST:PORT,... [--id N] [--credentials DIR]}
 * (docs/cluster.md, "Process mode"; the credentials: "Security"): one process of a real cluster ({@link NodeHost}). Bad input (unknown role, malformed --zk, missing --id for tc/ds)
 * prints one message and exits {@value ExitCodes#CONFIG}; failing to start (ZooKeeper unreachable, nothing
 * published) exits {@value ExitCodes#RUN_FAILED}; a lost ZooKeeper session exits 1.
 */
@Command(name = "node", description = {"Run one node of a cluster (process or cluster mode).",
        "Roles: tc and ds need --id; ts and batch are singleton services (several processes may start, one leads "
                + "by ZooKeeper leader election, the others stand by); monitor and configurator are accepted for later "
                + "issues and host nothing yet beyond membership.",
        "The node reads the experiment configuration and the CC tree from ZooKeeper (published by 'tebaldi run' in "
                + "processes mode). Without --zk it starts an embedded ZooKeeper on loopback and prints its address."})
final class NodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--role", required = true, paramLabel = "ROLE",
            description = "tc, ds, ts, batch, monitor or configurator")
    String role;

    @Option(names = "--id", paramLabel = "N", description = "index of the node in its role (required for tc and ds)")
    Integer id;

    @Option(names = "--zk", paramLabel = "HOST:PORT,...", description = "ZooKeeper ensemble (default: embedded, "
            + "loopback)")
    String zk;

    @Option(names = "--cluster", paramLabel = "NAME", defaultValue = "default", description = "cluster name in "
            + "ZooKeeper (default: ${DEFAULT-VALUE})")
    String cluster;

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "127.0.0.1", description = "interface to listen "
            + "on (default: ${DEFAULT-VALUE}; 0.0.0.0 for all)")
    String host;

    @Option(names = "--advertise", paramLabel = "HOST", description = "host other nodes connect to (default: --host,"
            + " or this machine's name when --host is 0.0.0.0)")
    String advertise;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "0", description = "transport port (default: any)")
    int port;

    @Option(names = "--session-timeout", paramLabel = "MS", defaultValue = "" + ZkConnection.DEFAULT_SESSION_MILLIS,
            description = "ZooKeeper session timeout, ms: how soon the cluster notices this node died "
                    + "(default: ${DEFAULT-VALUE})")
    int sessionMillis;

    @Option(names = "--exit-on-stdin-eof", description = "exit when standard input closes (used by 'tebaldi run' "
            + "so nodes never outlive it)")
    boolean exitOnStdinEof;

    @Option(names = "--promote-from", paramLabel = "DS", defaultValue = "-1", description = "start this data "
            + "server as the promotion of a backup: open the replica of its partition kept by data server DS "
            + "(replication on) instead of its own store, and record that decision in ZooKeeper; without it, a "
            + "data server whose failover was decided (by the runner) opens the decided replica by itself")
    int promoteFrom;

    @Option(names = "--fencing", paramLabel = "lease|off", defaultValue = "lease", description = "a replicated "
            + "data server acknowledges nothing once its ZooKeeper session went unconfirmed for half the session "
            + "timeout (lease, the default), or keeps serving (off); docs/reliability.md")
    String fencing;

    @Option(names = "--credentials", paramLabel = "DIR", description = "the cluster's credentials directory that "
            + "'tebaldi run' wrote (<run dir>/cluster; a copy on other machines): the ZooKeeper digest credentials "
            + "that open the cluster's znodes and, with cluster.tls, this node's TLS certificate; docs/cluster.md "
            + "\"Security\"")
    java.nio.file.Path credentials;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Override
    public Integer call() throws InterruptedException {
        // a node's log is its own file (process mode) or console: say what it does, with times
        System.setProperty("org.slf4j.simpleLogger.log.org.tebaldi", "info");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        PrintWriter err = spec.commandLine().getErr();
        NodeOptions o;
        try {
            o = options();
        } catch (ConfigException e) {
            err.println(e.getMessage());
            err.flush();
            return ExitCodes.CONFIG;
        }
        NodeHost h;
        try {
            h = NodeHost.start(o, new FactoryResolver());
        } catch (IllegalArgumentException | ConfigException e) {
            err.println("tebaldi node: " + e.getMessage());
            err.flush();
            return ExitCodes.CONFIG;
        } catch (IllegalStateException e) {
            err.println("tebaldi node: cannot start: " + e.getMessage());
            err.flush();
            return ExitCodes.RUN_FAILED;
        }
        return h.awaitStop();
    }

    private NodeOptions options() {
        Role r;
        try {
            r = Role.valueOf(role.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            r = null;
        }
        if (r == null || r == Role.CLIENT || r == Role.CONTROL) {
            throw new ConfigException("--role", 0, "", "unknown role '" + role + "'",
                    "use --role tc, ds, ts, batch, monitor or configurator");
        }
        if ((r == Role.TC || r == Role.DS) && id == null) {
            throw new ConfigException("--id", 0, "", "missing --id for role " + r.cli(),
                    "give the node's index, e.g. --role " + r.cli() + " --id 0");
        }
        if (id != null && id < 0) {
            throw new ConfigException("--id", 0, "", "--id must be >= 0, found " + id, "e.g. --id 0");
        }
        if (zk != null && !zk.matches("[A-Za-z0-9._\\-\\[\\]:]+:\\d{1,5}(,[A-Za-z0-9._\\-\\[\\]:]+:\\d{1,5})*(/[\\w/.-]*)?")) {
            throw new ConfigException("--zk", 0, "", "'" + zk + "' is not a ZooKeeper connect string",
                    "use HOST:PORT[,HOST:PORT...], e.g. --zk 127.0.0.1:2181");
        }
        if (sessionMillis < ZkConnection.MIN_SESSION_MILLIS || sessionMillis > ZkConnection.MAX_SESSION_MILLIS) {
            throw new ConfigException("--session-timeout", 0, "", "session timeout " + sessionMillis + " ms out of "
                    + "range", "use " + ZkConnection.MIN_SESSION_MILLIS + ".." + ZkConnection.MAX_SESSION_MILLIS
                    + " ms, e.g. --session-timeout " + ZkConnection.DEFAULT_SESSION_MILLIS);
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException("--port", 0, "", "port " + port + " out of range", "use 0..65535");
        }
        if (!cluster.matches("[A-Za-z0-9._-]+")) {
            throw new ConfigException("--cluster", 0, "", "'" + cluster + "' is not a cluster name",
                    "use letters, digits, '.', '_' and '-'");
        }
        String adv = advertise != null ? advertise : host;
        if ("0.0.0.0".equals(adv)) {
            try {
                adv = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                adv = "127.0.0.1";
            }
        }
        if (!fencing.equals("lease") && !fencing.equals("off")) {
            throw new ConfigException("--fencing", 0, "", "unknown fencing '" + fencing + "'",
                    "use --fencing lease (the default) or --fencing off");
        }
        if (credentials != null && !java.nio.file.Files.isDirectory(credentials)) {
            throw new ConfigException("--credentials", 0, "", "'" + credentials + "' is not a directory",
                    "name the credentials directory the cluster's runner wrote, e.g. --credentials "
                            + "results/RUN/cluster");
        }
        return new NodeOptions(r, id == null ? 0 : id, zk, cluster, host, adv, port, sessionMillis, exitOnStdinEof,
                promoteFrom, fencing.equals("lease"), credentials);
    }
}
