package org.tebaldi.bench.workload;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.tebaldi.bench.config.Suggest;
import org.tebaldi.core.config.ConfigException;

/** The registry of workloads on the class path ({@link ServiceLoader} of {@link WorkloadFactory}), by name. */
public final class Workloads {
    private static volatile Map<String, WorkloadFactory> all;

    private Workloads() {
    }

    /**
     * All factories by name, sorted.
     *
     * @throws IllegalStateException if two factories share a name
     */
    public static Map<String, WorkloadFactory> all() {
        Map<String, WorkloadFactory> m = all;
        if (m == null) {
            m = new TreeMap<>();
            for (WorkloadFactory f : ServiceLoader.load(WorkloadFactory.class)) {
                WorkloadFactory old = m.put(f.name(), f);
                if (old != null) {
                    throw new IllegalStateException("two workload factories named '" + f.name() + "': "
                            + old.getClass().getName() + " and " + f.getClass().getName());
                }
            }
            all = m = Collections.unmodifiableMap(m);
        }
        return m;
    }

    /**
     * Creates the workload {@code options.workload()} names from its options, applies the options every workload
     * takes ({@code execution}, {@code roundTrips}: {@link ExecutionModes}), then rejects options nobody read.
     *
     * @throws ConfigException at {@code workload.name} for an unknown workload (listing the known ones), or for a
     *                         bad or unknown option
     */
    public static Workload create(WorkloadOptions options) {
        WorkloadFactory f = all().get(options.workload());
        if (f == null) {
            throw options.error("name", "unknown workload '" + options.workload() + "'"
                    + Suggest.didYouMean(options.workload(), all().keySet()), "use one of "
                    + String.join(", ", all().keySet()));
        }
        Workload w = ExecutionModes.wrap(f.create(options), options);
        if (options.has("shift") && !options.resolved().containsKey("shift")) {
            throw options.error("shift", "workload '" + options.workload() + "' does not change during a run",
                    "remove shift, or use a workload that shifts: bank (auditRatio), tpcc (mix)");
        }
        options.rejectUnread();
        return w;
    }
}
