package org.tebaldi.server.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.history.CheckResult;
import org.tebaldi.core.history.History;
import org.tebaldi.core.history.SerializabilityChecker;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.CompositionRules;
import org.tebaldi.core.tree.LoadedTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.tree.TreeValidator;
import org.tebaldi.server.node.ClusterConfig;

/**
 * A Tebaldi-J cluster inside the calling JVM, for programs that drive it from their own code (a test harness, a
 * workload of their own): coordinators and data servers on a small thread pool, talking through the local transport
 * with an emulated one-way network delay (docs/architecture.md, "Runtime"). Build it, load the initial rows, start
 * it, run transactions through {@link #client}, check the history, close it:
 *
 * <pre>{@code
 * Catalog catalog = new Catalog();
 * TableSchema account = catalog.add("account", 1, 0, false, Catalog.longCol("balance"));
 * Database db = new Database(catalog);
 * db.interactive("transfer", false, List.of("account"));
 * db.interactive("audit", true, List.of("account"));
 * try (EmbeddedCluster cluster = EmbeddedCluster.builder(db)
 *         .tree("{root: {cc: ssi, children: [{cc: 2pl, txns: [transfer]}, {cc: none, txns: [audit]}]}}")
 *         .coordinators(2).dataServers(2).networkDelayMicros(50)
 *         .build()) {
 *     cluster.load(Key.of(account, 1), account.row(100L));
 *     cluster.start();
 *     TxnClient client = cluster.client(0);
 *     Transaction t = client.begin("transfer", Inputs.NONE, System.nanoTime() / 1000).join();
 *     Row r = t.read("account", 1).join();
 *     t.write(account.row(r.getLong("balance") - 10), 1).join();
 *     t.commit().join();
 *     cluster.awaitQuiet(1_000);
 *     CheckResult verdict = cluster.checkSerializable();   // verdict.serializable(); stops the cluster
 * }
 * }</pre>
 *
 * Futures of the client API complete on the cluster's threads; {@code join()} from the caller's own thread is fine,
 * from inside a callback it is not (it would block a node thread). Not thread-safe itself: build, load and start from
 * one thread.
 */
public final class EmbeddedCluster implements AutoCloseable {
    private final Cluster cluster;
    private final EmbeddedRuntime runtime;
    private boolean closed;
    private final LoadedTree tree;

    private EmbeddedCluster(Cluster cluster, EmbeddedRuntime runtime, LoadedTree tree) {
        this.cluster = cluster;
        this.runtime = runtime;
        this.tree = tree;
    }

    /** A builder for a cluster running the transaction types of {@code db}. */
    public static Builder builder(Database db) {
        return new Builder(db);
    }

    /**
     * Loads one committed row before {@link #start} (into every data server for a replicated table).
     *
     * @throws IllegalStateException after {@link #start}
     */
    public void load(Key key, Row row) {
        cluster.load(key, row);
    }

    /** Starts every node; transactions may run once this returns. */
    public void start() {
        cluster.start();
    }

    /** The client API of endpoint {@code i} (bound to coordinator {@code i % coordinators}); usable from any thread. */
    public TxnClient client(int i) {
        return cluster.client(i);
    }

    /** The validated tree the cluster runs, with the validator's warnings (e.g. "inefficient" pairs). */
    public LoadedTree tree() {
        return tree;
    }

    /** The underlying cluster, for what this class does not expose (message statistics, nodes). */
    public Cluster cluster() {
        return cluster;
    }

    /**
     * Waits until no transaction is live at any coordinator or data server (the last commit and abort messages
     * landed), polling every millisecond.
     *
     * @return true if the cluster became quiet within {@code timeoutMillis} ms
     */
    public boolean awaitQuiet(long timeoutMillis) throws InterruptedException {
        return cluster.awaitQuiet(timeoutMillis);
    }

    /**
     * Checks the recorded history for serializability (Adya's DSG: cycles, aborted and intermediate reads). Call
     * once the cluster is quiet ({@link #awaitQuiet}), as the last use of the cluster: it stops every node first
     * ({@link #close}), since a quiet node's timers (GC epochs moving rows off the heap) would otherwise change the
     * store while its history is read from another thread.
     *
     * @throws IllegalStateException if the cluster was built with {@code recordHistory(false)}
     */
    public CheckResult checkSerializable() {
        if (!cluster.config().recordHistory()) {
            throw new IllegalStateException("the history is not recorded: build with recordHistory(true)");
        }
        close();
        return SerializabilityChecker.check(History.merge(cluster.historyLogs()));
    }

    /** Node failures seen so far (an exception thrown by a node's handler); empty when all is well. */
    public List<Throwable> failures() {
        return runtime.failures();
    }

    /** Stops every node and its threads (once; a second call does nothing). */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cluster.close();
        }
    }

    /** Settings of an {@link EmbeddedCluster}; every setting has a default but the tree. */
    public static final class Builder {
        private final Database db;
        private TreeSpec spec;
        private String source;
        private final Map<String, Mechanism> mechanisms = new LinkedHashMap<>();
        private CompositionRules rules = CompositionRules.standard();
        private int coordinators = 2;
        private int dataServers = 2;
        private int threads = Runtime.getRuntime().availableProcessors();
        private long delayMicros;
        private boolean recordHistory = true;
        private int expectedKeysPerDs = 1024;
        private final List<UnaryOperator<ClusterConfig>> settings = new ArrayList<>();

        private Builder(Database db) {
            this.db = Objects.requireNonNull(db, "db");
        }

        /**
         * The CC tree as YAML text (the tree-file format, docs/architecture.md "Trees").
         *
         * @throws org.tebaldi.core.config.ConfigException for YAML syntax or shape problems
         */
        public Builder tree(String yaml) {
            this.spec = TreeLoader.readSpec(yaml, "tree");
            this.source = "tree";
            return this;
        }

        /**
         * The CC tree from a tree file.
         *
         * @throws org.tebaldi.core.config.ConfigException if unreadable or not a tree's shape
         */
        public Builder tree(Path file) {
            return tree(TreeLoader.readSpec(file), file.toString());
        }

        /** The CC tree as a spec built in code ({@link TreeSpec#leaf}, {@link TreeSpec#inner}). */
        public Builder tree(TreeSpec spec, String source) {
            this.spec = Objects.requireNonNull(spec, "spec");
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Adds a mechanism of the caller's own (beside those registered through {@link java.util.ServiceLoader});
         * pair it with {@link #rules} that cover it, else its pairs load with a warning.
         */
        public Builder mechanism(Mechanism m) {
            mechanisms.put(m.name(), m);
            return this;
        }

        /** Composability rules other than the standard ones (e.g. {@link CompositionRules#parse}). */
        public Builder rules(CompositionRules r) {
            this.rules = Objects.requireNonNull(r);
            return this;
        }

        /** Number of transaction coordinators (default 2); clients bind to them round-robin. */
        public Builder coordinators(int n) {
            this.coordinators = n;
            return this;
        }

        /** Number of data servers (default 2); tables are partitioned by their partition key part. */
        public Builder dataServers(int n) {
            this.dataServers = n;
            return this;
        }

        /** Executor threads shared by every node (default: the machine's cores). */
        public Builder threads(int n) {
            this.threads = n;
            return this;
        }

        /** Emulated one-way network delay per message, µs (default 0; the project's experiments use 50). */
        public Builder networkDelayMicros(long micros) {
            this.delayMicros = micros;
            return this;
        }

        /** Whether to record the history for {@link #checkSerializable} (default true; costs memory per operation). */
        public Builder recordHistory(boolean on) {
            this.recordHistory = on;
            return this;
        }

        /** Capacity hint: keys each data server will hold (default 1,024). */
        public Builder expectedKeysPerDs(int n) {
            this.expectedKeysPerDs = n;
            return this;
        }

        /**
         * Any further cluster setting ({@link ClusterConfig#withWaitTimeout}, {@code withGcEpoch},
         * {@code withDurability}, ...), applied in order.
         */
        public Builder configure(UnaryOperator<ClusterConfig> setting) {
            settings.add(Objects.requireNonNull(setting));
            return this;
        }

        private Map<String, Mechanism> allMechanisms() {
            Map<String, Mechanism> all = new LinkedHashMap<>(Mechanisms.all());
            all.putAll(mechanisms);
            return all;
        }

        /**
         * Validates the tree against the database, the mechanisms and the rules, and builds the (not yet started)
         * cluster.
         *
         * @throws org.tebaldi.core.config.ConfigException with the place and the fix, for a bad tree (a type in no
         *                                                 leaf or in two, an unknown mechanism, a forbidden pair, ...)
         * @throws IllegalArgumentException                for counts below 1 or a negative delay
         * @throws IllegalStateException                   if no tree was given
         */
        public EmbeddedCluster build() {
            if (spec == null) {
                throw new IllegalStateException("no CC tree: call tree(...) before build()");
            }
            if (coordinators < 1 || dataServers < 1 || threads < 1) {
                throw new IllegalArgumentException("coordinators, dataServers and threads must be at least 1, got "
                        + coordinators + ", " + dataServers + ", " + threads);
            }
            if (delayMicros < 0) {
                throw new IllegalArgumentException("network delay must be >= 0 µs, got " + delayMicros);
            }
            Map<String, Mechanism> all = allMechanisms();
            LoadedTree loaded = TreeValidator.validate(spec, source,
                    new TreeContext(db, all, rules));
            CcTree tree = loaded.tree();
            ClusterConfig cfg = new ClusterConfig(db, tree, coordinators, dataServers, null, recordHistory)
                    .withMechanisms(all::get);
            for (UnaryOperator<ClusterConfig> s : settings) {
                cfg = s.apply(cfg);
            }
            EmbeddedRuntime rt = new EmbeddedRuntime(threads, delayMicros);
            return new EmbeddedCluster(new Cluster(rt, cfg, expectedKeysPerDs), rt, loaded);
        }
    }
}
