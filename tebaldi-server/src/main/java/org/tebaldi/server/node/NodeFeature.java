package org.tebaldi.server.node;

import java.util.Map;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.NodeId;

/**
 * A cluster feature of a node — durability, recovery, replication, epoch-based commit, termination,
 * reconfiguration (docs/architecture.md, "Nodes and features") — with a fixed lifecycle: it is built from the
 * {@link ClusterConfig} when its node is (only if the configuration turns it on), {@link #register registers} its
 * message handlers, joins the node's named points (the node-independent ones here; a data server's and a
 * coordinator's own points in their feature interfaces), owns its state and reports its counters. Every point runs
 * on the node's thread, in the order of the node's feature list; a feature never blocks and starts no thread (the
 * same code runs under the simulated runtime, docs/simulation.md).
 */
public interface NodeFeature {
    /** Registers the handlers of this feature's messages (once, when the node is built). */
    default void register(Handlers handlers) {
    }

    /**
     * Sees every message before the node's handlers do; true if it consumed the message (e.g. a request refused
     * while recovering).
     */
    default boolean intercept(NodeId from, Object msg) {
        return false;
    }

    /** The node started (its timers may begin). */
    default void start() {
    }

    /** After each message the node handled (a protocol waiting for a condition may go on). */
    default void afterMessage() {
    }

    /** Node {@code d.node()} failed (the failure detector's notice, docs/architecture.md "Failures"). */
    default void nodeDown(NodeDown d) {
    }

    /** Adds this feature's counters to {@code out}, by name (any thread; approximate while the node runs). */
    default void counters(Map<String, Long> out) {
    }

    /** The node stopped: releases what the feature holds open (e.g. a log store). */
    default void close() {
    }
}
