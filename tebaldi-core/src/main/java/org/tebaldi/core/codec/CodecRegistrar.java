package org.tebaldi.core.codec;

/** What a {@link CodecProvider} registers its codecs with. */
public interface CodecRegistrar {
    /**
     * Registers the codec of exactly class {@code type} (subclasses are not covered) under {@code name}, unique
     * within the provider's namespace; the wire type id is derived from {@code namespace:name}.
     *
     * @throws IllegalStateException if the name or the class is already registered, or the derived id collides
     */
    <T> void add(String name, Class<T> type, Codec<T> codec);
}
