package org.tebaldi.server.msg;

import org.tebaldi.core.model.Row;

/** TC → client: result of one interactive operation. */
public record OpDone(long txnId, int opId, Row row) {
}
