package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.tebaldi.core.model.Catalog;

/**
 * Fluent builder returned by {@link Procedure#define}: {@code .params(...).body(b -> ...).build()}. See
 * {@link Procedure} for an example.
 */
public final class ProcedureBuilder {
    private final String name;
    private final Catalog catalog;
    private final List<String> params = new ArrayList<>();
    private final List<Stmt> body = new ArrayList<>();

    ProcedureBuilder(String name, Catalog catalog) {
        this.name = Objects.requireNonNull(name, "name");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    /** Appends input parameter names (positional order of {@link org.tebaldi.core.txn.Inputs}). */
    public ProcedureBuilder params(String... names) {
        params.addAll(List.of(names));
        return this;
    }

    /** Appends the statements {@code body} adds to its {@link Block}. */
    public ProcedureBuilder body(Consumer<Block> body) {
        this.body.addAll(Block.of(body));
        return this;
    }

    /**
     * Checks and compiles the procedure.
     *
     * @throws ProcedureException on any build-time error (see {@link Procedure})
     */
    public Procedure build() {
        return Procedure.of(name, catalog, params, body);
    }
}
