package org.tebaldi.server.zk;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.server.epoch.DecisionLog;

/**
 * The epoch service's commit records in ZooKeeper (process mode; {@link DecisionLog}): one znode, {@code
 * <cluster>/epochs/decisions}, holding the pending commit records as decimal epoch ids, one per line. Writes are
 * asynchronous (Curator background calls) and coalesced: at most one is in flight, and the next carries the newest
 * set with every completion that waited meanwhile (a group commit of decisions). A failed write is tried again with
 * the newest set; completions are delivered through {@code notify} (injected into the service's actor) only after
 * ZooKeeper acknowledged a write that holds the record. The records left by earlier terms are read once, when the
 * log is created (startup thread, before the service's actor starts).
 */
public final class ZkDecisionLog implements DecisionLog {
    private static final Logger LOG = LoggerFactory.getLogger(ZkDecisionLog.class);

    private final CuratorFramework zk;
    private final String path;
    private final Consumer<Object> notify;
    private final SortedSet<Long> atStart;
    private SortedSet<Long> desired;
    private boolean dirty;
    private boolean inFlight;
    private List<Recorded> waiting = new ArrayList<>();

    /**
     * Reads the records earlier terms left (creating the znode if missing).
     *
     * @param notify delivers {@link DecisionLog.Recorded} to the service's actor (e.g. {@code runtime.inject})
     * @throws IllegalStateException if ZooKeeper cannot be read or written
     */
    public ZkDecisionLog(CuratorFramework zk, ZkPaths paths, Consumer<Object> notify) {
        this.zk = zk;
        this.path = paths.epoch("decisions");
        this.notify = notify;
        try {
            try {
                zk.create().creatingParentContainersIfNeeded().forPath(path, new byte[0]);
            } catch (KeeperException.NodeExistsException e) {
                // an earlier term's records
            }
            this.atStart = Collections.unmodifiableSortedSet(decode(zk.getData().forPath(path)));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the epoch commit records at " + path + " in ZooKeeper: " + e, e);
        }
        this.desired = atStart;
    }

    @Override
    public synchronized void recordCommit(long term, long epoch, SortedSet<Long> pending) {
        desired = new TreeSet<>(pending);
        dirty = true;
        waiting.add(new Recorded(term, epoch));
        kick();
    }

    @Override
    public synchronized void forget(SortedSet<Long> pending) {
        desired = new TreeSet<>(pending);
        dirty = true;
        kick();
    }

    @Override
    public SortedSet<Long> pending() {
        return atStart;
    }

    private void kick() {
        if (inFlight || !dirty) {
            return;
        }
        inFlight = true;
        dirty = false;
        byte[] data = encode(desired);
        List<Recorded> done = waiting;
        waiting = new ArrayList<>();
        try {
            zk.setData().inBackground((client, event) -> written(event.getResultCode() == 0, done, event.getResultCode()))
                    .forPath(path, data);
        } catch (Exception e) {
            written(false, done, -1);
        }
    }

    private void written(boolean ok, List<Recorded> done, int code) {
        synchronized (this) {
            inFlight = false;
            if (!ok) {
                LOG.warn("writing the epoch commit records at {} failed (code {}); trying again", path, code);
                done.addAll(waiting);
                waiting = done;
                dirty = true;
                done = List.of();
            }
            kick();
        }
        done.forEach(notify);
    }

    static byte[] encode(SortedSet<Long> epochs) {
        StringBuilder b = new StringBuilder();
        for (long e : epochs) {
            b.append(e).append('\n');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    static SortedSet<Long> decode(byte[] data) {
        SortedSet<Long> out = new TreeSet<>();
        if (data != null) {
            for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    out.add(Long.parseLong(line.strip()));
                }
            }
        }
        return out;
    }
}
