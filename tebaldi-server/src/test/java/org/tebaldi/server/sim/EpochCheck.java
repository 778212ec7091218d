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
 * committed), and every member of a committed epoch committed, every member of an aborted one did not — a
 * coordinator that crashed too, for the epochs it voted for and died before hearing the decision of (the data servers
 * apply the decision to its members, docs/mechanisms.md "Epoch-based commit").
 */
public final class EpochCheck {
    private EpochCheck() {
    }

    /**
     * @return how many members of committed epochs whose coordinator crashed before the decision reached it were
     *         checked (transactions the data servers committed on their own)
     * @throws AssertionError naming the first violations
     */
    public static long noPartialEpoch(Cluster cluster, List<Map<Long, Boolean>> serviceDecisions) {
        return noPartialEpoch(cluster, serviceDecisions, java.util.Set.of());
    }

    /**
     * As {@link #noPartialEpoch(Cluster, List)}, with durability: {@code retracted} are commits a recovery round
     * took back (their clients were told; durability's global cut, dissertation §4.5.4, not the commit epoch).
     */
    public static long noPartialEpoch(Cluster cluster, List<Map<Long, Boolean>> serviceDecisions,
                                      java.util.Set<Long> retracted) {
        long rescued = 0;
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
                if (crashed && !tc.epochDecisions().containsKey(m.getKey()) && Boolean.TRUE.equals(s)) {
                    rescued += m.getValue().length; // the data servers applied the commit it never heard of
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
        return rescued;
    }
}
