package org.tebaldi.core.proc;

import org.tebaldi.core.testkit.TestStore;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.proc.Exprs.*;
import static org.tebaldi.core.proc.Tpcc.k;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;

/** Operator semantics and run-time errors (messages name the procedure and statement). */
class RuntimeSemanticsTest {
    private final Catalog cat = Tpcc.catalog();
    private final TestStore store = new TestStore(cat);

    /** Outputs of a procedure with one output per entry, all over inputs a = 7L, b = 2L, x = 2.5, s = "abc". */
    private Map<String, Object> eval(Map<String, Expr> outputs) {
        Procedure p = Procedure.define("ops", cat).params("a", "b", "x", "s").body(b ->
                outputs.forEach(b::output)).build();
        return store.outputs(p, 7L, 2L, 2.5, "abc");
    }

    @Test
    void arithmeticKeepsLongsAndPromotesToDouble() {
        Map<String, Expr> e = new LinkedHashMap<>();
        e.put("add", add(in("a"), in("b")));
        e.put("sub", sub(in("b"), in("a")));
        e.put("mul", mul(in("a"), in("b")));
        e.put("div", div(in("a"), in("b")));
        e.put("divNeg", div(neg(in("a")), in("b")));
        e.put("mod", mod(in("a"), in("b")));
        e.put("addD", add(in("a"), in("x")));
        e.put("divD", div(in("a"), toDouble(in("b"))));
        e.put("mulD", mul(in("x"), in("x")));
        e.put("negD", neg(in("x")));
        Map<String, Object> out = eval(e);
        assertEquals(9L, out.get("add"));
        assertEquals(-5L, out.get("sub"));
        assertEquals(14L, out.get("mul"));
        assertEquals(3L, out.get("div"));
        assertEquals(-3L, out.get("divNeg"));
        assertEquals(1L, out.get("mod"));
        assertEquals(9.5, out.get("addD"));
        assertEquals(3.5, out.get("divD"));
        assertEquals(6.25, out.get("mulD"));
        assertEquals(-2.5, out.get("negD"));
    }

    @Test
    void comparisonsLogicCondConcatAndConversions() {
        Map<String, Expr> e = new LinkedHashMap<>();
        e.put("lt", lt(in("b"), in("a")));
        e.put("ge", ge(in("b"), in("a")));
        e.put("leMixed", le(in("x"), in("b")));
        e.put("eqMixed", eq(lit(2L), lit(2.0)));
        e.put("neStr", ne(in("s"), lit("abd")));
        e.put("ltStr", lt(in("s"), lit("abd")));
        e.put("eqNull", eq(litNull(), litNull()));
        e.put("neNull", ne(in("a"), litNull()));
        e.put("and", and(gt(in("a"), lit(0L)), lt(in("a"), lit(10L)), eq(in("b"), lit(2L))));
        e.put("shortAnd", and(lit(false), eq(div(in("a"), lit(0L)), lit(1L))));
        e.put("shortOr", or(lit(true), eq(div(in("a"), lit(0L)), lit(1L))));
        e.put("not", not(eq(in("a"), in("b"))));
        e.put("cond", cond(gt(in("a"), in("b")), in("s"), div(in("a"), lit(0L))));
        e.put("concat", concat(in("s"), lit("-"), in("a"), lit("-"), in("x"), lit("-"), lit(true)));
        e.put("toLongD", toLong(lit(-2.9)));
        e.put("toLongS", toLong(lit(" 42 ")));
        e.put("toDoubleS", toDouble(lit("1.25")));
        e.put("isNull", isNull(in("a")));
        e.put("eqBytes", eq(lit(new byte[] {1, 2}), lit(new byte[] {1, 2})));
        Map<String, Object> out = eval(e);
        assertEquals(true, out.get("lt"));
        assertEquals(false, out.get("ge"));
        assertEquals(false, out.get("leMixed"));
        assertEquals(true, out.get("eqMixed"));
        assertEquals(true, out.get("neStr"));
        assertEquals(true, out.get("ltStr"));
        assertEquals(true, out.get("eqNull"));
        assertEquals(true, out.get("neNull"));
        assertEquals(true, out.get("and"));
        assertEquals(false, out.get("shortAnd"));
        assertEquals(true, out.get("shortOr"));
        assertEquals(true, out.get("not"));
        assertEquals("abc", out.get("cond"));
        assertEquals("abc-7-2.5-true", out.get("concat"));
        assertEquals(-2L, out.get("toLongD"));
        assertEquals(42L, out.get("toLongS"));
        assertEquals(1.25, out.get("toDoubleS"));
        assertEquals(false, out.get("isNull"));
        assertEquals(true, out.get("eqBytes"));
    }

    private ProcedureException fails(Expr e) {
        Procedure p = Procedure.define("bad", cat).params("a", "s", "arr").body(b -> {
            b.let("one", lit(1L));
            b.output("r", e);
        }).build();
        return assertThrows(ProcedureException.class, () -> store.drive(p, 7L, "abc", new long[] {1, 2, 3}));
    }

    @Test
    void runtimeErrorsNameProcedureStatementAndCause() {
        assertEquals("bad: statement 2 (output r): division by zero", fails(div(in("a"), lit(0L))).getMessage());
        assertEquals("bad: statement 2 (output r): division by zero", fails(div(lit(1.0), lit(0L))).getMessage());
        assertEquals("bad: statement 2 (output r): division by zero in mod", fails(mod(in("a"), lit(0L))).getMessage());
        assertEquals("bad: statement 2 (output r): add needs numbers, got string and long",
                fails(add(in("s"), in("a"))).getMessage());
        assertEquals("bad: statement 2 (output r): null operand in mul", fails(mul(litNull(), in("a"))).getMessage());
        assertEquals("bad: statement 2 (output r): array index 3 out of bounds 0..2",
                fails(elem(in("arr"), lit(3L))).getMessage());
        assertEquals("bad: statement 2 (output r): array index -1 out of bounds 0..2",
                fails(elem(in("arr"), lit(-1L))).getMessage());
        assertEquals("bad: statement 2 (output r): array index needs a long, got double",
                fails(elem(in("arr"), lit(1.0))).getMessage());
        assertEquals("bad: statement 2 (output r): elem needs an array, got long",
                fails(elem(in("a"), lit(0L))).getMessage());
        assertEquals("bad: statement 2 (output r): long overflow in add",
                fails(add(lit(Long.MAX_VALUE), local("one"))).getMessage());
        assertEquals("bad: statement 2 (output r): lt needs two numbers or two strings, got string and long",
                fails(lt(in("s"), in("a"))).getMessage());
        assertEquals("bad: statement 2 (output r): eq cannot compare string and long",
                fails(eq(in("s"), in("a"))).getMessage());
        assertEquals("bad: statement 2 (output r): and needs a boolean, got long",
                fails(and(in("a"), lit(true))).getMessage());
        assertEquals("bad: statement 2 (output r): cond test is null",
                fails(cond(litNull(), lit(1L), lit(2L))).getMessage());
        assertEquals("bad: statement 2 (output r): toLong: 'abc' is not a long", fails(toLong(in("s"))).getMessage());
        assertEquals("bad: statement 2 (output r): len needs an array, got string", fails(len(in("s"))).getMessage());
        assertEquals("bad: statement 2 (output r): null operand in concat",
                fails(concat(in("s"), litNull())).getMessage());
    }

    @Test
    void statementLevelRuntimeErrors() {
        store.put("kv", k(1), null, null, "x", null);
        Procedure p = Procedure.define("st", cat).params("mode").body(b -> {
            b.read("kv", "r", lit(1L));
            b.read("kv", "missing", lit(2L));
            b.ifThen(eq(in("mode"), lit(1L)), t -> t.output("x", add(field("r", "v"), lit(1L))));
            b.ifThen(eq(in("mode"), lit(2L)), t -> t.output("x", field("missing", "v")));
            b.ifThen(eq(in("mode"), lit(3L)), t -> t.read("kv", null, toDouble(in("mode"))));
            b.ifThen(eq(in("mode"), lit(4L)), t -> t.write("kv", row("v", field("r", "s")), lit(9L)));
            b.ifThen(in("mode"), t -> t.let("never", lit(0L)));
        }).build();
        assertEquals("st: statement 4 (output x): null operand in add", error(p, 1L));
        assertEquals("st: statement 6 (output x): row 'missing' is null (the row was absent)", error(p, 2L));
        assertEquals("st: statement 8 (read kv): key part 0 of kv is a double, expected a long", error(p, 3L));
        assertEquals("st: statement 10 (write kv): column kv.v is LONG, got a string", error(p, 4L));
        assertEquals("st: statement 11 (if): condition needs a boolean, got long", error(p, 5L));
    }

    @Test
    void arrayStatementErrors() {
        Procedure p = Procedure.define("arr", cat).params("n", "i").body(b -> {
            b.newArray("a", in("n"));
            b.setElem("a", in("i"), lit(1L));
        }).build();
        assertEquals("arr: statement 1 (newArray a): array size -1 out of range 0..1048576", error(p, -1L, 0L));
        assertEquals("arr: statement 2 (setElem a): array index 15 out of bounds 0..14", error(p, 15L, 15L));
        assertEquals("arr: statement 2 (setElem a): array index 0 out of bounds (empty array)", error(p, 0L, 0L));
        assertTrue(store.drive(p, 15L, 14L) instanceof ProcStep.Done);
    }

    @Test
    void letOfRowLocalCopiesTheRowAndFieldWorksOnTheCopy() {
        store.put("kv", k(1), 3L, null, null, null);
        Procedure p = Procedure.define("alias", cat).body(b -> {
            b.read("kv", "r", lit(1L));
            b.let("r2", cond(lit(true), local("r"), litNull()));
            b.output("v", field("r2", "v"));
        }).build();
        assertEquals(Map.of("v", 3L), store.outputs(p));
        assertEquals(List.of("r", "r2"), List.copyOf(p.body().stream().flatMap(s -> s.defines().stream()).toList()));
    }

    private String error(Procedure p, Object... inputs) {
        return assertThrows(ProcedureException.class, () -> store.drive(p, inputs)).getMessage();
    }
}
