package org.tebaldi.core.proc.analysis;

import java.util.HashSet;
import java.util.Set;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.Stmt;

/**
 * Which locals of a {@link ProcTree} hold rows or local arrays rather than plain values (package-private),
 * inferred like the compiler does: a read or update target holds rows, {@code newArray} and {@code setElem}
 * targets hold arrays, and {@code let y = x} (or a {@code cond} of such) gives {@code y} the shape of {@code x}.
 * Scalar expansion turns a read of a carried local into an array element, whose static shape is "a value"; copying
 * a carried row or array into another local would then no longer compile, so {@link Carries} rejects it.
 */
final class Shapes {
    private final Set<String> structured = new HashSet<>();

    /** Infers the shapes of {@code t}'s locals. */
    Shapes(ProcTree t) {
        for (Node n : t.nodes) {
            Stmt s = n.stmt;
            if (s instanceof Stmt.Read || s instanceof Stmt.Update || s instanceof Stmt.NewArray
                    || s instanceof Stmt.SetElem) {
                s.defines().ifPresent(structured::add);
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Node n : t.nodes) {
                if (n.stmt instanceof Stmt.Let l && !structured.contains(l.local()) && copiesStructured(l.value())) {
                    structured.add(l.local());
                    changed = true;
                }
            }
        }
    }

    /** True if {@code local} holds rows or arrays. */
    boolean structured(String local) {
        return structured.contains(local);
    }

    /** True if a {@code let} of {@code e} copies a row or array (a structured local, a literal, a cond of them). */
    boolean copiesStructured(Expr e) {
        if (e instanceof Expr.Local l) {
            return structured.contains(l.name());
        }
        if (e instanceof Expr.Lit l) {
            return l.value() instanceof Object[] || l.value() instanceof Row;
        }
        if (e instanceof Expr.Cond c) {
            return copiesStructured(c.then()) || copiesStructured(c.otherwise());
        }
        return false;
    }
}
