package org.tebaldi.core.codec;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Hand-written serializer of one message or payload class (docs/architecture.md, "Runtime" "hand-written serializers with round-trip
 * tests"). {@code decode(encode(x))} must equal {@code x} (as far as the class defines equality).
 *
 * @param <T> the class it serializes
 */
public interface Codec<T> {
    /** Writes {@code value}'s fields (not its type id: the registry writes that). */
    void encode(T value, Encoder out);

    /**
     * Reads what {@link #encode} wrote.
     *
     * @throws CodecException on bytes that do not describe a valid value
     */
    T decode(Decoder in);

    /** A codec from two functions (for records: write the fields, read them back in the same order). */
    static <T> Codec<T> of(BiConsumer<T, Encoder> encode, Function<Decoder, T> decode) {
        return new Codec<>() {
            @Override
            public void encode(T value, Encoder out) {
                encode.accept(value, out);
            }

            @Override
            public T decode(Decoder in) {
                return decode.apply(in);
            }
        };
    }
}
