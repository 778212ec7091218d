package org.tebaldi.core.proc;

import java.util.List;
import org.tebaldi.core.txn.Inputs;

/**
 * A stored procedure (DESIGN.md §4): a name, input parameters and an AST body built with the builder DSL.
 * CONTRACT SKELETON — the proc package implementation replaces this file.
 */
public final class Procedure {
    private final String name;
    private final List<String> params;

    private Procedure(String name, List<String> params) {
        this.name = name;
        this.params = List.copyOf(params);
    }

    public String name() {
        return name;
    }

    public List<String> params() {
        return params;
    }

    /** True if no statement writes. */
    public boolean readOnly() {
        throw new IllegalStateException("skeleton");
    }

    /** Starts one execution with the given inputs. */
    public ProcRun start(Inputs inputs) {
        throw new IllegalStateException("skeleton");
    }
}
