package org.tebaldi.bench.workload.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;
import org.tebaldi.bench.workload.Workload;

/** The SQL implementations on the class path ({@link ServiceLoader} of {@link SqlWorkloadProvider}). */
public final class SqlWorkloads {
    private static volatile List<SqlWorkloadProvider> providers;

    private SqlWorkloads() {
    }

    private static List<SqlWorkloadProvider> providers() {
        List<SqlWorkloadProvider> p = providers;
        if (p == null) {
            p = new ArrayList<>();
            for (SqlWorkloadProvider x : ServiceLoader.load(SqlWorkloadProvider.class)) {
                p.add(x);
            }
            providers = p = List.copyOf(p);
        }
        return p;
    }

    /** The SQL implementation of {@code workload}, or null if no provider has one. */
    public static SqlWorkload bind(Workload workload) {
        for (SqlWorkloadProvider p : providers()) {
            SqlWorkload s = p.bind(workload);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    /** Names of the workloads that have a SQL implementation, sorted. */
    public static List<String> supported() {
        TreeSet<String> names = new TreeSet<>();
        providers().forEach(p -> names.addAll(p.workloads()));
        return List.copyOf(names);
    }
}
