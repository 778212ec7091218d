package org.tebaldi.core.codec;

/**
 * A value cannot be encoded (no codec for its class, e.g. a lambda {@code RowUpdate}) or bytes cannot be decoded
 * (unknown type id, truncated or corrupt frame). The message names the type or the position.
 */
public class CodecException extends RuntimeException {
    /** @param message what could not be encoded or decoded, and why */
    public CodecException(String message) {
        super(message);
    }

    /** @param message what failed; @param cause the underlying error */
    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
