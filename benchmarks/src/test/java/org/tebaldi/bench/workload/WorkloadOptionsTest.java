package org.tebaldi.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.config.ConfigException;

/** Typed workload options: defaults, ranges, types, unread options, and the resolved map. */
class WorkloadOptionsTest {
    private static String error(Runnable r) {
        return assertThrows(ConfigException.class, r::run).getMessage();
    }

    @Test
    void readsTypedValuesAndDefaults() {
        WorkloadOptions o = WorkloadOptions.of("w", Map.of("n", 5, "ratio", 0.5, "flag", true, "mode", "hot",
                "delay", "5ms"));
        assertEquals(5, o.getLong("n", 1, 0, 10));
        assertEquals(0.5, o.getDouble("ratio", 0.1, 0, 1));
        assertEquals(true, o.getBoolean("flag", false));
        assertEquals("hot", o.getString("mode", "cold", "hot", "cold"));
        assertEquals(5000, o.getDurationMicros("delay", "1ms"));
        assertEquals(7, o.getInt("absent", 7, 0, 10));
        o.rejectUnread();
        assertEquals(List.of("name", "n", "ratio", "flag", "mode", "delay", "absent"),
                List.copyOf(o.resolved().keySet()));
        assertEquals("5ms", o.resolved().get("delay"));
    }

    @Test
    void rejectsBadValuesWithThePlace() {
        WorkloadOptions o = WorkloadOptions.of("w", Map.of("n", 50, "ratio", "half", "mode", "warm", "delay", "-1s"));
        assertEquals("<options>: workload.n: must be between 0 and 10, found 50. Fix: write e.g. n: 1",
                error(() -> o.getLong("n", 1, 0, 10)));
        assertEquals("<options>: workload.ratio: expected a number, found 'half'. Fix: write e.g. ratio: 0.1",
                error(() -> o.getDouble("ratio", 0.1, 0, 1)));
        assertEquals("<options>: workload.mode: unknown value 'warm'. Fix: use one of hot, cold",
                error(() -> o.getString("mode", "cold", "hot", "cold")));
        assertEquals("<options>: workload.delay: duration '-1s' is negative. Fix: write e.g. delay: 1ms",
                error(() -> o.getDurationMicros("delay", "1ms")));
    }

    @Test
    void unreadOptionsAreUnknown() {
        WorkloadOptions o = WorkloadOptions.of("w", Map.of("warehouse", 3));
        o.getInt("warehouses", 10, 1, 100);
        assertEquals("<options>: workload.warehouse: unknown option 'warehouse' for workload 'w' (did you mean "
                + "'warehouses'?). Fix: use one of name, warehouses", error(o::rejectUnread));
        WorkloadOptions none = WorkloadOptions.of("w", Map.of("x", 1));
        assertEquals("<options>: workload.x: unknown option 'x' for workload 'w'. Fix: it takes no options",
                error(none::rejectUnread));
    }
}
