package org.tebaldi.core.proc.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Block;
import org.tebaldi.core.proc.Procedure;

/** Which access depends on which: data, value, control, loop-carried, arrays, webs, guards. */
class DependenciesTest {
    private final Catalog cat = Schema.abcd();

    private Dependencies deps(Consumer<Block> body) {
        return Dependencies.of(Procedure.define("p", cat).params("k", "arr").body(body).build());
    }

    private static Set<Integer> on(Dependencies d, int statement) {
        return d.access(statement).dependsOn();
    }

    @Test
    void keyComputedFromAReadRowIsADataDependency() {
        Dependencies d = deps(b -> {
            b.read("a", "x", in("k"));
            b.write("b", row("v", lit(1L)), field("x", "v"));
            b.read("c", null, in("k"));
        });
        assertEquals(Set.of(), on(d, 1));
        assertEquals(Set.of(1), on(d, 2));
        assertEquals(Set.of(), on(d, 3));
        assertEquals("b", d.access(2).table());
    }

    @Test
    void writtenAndUpdatedValuesThroughLetsAreValueDependencies() {
        Dependencies d = deps(b -> {
            b.read("a", "x", in("k"));
            b.let("y", add(field("x", "v"), lit(1L)));
            b.let("z", mul(local("y"), lit(2L)));
            b.write("b", row("v", local("z")), in("k"));
            b.update("c", null, List.of(set("v", add(col("v"), local("y")))), lit(1L));
            b.update("d", "nd", List.of(set("v", add(col("v"), lit(1L)))), lit(1L));
            b.write("b", row("w", field("nd", "v")), lit(2L));
        });
        assertEquals(Set.of(1), on(d, 4));
        assertEquals(Set.of(1), on(d, 5));
        assertEquals(Set.of(), on(d, 6));
        assertEquals(Set.of(6), on(d, 7));
    }

    @Test
    void conditionsAndLoopBoundsAreControlDependencies() {
        Dependencies d = deps(b -> {
            b.read("a", "x", in("k"));
            b.read("b", "y", in("k"));
            b.ifThenElse(isNull(local("x")), t -> t.write("c", row(), lit(1L)),
                    e -> e.forRange("i", lit(0L), field("y", "v"), 10, l -> l.delete("d", local("i"))));
            b.write("c", row(), lit(2L));
        });
        assertEquals(Set.of(1), on(d, 4));
        assertEquals(Set.of(1, 2), on(d, 6));
        assertEquals(Set.of(), on(d, 7));
    }

    @Test
    void valuesCarriedToTheNextIterationAreLoopCarriedDependencies() {
        Dependencies d = deps(b -> {
            b.let("prev", lit(0L));
            b.forRange("i", lit(0L), lit(3L), 3, l -> {
                l.write("b", row("v", local("prev")), local("i"));
                l.read("a", "r", local("i"));
                l.let("prev", field("r", "v"));
            });
        });
        assertEquals(Set.of(4), on(d, 3));
        assertEquals(Set.of(), on(d, 4));
    }

    @Test
    void arrayElementsAndLoopVariablesPropagateDependencies() {
        Dependencies d = deps(b -> {
            b.read("c", "rc", lit(0L));
            b.newArray("arr2", lit(4L));
            b.forRange("i", lit(0L), lit(4L), 4, l -> {
                l.read("a", "r", local("i"));
                l.setElem("arr2", local("i"), field("r", "v"));
            });
            b.forRange("j", lit(0L), cond(isNull(local("rc")), lit(1L), lit(2L)), 2,
                    l -> l.read("d", null, local("j")));
            b.write("b", row("v", elem(local("arr2"), lit(0L))), in("k"));
        });
        assertEquals(Set.of(1), on(d, 7));
        assertEquals(Set.of(4), on(d, 8));
    }

    @Test
    void reusingALocalNameForAnotherValueCreatesNoDependency() {
        Dependencies d = deps(b -> {
            b.read("a", "x", in("k"));
            b.write("b", row("v", field("x", "v")), lit(1L));
            b.read("a", "x", lit(7L));
            b.write("d", row("v", field("x", "v")), lit(1L));
        });
        assertEquals(Set.of(1), on(d, 2));
        assertEquals(Set.of(3), on(d, 4));
        assertEquals(Set.of(), d.access(4).orderedAfter());
        assertEquals(Set.of(), d.access(3).orderedAfter());
    }

    @Test
    void aStatementReadingALocalTestedByAnAbortIfDependsOnTheGuard() {
        Dependencies d = deps(b -> {
            b.read("a", "x", in("k"));
            b.read("b", "y", in("k"));
            b.abortIf(or(isNull(local("x")), isNull(local("y"))), "missing");
            b.write("c", row("v", field("x", "v")), lit(1L));
            b.write("d", row("v", lit(1L)), in("k"));
        });
        assertEquals(Set.of(1, 2), on(d, 5));
        assertEquals(Set.of(), on(d, 6));
    }

    @Test
    void userAbortsStayInOrderSoLaterGuardsAreOrderedAfterEarlierOnes() {
        Dependencies d = deps(b -> {
            b.read("a", "x", in("k"));
            b.abortIf(isNull(local("x")), "no a");
            b.read("b", "y", in("k"));
            b.abortIf(isNull(local("y")), "no b");
            b.write("c", row("v", field("y", "v")), lit(1L));
        });
        assertEquals(Set.of(4), on(d, 7));
        assertEquals(Set.of(1), d.access(7).orderedAfter());
        assertEquals(Set.of(), d.access(4).orderedAfter());
    }

    @Test
    void statementNumbersFollowThePreOrderNumberingAndNonAccessesAreRejected() {
        Dependencies d = deps(b -> {
            b.let("x", lit(1L));
            b.forRange("i", lit(0L), lit(2L), 2, l -> l.ifThen(lt(local("i"), lit(1L)),
                    t -> t.read("a", "r", local("i"))));
            b.write("b", row(), lit(1L));
        });
        assertEquals(List.of(4, 5), d.accesses().stream().map(Dependencies.AccessDeps::statement).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.access(2));
        assertEquals("p: statement 2 is not a data access; accesses: [4, 5]", e.getMessage());
    }

    @Test
    void accessesAfterAnUnconditionalAbortAreUnreachableAndDependOnNothing() {
        Dependencies d = deps(b -> {
            b.read("a", "x", in("k"));
            b.ifThenElse(isNull(local("x")), t -> t.abort("no"), e -> e.abort("yes"));
            b.write("b", row("v", field("x", "v")), lit(1L));
        });
        assertEquals(Set.of(), on(d, 5));
    }
}
