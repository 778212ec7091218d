package org.tebaldi.server.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.history.History;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.tc.TransactionCoordinator;

/**
 * The all-or-nothing check of epoch-based commit: no partial epoch is visible. Given every decision of the epoch
 * service's instances (one map per term), the coordinators' applied decisions and each epoch's members as prepared:
 * every coordinator applied the service's decision (none committed an epoch the service aborted or aborted one it
 * committed), and every member of a committed epoch committed, every member of an aborted one did not. A coordinator
 * that crashed is held to this for the epochs whose decision it applied before it died; the members of an epoch it
 * voted for and died before hearing the commit of are its lost share (the window epoch-based commit without a
 * coordinator log or replication cannot close, docs/mechanisms.md "Epoch-based commit"): those transactions were
 * never acknowledged, and the data servers abort them.
 */
public final class EpochCheck {
    private EpochCheck() {
    }

    /** @throws AssertionError naming the first violations */
    public static void noPartialEpoch(Cluster cluster, List<Map<Long, Boolean>> serviceDecisions) {
        noPartialEpoch(cluster, serviceDecisions, java.util.Set.of());
    }

    /**
     * As {@link #noPartialEpoch(Cluster, List)}, with durability: {@code retracted} are commits a recovery round
     * took back (their clients were told; durability's global cut, dissertation §4.5.4, not the commit epoch).
     */
    public static void noPartialEpoch(Cluster cluster, List<Map<Long, Boolean>> serviceDecisions,
                                      java.util.Set<Long> retracted) {
        Map<Long, Boolean> service = new HashMap<>();
        serviceDecisions.forEach(service::putAll);
        History h = History.merge(cluster.historyLogs());
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < cluster.coordinators().size(); i++) {
            TransactionCoordinator tc = cluster.coordinators().get(i);
            for (Map.Entry<Long, Boolean> d : tc.epochDecisions().entrySet()) {
                Boolean s = service.get(d.getKey());
                if (d.getValue() && !Boolean.TRUE.equals(s)) {
                    bad.add("tc" + i + " committed epoch " + Long.toHexString(d.getKey()) + " the service decided "
                            + s);
                }
                if (!d.getValue() && Boolean.TRUE.equals(s)) {
                    bad.add("tc" + i + " aborted epoch " + Long.toHexString(d.getKey()) + " the service committed");
                }
            }
            boolean crashed = cluster.crashedCoordinators().contains(i);
            for (Map.Entry<Long, long[]> m : tc.epochMembers().entrySet()) {
                Boolean s = service.get(m.getKey());
                if (crashed && !tc.epochDecisions().containsKey(m.getKey())) {
                    continue; // its lost share: it died before the decision reached it
                }
                for (long id : m.getValue()) {
                    if (retracted.contains(id)) {
                        continue;
                    }
                    int x = h.txnIndex(id);
                    boolean committed = x >= 0 && h.committed(x);
                    if (s != null && committed != s) {
                        bad.add("txn " + id + " of epoch " + Long.toHexString(m.getKey()) + " at tc" + i
                                + (committed ? " committed" : " did not commit") + " but the epoch "
                                + (s ? "committed" : "aborted"));
                    }
                }
            }
        }
        if (!bad.isEmpty()) {
            throw new AssertionError("partial epoch: " + bad.size() + " violation(s): "
                    + String.join("; ", bad.subList(0, Math.min(5, bad.size()))));
        }
    }
}
