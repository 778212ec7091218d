package org.tebaldi.core.proc;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.proc.Kinds.Kind;

/**
 * Build-time name resolution for one procedure: parameters, tables and columns, local slots, the static shape of
 * each local (value, array, or row of a known table), definite assignment (a local may be read only where every
 * path has assigned it, as in Java), the static kind of each local ({@link Kinds}: locals of kind LONG or DOUBLE get
 * a primitive slot too), and the current statement for error messages. Package-private.
 */
final class Scope {
    /** Static shape of a local; {@code table} is set for rows. */
    record Shape(String kind, TableSchema table) {
        static final Shape VALUE = new Shape("a value", null);
        static final Shape ARRAY = new Shape("an array", null);

        static Shape row(TableSchema t) {
            return new Shape("a row of " + t.name(), t);
        }

        boolean isRow() {
            return table != null;
        }
    }

    /** Definite-assignment state; {@code dead} after an abort (every local counts as assigned there). */
    record Flow(Set<String> defined, boolean dead) {
        Flow merge(Flow o) {
            if (dead) {
                return o;
            }
            if (o.dead) {
                return this;
            }
            Set<String> both = new HashSet<>(defined);
            both.retainAll(o.defined);
            return new Flow(both, false);
        }
    }

    private final String proc;
    private final Catalog catalog;
    private final List<String> params;
    private final Set<String> known;
    private final Map<String, Kind> kinds;
    private final Map<String, Integer> slots = new HashMap<>();
    private final Map<String, Integer> prims = new HashMap<>();
    private final Map<String, Shape> shapes = new HashMap<>();
    private final Set<String> loopVars = new HashSet<>();
    private Set<String> defined = new HashSet<>();
    private boolean dead;
    private int slotCount;
    private int primCount;
    private int stmtNo;
    private String stmtLabel;

    /**
     * @param proc    procedure name, prefix of every message
     * @param catalog tables (null when only one table's columns are resolved, as for {@link ExprUpdate#of})
     * @param params  parameter names in input order
     * @param known   every local assigned somewhere in the body
     * @param kinds   the kind of every local ({@link Kinds#locals})
     */
    Scope(String proc, Catalog catalog, List<String> params, Set<String> known, Map<String, Kind> kinds) {
        this.proc = proc;
        this.catalog = catalog;
        this.params = params;
        this.known = known;
        this.kinds = kinds;
    }

    String proc() {
        return proc;
    }

    /** Sets the statement that messages name. */
    void at(int no, String label) {
        stmtNo = no;
        stmtLabel = label;
    }

    int stmtNo() {
        return stmtNo;
    }

    String stmtLabel() {
        return stmtLabel;
    }

    /** "proc: statement n (label): " context prefix. */
    String context() {
        return stmtNo == 0 ? proc + ": " : proc + ": statement " + stmtNo + " (" + stmtLabel + "): ";
    }

    ProcedureException error(String message) {
        return new ProcedureException(context() + message);
    }

    TableSchema table(String name) {
        for (TableSchema t : catalog.tables()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw error("unknown table '" + name + "'; tables: " + catalog.tables().stream().map(TableSchema::name)
                .toList());
    }

    int column(TableSchema t, String column) {
        if (!t.hasColumn(column)) {
            throw error("table " + t.name() + " has no column '" + column + "'; columns: "
                    + t.columns().stream().map(Column::name).toList());
        }
        return t.column(column);
    }

    int param(String name) {
        int i = params.indexOf(name);
        if (i < 0) {
            throw error("unknown parameter '" + name + "'; parameters: " + params);
        }
        return i;
    }

    /** Checks that {@code local} may be read here and returns its slot. */
    int readable(String local) {
        if (!known.contains(local)) {
            throw error("unknown local '" + local + "' (no statement assigns it)");
        }
        if (!dead && !defined.contains(local)) {
            throw error("local '" + local + "' may be unassigned here");
        }
        return slot(local);
    }

    /** The shape of a local, or null if only null has been assigned to it so far. */
    Shape shape(String local) {
        return shapes.get(local);
    }

    /** Checks that {@code local} may be assigned here (not a parameter name, not an enclosing loop's variable). */
    void assignable(String local) {
        if (params.contains(local)) {
            throw error("local '" + local + "' has the name of a parameter");
        }
        if (loopVars.contains(local)) {
            throw error("loop variable '" + local + "' is assigned inside its loop");
        }
    }

    /** Records an assignment of a value of shape {@code s} (null: the null literal) to {@code local}. */
    void assign(String local, Shape s) {
        Shape old = shapes.get(local);
        if (old == null) {
            if (s != null) {
                shapes.put(local, s);
            }
        } else if (s != null && !old.equals(s)) {
            throw error("local '" + local + "' is assigned " + s.kind() + " here but holds " + old.kind()
                    + " elsewhere");
        }
        defined.add(local);
    }

    /** Slot of a local (allocated on first use). */
    int slot(String local) {
        return slots.computeIfAbsent(local, k -> slotCount++);
    }

    /** The static kind of a local (ANY for a name no statement assigns). */
    Kind kind(String local) {
        return kinds.getOrDefault(local, Kind.ANY);
    }

    /** The primitive slot of a local of kind LONG or DOUBLE (allocated on first use); -1 for other kinds. */
    int prim(String local) {
        return kind(local).numeric() ? prims.computeIfAbsent(local, k -> primCount++) : -1;
    }

    /** A fresh primitive slot no local uses (loop bounds). */
    int hiddenPrim() {
        return primCount++;
    }

    int slotCount() {
        return slotCount;
    }

    /** Per local slot, its primitive slot or -1 (allocates the primitive slots not used yet). */
    int[] primOf() {
        int[] out = new int[slotCount];
        java.util.Arrays.fill(out, -1);
        slots.forEach((name, slot) -> out[slot] = prim(name));
        return out;
    }

    /** Number of primitive slots; call after {@link #primOf}. */
    int primCount() {
        return primCount;
    }

    /** Per local slot, the local's kind. */
    Kind[] slotKinds() {
        Kind[] out = new Kind[slotCount];
        slots.forEach((name, slot) -> out[slot] = kind(name));
        return out;
    }

    void enterLoop(String var) {
        loopVars.add(var);
        defined.add(var);
    }

    void exitLoop(String var) {
        loopVars.remove(var);
    }

    Flow flow() {
        return new Flow(new HashSet<>(defined), dead);
    }

    void restore(Flow f) {
        defined = new HashSet<>(f.defined());
        dead = f.dead();
    }

    void kill() {
        dead = true;
    }
}
