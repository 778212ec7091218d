package org.tebaldi.bench.burn;

import java.util.List;
import java.util.Set;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcTree;

/**
 * The checks {@link ScenarioFiles#check} makes on the timed fault kinds ({@link FaultKind#timed()}): targets that
 * name nodes of the scenario's cluster, positive windows, and the combinations {@link BurnRun} can apply — a
 * coordinator crash needs a surviving coordinator, no reconfiguration (which waits for every coordinator) and no
 * link drop touching the crashed one (the known two-phase commit gap without a coordinator log, docs/cluster.md,
 * "Failures"); a data-server restart needs durability, at most one
 * per scenario, and no cluster crash, reconfiguration or coordinator crash beside it; with a cluster crash every
 * timed fault ends before it; a service is not lost again before its new term took over.
 */
final class FaultChecks {
    private FaultChecks() {
    }

    /** Checks one timed fault {@code f} at {@code at} (e.g. {@code faults[3]}). @throws ConfigException if bad */
    static void timed(Scenario s, CcTree tree, Fault f, String source, String at) {
        List<String> t = f.targets();
        switch (f.kind()) {
            case DELAY_SPIKE -> {
                if (t.size() > 2) {
                    throw bad(source, at + ".targets", "a delay spike names at most two nodes (from, to)",
                            "write [], [\"tc0\"] or [\"tc0\", \"ds1\"]; \"*\" is any node");
                }
                for (int i = 0; i < t.size(); i++) {
                    if (!Targets.ANY.equals(t.get(i))) {
                        node(s, t.get(i), source, at + ".targets[" + i + "]");
                    }
                }
                window(f, source, at);
                if (f.parameter() < 0) {
                    throw bad(source, at + ".parameter", "negative extra delay", "give the extra delay in µs, ≥ 0");
                }
            }
            case LINK_DROP -> {
                if (t.size() != 2 || t.get(0).equals(t.get(1))) {
                    throw bad(source, at + ".targets", "a link drop names two different nodes",
                            "write e.g. [\"tc0\", \"ds1\"]");
                }
                node(s, t.get(0), source, at + ".targets[0]");
                node(s, t.get(1), source, at + ".targets[1]");
                window(f, source, at);
            }
            case CLOCK_SKEW -> one(s, f, source, at);
            case NODE_PAUSE -> {
                one(s, f, source, at);
                window(f, source, at);
            }
            case COORDINATOR_CRASH -> {
                NodeId n = one(s, f, source, at);
                if (n.role() != Role.TC) {
                    throw bad(source, at + ".targets", "a coordinator crash targets a coordinator", "write [\"tc1\"]");
                }
                window(f, source, at);
            }
            case SERVICE_LOSS -> {
                NodeId n = one(s, f, source, at);
                Set<Role> svc = Targets.services(s, tree);
                if (n.index() != 0 || !svc.contains(n.role())) {
                    throw bad(source, at + ".targets", "no singleton service " + t.get(0) + " runs in this cluster",
                            "name one of " + svc.stream().map(Role::cli).toList());
                }
                window(f, source, at);
            }
            case DS_RESTART -> {
                NodeId n = one(s, f, source, at);
                if (n.role() != Role.DS) {
                    throw bad(source, at + ".targets", "a data-server restart targets a data server",
                            "write [\"ds0\"]");
                }
                if (!s.durable()) {
                    throw bad(source, at, "a data-server restart needs durability", "set \"durable\": true");
                }
                window(f, source, at);
                if (f.parameter() < 1) {
                    throw bad(source, at + ".parameter", "restart delay " + f.parameter() + " µs",
                            "give the time from the crash to the restart in µs, ≥ 1");
                }
            }
            default -> throw new IllegalStateException("not a timed kind: " + f.kind());
        }
    }

    /** Checks the combinations of faults. @throws ConfigException if they cannot run together */
    static void together(Scenario s, String source) {
        List<Fault> crashes = s.faults(FaultKind.COORDINATOR_CRASH);
        Set<String> crashed = new java.util.HashSet<>();
        crashes.forEach(f -> crashed.add(Targets.parse(f.targets().get(0)).toString()));
        if (crashed.size() < crashes.size() || crashed.size() >= s.coordinators()) {
            throw bad(source, "faults", "coordinator crashes must name different coordinators and leave one alive",
                    "drop a coordinator crash or add coordinators");
        }
        if (!crashes.isEmpty() && !s.faults(FaultKind.RECONFIG).isEmpty()) {
            throw bad(source, "faults", "a coordinator crash together with a reconfiguration: the reconfiguration "
                    + "server waits for every coordinator and never ends (no membership change)",
                    "drop the coordinator crash or the reconfigurations");
        }
        for (Fault d : s.faults(FaultKind.LINK_DROP)) {
            for (String n : d.targets()) {
                if (crashed.contains(Targets.parse(n).toString())) {
                    throw bad(source, "faults", "a link drop touches crashed coordinator " + n + ": two-phase commit "
                            + "without a coordinator log may then commit at one data server and abort at another "
                            + "(known gap, docs/cluster.md \"Failures\")", "drop the link drop or the coordinator crash");
                }
            }
        }
        List<Fault> losses = s.faults(FaultKind.SERVICE_LOSS);
        for (Fault a : losses) {
            for (Fault b : losses) {
                if (a != b && a.targets().equals(b.targets()) && a.atMicros() <= b.atMicros()
                        && b.atMicros() <= a.endMicros()) {
                    throw bad(source, "faults", "service " + a.targets().get(0) + " is lost again at "
                            + b.atMicros() + " µs before its new term took over (" + a.endMicros() + " µs)",
                            "start the second loss after the first healed");
                }
            }
        }
        List<Fault> restarts = s.faults(FaultKind.DS_RESTART);
        if (restarts.size() > 1 || !restarts.isEmpty() && !(s.faults(FaultKind.CLUSTER_CRASH).isEmpty()
                && s.faults(FaultKind.RECONFIG).isEmpty() && crashes.isEmpty())) {
            throw bad(source, "faults", "at most one data-server restart, and not together with a cluster crash, "
                    + "a reconfiguration or a coordinator crash", "drop faults");
        }
        for (Fault c : s.faults(FaultKind.CLUSTER_CRASH)) {
            for (Fault f : s.faults()) {
                if (f.kind().timed() && f.endMicros() >= c.atMicros()) {
                    throw bad(source, "faults", f + " does not end before the cluster crash at " + c.atMicros()
                            + " µs", "end it earlier or drop it");
                }
            }
        }
    }

    private static NodeId one(Scenario s, Fault f, String source, String at) {
        if (f.targets().size() != 1) {
            throw bad(source, at + ".targets", "a " + f.kind().label() + " names one node", "write e.g. [\"ds0\"]");
        }
        return node(s, f.targets().get(0), source, at + ".targets[0]");
    }

    private static NodeId node(Scenario s, String name, String source, String at) {
        NodeId n;
        try {
            n = Targets.parse(name);
        } catch (IllegalArgumentException e) {
            throw bad(source, at, e.getMessage(), "name a node of the cluster");
        }
        if (!Targets.exists(s, n)) {
            throw bad(source, at, "no node " + n + " in a cluster of " + s.coordinators() + " coordinators and "
                    + s.dataServers() + " data servers", "name a node of the cluster");
        }
        return n;
    }

    private static void window(Fault f, String source, String at) {
        if (f.durationMicros() < 1) {
            throw bad(source, at + ".durationMicros", "is " + f.durationMicros(), "give a positive duration in µs");
        }
    }

    private static ConfigException bad(String source, String field, String problem, String fix) {
        return new ConfigException(source, 0, field, problem, fix);
    }
}
