package org.tebaldi.core.cc.ts;

import java.util.function.LongConsumer;

/**
 * A TC part's source of commit and read timestamps, whatever its node's {@link TimestampScheme}: the mechanism
 * asks, the answer comes back on the part's node (at once for DST, after a round trip to the timestamp service for
 * GTS). Made by {@link TimestampSources#of}.
 */
public interface TimestampSource {
    /** The scheme behind this source. */
    TimestampScheme scheme();

    /**
     * A commit timestamp larger than {@code lowerBound} (DST: the bound derived from the tuples the transaction
     * accessed, RW1; GTS ignores it: the service's next timestamp is larger than every one it issued before, so
     * taken after the transaction's dependencies committed it is larger than theirs).
     */
    void commitTs(long lowerBound, LongConsumer onTs);

    /**
     * A read (snapshot) timestamp for a read-only transaction (DST's RO1: the local time minus {@code
     * stalenessMicros}, a staleness the application accepts; GTS: the service's next timestamp, staleness 0).
     */
    void readTs(long stalenessMicros, LongConsumer onTs);

    /**
     * A start timestamp no other node issues, larger than every timestamp this source issued or observed (DST: the
     * hybrid clock with this node's index in its lowest bits, {@link HybridClock#unique}; GTS: the service's next
     * timestamp, unique by construction). For mechanisms that order transactions by start timestamps (TSO leaves).
     */
    void uniqueTs(LongConsumer onTs);

    /** Records a timestamp this node learned from a peer (DST's clock moves past it; GTS ignores it). */
    void observe(long ts);

    /** Handles a payload addressed to the part if it belongs to this source (the service's replies); else false. */
    boolean handle(Object payload);
}
