package org.tebaldi.server.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.server.epoch.EpochService;

/**
 * One simulated run's epoch service instances (a new one per term after {@code Cluster#failService}), for their
 * decisions and counts; {@link #capture} is called at the start and right after each take-over.
 */
final class EpochServices {
    private final List<EpochService> all = new ArrayList<>();

    /** Remembers the current term's instance of the epoch service, if new. */
    void capture(FaultRun run) {
        EpochService s = (EpochService) run.cluster.service(Role.EPOCH);
        if (s != null && !all.contains(s)) {
            all.add(s);
        }
    }

    /** Epochs aborted, over every captured term. */
    long aborted() {
        return all.stream().mapToLong(EpochService::abortedEpochs).sum();
    }

    /** Epochs committed, over every captured term. */
    long committed() {
        return all.stream().mapToLong(EpochService::committedEpochs).sum();
    }

    /** Each captured term's decisions (epoch id → committed). */
    List<Map<Long, Boolean>> decisions() {
        return all.stream().map(EpochService::decisions).toList();
    }

    /** The decision of {@code epoch} by any captured term, or null if none decided it. */
    Boolean decision(long epoch) {
        for (EpochService s : all) {
            Boolean d = s.decisions().get(epoch);
            if (d != null) {
                return d;
            }
        }
        return null;
    }
}
