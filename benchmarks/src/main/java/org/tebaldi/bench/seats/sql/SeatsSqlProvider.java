package org.tebaldi.bench.seats.sql;

import java.util.List;
import org.tebaldi.bench.seats.SeatsWorkload;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.sql.SqlWorkload;
import org.tebaldi.bench.workload.sql.SqlWorkloadProvider;

/** Registers {@link SeatsSql} for the {@code seats} workload. */
public final class SeatsSqlProvider implements SqlWorkloadProvider {
    @Override
    public List<String> workloads() {
        return List.of("seats");
    }

    @Override
    public SqlWorkload bind(Workload workload) {
        return workload instanceof SeatsWorkload ? new SeatsSql() : null;
    }
}
