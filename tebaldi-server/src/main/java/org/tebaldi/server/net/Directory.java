package org.tebaldi.server.net;

import java.net.InetSocketAddress;
import org.tebaldi.core.runtime.NodeId;

/**
 * Service discovery for the Netty transport: where a node listens. Backed by ZooKeeper membership in process mode
 * ({@code org.tebaldi.server.zk.Membership}), by a fixed map in tests. Thread-safe.
 */
public interface Directory {
    /** The node's address, or null if it has not registered (yet). */
    InetSocketAddress addressOf(NodeId node);

    /** True once the node registered and then left (failed or stopped): messages to it are dropped. */
    boolean isDown(NodeId node);

    /** Registers a callback run (on any thread) whenever a node's address appears, changes or goes away. */
    void onChange(java.util.function.Consumer<NodeId> listener);
}
