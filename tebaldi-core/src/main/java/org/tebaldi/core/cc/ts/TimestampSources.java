package org.tebaldi.core.cc.ts;

import java.util.function.LongConsumer;
import org.tebaldi.core.cc.CcServices;
import org.tebaldi.core.service.TsClient;

/** Makes a node's {@link TimestampSource} for its {@link TimestampScheme}. */
public final class TimestampSources {
    private TimestampSources() {
    }

    /**
     * The source of {@code scheme} for the part of CC node {@code ccNode} on {@code node}; {@code client} is the
     * part's {@link TsClient} (used by GTS, shared with the part's batching and watermarks so nothing about today's
     * path changes), may be null for DST.
     */
    public static TimestampSource of(TimestampScheme scheme, CcServices node, TsClient client) {
        return switch (scheme) {
            case GTS -> new Gts(client);
            case DST -> new Dst(new HybridClock(node::nowMicros), node);
        };
    }

    /** GTS: every timestamp from the central service. */
    private record Gts(TsClient client) implements TimestampSource {
        @Override
        public TimestampScheme scheme() {
            return TimestampScheme.GTS;
        }

        @Override
        public void commitTs(long lowerBound, LongConsumer onTs) {
            client.next(onTs);
        }

        @Override
        public void readTs(long stalenessMicros, LongConsumer onTs) {
            client.next(onTs);
        }

        @Override
        public void uniqueTs(LongConsumer onTs) {
            client.next(onTs);
        }

        @Override
        public void observe(long ts) {
        }

        @Override
        public boolean handle(Object payload) {
            return client.handle(payload);
        }
    }

    /**
     * DST: the node's hybrid clock; no message. {@code node} is asked for its index only when used (parts exist
     * before their node runs).
     */
    private record Dst(HybridClock clock, CcServices node) implements TimestampSource {
        @Override
        public TimestampScheme scheme() {
            return TimestampScheme.DST;
        }

        @Override
        public void commitTs(long lowerBound, LongConsumer onTs) {
            onTs.accept(clock.commit(lowerBound));
        }

        @Override
        public void readTs(long stalenessMicros, LongConsumer onTs) {
            long now = clock.now();
            onTs.accept(Math.max(0, now - HybridClock.ofMicros(Math.max(0, stalenessMicros))));
        }

        @Override
        public void uniqueTs(LongConsumer onTs) {
            onTs.accept(clock.unique(node.self().index()));
        }

        @Override
        public void observe(long ts) {
            clock.observe(ts);
        }

        @Override
        public boolean handle(Object payload) {
            return false;
        }
    }
}
