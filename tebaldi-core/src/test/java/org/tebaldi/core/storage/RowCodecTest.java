package org.tebaldi.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Column;
import org.tebaldi.core.model.ColumnType;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;

/** Round trips of the compact row format over every column type, nulls, extremes and random rows. */
class RowCodecTest {
    private static final Catalog CAT = new Catalog();
    private static final TableSchema ALL = CAT.add("all", 1, 0, false, Catalog.longCol("l"),
            Catalog.doubleCol("d"), Catalog.stringCol("s"), new Column("b", ColumnType.BYTES), Catalog.longCol("l2"),
            Catalog.stringCol("s2"), Catalog.doubleCol("d2"), Catalog.longCol("l3"), Catalog.longCol("l4"));

    private static Row roundTrip(Row r) {
        ByteSink out = new ByteSink(4);
        RowCodec.encode(r, out);
        ByteSource in = new ByteSource().reset(out.array(), 0, out.length());
        Row back = RowCodec.decode(r.table(), in);
        assertEquals(0, in.remaining(), "the decoder reads exactly what the encoder wrote");
        return back;
    }

    private static void same(Row a, Row b) {
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) instanceof byte[] x) {
                assertArrayEquals(x, (byte[]) b.get(i), "column " + i);
            } else {
                assertEquals(a.get(i), b.get(i), "column " + i);
            }
        }
        assertEquals(a, b);
    }

    @Test
    void everyTypeAndExtremes() {
        Row r = ALL.row(Long.MIN_VALUE, Double.NaN, "", new byte[0], Long.MAX_VALUE, "héllo wörld ✓ 𝄞",
                -0.0, 0L, -1L);
        same(r, roundTrip(r));
        Row s = ALL.row(42L, 1e308, "x".repeat(1000), new byte[]{0, -1, 127, -128}, -64L, "ascii",
                Double.NEGATIVE_INFINITY, 63L, 64L);
        same(s, roundTrip(s));
    }

    @Test
    void nullsInEveryColumn() {
        Row none = ALL.row(null, null, null, null, null, null, null, null, null);
        same(none, roundTrip(none));
        for (int i = 0; i < ALL.columns().size(); i++) {
            Row one = ALL.row(1L, 2.5, "s", new byte[]{9}, 3L, "t", 4.5, 5L, 6L).with(i, null);
            same(one, roundTrip(one));
        }
    }

    @Test
    void randomRows() {
        Random rnd = new Random(33);
        for (int n = 0; n < 2_000; n++) {
            Object[] v = new Object[ALL.columns().size()];
            for (int i = 0; i < v.length; i++) {
                if (rnd.nextInt(6) == 0) {
                    continue;
                }
                v[i] = switch (ALL.columns().get(i).type()) {
                    case LONG -> rnd.nextBoolean() ? rnd.nextLong() : (long) rnd.nextInt(300) - 150;
                    case DOUBLE -> rnd.nextDouble() * 1e6 - 5e5;
                    case STRING -> randomString(rnd);
                    case BYTES -> {
                        byte[] b = new byte[rnd.nextInt(40)];
                        rnd.nextBytes(b);
                        yield b;
                    }
                };
            }
            Row r = Row.of(ALL, v);
            same(r, roundTrip(r));
        }
    }

    private static String randomString(Random rnd) {
        StringBuilder b = new StringBuilder();
        int n = rnd.nextInt(30);
        for (int i = 0; i < n; i++) {
            b.appendCodePoint(rnd.nextInt(4) == 0 ? 0x80 + rnd.nextInt(0x2000) : 0x20 + rnd.nextInt(0x5F));
        }
        return b.toString();
    }

    @Test
    void truncatedBytesAreRefused() {
        Row r = ALL.row(1L, 2.5, "string", new byte[]{1, 2}, 3L, "t", 4.5, 5L, 6L);
        ByteSink out = new ByteSink(4);
        RowCodec.encode(r, out);
        for (int cut = 0; cut < out.length(); cut++) {
            ByteSource in = new ByteSource().reset(out.array(), 0, cut);
            assertThrows(IllegalStateException.class, () -> RowCodec.decode(ALL, in), "cut at " + cut);
        }
    }

    @Test
    void compactForSmallValues() {
        TableSchema t = CAT.add("small", 1, 0, false, Catalog.longCol("a"), Catalog.longCol("b"),
                Catalog.longCol("c"));
        ByteSink out = new ByteSink(4);
        RowCodec.encode(t.row(1L, 63L, -64L), out);
        assertEquals(1 + 3, out.length(), "a null-bitmap byte and one byte per small long");
    }
}
