package org.tebaldi.core.runtime;

/**
 * A message that carries another one to a part of the receiving node (e.g. a CC mechanism's message to its tree
 * node). Message counters and the simulator's cost model tell envelopes apart by what they carry: the name
 * {@code <Envelope>/<Payload>}, e.g. {@code CcEnvelope/GetWatermark}.
 */
public interface Envelope {
    /** The carried message (non-null). */
    Object payload();

    /** The counting and cost name of {@code msg}: its class's simple name, or {@code Envelope/Payload}. */
    static String name(Object msg) {
        if (msg instanceof Envelope e && e.payload() != null) {
            return msg.getClass().getSimpleName() + "/" + e.payload().getClass().getSimpleName();
        }
        return msg.getClass().getSimpleName();
    }
}
