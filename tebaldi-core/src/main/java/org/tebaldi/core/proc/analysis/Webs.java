package org.tebaldi.core.proc.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits every local into webs and renames all webs but one (package-private, see {@link ProcTree}). A web is
 * a maximal set of assignments connected through common reads (a read joins every assignment reaching it; a
 * {@code setElem} joins the assignments of the array it changes). Webs that contain a loop variable keep the
 * name; otherwise the web with the earliest assignment does. Every read is reached only by assignments of its own
 * web, so the renamed procedure behaves identically and still passes definite assignment.
 */
final class Webs {
    private final int[] parent;

    private Webs(int n) {
        parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
    }

    /** Renames the webs of {@code t}'s locals in place. */
    static void rename(ProcTree t) {
        DataFlow f = DataFlow.run(t);
        Webs w = new Webs(t.nodes.size());
        for (Node n : t.nodes) {
            for (String v : n.reads()) {
                Set<Node> r = f.reaching(n, v);
                Node first = r.isEmpty() ? null : r.iterator().next();
                for (Node d : r) {
                    w.union(first.id, d.id);
                }
                if (first != null && v.equals(n.flowDef()) && !n.killing()) {
                    w.union(first.id, n.id);
                }
            }
        }
        Map<String, Map<Integer, List<Node>>> webs = new LinkedHashMap<>();
        for (Node n : t.nodes) {
            String v = n.flowDef();
            if (v != null && !v.startsWith(Node.OUTPUT_VAR)) {
                webs.computeIfAbsent(v, k -> new LinkedHashMap<>()).computeIfAbsent(w.find(n.id), k -> new ArrayList<>())
                        .add(n);
            }
        }
        Map<Integer, String> nameOf = new HashMap<>();
        for (Map.Entry<String, Map<Integer, List<Node>>> e : webs.entrySet()) {
            String v = e.getKey();
            boolean loopVar = e.getValue().values().stream()
                    .anyMatch(ds -> ds.stream().anyMatch(d -> d.kind == Node.Kind.FOR));
            boolean kept = loopVar;
            for (Map.Entry<Integer, List<Node>> web : e.getValue().entrySet()) {
                boolean isLoop = web.getValue().stream().anyMatch(d -> d.kind == Node.Kind.FOR);
                String name;
                if (isLoop) {
                    name = v;
                } else if (!kept) {
                    name = v;
                    kept = true;
                } else {
                    name = t.names.fresh(v);
                    t.originalNames.put(name, t.original(v));
                }
                nameOf.put(web.getKey(), name);
            }
        }
        for (Node n : t.nodes) {
            Map<String, String> reads = new HashMap<>();
            for (String v : n.reads()) {
                Set<Node> r = f.reaching(n, v);
                if (!r.isEmpty()) {
                    String name = nameOf.get(w.find(r.iterator().next().id));
                    if (!name.equals(v)) {
                        reads.put(v, name);
                    }
                }
            }
            n.stmt = Rewrite.renameReads(n.stmt, reads);
            String d = n.localDef();
            if (d != null) {
                String name = nameOf.get(w.find(n.id));
                if (!name.equals(d)) {
                    n.stmt = Rewrite.renameDef(n.stmt, name);
                }
            }
        }
    }

    private int find(int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    private void union(int a, int b) {
        parent[find(a)] = find(b);
    }
}
