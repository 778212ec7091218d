package org.tebaldi.server.zk;

import java.util.Locale;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.runtime.Role;

/** Node ids as membership znode names: {@link NodeId#toString()} ({@code tc0}, {@code batch0}) and back. */
public final class NodeNames {
    private NodeNames() {
    }

    /**
     * Parses {@code <role><index>}.
     *
     * @throws IllegalArgumentException if the role is unknown or the index missing
     */
    public static NodeId parse(String name) {
        int i = name.length();
        while (i > 0 && Character.isDigit(name.charAt(i - 1))) {
            i--;
        }
        if (i == name.length() || i == 0) {
            throw new IllegalArgumentException("not a node name: '" + name + "' (expected e.g. tc0, ds1)");
        }
        String role = name.substring(0, i).toUpperCase(Locale.ROOT);
        try {
            return new NodeId(Role.valueOf(role), Integer.parseInt(name.substring(i)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a node name: '" + name + "' (unknown role)");
        }
    }
}
