package org.tebaldi.server.node;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;

/**
 * The ordered, fixed list of a node's {@link NodeFeature}s, built once from the {@link ClusterConfig}; runs each
 * named point over the features in list order (docs/architecture.md, "Nodes and features").
 *
 * @param <F> the node's feature interface (with its own named points)
 */
public final class Features<F extends NodeFeature> {
    private final List<F> list;

    /** @param list the features in the order their points run */
    public Features(List<F> list) {
        this.list = List.copyOf(list);
    }

    /** Registers every feature's handlers. */
    public Features<F> register(Handlers handlers) {
        list.forEach(f -> f.register(handlers));
        return this;
    }

    /** Runs a point over every feature, in order. */
    public void each(Consumer<? super F> point) {
        list.forEach(point);
    }

    /** True if some feature consumed {@code msg} (the rest do not see it). */
    public boolean intercept(NodeId from, Object msg) {
        for (F f : list) {
            if (f.intercept(from, msg)) {
                return true;
            }
        }
        return false;
    }

    /** The node-down point. */
    public void nodeDown(NodeDown d) {
        list.forEach(f -> f.nodeDown(d));
    }

    /** The feature of class {@code type}, if the configuration turned it on. */
    public <T> Optional<T> find(Class<T> type) {
        for (F f : list) {
            if (type.isInstance(f)) {
                return Optional.of(type.cast(f));
            }
        }
        return Optional.empty();
    }

    /** Every feature's counters, by name. */
    public Map<String, Long> counters() {
        Map<String, Long> out = new TreeMap<>();
        list.forEach(f -> f.counters(out));
        return out;
    }

    /** The features, in order. */
    public List<F> list() {
        return list;
    }
}
