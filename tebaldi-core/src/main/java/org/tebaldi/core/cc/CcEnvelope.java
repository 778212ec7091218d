package org.tebaldi.core.cc;

/**
 * A mechanism-specific message between nodes (e.g. RP's TC-to-TC step notifications), routed to the part of CC
 * tree node {@code ccNode} at the receiver.
 */
public record CcEnvelope(int ccNode, Object payload) implements org.tebaldi.core.runtime.Envelope {
}
