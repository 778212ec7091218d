package org.tebaldi.core.proc;

import org.tebaldi.core.model.Row;

/**
 * What compiled expressions read: local slots, input values, and (at the data server, for an update) the old row.
 * For an {@link ExprUpdate} the "locals" are the values the TC computed for the update's holes. Package-private.
 */
class Frame {
    final Object[] locals;
    final Object[] inputs;
    final Row old;

    Frame(Object[] locals, Object[] inputs, Row old) {
        this.locals = locals;
        this.inputs = inputs;
        this.old = old;
    }
}
