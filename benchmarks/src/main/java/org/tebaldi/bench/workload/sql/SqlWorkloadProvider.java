package org.tebaldi.bench.workload.sql;

import org.tebaldi.bench.workload.Workload;

/**
 * Supplies the SQL implementation of the workloads it knows. Registered with {@link java.util.ServiceLoader} in
 * {@code META-INF/services/org.tebaldi.bench.workload.sql.SqlWorkloadProvider}; needs a public no-argument
 * constructor.
 */
public interface SqlWorkloadProvider {
    /** The workload names this provider implements, e.g. {@code tpcc} (for messages). */
    java.util.List<String> workloads();

    /**
     * The SQL implementation of {@code workload} (same configuration: scale, mix), or null if this provider does
     * not implement it.
     */
    SqlWorkload bind(Workload workload);
}
