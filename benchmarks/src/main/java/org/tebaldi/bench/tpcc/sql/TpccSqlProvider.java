package org.tebaldi.bench.tpcc.sql;

import java.util.List;
import org.tebaldi.bench.tpcc.TpccWorkload;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.sql.SqlWorkload;
import org.tebaldi.bench.workload.sql.SqlWorkloadProvider;

/** Registers {@link TpccSql} for the {@code tpcc} workload (both mixes). */
public final class TpccSqlProvider implements SqlWorkloadProvider {
    @Override
    public List<String> workloads() {
        return List.of("tpcc");
    }

    @Override
    public SqlWorkload bind(Workload workload) {
        return workload instanceof TpccWorkload t ? new TpccSql(t.benchmark().config()) : null;
    }
}
