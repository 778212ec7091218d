package org.tebaldi.core.db;

import java.util.List;
import org.tebaldi.core.proc.Procedure;

/**
 * A transaction type: a name, its input parameters, whether it is read-only, and its stored procedure
 * ({@code null} for interactive types driven through the client API). The CC tree assigns transactions to
 * leaf groups by type (and optionally by one input, partition-by-instance, dissertation §5.4.2).
 *
 * @param id        dense id within its {@link Database}
 * @param name      e.g. {@code new_order}
 * @param params    input names, in the positional order of {@link org.tebaldi.core.txn.Inputs}
 * @param readOnly  true if no operation of the type writes
 * @param procedure the stored procedure, or null if interactive
 * @param accessOrder interactive types only: the tables the type accesses, in order, each access depending on
 *                  the previous ones — what runtime pipelining's static analysis assumes of a type whose code it
 *                  cannot read (dissertation §4.4.2); empty when undeclared
 */
public record TxnType(int id, String name, List<String> params, boolean readOnly, Procedure procedure,
                      List<String> accessOrder) {
    public TxnType {
        params = List.copyOf(params);
        accessOrder = List.copyOf(accessOrder);
    }

    /**
     * Position of a parameter.
     *
     * @throws IllegalArgumentException if the type has no such parameter
     */
    public int param(String name) {
        int i = params.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("transaction type " + this.name + " has no input '" + name
                    + "'; inputs: " + params);
        }
        return i;
    }

    /** True if this type is a stored procedure. */
    public boolean isProcedure() {
        return procedure != null;
    }
}
