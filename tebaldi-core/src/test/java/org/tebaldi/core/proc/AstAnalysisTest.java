package org.tebaldi.core.proc;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.*;
import static org.tebaldi.core.proc.Tpcc.k;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.txn.OpKind;

/** What static analyses read from the AST, readOnly detection, and withBody. */
class AstAnalysisTest {
    private final Catalog cat = Tpcc.catalog();

    private Procedure proc(Consumer<Block> body) {
        return Procedure.define("p", cat).params("w", "ids").body(body).build();
    }

    @Test
    void readOnlyIsFalseForAnyWritingStatementEvenNested() {
        assertTrue(proc(b -> b.read("kv", "r", in("w")).output("v", field("r", "v"))).readOnly());
        assertTrue(proc(b -> { }).readOnly());
        assertFalse(proc(b -> b.readForUpdate("kv", "r", in("w"))).readOnly());
        assertFalse(proc(b -> b.ifThen(lit(false), t -> t.write("kv", row(), in("w")))).readOnly());
        assertFalse(proc(b -> b.forRange("i", lit(0L), lit(1L), 1, l -> l.update("kv", null, List.of(), in("w"))))
                .readOnly());
        assertFalse(proc(b -> b.delete("kv", in("w"))).readOnly());
    }

    @Test
    void accessesAndTablesInProgramOrder() {
        Procedure p = proc(b -> {
            b.read("warehouse", "w_row", in("w"));
            b.forRange("i", lit(0L), len(in("ids")), 15, l -> {
                l.update("stock", "s", List.of(set("s_quantity", sub(col("s_quantity"), lit(1L)))),
                        in("w"), elem(in("ids"), local("i")));
                l.read("warehouse", null, in("w"));
            });
            b.write("history", row("h_c_id", lit(1L)), in("w"), lit(9L));
        });
        assertEquals(List.of("warehouse", "stock", "history"), List.copyOf(p.tablesAccessed()));
        assertEquals(List.of(OpKind.READ, OpKind.UPDATE, OpKind.READ, OpKind.WRITE),
                p.accesses().stream().map(Stmt.Access::kind).toList());
        Stmt.Access stock = p.accesses().get(1);
        assertEquals(List.of(in("w"), elem(in("ids"), local("i"))), stock.key());
        assertEquals(Set.of("i"), stock.localsRead());
        assertEquals(Set.of("w", "ids"), stock.paramsRead());
        assertEquals(Optional.of("s"), stock.defines());
    }

    @Test
    void readsAndDefinesPerStatementAndExpression() {
        Expr e = add(field("c", "c_balance"), mul(local("x"), cond(in("flag"), local("y"), in("z"))));
        assertEquals(Set.of("c", "x", "y"), e.localsRead());
        assertEquals(Set.of("flag", "z"), e.paramsRead());
        assertFalse(e.usesCol());
        assertTrue(sub(col("a"), local("q")).usesCol());

        Stmt set = new Stmt.SetElem("arr", local("i"), local("v"));
        assertEquals(Set.of("arr", "i", "v"), set.localsRead());
        assertEquals(Optional.of("arr"), set.defines());
        Stmt loop = new Stmt.For("i", lit(0L), in("n"), 3, List.of(set));
        assertEquals(Optional.of("i"), loop.defines());
        assertEquals(Set.of("n"), loop.paramsRead());
        assertEquals(List.of(List.of(set)), loop.blocks());
        Stmt upd = new Stmt.Update("kv", null, List.of(set("v", add(col("v"), local("d")))), List.of(in("k")));
        assertEquals(Set.of("d"), upd.localsRead());
        assertEquals(Optional.empty(), upd.defines());
        assertEquals(Optional.empty(), new Stmt.Output("o", local("x")).defines());
    }

    @Test
    void flattenNumbersStatementsLikeErrorMessages() {
        List<Stmt> body = Block.of(b -> {
            b.let("x", lit(0L));
            b.ifThenElse(lit(true), t -> t.let("y", lit(1L)), e -> e.forRange("i", lit(0L), lit(1L), 1,
                    l -> l.let("y", lit(2L))));
            b.output("x", local("x"));
        });
        assertEquals(List.of("let x", "if", "let y", "for i", "let y", "output x"),
                Stmt.flatten(body).stream().map(Stmt::describe).toList());
    }

    @Test
    void exprToStringIsDslAndMapChildrenRebuilds() {
        Expr e = cond(ge(sub(col("s_quantity"), in("q")), lit(10L)), concat(lit("a"), litNull()), neg(lit(2.5)));
        assertEquals("cond(ge(sub(col(\"s_quantity\"), in(\"q\")), lit(10)), concat(lit(\"a\"), litNull()), "
                + "neg(lit(2.5)))", e.toString());
        Expr renamed = e.mapChildren(c -> c instanceof Expr.Unary ? lit(0L) : c);
        assertEquals(cond(ge(sub(col("s_quantity"), in("q")), lit(10L)), concat(lit("a"), litNull()), lit(0L)),
                renamed);
        List<String> order = new ArrayList<>();
        add(local("a"), local("b")).mapChildren(c -> {
            order.add(c.toString());
            return c;
        });
        assertEquals(List.of("local(\"a\")", "local(\"b\")"), order);
    }

    @Test
    void withBodyBuildsAReorderedProcedureAndKeepsTheOriginal() {
        Procedure p = Procedure.define("two_reads", cat).params("a", "b").body(b -> {
            b.read("kv", "x", in("a"));
            b.read("stock", "y", in("a"), in("b"));
            b.output("sum", add(field("x", "v"), field("y", "s_quantity")));
        }).build();
        List<Stmt> reordered = List.of(p.body().get(1), p.body().get(0), p.body().get(2));
        Procedure q = p.withBody(reordered);
        assertNotSame(p, q);
        assertEquals(reordered, q.body());
        assertEquals(p.name(), q.name());
        assertEquals(p.params(), q.params());
        assertEquals(List.of("stock", "kv"), List.copyOf(q.tablesAccessed()));

        TestStore store = new TestStore(cat);
        store.put("kv", k(1), 10L, null, null, null);
        store.put("stock", k(1, 2), 5L, 0L, 0L, 0L);
        assertEquals(15L, store.outputs(q, 1L, 2L).get("sum"));
        assertEquals(List.of(cat.table("stock").id(), cat.table("kv").id()),
                store.ops.stream().map(o -> o.key().table()).toList());
        store.ops.clear();
        assertEquals(15L, store.outputs(p, 1L, 2L).get("sum"));
        assertEquals(List.of(cat.table("kv").id(), cat.table("stock").id()),
                store.ops.stream().map(o -> o.key().table()).toList());
    }

    @Test
    void procedureOfAcceptsAHandBuiltAst() {
        Procedure p = Procedure.of("hand", cat, List.of("k"), List.of(
                new Stmt.Read("kv", "r", List.of(in("k")), false),
                new Stmt.If(isNull(local("r")), List.of(new Stmt.Abort("missing")), List.of()),
                new Stmt.Output("v", field("r", "v"))));
        TestStore store = new TestStore(cat);
        assertEquals(new ProcStep.Abort("missing"), store.drive(p, 4L));
        store.put("kv", k(4), 8L, null, null, null);
        assertEquals(8L, store.outputs(p, 4L).get("v"));
        assertEquals(cat, p.catalog());
    }
}
