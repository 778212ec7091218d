package org.tebaldi.core.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Kinds.Kind;
import org.tebaldi.core.testkit.TestStore;

/**
 * Unboxed evaluation is invisible: a random expression over locals holding literals or inputs (so of kind LONG,
 * DOUBLE, BOOL or ANY, evaluated unboxed where the kind allows, mixing unboxed operands with boxed ones that hold
 * numbers too) gives the same outcome — the same value, or the same error message naming the same statement — as
 * the same expression over locals all copied from inputs (kind ANY, evaluated boxed by {@link Values}), in every
 * context that takes a value unboxed: an output, a let into a local, a condition, loop bounds, a key part, an array
 * size and an index.
 */
class UnboxedEvaluationTest {
    private static final Object[] VALUES = {0L, 1L, -1L, 2L, 7L, 128L, 100_000L, Long.MAX_VALUE, Long.MIN_VALUE, 0.0,
        -0.0, 2.5, -3.0, Double.NaN, Double.POSITIVE_INFINITY, 1e300, true, false, null, "7", "abc", new long[] {3, 0, 2}};
    private static final int LEAVES = 4;
    private static final int CASES = 2500;

    private final Catalog cat = Tpcc.catalog();

    /** Contexts an expression is used in; each appends statements after the leaves' lets. */
    private static final List<BiConsumer<Block, Expr>> CONTEXTS = List.of(
            (b, e) -> b.output("r", e),
            (b, e) -> b.let("x", e).output("r", local("x")).let("y", local("x")).output("y", local("y")),
            (b, e) -> b.ifThenElse(e, t -> t.output("r", lit("then")), o -> o.output("r", lit("else"))),
            (b, e) -> b.let("n", lit(0L)).forRange("k", e, lit(3L), 8, l -> l.let("n", add(local("n"), local("k"))))
                    .output("r", local("n")),
            (b, e) -> b.read("kv", "row", e).output("r", isNull(local("row"))),
            (b, e) -> b.newArray("a", e).output("r", len(local("a"))),
            (b, e) -> b.newArray("a", lit(4L)).setElem("a", e, lit(1L)).output("r", local("a")));

    @Test
    void randomExpressionsAgreeUnboxedAndBoxed() {
        Random rnd = new Random(20261125);
        int typedLocals = 0;
        for (int c = 0; c < CASES; c++) {
            Object[] leaves = new Object[LEAVES];
            boolean[] literal = new boolean[LEAVES];
            for (int i = 0; i < LEAVES; i++) {
                leaves[i] = VALUES[rnd.nextInt(VALUES.length)];
                literal[i] = rnd.nextInt(3) != 0;
            }
            Expr e = expr(rnd, 4);
            for (BiConsumer<Block, Expr> context : CONTEXTS) {
                Procedure typed = procedure(leaves, e, context, literal);
                Procedure boxed = procedure(leaves, e, context, new boolean[LEAVES]);
                typedLocals += numericLocals(typed);
                TestStore.Outcome a = run(typed, leaves);
                TestStore.Outcome b = run(boxed, leaves);
                String what = "case " + c + ": " + e + " over " + java.util.Arrays.deepToString(leaves);
                assertEquals(b.kind(), a.kind(), what);
                assertEquals(b.detail(), a.detail(), what);
                assertEquals(b.message(), a.message(), what);
            }
        }
        assertTrue(typedLocals > CASES, "the typed procedures had " + typedLocals + " numeric locals");
    }

    /**
     * Leaf {@code vi} is a local assigned the literal {@code leaves[i]} if {@code literal[i]}, else the input of
     * that value; {@code arr} is an input array.
     */
    private Procedure procedure(Object[] leaves, Expr e, BiConsumer<Block, Expr> context, boolean[] literal) {
        return Procedure.define("p", cat).params("p0", "p1", "p2", "p3", "arr").body(b -> {
            for (int i = 0; i < LEAVES; i++) {
                b.let("v" + i, literal[i] ? new Expr.Lit(leaves[i]) : in("p" + i));
            }
            context.accept(b, e);
        }).build();
    }

    private static int numericLocals(Procedure p) {
        int n = 0;
        for (Kind k : Kinds.locals(p.body()).values()) {
            n += k.numeric() ? 1 : 0;
        }
        return n;
    }

    private TestStore.Outcome run(Procedure p, Object[] leaves) {
        TestStore s = new TestStore(cat);
        s.put("kv", Tpcc.k(7), 70L, 0.5, "seven", new byte[0]);
        Object[] in = new Object[LEAVES + 1];
        System.arraycopy(leaves, 0, in, 0, LEAVES);
        in[LEAVES] = new long[] {5, -1, 7};
        return s.run(p, in);
    }

    private static Expr expr(Random rnd, int depth) {
        if (depth == 0 || rnd.nextInt(4) == 0) {
            int k = rnd.nextInt(10);
            if (k < 6) {
                return local("v" + rnd.nextInt(LEAVES));
            }
            if (k < 8) {
                return new Expr.Lit(VALUES[rnd.nextInt(VALUES.length)]);
            }
            return elem(in("arr"), expr(rnd, 0));
        }
        int k = rnd.nextInt(24);
        if (k < 6) {
            return new Expr.Unary(Expr.UnaryOp.values()[k], expr(rnd, depth - 1));
        }
        if (k < 19) {
            return new Expr.Binary(Expr.BinaryOp.values()[k - 6], expr(rnd, depth - 1), expr(rnd, depth - 1));
        }
        if (k < 21) {
            return cond(expr(rnd, depth - 1), expr(rnd, depth - 1), expr(rnd, depth - 1));
        }
        if (k < 23) {
            return elem(rnd.nextBoolean() ? in("arr") : expr(rnd, depth - 1), expr(rnd, depth - 1));
        }
        return concat(expr(rnd, depth - 1), expr(rnd, depth - 1));
    }

    /** The kinds the unboxed evaluation relies on, on bodies where they are easy to see. */
    @Test
    void kindsOfLocals() {
        List<Stmt> body = Block.of(b -> {
            b.let("n", len(in("ids")));
            b.let("total", lit(0.0));
            b.let("mixed", lit(1L));
            b.let("flag", lit(false));
            b.let("copyA", local("copyB"));
            b.let("copyB", local("copyA"));
            b.forRange("i", lit(0L), local("n"), 10, l -> {
                l.let("id", elem(in("ids"), local("i")));
                l.let("total", add(local("total"), mul(local("id"), in("price"))));
                l.let("mixed", lit(2.5));
                l.let("flag", or(local("flag"), gt(local("id"), lit(3L))));
                l.read("item", "it", local("id"));
                l.let("price", field("it", "i_price"));
                l.let("sum", add(local("n"), local("i")));
            });
        });
        Map<String, Kind> k = Kinds.locals(body);
        assertEquals(Kind.LONG, k.get("n"));
        assertEquals(Kind.LONG, k.get("i"));
        assertEquals(Kind.LONG, k.get("id"), "an element of an input array");
        assertEquals(Kind.LONG, k.get("sum"));
        assertEquals(Kind.DOUBLE, k.get("total"), "a double plus anything is a double or an error");
        assertEquals(Kind.ANY, k.get("mixed"), "a long and a double");
        assertEquals(Kind.BOOL, k.get("flag"));
        assertEquals(Kind.ANY, k.get("it"));
        assertEquals(Kind.ANY, k.get("price"), "a field may be null");
        assertEquals(Kind.ANY, k.get("copyA"), "copies of each other, never assigned a value");
        assertEquals(Kind.ANY, k.get("copyB"));
    }
}
