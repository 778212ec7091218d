package org.tebaldi.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.cc.CounterGroup;
import org.tebaldi.core.cc.Mechanisms;

/**
 * summary.json's labelled counter groups (e.g. the {@code cache} key a caching mechanism declares): counts and rates
 * from the counters, null without the group's counters; the console line.
 */
class SummaryCacheTest {
    private static CounterGroup cache() {
        return Mechanisms.counterGroups().stream().filter(g -> g.key().equals("cache")).findFirst().orElseThrow();
    }

    private static Map<String, Long> counters(long lookups, long hits, long served) {
        String p = cache().prefix();
        return Map.of(p + "lookups", lookups, p + "hits", hits, p + "served", served, p + "renewals", 10L,
                p + "renewalFailures", 3L);
    }

    @Test
    void ratesFromTheCounters() {
        JsonNode c = SummaryJson.counterGroup(cache(), counters(200, 150, 120));
        assertEquals(List.of("lookups", "hits", "served", "renewals", "renewalFailures", "hitRate", "servedRate"),
                java.util.stream.StreamSupport.stream(java.util.Spliterators.spliteratorUnknownSize(c.fieldNames(), 0),
                        false).toList(), "the keys of summary.json's cache");
        assertEquals(0.75, c.get("hitRate").asDouble(), 1e-9);
        assertEquals(0.6, c.get("servedRate").asDouble(), 1e-9);
        assertEquals(3, c.get("renewalFailures").asLong());
        assertTrue(SummaryJson.counterGroup(cache(), counters(0, 0, 0)).get("hitRate").isNull());
        assertEquals("cache of remote reads: lookups 200, hits 150, served 120, renewals 10, renewalFailures 3; "
                + "hitRate 75.0%, servedRate 60.0%", cache().line(counters(200, 150, 120)));
        assertNull(cache().line(counters(0, 0, 0)), "no line without lookups");
    }

    @Test
    void nullWithoutTheCounters() {
        assertTrue(SummaryJson.counterGroup(cache(), null).isNull());
        assertTrue(SummaryJson.counterGroup(cache(), Map.of()).isNull());
    }
}
