package org.tebaldi.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The chain against a plain list model, through every size change (one version inline, several in an array). */
class VersionChainTest {
    private static Version v(long writer, boolean committed) {
        return new Version(writer, 0, 0, null, committed);
    }

    private static void same(List<Version> model, VersionChain c) {
        assertEquals(model.size(), c.size());
        for (int i = 0; i < model.size(); i++) {
            assertSame(model.get(i), c.get(i));
        }
        assertEquals(model, new ArrayList<>(c.versions()));
        assertSame(model.isEmpty() ? null : model.get(model.size() - 1), c.latest());
    }

    @Test
    void randomOperationsMatchAListModel() {
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            VersionChain c = new VersionChain();
            List<Version> model = new ArrayList<>();
            long writer = 1;
            for (int step = 0; step < 40; step++) {
                int op = r.nextInt(5);
                if (op <= 1 || model.isEmpty()) {
                    Version x = v(writer++, r.nextBoolean());
                    c.append(x);
                    model.add(x);
                } else if (op == 2) {
                    int at = r.nextInt(model.size() + 1);
                    Version x = v(writer++, false);
                    if (c.insert(at, x)) {
                        model.add(Math.min(at, model.size()), x);
                    }
                } else if (op == 3) {
                    Version x = model.get(r.nextInt(model.size()));
                    assertTrue(c.remove(x));
                    model.remove(x);
                    assertFalse(c.remove(x));
                } else {
                    int k = r.nextInt(model.size() + 1);
                    assertEquals(k, c.pruneBefore(k));
                    model.subList(0, k).clear();
                }
                same(model, c);
                for (int i = 0; i + 1 < model.size(); i++) {
                    assertTrue(model.get(i).orderKey() < model.get(i + 1).orderKey(), "order keys increase");
                }
            }
        }
    }

    @Test
    void pruneSettledDropsCommittedVersionsBelowTheNewestSettledOne() {
        VersionChain c = new VersionChain();
        Version a = v(1, true);
        Version b = v(2, true);
        Version u = v(3, false);
        Version d = v(4, true);
        c.append(a);
        c.append(b);
        c.append(u);
        c.append(d);
        d.settle();
        List<Long> removed = new ArrayList<>();
        assertEquals(2, c.pruneSettled(removed::add));
        assertEquals(List.of(1L, 2L), removed);
        assertEquals(2, c.size());
        assertArrayEquals(new long[]{4}, c.committedOrder());
        assertNull(new VersionChain().latest());
        assertThrows(IndexOutOfBoundsException.class, () -> c.get(2));
    }
}
