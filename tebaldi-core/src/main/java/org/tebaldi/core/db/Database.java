package org.tebaldi.core.db;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.proc.Procedure;

/**
 * A database definition: its tables ({@link Catalog}) and transaction types. Shared, read-only after setup, by
 * every node of a cluster.
 */
public final class Database {
    private final Catalog catalog;
    private final List<TxnType> types = new ArrayList<>();
    private final Map<String, TxnType> byName = new LinkedHashMap<>();

    public Database(Catalog catalog) {
        this.catalog = catalog;
    }

    public Catalog catalog() {
        return catalog;
    }

    /**
     * Registers an interactive transaction type.
     *
     * @throws IllegalArgumentException on a duplicate name
     */
    public TxnType interactive(String name, boolean readOnly, String... params) {
        return add(name, List.of(params), readOnly, null, List.of());
    }

    /**
     * Registers an interactive transaction type that declares the tables it accesses, in order (for runtime
     * pipelining's analysis, which cannot read interactive code).
     *
     * @throws IllegalArgumentException on a duplicate name or an unknown table
     */
    public TxnType interactive(String name, boolean readOnly, List<String> accessOrder, String... params) {
        for (String t : accessOrder) {
            catalog.table(t);
        }
        return add(name, List.of(params), readOnly, null, accessOrder);
    }

    /**
     * Registers a stored-procedure transaction type; read-only-ness comes from the procedure's AST.
     *
     * @throws IllegalArgumentException on a duplicate name
     */
    public TxnType procedure(Procedure p) {
        return add(p.name(), p.params(), p.readOnly(), p, List.of());
    }

    private TxnType add(String name, List<String> params, boolean readOnly, Procedure p, List<String> accesses) {
        if (byName.containsKey(name)) {
            throw new IllegalArgumentException("duplicate transaction type " + name);
        }
        TxnType t = new TxnType(types.size(), name, params, readOnly, p, accesses);
        types.add(t);
        byName.put(name, t);
        return t;
    }

    /** @throws IllegalArgumentException for an unknown type */
    public TxnType type(String name) {
        TxnType t = byName.get(name);
        if (t == null) {
            throw new IllegalArgumentException("unknown transaction type '" + name + "'; types: " + byName.keySet());
        }
        return t;
    }

    /** True if a type of that name exists. */
    public boolean hasType(String name) {
        return byName.containsKey(name);
    }

    public TxnType type(int id) {
        return types.get(id);
    }

    public List<TxnType> types() {
        return Collections.unmodifiableList(types);
    }
}
