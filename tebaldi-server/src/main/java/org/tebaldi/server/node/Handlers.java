package org.tebaldi.server.node;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.tebaldi.core.runtime.NodeId;

/**
 * A node's message handlers, registered per message type (exact class: messages are records) instead of a chain of
 * {@code instanceof} tests; one map lookup per message. Owned by one actor.
 */
public final class Handlers {
    private final Map<Class<?>, BiConsumer<NodeId, Object>> byType = new HashMap<>();

    /**
     * Registers the handler of messages of exactly class {@code type}.
     *
     * @throws IllegalStateException if that type already has a handler
     */
    public <M> Handlers on(Class<M> type, BiConsumer<NodeId, M> handler) {
        if (byType.putIfAbsent(type, (from, msg) -> handler.accept(from, type.cast(msg))) != null) {
            throw new IllegalStateException("two handlers for " + type.getName());
        }
        return this;
    }

    /** Runs the handler of {@code msg}'s class; false if it has none. */
    public boolean dispatch(NodeId from, Object msg) {
        BiConsumer<NodeId, Object> h = byType.get(msg.getClass());
        if (h == null) {
            return false;
        }
        h.accept(from, msg);
        return true;
    }
}
