package org.tebaldi.bench.burn;

import java.util.Locale;
import java.util.Set;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.node.ClusterConfig;

/**
 * The node names of fault targets in scenario files: {@code tc0}, {@code ds1}, {@code client2} (a coordinator's
 * client endpoint), a service by role ({@code ts}, {@code batch}, {@code monitor} …, index 0), {@code configurator}
 * (the reconfiguration server), and {@code *} (any node, for delay spikes only).
 */
final class Targets {
    /** The wildcard of a delay spike's end. */
    static final String ANY = "*";

    private Targets() {
    }

    /**
     * The node named {@code name}, e.g. {@code tc0} → {@code NodeId(TC, 0)}, {@code ts} → {@code NodeId(TS, 0)}.
     *
     * @throws IllegalArgumentException naming the accepted forms if the name is none of them
     */
    static NodeId parse(String name) {
        if (name != null) {
            String n = name.toLowerCase(Locale.ROOT);
            for (Role r : Role.values()) {
                String p = r.cli();
                if (n.equals(p)) {
                    return new NodeId(r, 0);
                }
                if (n.startsWith(p) && n.length() > p.length() && n.substring(p.length()).chars()
                        .allMatch(Character::isDigit) && n.length() - p.length() <= 4) {
                    return new NodeId(r, Integer.parseInt(n.substring(p.length())));
                }
            }
        }
        throw new IllegalArgumentException("unknown node '" + name + "' (write tc0, ds1, client0, ts, batch …)");
    }

    /** The node named {@code name}, or null for {@link #ANY}. @throws IllegalArgumentException as {@link #parse} */
    static NodeId parseOrAny(String name) {
        return ANY.equals(name) ? null : parse(name);
    }

    /** The singleton service roles the scenario's cluster runs (all of them when it reconfigures). */
    static Set<Role> services(Scenario s, CcTree tree) {
        ClusterConfig cfg = new ClusterConfig(BurnWorkload.of(s.workload()).create().database(), tree, 1, 1, null,
                false);
        return (s.faults(FaultKind.RECONFIG).isEmpty() ? Cluster.services(cfg) : Cluster.allServices(cfg)).keySet();
    }

    /** Whether node {@code n} exists in the scenario's cluster (service roles are checked by {@link #services}). */
    static boolean exists(Scenario s, NodeId n) {
        return switch (n.role()) {
            case TC, CLIENT -> n.index() < s.coordinators();
            case DS -> n.index() < s.dataServers();
            case CONFIGURATOR -> n.index() == 0 && !s.faults(FaultKind.RECONFIG).isEmpty();
            case CONTROL -> false;
            default -> n.index() == 0;
        };
    }
}
