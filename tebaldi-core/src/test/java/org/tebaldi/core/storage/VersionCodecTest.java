package org.tebaldi.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/** A settled version decoded again is, field by field, the one encoded — or, from an older generation, re-based. */
class VersionCodecTest {
    private static final TableSchema T = new Catalog().add("t", 2, 0, false, Catalog.longCol("a"),
            Catalog.stringCol("s"));

    private static Version roundTrip(Version v, int encodedIn, int decodedIn) {
        ByteSink out = new ByteSink(8);
        VersionCodec.encode(v, encodedIn, out);
        ByteSource in = new ByteSource().reset(out.array(), 0, out.length());
        Version back = VersionCodec.decode(T, decodedIn, in);
        assertEquals(0, in.remaining());
        return back;
    }

    private static Version written() {
        Version v = new Version(123_456_789L, 3, 77, T.row(5L, "five"), false);
        v.overwrite(T.row(6L, "six"));
        v.overwrite(T.row(7L, null));
        v.setOrderKey(3L << 20);
        v.setStamp(0, 1_000_000_000_123L);
        v.setStamp(5, -7);
        v.setAuxStamp(2, 99);
        v.commit();
        v.settle();
        v.markFinalReported();
        return v;
    }

    @Test
    void everyFieldSurvives() {
        Version v = written();
        Version b = roundTrip(v, 4, 4);
        assertEquals(v.writer(), b.writer());
        assertEquals(3, b.writeSeq());
        assertEquals(v.writerLeaf(), b.writerLeaf());
        assertEquals(v.writerInstance(), b.writerInstance());
        assertEquals(v.orderKey(), b.orderKey());
        assertEquals(v.value(), b.value());
        assertTrue(b.committed() && b.settled() && b.finalReported());
        for (int node = 0; node < 10; node++) {
            assertEquals(v.stamp(node), b.stamp(node), "stamp " + node);
            assertEquals(v.auxStamp(node), b.auxStamp(node), "second stamp " + node);
        }
        assertFalse(b.modified(), "a decoded version is clean");
        b.setStamp(1, 5);
        assertTrue(b.modified(), "and dirty once a mechanism stamps it");
    }

    @Test
    void anOlderGenerationDecodesRebased() {
        Version b = roundTrip(written(), 4, 5);
        assertEquals(-1, b.writerLeaf());
        assertEquals(0, b.writerInstance());
        assertEquals(Version.NO_STAMP, b.stamp(0));
        assertEquals(Version.NO_STAMP, b.auxStamp(2));
        assertEquals(123_456_789L, b.writer(), "the writer stays (history)");
        assertEquals(3, b.writeSeq());
        assertTrue(b.settled());
    }

    @Test
    void deletesAndInitialVersions() {
        Version d = new Version(9, -1, 0, null, true);
        d.settle();
        Version b = roundTrip(d, 0, 0);
        assertTrue(b.deleted());
        assertNull(b.value());
        Version init = Version.initial(T.row(1L, "x"));
        ByteSink out = new ByteSink(8);
        VersionCodec.encode(init, 0, out);
        assertEquals(4 + 1 + 1 + 2, out.length(), "flags, writer, seq, order key, then the row (bitmap, 1, \"x\")");
        assertEquals(init.value(), roundTrip(init, 0, 7).value());
    }

    @Test
    void onlySettledCommittedVersionsAreStored() {
        assertThrows(IllegalArgumentException.class, () -> VersionCodec.encode(new Version(1, 0, 0, null, false), 0,
                new ByteSink(8)));
        assertThrows(IllegalArgumentException.class, () -> VersionCodec.encode(new Version(1, 0, 0, null, true), 0,
                new ByteSink(8)));
    }

    @Test
    void keysRoundTripAndMatch() {
        Key[] keys = {Key.of(0, 1), Key.of(3, -5, Long.MAX_VALUE, Long.MIN_VALUE), Key.of(300, 0, 0, 0, 0, 0)};
        for (Key k : keys) {
            ByteSink out = new ByteSink(4);
            KeyCodec.encode(k, out);
            assertEquals(k, KeyCodec.decode(new ByteSource().reset(out.array(), 0, out.length())));
            assertTrue(KeyCodec.matches(k, new ByteSource().reset(out.array(), 0, out.length())));
            assertFalse(KeyCodec.matches(Key.of(k.table(), 1, 2), new ByteSource().reset(out.array(), 0,
                    out.length())));
        }
        assertArrayEquals(new long[]{1}, keys[0].parts());
    }
}
