package org.tebaldi.core.codec;

/**
 * SPI through which each package that defines messages contributes their codecs (found with
 * {@link java.util.ServiceLoader}, {@code META-INF/services/org.tebaldi.core.codec.CodecProvider}). Mechanism
 * packages provide codecs for their own (often package-private) payload records, so the codec lives next to the
 * record. Type ids are namespaced: a codec registered as {@code name} by provider {@code ns} gets the id
 * {@code fnv1a32("ns:name")}, so providers written independently cannot collide silently (a collision fails
 * {@link CodecRegistry} construction).
 */
public interface CodecProvider {
    /** A short unique name, e.g. {@code core}, {@code server}, {@code ssi}; use the mechanism name for mechanisms. */
    String namespace();

    /** Registers this provider's codecs. */
    void register(CodecRegistrar registrar);
}
