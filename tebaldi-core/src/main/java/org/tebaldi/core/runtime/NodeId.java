package org.tebaldi.core.runtime;

/**
 * Address of a node: role and index (e.g. {@code ds3}). Hash and order are deterministic (role ordinal, index),
 * which the simulated runtime relies on.
 */
public record NodeId(Role role, int index) implements Comparable<NodeId> {
    public static NodeId tc(int i) {
        return new NodeId(Role.TC, i);
    }

    public static NodeId ds(int i) {
        return new NodeId(Role.DS, i);
    }

    public static NodeId client(int i) {
        return new NodeId(Role.CLIENT, i);
    }

    @Override
    public int hashCode() {
        return role.ordinal() * 1_000_003 + index;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeId n && n.role == role && n.index == index;
    }

    @Override
    public int compareTo(NodeId o) {
        return role != o.role ? Integer.compare(role.ordinal(), o.role.ordinal()) : Integer.compare(index, o.index);
    }

    @Override
    public String toString() {
        return role.cli() + index;
    }
}
