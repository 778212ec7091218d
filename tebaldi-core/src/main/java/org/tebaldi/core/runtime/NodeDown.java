package org.tebaldi.core.runtime;

/**
 * Tells a local actor that node {@code node} has failed: it left the ZooKeeper membership — its session ended, or
 * the runner saw the process it launched exit (process mode, docs/architecture.md, "Failures") — the node will not
 * send again under this address's current incarnation, and messages to it are dropped.
 * Injected by the process host into every local actor; actors that keep state about other nodes (coordinators,
 * data servers, client endpoints, the timestamp service) react, others ignore it. Never sent over the network.
 *
 * @param node   the failed node
 * @param reason human-readable cause, e.g. {@code "tc1 left the cluster (its process exited or its ZooKeeper
 *               session ended)"}
 */
public record NodeDown(NodeId node, String reason) implements ControlMessage {
}
