package org.tebaldi.server.zk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The once-only failover decisions of one cluster incarnation in ZooKeeper (docs/mechanisms.md "Replication",
 * Promotion): when a primary data server's membership ends, whoever observes it first (the runner's
 * {@code AutoFailover}, an operator's {@code ProcessCluster.promote}, a node started with {@code --promote-from})
 * <em>creates</em> the persistent znode {@link ZkPaths#failover} naming the backup to promote; ZooKeeper's create is
 * atomic, so a second observer finds the node and takes the decision that stands instead of promoting again, and a
 * process started later (a restarted launcher, a data server restarted by a supervisor) reads it. Decisions are
 * keyed by the config version the runner published when it started the cluster, so a new run under the same
 * cluster name on an external ensemble never sees an old run's decisions. Blocking ZooKeeper calls: call from a
 * startup or failover thread, never from an actor.
 */
public final class Failovers {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One partition's promotion.
     *
     * @param partition      the data server (partition) whose primary died
     * @param host           the data server whose replica of it becomes its store
     * @param decidedAtMillis when it was decided, Unix epoch ms
     * @param by             who decided (e.g. {@code runner}, {@code operator}, {@code ds0 --promote-from})
     * @param tookMillis     ms from the membership loss the decider saw until the promoted server registered; -1
     *                       until it did (or when the decider did not wait for it)
     */
    public record Decision(int partition, int host, long decidedAtMillis, String by, long tookMillis) {
    }

    /**
     * What {@link #decide} found.
     *
     * @param decision the decision that stands
     * @param ours     whether this call made it (then, and only then, the caller carries it out)
     */
    public record Outcome(Decision decision, boolean ours) {
    }

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final int config;

    /** @param config the config version of the cluster incarnation ({@link ClusterStore#publishConfig}) */
    public Failovers(CuratorFramework zk, ZkPaths paths, int config) {
        this.zk = zk;
        this.paths = paths;
        this.config = config;
    }

    /**
     * Decides to promote {@code host}'s replica of {@code partition}, unless a decision for it exists.
     *
     * @throws IllegalStateException if ZooKeeper fails
     */
    public Outcome decide(int partition, int host, String by) {
        Decision d = new Decision(partition, host, System.currentTimeMillis(), by, -1);
        try {
            zk.create().creatingParentContainersIfNeeded().forPath(paths.failover(config, partition), toJson(d));
            return new Outcome(d, true);
        } catch (KeeperException.NodeExistsException taken) {
            Decision stands = of(partition);
            if (stands == null) { // deleted in between (a new incarnation cleared them): try again
                return decide(partition, host, by);
            }
            return new Outcome(stands, false);
        } catch (Exception e) {
            throw new IllegalStateException("cannot record the failover of ds" + partition + " in ZooKeeper at "
                    + paths.failover(config, partition) + ": " + e, e);
        }
    }

    /**
     * The decision for {@code partition}, or null if none was taken in this incarnation.
     *
     * @throws IllegalStateException if ZooKeeper fails or the znode holds no decision
     */
    public Decision of(int partition) {
        String path = paths.failover(config, partition);
        try {
            return fromJson(zk.getData().forPath(path), path);
        } catch (KeeperException.NoNodeException none) {
            return null;
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the failover decision " + path + " from ZooKeeper: " + e, e);
        }
    }

    /**
     * The data server whose replica data server {@code partition} opens when it starts, or -1 for its own store: the
     * one {@code promoteFrom} names ({@code --promote-from}; -1 if not given), recorded as the decision if none was
     * taken yet; else the recorded decision — so a {@code tebaldi node} started after its primary died (external
     * nodes), or a promoted server restarted later, opens the promoted replica.
     *
     * @throws IllegalStateException if {@code promoteFrom} names another replica than the recorded decision (the
     *                               message names both and the fix), or ZooKeeper fails
     */
    public int replicaToOpen(int partition, int promoteFrom) {
        Decision d = promoteFrom >= 0 ? decide(partition, promoteFrom, "ds" + partition + " --promote-from").decision()
                : of(partition);
        if (d == null) {
            return -1;
        }
        if (promoteFrom >= 0 && d.host() != promoteFrom) {
            throw new IllegalStateException("--promote-from " + promoteFrom + ": the failover of ds" + partition
                    + " recorded in ZooKeeper (" + paths.failover(config, partition) + ", by " + d.by()
                    + ") promotes ds" + d.host() + "'s replica; start it with --promote-from " + d.host()
                    + " or without the option");
        }
        return d.host();
    }

    /**
     * Records that the promoted server of {@code partition} registered {@code tookMillis} ms after its primary's
     * membership ended (best effort: a concurrent update wins).
     */
    public void completed(int partition, long tookMillis) {
        String path = paths.failover(config, partition);
        try {
            Stat st = new Stat();
            Decision d = fromJson(zk.getData().storingStatIn(st).forPath(path), path);
            zk.setData().withVersion(st.getVersion()).forPath(path, toJson(new Decision(d.partition(), d.host(),
                    d.decidedAtMillis(), d.by(), tookMillis)));
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException raced) {
            // updated or cleared meanwhile: the decision itself stands
        } catch (Exception e) {
            throw new IllegalStateException("cannot update the failover decision " + path + ": " + e, e);
        }
    }

    /**
     * Deletes every incarnation's decisions (the runner starts a new cluster).
     *
     * @throws IllegalStateException if ZooKeeper fails
     */
    public static void clear(CuratorFramework zk, ZkPaths paths) {
        try {
            zk.delete().deletingChildrenIfNeeded().forPath(paths.failovers());
        } catch (KeeperException.NoNodeException none) {
            // nothing decided yet
        } catch (Exception e) {
            throw new IllegalStateException("cannot clear " + paths.failovers() + " in ZooKeeper: " + e, e);
        }
    }

    private static byte[] toJson(Decision d) {
        ObjectNode o = JSON.createObjectNode();
        o.put("partition", d.partition());
        o.put("host", d.host());
        o.put("decidedAtMillis", d.decidedAtMillis());
        o.put("by", d.by());
        o.put("tookMillis", d.tookMillis());
        try {
            return JSON.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Decision fromJson(byte[] b, String path) {
        try {
            JsonNode o = JSON.readTree(b);
            return new Decision(o.get("partition").asInt(), o.get("host").asInt(), o.get("decidedAtMillis").asLong(),
                    o.get("by").asText(), o.get("tookMillis").asLong());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(path + " in ZooKeeper holds no failover decision (" + e.getMessage()
                    + "); delete it with zkCli.sh: deleteall " + path, e);
        }
    }
}
