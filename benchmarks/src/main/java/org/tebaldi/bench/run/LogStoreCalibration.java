package org.tebaldi.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.runtime.cost.HandlerProfile;
import org.tebaldi.server.durability.DurabilityOptions;
import org.tebaldi.server.durability.RocksLogStore;
import org.tebaldi.server.durability.StoreProfile;
import org.tebaldi.server.node.ClusterConfig;

/**
 * Beside an embedded run with durability on, for {@code scripts/tebaldi calibrate-durability} (docs/simulation.md,
 * "Durability"): opens the data servers' RocksDB stores itself ({@link RocksLogStore}) so that it can profile their
 * writer threads ({@link StoreProfile}) exactly over the measured window, and times the nodes' handlers over the
 * same window ({@link HandlerCalibration}, to which it delegates). One instance per run.
 *
 * @throws IllegalStateException from {@link #configure} if the run has durability off or in-memory stores
 */
public final class LogStoreCalibration implements RunExtension {
    private final HandlerCalibration handlers = new HandlerCalibration();
    private final List<RocksLogStore> stores = new ArrayList<>();
    private final StoreProfile profile = new StoreProfile();

    @Override
    public ClusterConfig configure(ClusterConfig cfg) {
        DurabilityOptions d = cfg.durability();
        if (!d.enabled() || d.dir() == null || d.stores() != null) {
            throw new IllegalStateException("log-store calibration needs durability on with RocksDB stores");
        }
        return cfg.withDurability(new DurabilityOptions(true, d.dir(), d.epochMicros(), d.sync(),
                (ds, catalog, owner) -> {
                    RocksLogStore s = new RocksLogStore(d.dirOf(ds), catalog, owner);
                    synchronized (stores) {
                        stores.add(s);
                    }
                    return s;
                }, d.writeLatencyMicros()));
    }

    @Override
    public void beforeStart(Hosting host) {
        handlers.beforeStart(host);
    }

    @Override
    public void windowStarted() {
        synchronized (stores) {
            stores.forEach(s -> s.profile(profile));
        }
        handlers.windowStarted();
    }

    @Override
    public void windowEnded() {
        handlers.windowEnded();
        synchronized (stores) {
            stores.forEach(s -> s.profile(null));
        }
    }

    @Override
    public void stopped() {
        handlers.stopped();
    }

    /** The writer threads' groups over the measured window. */
    public StoreProfile profile() {
        return profile;
    }

    /** Handler sums of the measured window by key. */
    public Map<String, HandlerProfile.Sums> handlerTotals() {
        return handlers.totals();
    }

    /** Messages sampled in the measured window by class simple name. */
    public Map<String, List<Object>> samples() {
        return handlers.samples();
    }
}
