package org.tebaldi.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JIT compiler's quiet ({@link JitActivity}) and its share of the measured window ({@link MachineUsage}). */
class JitActivityTest {
    /** A compiler whose total compile time, ms, is {@code total[at[0]]}. */
    private static JitActivity scripted(long[] total, int[] at) {
        return new JitActivity(() -> total[at[0]]);
    }

    @Test
    void quietOnlyAfterFiveSecondsAtMostFivePercentOfACore() {
        long[] total = new long[21];
        int[] at = {0};
        // 400 ms of compiling per second for 6 s, then 40 ms per second (4% of a core), then one 100 ms burst
        for (int i = 1; i < total.length; i++) {
            total[i] = total[i - 1] + (i <= 6 ? 400 : i == 15 ? 100 : 40);
        }
        JitActivity jit = scripted(total, at);
        boolean[] quiet = new boolean[total.length];
        for (int i = 1; i < total.length; i++) {
            at[0] = i;
            jit.secondPassed();
            quiet[i] = jit.quiet();
        }
        for (int i = 1; i <= 10; i++) {
            assertFalse(quiet[i], "second " + i + ": a busy second is still in the last five");
        }
        assertTrue(quiet[11], "seconds 7-11: 200 ms of 5,000");
        assertTrue(quiet[14], "seconds 10-14: 200 ms");
        assertFalse(quiet[15], "seconds 11-15: 4 x 40 + 100 = 260 ms, over 250");
        assertFalse(quiet[19], "seconds 15-19 still hold the burst");
        assertTrue(quiet[20], "seconds 16-20: 200 ms");
    }

    @Test
    void unknownCompileTimeIsAlwaysQuiet() {
        JitActivity jit = new JitActivity(null);
        assertTrue(jit.quiet(), "quiet from the first second: nothing to wait for");
        jit.secondPassed();
        assertTrue(jit.quiet());
    }

    @Test
    void theWindowReportsTheCompilersShareOfOneCore() {
        MachineUsage busy = new MachineUsage(2, 20_000, 38_000, Map.of(), 0, 0, 0, Map.of(), 1_500);
        assertEquals(0.075, busy.jitShare(), 1e-9);
        assertTrue(busy.jitBusy());
        MachineUsage calm = new MachineUsage(2, 20_000, 38_000, Map.of(), 0, 0, 0, Map.of(), 400);
        assertFalse(calm.jitBusy());
        MachineUsage unknown = new MachineUsage(2, 20_000, 38_000, Map.of(), 0, 0, 0);
        assertNull(unknown.jitShare());
        assertFalse(unknown.jitBusy());
    }
}
