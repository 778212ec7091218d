package org.tebaldi.cc.rp.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Tarjan's strongly connected components over a small graph of named nodes (package-private; recursive, table
 * graphs have tens of nodes).
 */
final class Tarjan {
    private final Function<String, Set<String>> successors;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final List<List<String>> out = new ArrayList<>();

    private Tarjan(Function<String, Set<String>> successors) {
        this.successors = successors;
    }

    /** The components of the graph over {@code nodes}, each a list of its nodes, in reverse topological order. */
    static List<List<String>> components(List<String> nodes, Function<String, Set<String>> successors) {
        Tarjan t = new Tarjan(successors);
        for (String n : nodes) {
            if (!t.index.containsKey(n)) {
                t.visit(n);
            }
        }
        return t.out;
    }

    private void visit(String v) {
        int i = index.size();
        index.put(v, i);
        low.put(v, i);
        stack.push(v);
        for (String w : successors.apply(v)) {
            if (!index.containsKey(w)) {
                visit(w);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> comp = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                comp.add(w);
            } while (!w.equals(v));
            out.add(comp);
        }
    }
}
