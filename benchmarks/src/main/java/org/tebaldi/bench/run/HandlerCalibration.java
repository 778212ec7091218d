package org.tebaldi.bench.run;

import java.util.List;
import java.util.Map;
import org.tebaldi.core.runtime.EmbeddedRuntime;
import org.tebaldi.core.runtime.cost.HandlerProfile;

/**
 * Handler profiling beside an embedded run, for {@code scripts/tebaldi calibrate} (docs/simulation.md,
 * "Calibration"): switches {@link EmbeddedRuntime#profileHandlers} on exactly for the measured window (the window
 * over which the driver measures the JVM's CPU time, {@link org.tebaldi.bench.driver.MachineUsage#processCpuMs}),
 * and once the driver drained takes the handler sums and the sampled messages. Embedded mode only: in processes
 * mode the nodes run in other JVMs. One instance per run.
 */
public final class HandlerCalibration implements RunExtension {
    private EmbeddedRuntime runtime;
    private Map<String, HandlerProfile.Sums> totals = HandlerProfile.newTotals();
    private Map<String, List<Object>> samples = Map.of();
    private long idle;
    private long late;
    private long delivered;

    /** @throws IllegalStateException if the cluster does not run on an {@link EmbeddedRuntime} */
    @Override
    public void beforeStart(Hosting host) {
        if (!(host.runtime() instanceof EmbeddedRuntime rt)) {
            throw new IllegalStateException("handler calibration needs the embedded runtime (cluster.mode: "
                    + "embedded), not " + host.runtime().getClass().getSimpleName());
        }
        runtime = rt;
    }

    @Override
    public void windowStarted() {
        idle = -runtime.idleEpisodes();
        if (runtime.network() != null) {
            late = -runtime.network().lateNanos();
            delivered = -runtime.network().delivered();
        }
        runtime.profileHandlers(true);
    }

    @Override
    public void windowEnded() {
        runtime.profileHandlers(false);
        idle += runtime.idleEpisodes();
        if (runtime.network() != null) {
            late += runtime.network().lateNanos();
            delivered += runtime.network().delivered();
        }
    }

    /** Mean time the emulated network delivered a message after its deadline in the window, µs (0 without one). */
    public double lateMicros() {
        return delivered <= 0 ? 0 : late / 1000.0 / delivered;
    }

    /** Times a worker went idle in the measured window ({@link EmbeddedRuntime#idleEpisodes}). */
    public long idleEpisodes() {
        return idle;
    }

    /** Profiling off (also after a run cut short), then the sums and samples are taken: the clients have drained. */
    @Override
    public void stopped() {
        if (runtime != null) {
            runtime.profileHandlers(false);
            totals = runtime.handlerTotals();
            samples = runtime.messageSamples();
        }
    }

    /** Handler sums of the measured window by key ({@code "<role> <MessageSimpleName>"}, ns); empty before the end. */
    public Map<String, HandlerProfile.Sums> totals() {
        return totals;
    }

    /** Messages sampled in the measured window by class simple name ({@link HandlerProfile#samplesInto}). */
    public Map<String, List<Object>> samples() {
        return samples;
    }

    /** Handlers recorded in the window. */
    public long handled() {
        return totals.values().stream().mapToLong(s -> s.count).sum();
    }

    /** Time inside handlers in the window, ns. */
    public double handlerNanos() {
        return totals.values().stream().mapToDouble(s -> s.nanos).sum();
    }
}
