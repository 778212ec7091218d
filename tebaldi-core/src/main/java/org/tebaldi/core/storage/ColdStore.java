package org.tebaldi.core.storage;

import java.util.function.BiConsumer;

/**
 * The disk tier beneath a {@link BaseStore} held in memory: the records that do not fit its memory budget
 * ({@code storage.memory}), as key bytes ({@link KeyCodec}) to version bytes ({@link VersionCodec}). Not durable —
 * a cache of the data server's own rows, emptied when the data server recovers. Used by the owning actor;
 * {@link #diskBytes} from any thread.
 */
public interface ColdStore extends AutoCloseable {
    /** Writes every {@code keys[i] -> values[i]} for i in [0, n), replacing older values. */
    void putAll(byte[][] keys, byte[][] values, int n);

    /** The value of {@code key}, or null. */
    byte[] get(byte[] key);

    /** Deletes {@code key} (no error if absent). */
    void delete(byte[] key);

    /** Visits every entry (order unspecified). */
    void forEach(BiConsumer<byte[], byte[]> visitor);

    /** Deletes every entry. */
    void clear();

    /** Bytes on disk and in write buffers, approximate (thread-safe). */
    long diskBytes();

    /** Closes and deletes the files. Idempotent. */
    @Override
    void close();
}
