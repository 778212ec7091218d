package org.tebaldi.server.durability;

/**
 * A data server's durable store stopped (a full disk, an I/O error): nothing it logs from then on would be durable.
 * Thrown on the data server's thread, so the node fails and a run stops with this one message (docs/cluster.md,
 * "When the store fails").
 */
public final class StoreFailedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    StoreFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
