package org.tebaldi.core.proc;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;

/** Every build-time check, with its exact message. */
class BuildErrorsTest {
    private final Catalog cat = Tpcc.catalog();

    private String error(Consumer<Block> body) {
        return assertThrows(ProcedureException.class,
                () -> Procedure.define("p", cat).params("a").body(body).build()).getMessage();
    }

    private void ok(Consumer<Block> body) {
        assertDoesNotThrow(() -> Procedure.define("p", cat).params("a").body(body).build());
    }

    @Test
    void unknownTable() {
        assertEquals("p: statement 1 (read custmer): unknown table 'custmer'; tables: [warehouse, district, "
                + "customer, history, item, stock, orders, new_order, order_line, kv]",
                error(b -> b.read("custmer", "c", lit(1L))));
    }

    @Test
    void unknownColumns() {
        String cols = "; columns: [v, d, s, b]";
        assertEquals("p: statement 2 (output x): table kv has no column 'vv'" + cols,
                error(b -> b.read("kv", "r", lit(1L)).output("x", field("r", "vv"))));
        assertEquals("p: statement 1 (write kv): table kv has no column 'zz'" + cols,
                error(b -> b.write("kv", row("zz", lit(1L)), lit(1L))));
        assertEquals("p: statement 1 (update kv): table kv has no column 'zz'" + cols,
                error(b -> b.update("kv", null, List.of(set("zz", lit(1L))), lit(1L))));
        assertEquals("p: statement 1 (update kv): table kv has no column 'old'" + cols,
                error(b -> b.update("kv", null, List.of(set("v", col("old"))), lit(1L))));
    }

    @Test
    void wrongKeyArity() {
        assertEquals("p: statement 1 (read stock): table stock needs 2 key parts, got 1",
                error(b -> b.read("stock", "s", lit(1L))));
        assertEquals("p: statement 2 (delete kv): table kv needs 1 key parts, got 0",
                error(b -> b.let("x", lit(1L)).delete("kv")));
    }

    @Test
    void unknownLocal() {
        assertEquals("p: statement 1 (output x): unknown local 'zz' (no statement assigns it)",
                error(b -> b.output("x", local("zz"))));
        assertEquals("p: statement 1 (output x): unknown local 'r' (no statement assigns it)",
                error(b -> b.output("x", field("r", "v"))));
    }

    @Test
    void possiblyUnassignedLocal() {
        assertEquals("p: statement 3 (output y): local 'y' may be unassigned here",
                error(b -> b.ifThen(lit(true), t -> t.let("y", lit(1L))).output("y", local("y"))));
        assertEquals("p: statement 3 (output z): local 'z' may be unassigned here",
                error(b -> b.forRange("i", lit(0L), lit(1L), 1, l -> l.let("z", lit(1L))).output("z", local("z"))));
        assertEquals("p: statement 2 (output i): local 'i' may be unassigned here",
                error(b -> b.forRange("i", lit(0L), lit(1L), 1, l -> { }).output("i", local("i"))));
        assertEquals("p: statement 1 (output y): local 'y' may be unassigned here",
                error(b -> b.output("y", local("y")).let("y", lit(1L))));
        assertEquals("p: statement 1 (let y): local 'y' may be unassigned here",
                error(b -> b.let("y", add(local("y"), lit(1L)))));
    }

    @Test
    void definiteAssignmentAcceptsBothBranchesAndAbortingBranches() {
        ok(b -> b.ifThenElse(lit(true), t -> t.let("y", lit(1L)), e -> e.let("y", lit(2L))).output("y", local("y")));
        ok(b -> b.ifThenElse(lit(true), t -> t.let("y", lit(1L)), e -> e.abort("no")).output("y", local("y")));
        ok(b -> b.let("i", lit(5L)).forRange("i", lit(0L), lit(1L), 1, l -> { }).output("i", local("i")));
        ok(b -> b.forRange("i", lit(0L), lit(2L), 2, l -> l.let("z", local("i")).output("z", local("z"))));
    }

    @Test
    void unknownParameter() {
        assertEquals("p: statement 1 (let x): unknown parameter 'w'; parameters: [a]",
                error(b -> b.let("x", in("w"))));
        assertEquals("p: statement 1 (read kv): unknown parameter 'k'; parameters: [a]",
                error(b -> b.read("kv", "r", in("k"))));
    }

    @Test
    void colOutsideUpdateAssignments() {
        assertEquals("p: statement 1 (let x): col(\"v\") is only allowed in update assignments",
                error(b -> b.let("x", col("v"))));
        assertEquals("p: statement 1 (update kv): col(\"v\") is only allowed in update assignments",
                error(b -> b.update("kv", null, List.of(set("v", lit(1L))), col("v"))));
        assertEquals("p: statement 1 (write kv): col(\"v\") is only allowed in update assignments",
                error(b -> b.write("kv", row("v", col("v")), lit(1L))));
    }

    @Test
    void maxIterationsBelowOne() {
        assertEquals("p: statement 1 (for i): maxIterations must be >= 1, got 0",
                error(b -> b.forRange("i", lit(0L), lit(1L), 0, l -> { })));
    }

    @Test
    void shapeErrors() {
        assertEquals("p: statement 2 (output o): field(\"x\", ...) needs a row local (assigned by a read or update), "
                + "but 'x' holds a value", error(b -> b.let("x", lit(1L)).output("o", field("x", "v"))));
        assertEquals("p: statement 2 (output o): field(\"x\", ...) needs a row local (assigned by a read or update), "
                + "but 'x' holds only null", error(b -> b.let("x", litNull()).output("o", field("x", "v"))));
        assertEquals("p: statement 2 (setElem x): setElem needs a local array (created by newArray), but 'x' holds "
                + "a value", error(b -> b.let("x", lit(1L)).setElem("x", lit(0L), lit(1L))));
        assertEquals("p: statement 2 (read kv): local 'c' is assigned a row of kv here but holds a value elsewhere",
                error(b -> b.let("c", lit(1L)).read("kv", "c", lit(1L))));
        assertEquals("p: statement 2 (read stock): local 'c' is assigned a row of stock here but holds a row of kv "
                + "elsewhere", error(b -> b.read("kv", "c", lit(1L)).read("stock", "c", lit(1L), lit(1L))));
        assertEquals("p: statement 2 (let c): local 'c' is assigned a value here but holds an array elsewhere",
                error(b -> b.newArray("c", lit(1L)).let("c", lit(1L))));
        ok(b -> b.let("c", litNull()).read("kv", "c", lit(1L)).output("v", field("c", "v")));
    }

    @Test
    void loopVariableAssignedInItsLoop() {
        assertEquals("p: statement 2 (let i): loop variable 'i' is assigned inside its loop",
                error(b -> b.forRange("i", lit(0L), lit(1L), 1, l -> l.let("i", lit(0L)))));
        assertEquals("p: statement 2 (for i): loop variable 'i' is assigned inside its loop",
                error(b -> b.forRange("i", lit(0L), lit(1L), 1, l -> l.forRange("i", lit(0L), lit(1L), 1, m -> { }))));
        assertEquals("p: statement 2 (read kv): loop variable 'i' is assigned inside its loop",
                error(b -> b.forRange("i", lit(0L), lit(1L), 1, l -> l.read("kv", "i", lit(1L)))));
    }

    @Test
    void localNamedLikeAParameter() {
        assertEquals("p: statement 1 (let a): local 'a' has the name of a parameter", error(b -> b.let("a", lit(1L))));
    }

    @Test
    void columnAssignedTwice() {
        assertEquals("p: statement 1 (write kv): column 'v' assigned twice",
                error(b -> b.write("kv", row("v", lit(1L), "v", lit(2L)), lit(1L))));
        assertEquals("p: statement 1 (update kv): column 'v' assigned twice",
                error(b -> b.update("kv", null, List.of(set("v", lit(1L)), set("v", lit(2L))), lit(1L))));
    }

    @Test
    void procedureLevelErrors() {
        assertEquals("p: duplicate parameter 'a'", assertThrows(ProcedureException.class,
                () -> Procedure.define("p", cat).params("a", "b", "a").build()).getMessage());
        assertEquals("procedure name is empty", assertThrows(ProcedureException.class,
                () -> Procedure.define("", cat).build()).getMessage());
    }

    @Test
    void malformedRowAndLiteral() {
        assertEquals("row(...) needs column name / expression pairs, got 3 arguments",
                assertThrows(ProcedureException.class, () -> row("v", lit(1L), "d")).getMessage());
        assertEquals("row(...) argument 0 and 1 must be a column name and an expression",
                assertThrows(ProcedureException.class, () -> row(lit(1L), "v")).getMessage());
        assertEquals("unsupported literal type java.lang.Integer; literals are Long, Double, String, byte[], Boolean, "
                + "long[], Object[], Row or null",
                assertThrows(ProcedureException.class, () -> new Expr.Lit(1)).getMessage());
    }

    @Test
    void errorsInWithBodyAreReportedToo() {
        Procedure p = Procedure.define("p", cat).params("a").body(b -> b.let("x", in("a")).output("x", local("x")))
                .build();
        List<Stmt> reversed = List.of(p.body().get(1), p.body().get(0));
        assertEquals("p: statement 1 (output x): local 'x' may be unassigned here",
                assertThrows(ProcedureException.class, () -> p.withBody(reversed)).getMessage());
        assertEquals(Map.of("x", 3L), new TestStore(cat).outputs(p, 3L));
    }
}
