package org.tebaldi.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.Op;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;
import org.tebaldi.server.msg.BeginTxn;
import org.tebaldi.server.msg.CommitTxn;
import org.tebaldi.server.msg.OpDone;
import org.tebaldi.server.msg.TxnBegun;
import org.tebaldi.server.msg.TxnEnded;
import org.tebaldi.server.msg.TxnOp;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * The cluster a CC-path microbenchmark drives: one transaction coordinator, one data server and the service
 * nodes the tree's mechanisms need (timestamp service, batch manager), all on a {@link DirectRuntime} (no
 * threads, no network, virtual-time timers), and a table {@code kv} of {@value #KEYS} rows (key, one long
 * column). The tree is a path of mechanisms from the root down: {@code 2pl-3} is 2PL at three levels,
 * {@code 2pl/rp} a 2PL root over an RP leaf (the layer-overhead trees of dissertation §4.6.5, Table 4.1). Every
 * inner node has the path's next node and a sibling leaf (type {@code side<level>}, under the path's leaf
 * mechanism) as children, so each level really separates two groups, and the transaction type {@code work} sits
 * in the deepest leaf. A {@code work} transaction updates (reads,
 * adds 1 to, writes) one row per operation — reads it under {@code none}, which only takes read-only types.
 * Keys cycle through the table, so consecutive transactions never touch the same row and nothing ever waits
 * or aborts: what is measured is the CPU cost of the path. Not thread-safe.
 */
public final class PathFixture implements AutoCloseable {
    /** Rows in the table. */
    public static final int KEYS = 100_000;
    /** The paths benchmarks take by default: each mechanism at depths 1 to 4, and {@code none} (leaf only). */
    public static final List<String> PATHS = List.of("2pl-1", "2pl-2", "2pl-3", "2pl-4", "rp-1", "rp-2", "rp-3",
            "rp-4", "ssi-1", "ssi-2", "ssi-3", "ssi-4", "tso-1", "tso-2", "tso-3", "tso-4", "none-1");
    /** Table 4.1's trees (§4.6.5): stand-alone RP, and a 2PL, SSI or RP layer added over RP. */
    public static final List<String> LAYER_PATHS = List.of("rp-1", "2pl/rp", "ssi/rp", "rp/rp");
    private static final String TABLE = "kv";
    private static final String TYPE = "work";
    private static final int MAX_STEPS = 1_000_000;
    /** Address the benchmark sends client messages from; a probe actor there records the replies. */
    static final NodeId CLIENT = NodeId.client(0);
    static final NodeId TC = NodeId.tc(0);
    static final NodeId DS = NodeId.ds(0);

    private final String path;
    private final List<String> mechanisms;
    private final DirectRuntime rt = new DirectRuntime();
    private final DataServer ds;
    private final Probe probe = new Probe();
    private final TableSchema kv;
    private final int typeId;
    private final boolean readOnly;
    private final String treeYaml;
    private long nextKey;
    private long req;
    private long txnId;
    private int opId;

    /** Records the last message the TC sent to the client. */
    private static final class Probe implements Actor {
        Object last;

        @Override
        public void onStart(NodeContext ctx) {
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            last = msg;
        }
    }

    /**
     * Builds and starts the cluster for a path: {@code MECH-DEPTH} (e.g. {@code 2pl-3}, depth 1..4) or the
     * mechanisms from the root down separated by {@code /} (e.g. {@code ssi/rp}, 1..4 of them).
     *
     * @throws IllegalArgumentException for an unknown mechanism, a depth outside 1..4, {@code none} anywhere but
     *                                  alone (it is only a leaf, of read-only types), or a tree the composition
     *                                  rules forbid (the message says why)
     */
    public PathFixture(String path) {
        this.path = path;
        mechanisms = mechanisms(path);
        int depth = mechanisms.size();
        readOnly = Mechanisms.get(mechanisms.get(depth - 1)).readOnlyLeaf();
        Catalog catalog = new Catalog();
        kv = catalog.add(TABLE, 1, 0, false, Catalog.longCol("v"));
        Database db = new Database(catalog);
        typeId = db.interactive(TYPE, readOnly, List.of(TABLE), "k").id();
        for (int level = 1; level < depth; level++) {
            db.interactive("side" + level, false, List.of(TABLE), "k");
        }
        treeYaml = treeYaml(mechanisms);
        CcTree tree;
        try {
            tree = TreeLoader.parse(treeYaml, "<" + path + ">", TreeContext.of(db));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("path '" + path + "': " + e.getMessage(), e);
        }
        ClusterConfig cfg = new ClusterConfig(db, tree, 1, 1, null, false);
        ds = new DataServer(0, cfg, KEYS, null, null);
        for (long k = 0; k < KEYS; k++) {
            ds.load(Key.of(kv, k), kv.row(0L));
        }
        Cluster.services(cfg).forEach((role, factory) -> rt.spawn(new NodeId(role, 0), factory.get()));
        rt.spawn(DS, ds);
        rt.spawn(TC, new TransactionCoordinator(0, cfg));
        rt.spawn(CLIENT, probe);
        rt.drainMessages();
    }

    /**
     * The mechanisms of a path from the root down (see {@link #PathFixture}).
     *
     * @throws IllegalArgumentException if the path is malformed
     */
    static List<String> mechanisms(String path) {
        String fix = ": write MECH-DEPTH (e.g. 2pl-3, depth 1..4) or MECH/MECH/... from the root down (e.g. ssi/rp), "
                + "MECH one of " + String.join(", ", Mechanisms.all().keySet()) + " (none only alone)";
        List<String> out = new ArrayList<>();
        String p = path.toLowerCase(Locale.ROOT).trim();
        int dash = p.lastIndexOf('-');
        if (!p.contains("/") && dash > 0) {
            int depth;
            try {
                depth = Integer.parseInt(p.substring(dash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("path '" + path + "'" + fix, e);
            }
            if (depth < 1 || depth > 4) {
                throw new IllegalArgumentException("path '" + path + "': depth " + depth + " is outside 1..4" + fix);
            }
            for (int i = 0; i < depth; i++) {
                out.add(p.substring(0, dash));
            }
        } else {
            out.addAll(List.of(p.split("/", -1)));
        }
        if (out.size() > 4 || out.stream().anyMatch(m -> !Mechanisms.all().containsKey(m))
                || (out.size() > 1 && out.stream().anyMatch(m -> Mechanisms.get(m).readOnlyLeaf()))) {
            throw new IllegalArgumentException("path '" + path + "'" + fix);
        }
        return List.copyOf(out);
    }

    /**
     * The tree of a path: e.g. for {@code ssi/rp}
     * {@code root: {cc: ssi, children: [{cc: rp, txns: [work]}, {cc: rp, txns: [side1]}]}}.
     */
    static String treeYaml(List<String> mechanisms) {
        int depth = mechanisms.size();
        String leaf = mechanisms.get(depth - 1);
        String node = "{cc: " + leaf + ", txns: [" + TYPE + "]}";
        for (int level = depth - 1; level >= 1; level--) {
            node = "{cc: " + mechanisms.get(level - 1) + ", children: [" + node + ", {cc: " + leaf + ", txns: [side"
                    + level + "]}]}";
        }
        return "root: " + node + "\n";
    }

    /** The tree, in the tree file format. */
    public String treeYaml() {
        return treeYaml;
    }

    /** The runtime, for stepping message by message. */
    public DirectRuntime runtime() {
        return rt;
    }

    /** Begins a {@code work} transaction and runs its start phase to the end (the TC answered). */
    public void begin() {
        sendBegin();
        awaitBegun();
    }

    /** Queues the client's begin request (nothing runs). */
    public void sendBegin() {
        probe.last = null;
        rt.send(CLIENT, TC, new BeginTxn(++req, typeId, Inputs.of(nextKey), rt.nowMicros()));
    }

    /**
     * Runs until the TC answers the begin request.
     *
     * @throws IllegalStateException if the transaction did not start
     */
    public void awaitBegun() {
        rt.runUntil(() -> probe.last != null, MAX_STEPS);
        txnId = expect(TxnBegun.class, "start").txnId();
        opId = 0;
    }

    /** Runs one operation of the open transaction to the end (the TC answered). */
    public void operation() {
        sendOperation();
        awaitOpDone();
    }

    /** Queues the client's next operation: an update of the next row (a read under {@code none}). */
    public void sendOperation() {
        probe.last = null;
        Key key = Key.of(kv, nextKey);
        nextKey = (nextKey + 1) % KEYS;
        Op op = readOnly ? Op.read(key) : Op.update(key, row -> row.with(0, row.getLong("v") + 1));
        rt.send(CLIENT, TC, new TxnOp(txnId, ++opId, op));
    }

    /**
     * Runs until the TC answers the operation.
     *
     * @throws IllegalStateException if the operation failed
     */
    public void awaitOpDone() {
        rt.runUntil(() -> probe.last != null, MAX_STEPS);
        expect(OpDone.class, "operation");
    }

    /** Commits the open transaction: runs validation and commit to the end, then delivers every message left. */
    public void commit() {
        sendCommit();
        awaitEnded();
    }

    /** Queues the client's commit request. */
    public void sendCommit() {
        probe.last = null;
        rt.send(CLIENT, TC, new CommitTxn(txnId));
    }

    /**
     * Runs until the TC reports the outcome, then delivers every message left (e.g. commits at the data server).
     *
     * @throws IllegalStateException if the transaction aborted
     */
    public void awaitEnded() {
        rt.runUntil(() -> probe.last != null, MAX_STEPS);
        TxnEnded e = expect(TxnEnded.class, "commit");
        if (!e.committed()) {
            throw new IllegalStateException("path " + describe() + ": the transaction aborted: " + e.reason());
        }
        rt.drainMessages();
    }

    /** One whole transaction of {@code ops} operations: begin, the operations, commit. */
    public void transaction(int ops) {
        begin();
        for (int i = 0; i < ops; i++) {
            operation();
        }
        commit();
    }

    /**
     * Delivers messages (and fires due timers when none waits) until the next message to deliver is a
     * {@code type} addressed to {@code to}; that message is not delivered.
     *
     * @throws IllegalStateException if the run ends or stalls first
     */
    public void runUntilNext(Class<?> type, NodeId to) {
        rt.runUntil(() -> {
            DirectRuntime.Envelope e = rt.peek();
            return e != null && e.to().equals(to) && type.isInstance(e.msg());
        }, MAX_STEPS);
    }

    /**
     * Delivers exactly the next message, which must be a {@code type} addressed to {@code to}.
     *
     * @throws IllegalStateException if the next message is another
     */
    public void deliverNext(Class<?> type, NodeId to) {
        DirectRuntime.Envelope e = rt.peek();
        if (e == null || !e.to().equals(to) || !type.isInstance(e.msg())) {
            throw new IllegalStateException("path " + describe() + ": expected a " + type.getSimpleName() + " to "
                    + to + " next, found " + (e == null ? "nothing" : e.msg() + " to " + e.to()));
        }
        rt.step();
    }

    /** The committed value of row {@code k} at the data server (0 as loaded, +1 per committed update). */
    public long committedValue(long k) {
        return ds.store().find(Key.of(kv, k)).latestCommitted().value().getLong("v");
    }

    /** E.g. {@code 2pl-3}. */
    public String describe() {
        return path;
    }

    private <T> T expect(Class<T> type, String phase) {
        Object m = probe.last;
        if (!type.isInstance(m)) {
            throw new IllegalStateException("path " + describe() + ": " + phase + " ended with " + m);
        }
        return type.cast(m);
    }

    @Override
    public void close() {
        rt.close();
    }
}
