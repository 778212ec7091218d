package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Static kinds of the stored-procedure language, for unboxed evaluation: what a local or an expression holds
 * <em>whenever its evaluation succeeds</em> (the run-time semantics are in {@link Exprs}; an evaluation may still
 * fail, or need a value in flight). A local whose every assignment is a long (a loop variable, {@code len(..)},
 * long arithmetic on longs, an element of an input array) lives in a primitive slot; expressions of kind LONG,
 * DOUBLE and BOOL are evaluated without boxing ({@link TypedExprs}). Inputs, fields of rows and elements of local
 * arrays are dynamically typed (ANY). Package-private.
 */
final class Kinds {
    private Kinds() {
    }

    /** A static kind. */
    enum Kind {
        /** Nothing known yet: during inference, a local no assignment has reached. */
        NONE("nothing"),
        /** Always a {@link Long}. */
        LONG("long"),
        /** Always a {@link Double}. */
        DOUBLE("double"),
        /** Always a {@link Boolean}. */
        BOOL("boolean"),
        /** Any value, null included. */
        ANY("any");

        /** The name {@link Values#kind} gives a value of this kind (for messages). */
        final String valueKind;

        Kind(String valueKind) {
            this.valueKind = valueKind;
        }

        /** The least kind holding the values of both. */
        Kind join(Kind o) {
            if (this == o || o == NONE) {
                return this;
            }
            return this == NONE ? o : ANY;
        }

        /** LONG or DOUBLE: stored in a primitive slot when it is a local's kind. */
        boolean numeric() {
            return this == LONG || this == DOUBLE;
        }
    }

    /**
     * The kind of every local of {@code body} (names of locals no statement assigns are absent): the least fixpoint
     * of "a local holds the join of the kinds of what is assigned to it", where {@code let} assigns its value's kind,
     * {@code for} a long, and a read, update, {@code newArray} or {@code setElem} a row or an array (ANY). A local
     * only assigned from locals that are never assigned anything (a cycle of copies) is ANY.
     */
    static Map<String, Kind> locals(List<Stmt> body) {
        List<Stmt> all = Stmt.flatten(body);
        Map<String, Kind> kinds = new HashMap<>();
        for (Stmt s : all) {
            s.defines().ifPresent(n -> kinds.put(n, Kind.NONE));
        }
        while (true) {
            boolean changed = true;
            while (changed) {
                changed = false;
                for (Stmt s : all) {
                    if (s.defines().isEmpty()) {
                        continue;
                    }
                    String local = s.defines().get();
                    Kind assigned = s instanceof Stmt.Let l ? of(l.value(), kinds::get)
                            : s instanceof Stmt.For ? Kind.LONG : Kind.ANY;
                    Kind old = kinds.get(local);
                    Kind now = old.join(assigned);
                    if (now != old) {
                        kinds.put(local, now);
                        changed = true;
                    }
                }
            }
            List<String> unknown = new ArrayList<>();
            kinds.forEach((n, k) -> {
                if (k == Kind.NONE) {
                    unknown.add(n);
                }
            });
            if (unknown.isEmpty()) {
                return kinds;
            }
            unknown.forEach(n -> kinds.put(n, Kind.ANY));
        }
    }

    /**
     * The kind of {@code e}, given the kinds of locals ({@code local} may return null or NONE for a local not known
     * yet). Rules: literals by their value; inputs, fields, {@code col} and {@code concat} ANY; arithmetic is DOUBLE
     * if an operand is DOUBLE (a long and a double give a double, anything else fails), LONG if both are LONG, else
     * ANY; comparisons, {@code and}, {@code or}, {@code not} and {@code isNull} BOOL; {@code len} and
     * {@code toLong} LONG; {@code toDouble} DOUBLE; {@code neg} keeps a numeric kind; {@code cond} joins its
     * branches; an element of an input (always a {@code long[]}, since inputs are never local arrays) or of a
     * {@code long[]} literal is LONG, of anything else ANY.
     */
    static Kind of(Expr e, Function<String, Kind> local) {
        if (e instanceof Expr.Lit l) {
            Object v = l.value();
            return v instanceof Long ? Kind.LONG : v instanceof Double ? Kind.DOUBLE
                    : v instanceof Boolean ? Kind.BOOL : Kind.ANY;
        }
        if (e instanceof Expr.Local l) {
            Kind k = local.apply(l.name());
            return k == null ? Kind.NONE : k;
        }
        if (e instanceof Expr.Unary u) {
            switch (u.op()) {
                case NEG: {
                    Kind k = of(u.operand(), local);
                    return k.numeric() || k == Kind.NONE ? k : Kind.ANY;
                }
                case LEN:
                case TO_LONG:
                    return Kind.LONG;
                case TO_DOUBLE:
                    return Kind.DOUBLE;
                default:
                    return Kind.BOOL;
            }
        }
        if (e instanceof Expr.Binary b) {
            switch (b.op()) {
                case ADD:
                case SUB:
                case MUL:
                case DIV:
                case MOD: {
                    Kind x = of(b.left(), local);
                    Kind y = of(b.right(), local);
                    if (x == Kind.DOUBLE || y == Kind.DOUBLE) {
                        return Kind.DOUBLE;
                    }
                    if (x == Kind.NONE || y == Kind.NONE) {
                        return Kind.NONE;
                    }
                    return x == Kind.LONG && y == Kind.LONG ? Kind.LONG : Kind.ANY;
                }
                default:
                    return Kind.BOOL;
            }
        }
        if (e instanceof Expr.Cond c) {
            return of(c.then(), local).join(of(c.otherwise(), local));
        }
        if (e instanceof Expr.Elem el) {
            return el.array() instanceof Expr.In || el.array() instanceof Expr.Lit l && l.value() instanceof long[]
                    ? Kind.LONG : Kind.ANY;
        }
        return Kind.ANY;
    }
}
