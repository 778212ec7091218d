package org.tebaldi.core.proc.analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.proc.Stmt;

/**
 * One statement of a procedure body as the analyses see it (package-private): an atomic statement, or the
 * header of an {@code if} (its condition) or {@code for} (its bounds and loop variable) with the nested
 * statements as child nodes. Nodes are numbered in pre-order ({@link #id}); {@link #origin} is the number of the
 * statement of the original procedure it comes from (the one error messages use, see {@link Stmt#flatten}).
 */
final class Node {
    enum Kind { ATOMIC, IF, FOR }

    /** Prefix of the pseudo-variable that orders {@code output} statements of one name. */
    static final String OUTPUT_VAR = "$out:";

    final Kind kind;
    final int origin;
    final boolean synthetic;
    final String label;
    final Node parent;
    final List<List<Node>> blocks;
    /** Atomic statement, or the If/For header with empty nested blocks. */
    Stmt stmt;
    int id;
    /** Id of the last node of this subtree. */
    int last;
    /** IF only: the synthetic {@code let} that evaluates the condition into a temp, or null. */
    Node condLet;

    Node(Kind kind, Stmt stmt, int origin, boolean synthetic, String label, Node parent) {
        this.kind = kind;
        this.stmt = stmt;
        this.origin = origin;
        this.synthetic = synthetic;
        this.label = label;
        this.parent = parent;
        this.blocks = kind == Kind.IF ? List.of(new ArrayList<>(), new ArrayList<>())
                : kind == Kind.FOR ? List.of(new ArrayList<>()) : List.of();
    }

    boolean isAccess() {
        return stmt instanceof Stmt.Access;
    }

    Stmt.Access access() {
        return (Stmt.Access) stmt;
    }

    boolean isAbort() {
        return stmt instanceof Stmt.Abort;
    }

    /** True if {@code o} is a strict descendant of this node. */
    boolean contains(Node o) {
        return o.id > id && o.id <= last;
    }

    /** Enclosing {@code for} nodes, innermost first (a loop header is not its own enclosing loop). */
    List<Node> loops() {
        List<Node> out = new ArrayList<>();
        for (Node p = parent; p != null; p = p.parent) {
            if (p.kind == Kind.FOR) {
                out.add(p);
            }
        }
        return out;
    }

    /** Locals read by this node itself (for headers: the condition or the bounds). */
    Set<String> reads() {
        return stmt.localsRead();
    }

    /** Variables the data-flow analysis tracks as read: {@link #reads()} plus the output pseudo-variable. */
    Set<String> flowUses() {
        if (stmt instanceof Stmt.Output o) {
            Set<String> out = new LinkedHashSet<>(reads());
            out.add(OUTPUT_VAR + o.name());
            return out;
        }
        return reads();
    }

    /** The variable this node assigns (a local, a loop variable, or the output pseudo-variable), or null. */
    String flowDef() {
        if (stmt instanceof Stmt.Output o) {
            return OUTPUT_VAR + o.name();
        }
        return stmt.defines().orElse(null);
    }

    /** The local this node assigns, loop variables and pseudo-variables excluded, or null. */
    String localDef() {
        return kind == Kind.ATOMIC && !(stmt instanceof Stmt.Output) ? stmt.defines().orElse(null) : null;
    }

    /** False for {@code setElem}, which changes one element and keeps the rest of the array. */
    boolean killing() {
        return !(stmt instanceof Stmt.SetElem);
    }

    /** "statement 7 (read stock)" for messages. */
    String where() {
        return "statement " + origin + " (" + label + ")";
    }

    @Override
    public String toString() {
        return "#" + id + " " + where();
    }
}
