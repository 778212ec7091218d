package org.tebaldi.core.cc.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.storage.Version;

/** Leases on versions: lazily given, extended only upwards, installed by commits; absent keys; the floor. */
class LeaseStoreTest {
    private static final int NODE = 3;
    private static final int LEAF = 3;

    @Test
    void loadedVersionsStartAtZeroAndLeasesOnlyGrow() {
        LeaseStore l = new LeaseStore(NODE);
        Version v = Version.initial(null);
        assertEquals(0, l.wts(v));
        assertEquals(0, l.rts(v));
        l.extend(v, 7);
        l.extend(v, 4);
        assertEquals(7, l.rts(v));
        assertEquals(0, l.wts(v));
        assertEquals(7, l.floor());
    }

    @Test
    void aCommitInstallsAPointLease() {
        LeaseStore l = new LeaseStore(NODE);
        Version v = new Version(42, LEAF, 0, null, true);
        l.install(v, 12);
        assertEquals(12, l.wts(v));
        assertEquals(12, l.rts(v));
        assertEquals(12, l.floor());
    }

    @Test
    void anotherGroupsVersionStartsAfterEveryLeaseHandedOut() {
        LeaseStore l = new LeaseStore(NODE);
        Version mine = new Version(1, LEAF, 0, null, true);
        l.install(mine, 5);
        l.extend(mine, 9);
        Version foreign = new Version(2, LEAF + 1, 0, null, true);
        assertEquals(10, l.wts(foreign));
        assertEquals(10, l.rts(foreign));
        Version another = new Version(3, LEAF + 1, 0, null, true);
        assertEquals(11, l.wts(another), "each one after the previous");
        assertEquals(11, l.wts(another), "stamped once");
        l.raiseFloor(20);
        assertEquals(21, l.wts(new Version(4, LEAF + 2, 0, null, true)));
    }

    @Test
    void rebasedVersionsStartAtZero() {
        LeaseStore l = new LeaseStore(NODE);
        l.raiseFloor(30);
        Version v = new Version(7, LEAF, 0, null, true);
        v.rebase();
        assertEquals(0, l.wts(v));
    }

    @Test
    void theAbsenceOfAKeyHasALease() {
        LeaseStore l = new LeaseStore(NODE);
        Key k = Key.of(1, 2);
        assertEquals(0, l.absentRts(k));
        l.extendAbsent(k, 6);
        l.extendAbsent(k, 2);
        assertEquals(6, l.absentRts(k));
        assertEquals(1, l.absentKeys());
        l.clearAbsent(k);
        assertEquals(0, l.absentRts(k));
        assertEquals(0, l.absentKeys());
        assertEquals(6, l.floor());
    }
}
