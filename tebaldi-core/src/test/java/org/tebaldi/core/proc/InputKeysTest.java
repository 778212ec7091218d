package org.tebaldi.core.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tebaldi.core.proc.Exprs.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.Inputs;

/** The keys a procedure promises at start ({@link Procedure#keysWrittenFromInputs}, TSO promises §4.4.4). */
class InputKeysTest {
    private final Catalog cat = Tpcc.catalog();

    private Key kv(long k) {
        return Key.of(cat.table("kv"), k);
    }

    @Test
    void conditionsOnInputsAloneAreDecidedAndOnlyTheTakenBranchIsPromised() {
        Procedure p = Procedure.define("p", cat).params("k0", "w0", "k1", "w1").body(b -> {
            b.ifThenElse(eq(in("w0"), lit(1L)), u -> u.update("kv", null, List.of(), in("k0")),
                    r -> r.read("kv", "r0", in("k0")));
            b.ifThen(eq(in("w1"), lit(1L)), u -> u.write("kv", row("v", lit(1L)), in("k1")));
        }).build();
        assertEquals(List.of(kv(7)), p.keysWrittenFromInputs(Inputs.of(7L, 1L, 8L, 0L)));
        assertEquals(List.of(kv(8)), p.keysWrittenFromInputs(Inputs.of(7L, 0L, 8L, 1L)));
        assertEquals(List.of(), p.keysWrittenFromInputs(Inputs.of(7L, 0L, 8L, 0L)));
    }

    @Test
    void conditionsOnReadValuesKeepBothBranchesAndKeysFromReadsAreLeftOut() {
        Procedure p = Procedure.define("p", cat).params("k0", "k1").body(b -> {
            b.read("kv", "r", in("k0"));
            b.ifThenElse(isNull(local("r")), t -> t.write("kv", row("v", lit(1L)), in("k0")),
                    e -> e.write("kv", row("v", lit(2L)), in("k1")));
            b.ifThen(not(isNull(local("r"))), t -> t.write("kv", row("v", lit(3L)), field("r", "v")));
        }).build();
        assertEquals(List.of(kv(1), kv(2)), p.keysWrittenFromInputs(Inputs.of(1L, 2L)));
    }
}
