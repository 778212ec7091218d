package org.tebaldi.server.zk;

/**
 * A value read from ZooKeeper with its version (the znode's data version: 0 when first written, +1 per update).
 *
 * @param version the znode data version
 * @param value   the value
 */
public record Versioned<T>(int version, T value) {
}
