package org.tebaldi.core.proc.analysis;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reaching definitions over a {@link ProcTree} (package-private), the classic data-flow analysis adapted to the
 * structured language: {@code if} merges its branches, {@code for} iterates its body to a fixpoint (so
 * definitions reach reads of later iterations: loop-carried dependencies), an {@code abort} ends the path. Also
 * records the loop-independent anti (read, then later assignment) and output (assignment, then later assignment)
 * dependencies of each variable; those carried only by a loop (target textually before source) are left out, as
 * the reorderer removes them by scalar expansion. Assignments of loop variables create no anti or output
 * dependencies: every copy of a split loop assigns its own variable.
 */
final class DataFlow {
    private final Map<Node, Map<String, Set<Node>>> reaching = new HashMap<>();
    private final Set<List<Node>> order = new LinkedHashSet<>();

    private DataFlow() {
    }

    /** Runs the analysis over the whole tree. */
    static DataFlow run(ProcTree t) {
        DataFlow f = new DataFlow();
        f.block(t.root, new State());
        return f;
    }

    /** Definitions of {@code var} that reach node {@code n}'s read of it (empty if none). */
    Set<Node> reaching(Node n, String var) {
        return reaching.getOrDefault(n, Map.of()).getOrDefault(var, Set.of());
    }

    /** Variable to reaching definitions, for every variable {@code n} reads. */
    Map<String, Set<Node>> reachingAll(Node n) {
        return reaching.getOrDefault(n, Map.of());
    }

    /** Anti and output dependencies as [source, target] pairs, source textually first. */
    Set<List<Node>> orderPairs() {
        return order;
    }

    private void block(List<Node> b, State s) {
        for (Node n : b) {
            if (s.dead) {
                return;
            }
            node(n, s);
        }
    }

    private void node(Node n, State s) {
        switch (n.kind) {
            case ATOMIC -> {
                visit(n, s);
                if (n.isAbort()) {
                    s.dead = true;
                }
            }
            case IF -> {
                visit(n, s);
                State t = s.copy();
                block(n.blocks.get(0), t);
                State e = s.copy();
                block(n.blocks.get(1), e);
                s.set(t.merge(e));
            }
            case FOR -> {
                visit(n, s);
                State head = s.copy();
                State cur = head;
                while (true) {
                    State body = cur.copy();
                    block(n.blocks.get(0), body);
                    State next = head.merge(body);
                    if (next.equals(cur)) {
                        break;
                    }
                    cur = next;
                }
                s.set(cur);
            }
            default -> throw new IllegalStateException(n.kind.name());
        }
    }

    private void visit(Node n, State s) {
        Set<String> uses = n.flowUses();
        for (String v : uses) {
            reaching.computeIfAbsent(n, k -> new HashMap<>()).computeIfAbsent(v, k -> new HashSet<>())
                    .addAll(s.defs.getOrDefault(v, Set.of()));
        }
        String d = n.flowDef();
        if (d != null) {
            if (n.kind != Node.Kind.FOR) {
                for (Node prev : s.defs.getOrDefault(d, Set.of())) {
                    if (prev.id < n.id) {
                        order.add(List.of(prev, n));
                    }
                }
                for (Node u : s.uses.getOrDefault(d, Set.of())) {
                    if (u.id < n.id) {
                        order.add(List.of(u, n));
                    }
                }
            }
            if (n.killing()) {
                s.defs.put(d, new HashSet<>(Set.of(n)));
                s.uses.put(d, new HashSet<>());
            } else {
                s.defs.computeIfAbsent(d, k -> new HashSet<>()).add(n);
            }
        }
        for (String v : uses) {
            s.uses.computeIfAbsent(v, k -> new HashSet<>()).add(n);
        }
    }

    /** Definitions and exposed reads per variable at one program point; {@code dead} after an abort. */
    private static final class State {
        Map<String, Set<Node>> defs = new HashMap<>();
        Map<String, Set<Node>> uses = new HashMap<>();
        boolean dead;

        State copy() {
            State c = new State();
            c.defs = deepCopy(defs);
            c.uses = deepCopy(uses);
            c.dead = dead;
            return c;
        }

        void set(State o) {
            defs = o.defs;
            uses = o.uses;
            dead = o.dead;
        }

        State merge(State o) {
            if (dead) {
                return o.copy();
            }
            if (o.dead) {
                return copy();
            }
            State m = copy();
            union(m.defs, o.defs);
            union(m.uses, o.uses);
            return m;
        }

        private static Map<String, Set<Node>> deepCopy(Map<String, Set<Node>> m) {
            Map<String, Set<Node>> c = new HashMap<>();
            m.forEach((k, v) -> c.put(k, new HashSet<>(v)));
            return c;
        }

        private static void union(Map<String, Set<Node>> into, Map<String, Set<Node>> from) {
            from.forEach((k, v) -> into.computeIfAbsent(k, x -> new HashSet<>()).addAll(v));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof State s && dead == s.dead && defs.equals(s.defs) && uses.equals(s.uses);
        }

        @Override
        public int hashCode() {
            return Objects.hash(defs, uses, dead);
        }
    }
}
