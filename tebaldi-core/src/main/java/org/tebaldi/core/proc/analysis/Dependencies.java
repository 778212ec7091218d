package org.tebaldi.core.proc.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.tebaldi.core.proc.Procedure;
import org.tebaldi.core.proc.Stmt;

/**
 * Which data accesses of a stored procedure depend on which earlier ones: the input of runtime pipelining's table
 * graph (dissertation §4.4.2: "edges representing transactional data / control-flow dependencies"; Callas §4).
 *
 * <p>For every access statement (read, readForUpdate, write, update, delete) it gives the accesses it depends on,
 * transitively through lets, setElem, arrays and loop variables:
 * <ul>
 *   <li>data: a local read by its key or its written / assigned values was computed from the access's result;</li>
 *   <li>control: the condition of an enclosing {@code if} or the bounds of an enclosing {@code for} were;</li>
 *   <li>guard: it reads a local that the condition of an earlier {@code abortIf} (any {@code if} containing an
 *       {@code abort}) tests, and that condition depends on the access; the reorderer keeps such a statement
 *       after its guard so that the guard's abort happens first.</li>
 * </ul>
 * "Earlier" includes accesses later in a loop body, executed in a previous iteration (loop-carried). Statements are
 * numbered as in error messages (pre-order, from 1, see {@link Stmt#flatten}). {@link AccessDeps#orderedAfter()}
 * lists the further accesses the reorderer must keep before this one without a value flowing (an assignment
 * overwriting a local the access's statement read or wrote earlier in the same iteration, user aborts kept in
 * order, outputs of one name). Accesses in unreachable code (after a statement that always aborts) depend on
 * nothing.
 *
 * <p>Immutable. {@code Dependencies.of(p).access(12).dependsOn()} gives e.g. {@code [2, 9]}.
 */
public final class Dependencies {
    /**
     * One access and what it depends on.
     *
     * @param statement    its statement number
     * @param access       the statement
     * @param dependsOn    numbers of the access statements it depends on (data, control, guard), ascending
     * @param orderedAfter numbers of the further access statements that must run before it, ascending
     */
    public record AccessDeps(int statement, Stmt.Access access, SortedSet<Integer> dependsOn,
                             SortedSet<Integer> orderedAfter) {
        /** Copies the sets. */
        public AccessDeps {
            dependsOn = Collections.unmodifiableSortedSet(new TreeSet<>(dependsOn));
            orderedAfter = Collections.unmodifiableSortedSet(new TreeSet<>(orderedAfter));
        }

        /** The accessed table. */
        public String table() {
            return access.table();
        }
    }

    private final Procedure procedure;
    private final Map<Integer, AccessDeps> byStatement;

    private Dependencies(Procedure procedure, Map<Integer, AccessDeps> byStatement) {
        this.procedure = procedure;
        this.byStatement = Collections.unmodifiableMap(byStatement);
    }

    /** Analyzes {@code p}. */
    public static Dependencies of(Procedure p) {
        ProcTree t = ProcTree.of(p);
        DepGraph g = DepGraph.of(t);
        Map<Integer, Node> nodeOf = new HashMap<>();
        for (Node n : t.nodes) {
            if (n.isAccess()) {
                nodeOf.put(n.origin, n);
            }
        }
        Set<DepGraph.Kind> value = EnumSet.of(DepGraph.Kind.DATA, DepGraph.Kind.CONTROL, DepGraph.Kind.GUARD);
        Set<DepGraph.Kind> all = EnumSet.allOf(DepGraph.Kind.class);
        Map<Integer, AccessDeps> out = new LinkedHashMap<>();
        List<Stmt> flat = Stmt.flatten(p.body());
        for (int i = 0; i < flat.size(); i++) {
            if (!(flat.get(i) instanceof Stmt.Access a)) {
                continue;
            }
            int no = i + 1;
            Node n = nodeOf.get(no);
            SortedSet<Integer> deps = new TreeSet<>();
            SortedSet<Integer> ordered = new TreeSet<>();
            if (n != null) {
                g.accessesBefore(n, value).forEach(d -> deps.add(d.origin));
                g.accessesBefore(n, all).forEach(d -> ordered.add(d.origin));
                ordered.removeAll(deps);
                deps.remove(no);
                ordered.remove(no);
            }
            out.put(no, new AccessDeps(no, a, deps, ordered));
        }
        return new Dependencies(p, out);
    }

    /** The analyzed procedure. */
    public Procedure procedure() {
        return procedure;
    }

    /** Every access statement, in program order. */
    public List<AccessDeps> accesses() {
        return new ArrayList<>(byStatement.values());
    }

    /**
     * The access with statement number {@code statement}.
     *
     * @throws IllegalArgumentException if that statement is not an access
     */
    public AccessDeps access(int statement) {
        AccessDeps a = byStatement.get(statement);
        if (a == null) {
            throw new IllegalArgumentException(procedure.name() + ": statement " + statement
                    + " is not a data access; accesses: " + byStatement.keySet());
        }
        return a;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(procedure.name()).append(':');
        for (AccessDeps a : byStatement.values()) {
            sb.append(' ').append(a.statement()).append('(').append(a.access().describe()).append(")<-")
                    .append(a.dependsOn());
        }
        return sb.toString();
    }
}
