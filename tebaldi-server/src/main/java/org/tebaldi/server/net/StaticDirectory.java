package org.tebaldi.server.net;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.tebaldi.core.runtime.NodeId;

/** A {@link Directory} filled by hand (tests, fixed deployments): {@link #put} and {@link #remove} addresses. */
public final class StaticDirectory implements Directory {
    private final ConcurrentHashMap<NodeId, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    private final Set<NodeId> down = ConcurrentHashMap.newKeySet();
    private final List<Consumer<NodeId>> listeners = new CopyOnWriteArrayList<>();

    /** Registers (or moves) a node. */
    public void put(NodeId node, InetSocketAddress address) {
        down.remove(node);
        addresses.put(node, address);
        listeners.forEach(l -> l.accept(node));
    }

    /** Marks a node as gone. */
    public void remove(NodeId node) {
        addresses.remove(node);
        down.add(node);
        listeners.forEach(l -> l.accept(node));
    }

    @Override
    public InetSocketAddress addressOf(NodeId node) {
        return addresses.get(node);
    }

    @Override
    public boolean isDown(NodeId node) {
        return down.contains(node);
    }

    @Override
    public void onChange(Consumer<NodeId> listener) {
        listeners.add(listener);
    }
}
