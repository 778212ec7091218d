package org.tebaldi.cc.sundial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Table-level leases (Sundial §4.3): read-only tables renew as a whole, with a growing margin; writes stop it. */
class TableLeasesTest {
    @Test
    void aReadOnlyTableRenewsWholeWithAGrowingMargin() {
        TableLeases t = new TableLeases(true);
        assertTrue(t.tryExtend(1, 10));
        assertEquals(10, t.rts(1));
        assertTrue(t.tryExtend(1, 11));
        assertEquals(12, t.rts(1), "δ = 1 after the first renewal");
        assertTrue(t.tryExtend(1, 12));
        assertEquals(14, t.rts(1), "δ = 2");
        assertEquals(14, t.effective(1, 3));
        assertEquals(20, t.effective(1, 20));
        assertEquals(3, t.effective(2, 3), "another table");
    }

    @Test
    void aLockOnATupleStopsTableRenewalsAndEndsReadOnly() {
        TableLeases t = new TableLeases(true);
        t.tryExtend(1, 10);
        t.locked(1);
        assertFalse(t.tryExtend(1, 50), "a locked writer's commit timestamp came from the table lease");
        assertEquals(10, t.rts(1));
        t.unlocked(1);
        assertEquals(0, t.lockedTuples(1));
        assertFalse(t.tryExtend(1, 50), "written: no longer read-only");
        t.written(1, 11);
        assertEquals(11, t.wts(1));
        assertEquals(10, t.effective(1, 0), "the old table lease still covers the versions it covered");
    }

    @Test
    void offMeansPerTupleLeases() {
        TableLeases t = new TableLeases(false);
        assertFalse(t.tryExtend(1, 10));
        assertEquals(-1, t.rts(1));
        assertEquals(-1, t.wts(1));
        assertEquals(3, t.effective(1, 3));
    }
}
