package org.tebaldi.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tebaldi.core.history.HistoryFixture.T0;
import static org.tebaldi.core.history.HistoryFixture.t;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.model.Key;

/**
 * A dependency chain of 100k transactions is checked quickly and without recursion: the check runs on a thread
 * with a 256 KiB stack, on which a recursive depth-first search over the chain would overflow.
 */
class LongChainTest {
    private static final int N = 100_000;
    private static final Key HOT = Key.of(2, 0);

    /**
     * T_1 .. T_N: each reads and overwrites the hot key (ww and wr chain), writes its own key z_i, reads
     * z_{i-1} from T_{i-1} and z_{i+1} before T_{i+1} writes it (rw to T_{i+1}).
     */
    private static HistoryFixture chain() {
        HistoryFixture f = new HistoryFixture();
        long[] hotOrder = new long[N + 1];
        for (int i = 1; i <= N; i++) {
            long txn = id(i);
            f.read(txn, HOT, id(i - 1)).write(txn, HOT);
            f.write(txn, z(i));
            if (i > 1) {
                f.read(txn, z(i - 1), id(i - 1));
            }
            if (i < N) {
                f.read(txn, z(i + 1), T0);
            }
            f.order(z(i), T0, txn);
            f.commit(txn, "Step");
            hotOrder[i] = txn;
        }
        f.order(HOT, hotOrder);
        return f;
    }

    private static long id(int i) {
        return i == 0 ? T0 : t(i % 8, i);
    }

    private static Key z(int i) {
        return Key.of(3, i);
    }

    /** Runs the check on a small-stack thread and reports the time taken. */
    private static CheckResult checkOnSmallStack(History h, String name) throws InterruptedException {
        AtomicReference<CheckResult> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread th = new Thread(null, () -> {
            try {
                result.set(SerializabilityChecker.check(h));
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "small-stack-check", 256 * 1024);
        long t0 = System.nanoTime();
        th.start();
        th.join();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println(name + ": checked " + h.txnCount() + " transactions, " + h.readCount() + " reads in "
                + ms + " ms");
        if (failure.get() != null) {
            throw new AssertionError("check failed", failure.get());
        }
        return result.get();
    }

    @Test
    void longSerializableChainPasses() throws InterruptedException {
        History h = chain().history();
        CheckResult r = checkOnSmallStack(h, "100k chain");
        assertTrue(r.serializable(), r::summary);
        assertEquals(N, r.committed());
        assertEquals(2L * N, r.edges(EdgeType.WW));
        assertEquals(3L * N - 2, r.edges(EdgeType.WR));
        assertEquals(N - 1, r.edges(EdgeType.RW));
    }

    @Test
    void longChainClosedByAnAntiDependencyIsOneG2Cycle() throws InterruptedException {
        HistoryFixture f = chain();
        // T_N read the state of z_1 before T_1 wrote it: rw T_N -> T_1 closes a cycle through all of them
        f.read(id(N), z(1), T0);
        CheckResult r = checkOnSmallStack(f.history(), "100k cycle");
        assertEquals(1, r.violationCount(), r::summary);
        assertEquals(1, r.violationCount(ViolationType.ANTI_DEPENDENCY_CYCLE), r::summary);
        Violation v = r.violations().get(0);
        assertEquals(N, v.txns().size());
        assertEquals(N, v.cycle().size());
        assertEquals(List.of(id(1), id(2)), v.txns().subList(0, 2));
        assertEquals(new DsgEdge(id(N), id(1), EdgeType.RW, z(1)), v.cycle().get(N - 1));
        assertTrue(v.message().contains("(" + (N - 40) + " edges omitted)"), v.message());
        assertTrue(v.message().endsWith("-rw(t3[1])-> T1.1(Step)"), v.message());
        assertTrue(v.message().length() < 5000, () -> "message too long: " + v.message().length());
    }

    @Test
    void longChainClosedByAReadIsOneG1cCycle() throws InterruptedException {
        HistoryFixture f = chain();
        // T_1 read T_N's hot version: wr T_N -> T_1 (and the record is otherwise consistent)
        f.read(id(1), HOT, id(N));
        CheckResult r = checkOnSmallStack(f.history(), "100k wr cycle");
        assertEquals(1, r.violationCount(ViolationType.CIRCULAR_FLOW), r::summary);
        assertEquals(1, r.violationCount(), r::summary);
        Violation v = r.violations().get(0);
        assertEquals(N, v.txns().size());
        assertTrue(v.cycle().stream().noneMatch(e -> e.type() == EdgeType.RW));
    }
}
