package org.tebaldi.server.process;

import org.tebaldi.core.runtime.Role;

/**
 * How to start one node process ({@code tebaldi node}).
 *
 * @param role           what the process runs
 * @param index          its index among the nodes of that role (tc/ds); singleton services use 0 and elect a leader
 * @param zk             ZooKeeper connect string, or null to start an embedded one on loopback
 * @param cluster        the cluster's name (ZooKeeper path segment)
 * @param bindHost       interface the transport listens on
 * @param advertiseHost  host other nodes connect to (registered in membership)
 * @param port           transport port, 0 for any
 * @param sessionMillis  ZooKeeper session timeout, ms (how soon the cluster notices this process died)
 * @param exitOnStdinEof exit when standard input closes (set by a parent runner, so children never outlive it)
 * @param promoteFrom    a data server started as the promotion of a backup: the index of the data server whose
 *                       replica of this partition it opens instead of its own store; -1 for none
 *                       (docs/mechanisms.md "Replication")
 * @param fencing        {@code replication.fencing}: true ({@code lease}) fences a replicated data server by a lease
 *                       on its ZooKeeper session ({@link org.tebaldi.server.zk.ZkLease}, docs/reliability.md "No
 *                       split brain"); false ({@code off}) does not
 * @param credentials    the cluster's credentials directory ({@code --credentials}, {@link ClusterCredentials}): the
 *                       ZooKeeper digest credentials and, for a TLS cluster, this node's certificate; null for none
 *                       (then the node reads only a cluster whose znodes carry no ACL, and refuses a TLS cluster)
 */
public record NodeOptions(Role role, int index, String zk, String cluster, String bindHost, String advertiseHost,
                          int port, int sessionMillis, boolean exitOnStdinEof, int promoteFrom, boolean fencing,
                          java.nio.file.Path credentials) {
    /** Without a credentials directory. */
    public NodeOptions(Role role, int index, String zk, String cluster, String bindHost, String advertiseHost,
                       int port, int sessionMillis, boolean exitOnStdinEof, int promoteFrom, boolean fencing) {
        this(role, index, zk, cluster, bindHost, advertiseHost, port, sessionMillis, exitOnStdinEof, promoteFrom,
                fencing, null);
    }

    /** Fenced by a lease (the default). */
    public NodeOptions(Role role, int index, String zk, String cluster, String bindHost, String advertiseHost,
                       int port, int sessionMillis, boolean exitOnStdinEof, int promoteFrom) {
        this(role, index, zk, cluster, bindHost, advertiseHost, port, sessionMillis, exitOnStdinEof, promoteFrom, true);
    }

    /** Not a promotion. */
    public NodeOptions(Role role, int index, String zk, String cluster, String bindHost, String advertiseHost,
                       int port, int sessionMillis, boolean exitOnStdinEof) {
        this(role, index, zk, cluster, bindHost, advertiseHost, port, sessionMillis, exitOnStdinEof, -1);
    }

    /** Whether the role is a singleton service chosen by leader election. */
    public boolean singleton() {
        return role == Role.TS || role == Role.BATCH || role == Role.EPOCH || role == Role.MONITOR || role == Role.CONFIGURATOR;
    }
}
