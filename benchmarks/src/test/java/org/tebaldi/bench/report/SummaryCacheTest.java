package org.tebaldi.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** summary.json's {@code cache} key: rates from the counters, null without a caching tree or counters. */
class SummaryCacheTest {
    @Test
    void ratesFromTheCounters() {
        JsonNode c = SummaryJson.cache(Map.of("sundial.cache.lookups", 200L, "sundial.cache.hits", 150L,
                "sundial.cache.served", 120L, "sundial.cache.renewals", 10L, "sundial.cache.renewalFailures", 3L));
        assertEquals(0.75, c.get("hitRate").asDouble(), 1e-9);
        assertEquals(0.6, c.get("servedRate").asDouble(), 1e-9);
        assertEquals(3, c.get("renewalFailures").asLong());
        assertTrue(SummaryJson.cache(Map.of("sundial.cache.lookups", 0L)).get("hitRate").isNull());
    }

    @Test
    void nullWithoutACache() {
        assertTrue(SummaryJson.cache(null).isNull());
        assertTrue(SummaryJson.cache(Map.of()).isNull());
    }
}
