package org.tebaldi.bench.process;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadOptions;
import org.tebaldi.bench.workload.Workloads;
import org.tebaldi.server.process.WorkloadResolver;

/**
 * Resolves a manifest's {@code workload} section with the workload factories of this jar ({@link Workloads}), as
 * the experiment runner did: every node builds the same database and partitioner.
 */
public final class FactoryResolver implements WorkloadResolver {
    @Override
    public Resolved resolve(Map<String, Object> workload, int dataServers) {
        ObjectNode o = new ObjectMapper().valueToTree(workload);
        String name = o.path("name").asText();
        Workload w = Workloads.create(new WorkloadOptions(name, o, new Locator("<ZooKeeper manifest>", Map.of())));
        return new Resolved(w.database(), w.partitioner(dataServers));
    }
}
