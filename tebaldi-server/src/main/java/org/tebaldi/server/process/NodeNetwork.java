package org.tebaldi.server.process;

import java.util.List;
import org.tebaldi.core.runtime.NodeId;

/**
 * Where the processes of a {@link ProcessCluster} live on the network (docs/cluster.md, "Process mode"): the
 * address each node listens on and advertises, how its command is wrapped to run there (e.g. {@code ip netns exec
 * NS} for a node in a network namespace of its own, docs/reliability.md "Nemesis"), and the addresses of the runner's
 * transport and of the embedded ZooKeeper.
 */
public interface NodeNetwork {
    /** The address node {@code n} listens on and advertises (an interface address, or 0.0.0.0 for all). */
    String hostOf(NodeId n);

    /** The command that starts node {@code n}, wrapped to run in its network ({@code cmd} itself by default). */
    default List<String> wrap(NodeId n, List<String> cmd) {
        return cmd;
    }

    /** The address the runner's transport (client endpoints, control node) listens on. */
    String runnerHost();

    /** The address an embedded ZooKeeper listens on. */
    String zkHost();

    /** Every process on one interface {@code host} ({@code cluster.bind}), ZooKeeper on loopback. */
    static NodeNetwork oneHost(String host) {
        return new NodeNetwork() {
            @Override
            public String hostOf(NodeId n) {
                return host;
            }

            @Override
            public String runnerHost() {
                return host;
            }

            @Override
            public String zkHost() {
                return "127.0.0.1";
            }
        };
    }

    /** Where other processes reach an address bound here: itself, or this machine's name when bound to every interface. */
    static java.net.InetSocketAddress advertised(java.net.InetSocketAddress bound) {
        if (!bound.getAddress().isAnyLocalAddress()) {
            return bound;
        }
        try {
            return new java.net.InetSocketAddress(java.net.InetAddress.getLocalHost().getHostName(), bound.getPort());
        } catch (java.net.UnknownHostException e) {
            return new java.net.InetSocketAddress("127.0.0.1", bound.getPort());
        }
    }
}
