package org.tebaldi.server.zk;

/**
 * The ZooKeeper layout of one cluster (docs/architecture.md, "Failures"), under {@code /tebaldi/<cluster>}:
 * <ul>
 *   <li>{@code members/<node>} — ephemeral, one per live node ({@code tc0}, {@code ds1}, {@code ts0},
 *       {@code client0}, ...), data {@code host:port} (service discovery);
 *   <li>{@code config} — the cluster manifest (JSON: workload, counts, history recording), its znode version is the
 *       config version;
 *   <li>{@code tree} — the active CC tree in the tree-file YAML format; its znode version is the tree version;
 *   <li>{@code leaders/<role>} — Curator leader latches of the singleton services;
 *   <li>{@code epochs/<role>} — leadership terms of a service (the timestamp service starts each term above all
 *       timestamps of earlier terms);
 *   <li>{@code failovers/c<config version>/ds<p>} — persistent, the once-only decision to promote a backup of
 *       partition {@code p} ({@link Failovers}; docs/mechanisms.md "Replication"), per cluster incarnation (the
 *       config version the runner published when it started the cluster).
 * </ul>
 * Every znode under the root, the root included, carries the cluster's digest ACL ({@link ZkAuth}; docs/cluster.md,
 * "Security"); {@code /tebaldi} itself stays open.
 */
public record ZkPaths(String cluster) {
    /** @throws IllegalArgumentException if the name is not a simple path segment */
    public ZkPaths {
        if (!cluster.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("cluster name '" + cluster + "' must use letters, digits, '.', '_', '-'");
        }
    }

    public String root() {
        return "/tebaldi/" + cluster;
    }

    public String members() {
        return root() + "/members";
    }

    public String member(String node) {
        return members() + "/" + node;
    }

    public String config() {
        return root() + "/config";
    }

    public String tree() {
        return root() + "/tree";
    }

    public String leader(String role) {
        return root() + "/leaders/" + role;
    }

    public String epoch(String role) {
        return root() + "/epochs/" + role;
    }

    /** Where the failover decisions of every incarnation of the cluster live. */
    public String failovers() {
        return root() + "/failovers";
    }

    /** The failover decision of partition {@code partition} in the incarnation with config version {@code config}. */
    public String failover(int config, int partition) {
        return failovers() + "/c" + config + "/ds" + partition;
    }
}
