package org.tebaldi.core.proc;

import java.util.List;
import org.tebaldi.core.model.TableSchema;

/**
 * The compiled, run-independent part of one update statement (or of a decoded {@link ExprUpdate}): target column
 * indexes, data-server evaluators (reading the old row and hole values), and the TC-side evaluators of the holes.
 * Shared by all runs. Package-private.
 *
 * @param table   the updated table
 * @param source  the assignments as written (holes still as parameter/local expressions)
 * @param targets column index of each assignment
 * @param server  data-server evaluator of each assignment
 * @param holes   TC-side evaluators, in hole order
 * @param context message prefix for data-server errors, e.g. "new_order: statement 9 (update stock) at the data
 *                server: "
 */
record UpdateTemplate(TableSchema table, List<Assign> source, int[] targets, Ev[] server, Ev[] holes,
                      String context) {
}
