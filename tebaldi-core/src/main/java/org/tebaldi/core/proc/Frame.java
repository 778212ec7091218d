package org.tebaldi.core.proc;

import org.tebaldi.core.model.Row;

/**
 * What compiled expressions read: local slots, input values, and (at the data server, for an update) the old row.
 * A local of kind LONG or DOUBLE ({@link Kinds}) keeps its value in {@code prims} (a double as its raw long bits)
 * and uses its {@code locals} slot only for a value in flight ({@link Pending}), null otherwise. For an
 * {@link ExprUpdate} the "locals" are the values the TC computed for the update's holes and {@code prims} is null.
 * Package-private.
 */
class Frame {
    final Object[] locals;
    final long[] prims;
    final Object[] inputs;
    final Row old;

    Frame(Object[] locals, long[] prims, Object[] inputs, Row old) {
        this.locals = locals;
        this.prims = prims;
        this.inputs = inputs;
        this.old = old;
    }
}
