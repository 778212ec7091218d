package org.tebaldi.bench.postgres;

import java.nio.charset.StandardCharsets;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;

/**
 * Encodes rows in PostgreSQL's COPY text format (PostgreSQL manual, COPY, "Text Format"): one line per row, columns
 * separated by tabs, {@code \N} for null, backslash, tab, newline and carriage return escaped, {@code bytea} as
 * {@code \\x} and hex digits. Key parts come first, then the row's columns. A growable byte buffer, not
 * thread-safe.
 */
final class CopyBuffer {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private byte[] buf = new byte[1 << 16];
    private int len;

    /** Bytes buffered. */
    int size() {
        return len;
    }

    /** The buffer (valid up to {@link #size()}). */
    byte[] bytes() {
        return buf;
    }

    /** Empties the buffer. */
    void clear() {
        len = 0;
    }

    /** Appends one row: key parts, then the row's values, tab-separated, newline-terminated. */
    void append(Key key, Row row) {
        for (int i = 0; i < key.arity(); i++) {
            if (i > 0) {
                put((byte) '\t');
            }
            putLong(key.part(i));
        }
        for (int i = 0; i < row.size(); i++) {
            if (key.arity() > 0 || i > 0) {
                put((byte) '\t');
            }
            value(row.get(i));
        }
        put((byte) '\n');
    }

    private void value(Object v) {
        if (v == null) {
            put((byte) '\\');
            put((byte) 'N');
        } else if (v instanceof Long l) {
            putLong(l);
        } else if (v instanceof Double d) {
            ascii(Double.toString(d));
        } else if (v instanceof String s) {
            string(s);
        } else if (v instanceof byte[] b) {
            ensure(3 + 2 * b.length);
            buf[len++] = '\\';
            buf[len++] = '\\';
            buf[len++] = 'x';
            for (byte x : b) {
                buf[len++] = HEX[(x >> 4) & 0xF];
                buf[len++] = HEX[x & 0xF];
            }
        } else {
            throw new IllegalArgumentException("cannot COPY a value of type " + v.getClass().getName());
        }
    }

    private void string(String s) {
        ensure(2 * s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                utf8(s, i);
                return;
            }
            switch (c) {
                case '\\' -> escaped('\\');
                case '\t' -> escaped('t');
                case '\n' -> escaped('n');
                case '\r' -> escaped('r');
                default -> buf[len++] = (byte) c;
            }
        }
    }

    /** The rest of {@code s} from {@code from}, through UTF-8. */
    private void utf8(String s, int from) {
        String rest = s.substring(from).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
                .replace("\r", "\\r");
        byte[] b = rest.getBytes(StandardCharsets.UTF_8);
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    private void escaped(char c) {
        ensure(2);
        buf[len++] = '\\';
        buf[len++] = (byte) c;
    }

    private void ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
    }

    private void putLong(long v) {
        if (v >= 0 && v < 10) {
            put((byte) ('0' + v));
        } else {
            ascii(Long.toString(v));
        }
    }

    private void put(byte b) {
        ensure(1);
        buf[len++] = b;
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            byte[] b = new byte[Math.max(buf.length * 2, len + n)];
            System.arraycopy(buf, 0, b, 0, len);
            buf = b;
        }
    }
}
