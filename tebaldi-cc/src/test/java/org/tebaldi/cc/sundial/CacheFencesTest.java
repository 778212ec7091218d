package org.tebaldi.cc.sundial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.cc.testkit.FakeDs;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;

/**
 * Sundial's GC confirmation with the coordinators' caches on (docs/mechanisms.md, "TicToc and Sundial"): an epoch
 * whose versions overwrote committed ones is confirmed once every coordinator answered the fence, an epoch of
 * inserts at once; versions this part did not see committed fence the whole server; a coordinator that does not
 * answer is asked again every wait timeout, and after {@value CacheFences#MAX_SENDS} sends the epoch stays
 * unconfirmed.
 */
class CacheFencesTest {
    private static final Key K = Key.of(1, 7);

    private static Version version(long writer) {
        return new Version(writer, 0, 0, null, true);
    }

    private static CacheFences fences(FakeDs ds) {
        return new CacheFences(ds, 0, v -> 10 * v.writer());
    }

    private static long fenceId(FakeDs ds) {
        String s = ds.sent.get(ds.sent.size() - 1);
        return Long.parseLong(s.substring(s.indexOf("id=") + 3, s.indexOf(',', s.indexOf("id="))));
    }

    @Test
    void anOverwriteIsConfirmedOnceEveryCoordinatorAnswered() {
        FakeDs ds = new FakeDs();
        ds.coordinators = 2;
        CacheFences f = fences(ds);
        Version v = version(5);
        f.committed(K, v, true);
        boolean[] confirmed = {false};
        f.confirm(List.of(v), () -> confirmed[0] = true);
        assertEquals(2, ds.sent.size(), ds.sent::toString);
        assertTrue(ds.sent.get(0).startsWith(NodeId.tc(0) + ":"), ds.sent::toString);
        assertTrue(ds.sent.get(1).startsWith(NodeId.tc(1) + ":"), ds.sent::toString);
        assertTrue(ds.sent.get(0).contains("wts=50") && ds.sent.get(0).contains("wholeServer=false"), ds.sent::toString);
        long id = fenceId(ds);
        f.answered(NodeId.tc(1), new SundialMessages.Fenced(id));
        f.answered(NodeId.tc(1), new SundialMessages.Fenced(id));
        assertFalse(confirmed[0], "coordinator 0 has not answered");
        f.answered(NodeId.tc(0), new SundialMessages.Fenced(id));
        assertTrue(confirmed[0]);
        assertEquals(0, f.waiting());
    }

    @Test
    void insertsAreConfirmedAtOnceAndUnknownVersionsFenceTheWholeServer() {
        FakeDs ds = new FakeDs();
        ds.coordinators = 1;
        CacheFences f = fences(ds);
        Version inserted = version(3);
        f.committed(K, inserted, false);
        boolean[] confirmed = {false};
        f.confirm(List.of(inserted), () -> confirmed[0] = true);
        assertTrue(confirmed[0], "no cache can hold an older version of an inserted key");
        assertTrue(ds.sent.isEmpty(), ds.sent::toString);
        confirmed[0] = false;
        f.confirm(List.of(version(4)), () -> confirmed[0] = true);
        assertFalse(confirmed[0]);
        assertTrue(ds.sent.get(0).contains("wholeServer=true"), ds.sent::toString);
        f.answered(NodeId.tc(0), new SundialMessages.Fenced(fenceId(ds)));
        assertTrue(confirmed[0]);
    }

    @Test
    void aFenceIsSentAgainToTheSilentAndGivenUpAfterTheLastSend() {
        FakeDs ds = new FakeDs();
        ds.coordinators = 2;
        CacheFences f = fences(ds);
        Version v = version(5);
        f.committed(K, v, true);
        boolean[] confirmed = {false};
        f.confirm(List.of(v), () -> confirmed[0] = true);
        f.answered(NodeId.tc(0), new SundialMessages.Fenced(fenceId(ds)));
        ds.sent.clear();
        ds.advance(ds.waitTimeoutMicros());
        assertEquals(1, ds.sent.size(), ds.sent::toString);
        assertTrue(ds.sent.get(0).startsWith(NodeId.tc(1) + ":"), "only the coordinator that did not answer");
        for (int i = 0; i < CacheFences.MAX_SENDS; i++) {
            ds.advance(ds.waitTimeoutMicros());
        }
        assertEquals(CacheFences.MAX_SENDS - 1, ds.sent.size(), "sent " + CacheFences.MAX_SENDS + " times in all");
        assertEquals(0, f.waiting(), "given up: the versions are kept");
        assertFalse(confirmed[0]);
    }
}
