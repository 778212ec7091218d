package org.tebaldi.bench.workload;

/**
 * Creates a {@link Workload} from an experiment's {@code workload:} section. Implementations are registered with
 * {@link java.util.ServiceLoader} in {@code META-INF/services/org.tebaldi.bench.workload.WorkloadFactory} and found
 * by {@link Workloads}; they need a public no-argument constructor.
 */
public interface WorkloadFactory {
    /** The name experiments use, e.g. {@code tpcc}; unique among factories. */
    String name();

    /** One line for listings, e.g. {@code bank transfers and audits (options: accounts, auditRatio)}. */
    String description();

    /**
     * Builds the workload. Read every option through {@code options} (typed getters with defaults and ranges);
     * options never read are rejected afterwards as unknown by {@link Workloads#create}.
     *
     * @throws org.tebaldi.core.config.ConfigException for a bad option (use {@link WorkloadOptions#error})
     */
    Workload create(WorkloadOptions options);
}
