package org.tebaldi.core.proc.analysis;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.tebaldi.core.proc.Assign;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.Stmt;

/**
 * Expression and statement rewriting helpers of the analyses (package-private): substitution of the leaves
 * that read locals ({@code local(..)}, {@code field(..)}), mapping every expression of a statement, renaming.
 */
final class Rewrite {
    private Rewrite() {
    }

    /**
     * {@code e} with every {@link Expr.Local} and {@link Expr.Field} leaf replaced by {@code leaf.apply(it)}
     * (which may return it unchanged); other nodes are rebuilt only if a child changed.
     */
    static Expr substitute(Expr e, UnaryOperator<Expr> leaf) {
        if (e instanceof Expr.Local || e instanceof Expr.Field) {
            return leaf.apply(e);
        }
        if (e.children().isEmpty()) {
            return e;
        }
        return e.mapChildren(c -> substitute(c, leaf));
    }

    /**
     * {@code s} with every expression it evaluates itself (keys, values, conditions, bounds; not nested blocks)
     * mapped by {@code f}; names of assigned locals unchanged.
     */
    static Stmt mapExprs(Stmt s, UnaryOperator<Expr> f) {
        if (s instanceof Stmt.Let l) {
            return new Stmt.Let(l.local(), f.apply(l.value()));
        }
        if (s instanceof Stmt.Read r) {
            return new Stmt.Read(r.table(), r.into(), map(r.key(), f), r.forUpdate());
        }
        if (s instanceof Stmt.Write w) {
            return new Stmt.Write(w.table(), mapAssigns(w.row(), f), map(w.key(), f));
        }
        if (s instanceof Stmt.Update u) {
            return new Stmt.Update(u.table(), u.into(), mapAssigns(u.assignments(), f), map(u.key(), f));
        }
        if (s instanceof Stmt.Delete d) {
            return new Stmt.Delete(d.table(), map(d.key(), f));
        }
        if (s instanceof Stmt.If i) {
            return new Stmt.If(f.apply(i.cond()), i.then(), i.otherwise());
        }
        if (s instanceof Stmt.For fo) {
            return new Stmt.For(fo.var(), f.apply(fo.from()), f.apply(fo.to()), fo.maxIterations(), fo.body());
        }
        if (s instanceof Stmt.NewArray n) {
            return new Stmt.NewArray(n.local(), f.apply(n.size()));
        }
        if (s instanceof Stmt.SetElem se) {
            return new Stmt.SetElem(se.array(), f.apply(se.index()), f.apply(se.value()));
        }
        if (s instanceof Stmt.Output o) {
            return new Stmt.Output(o.name(), f.apply(o.value()));
        }
        return s;
    }

    /** {@code s} assigning {@code name} instead of its current local (Let, NewArray, SetElem, Read/Update into). */
    static Stmt renameDef(Stmt s, String name) {
        if (s instanceof Stmt.Let l) {
            return new Stmt.Let(name, l.value());
        }
        if (s instanceof Stmt.NewArray n) {
            return new Stmt.NewArray(name, n.size());
        }
        if (s instanceof Stmt.SetElem se) {
            return new Stmt.SetElem(name, se.index(), se.value());
        }
        if (s instanceof Stmt.Read r) {
            return new Stmt.Read(r.table(), name, r.key(), r.forUpdate());
        }
        if (s instanceof Stmt.Update u) {
            return new Stmt.Update(u.table(), name, u.assignments(), u.key());
        }
        throw new IllegalArgumentException("statement assigns no local: " + s.describe());
    }

    /** {@code s} with the locals it reads renamed by {@code names} (absent: unchanged). */
    static Stmt renameReads(Stmt s, Map<String, String> names) {
        if (names.isEmpty()) {
            return s;
        }
        return mapExprs(s, e -> substitute(e, leaf -> {
            if (leaf instanceof Expr.Local l && names.containsKey(l.name())) {
                return new Expr.Local(names.get(l.name()));
            }
            if (leaf instanceof Expr.Field fd && names.containsKey(fd.row())) {
                return new Expr.Field(names.get(fd.row()), fd.column());
            }
            return leaf;
        }));
    }

    /** Columns {@code c} of every {@code field(local, c)} in the expressions {@code s} evaluates itself. */
    static Set<String> fieldsOf(Stmt s, String local) {
        Set<String> out = new TreeSet<>();
        for (Expr e : s.exprs()) {
            collectFields(e, local, out);
        }
        return out;
    }

    private static void collectFields(Expr e, String local, Set<String> out) {
        if (e instanceof Expr.Field fd && fd.row().equals(local)) {
            out.add(fd.column());
        }
        for (Expr c : e.children()) {
            collectFields(c, local, out);
        }
    }

    private static List<Expr> map(List<Expr> es, UnaryOperator<Expr> f) {
        return es.stream().map(f).toList();
    }

    private static List<Assign> mapAssigns(List<Assign> as, UnaryOperator<Expr> f) {
        return as.stream().map(a -> new Assign(a.column(), f.apply(a.value()))).toList();
    }
}
