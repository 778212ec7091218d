package org.tebaldi.bench.micro;

import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadFactory;
import org.tebaldi.bench.workload.WorkloadOptions;

/**
 * Creates the microbenchmarks of dissertation §4.6.4–4.6.5 from {@code workload: {name: micro, benchmark: ...}}:
 * <ul>
 *   <li>{@code benchmark: cross_group} (Fig 4.10, {@link CrossGroupWorkload}): {@code conflict} ({@code ww} or
 *       {@code rw}, default ww), {@code sharedRows} (n, default 10: ww-10 / rw-10; 20 and 100 give the 5% and 1%
 *       workloads), {@code localRows} (10), {@code otherRows} (10,000), {@code writes}: {@code write} (the dissertation's
 *       blind writes, default) or {@code increment};</li>
 *   <li>{@code benchmark: layers} (Fig 4.11, {@link LayersWorkload}): {@code hotRows} (10), {@code rows}
 *       (10,000), {@code t2}: {@code write} (the dissertation's blind writes, default) or {@code increment};</li>
 *   <li>{@code benchmark: overhead} (Table 4.1, {@link OverheadWorkload}): no options.</li>
 * </ul>
 */
public final class MicroFactory implements WorkloadFactory {
    @Override
    public String name() {
        return "micro";
    }

    @Override
    public String description() {
        return "microbenchmarks of the dissertation (options: benchmark = cross_group | layers | overhead;"
                + " cross_group: conflict, sharedRows, localRows, otherRows, writes; layers: hotRows, rows, t2)";
    }

    @Override
    public Workload create(WorkloadOptions o) {
        String b = o.getString("benchmark", "cross_group", "cross_group", "layers", "overhead");
        return switch (b) {
            case "cross_group" -> new CrossGroupWorkload(new CrossGroupWorkload.Config(
                    o.getString("conflict", "ww", "ww", "rw").equals("rw"),
                    o.getInt("sharedRows", 10, 1, 10_000_000),
                    o.getInt("localRows", 10, 1, 10_000_000),
                    o.getInt("otherRows", 10_000, 1, 10_000_000),
                    o.getString("writes", "write", "write", "increment").equals("increment")));
            case "layers" -> new LayersWorkload(o.getInt("hotRows", 10, 1, 10_000_000),
                    o.getInt("rows", 10_000, 1, 10_000_000),
                    o.getString("t2", "write", "write", "increment").equals("increment"));
            default -> new OverheadWorkload();
        };
    }
}
