package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The console's line on where a busy simulated node's time went (docs/simulation.md). */
class RunReportTest {
    @Test
    void handlersLargestFirstTheFirstFiveThenTheRest() {
        Map<String, Long> us = Map.of("ds ExecRequest", 400L, "ds CcEnvelope/Watermark", 200L, "ds timer", 150L,
                "ds CommitRequest", 100L, "ds ValidateRequest", 80L, "ds AbortRequest", 50L, "ds Callback", 20L);
        assertEquals("where ds1's time went (virtual cpu by handler): ds ExecRequest 40%, ds CcEnvelope/Watermark 20%,"
                + " ds timer 15%, ds CommitRequest 10%, ds ValidateRequest 8%, other 7%", RunReport.handlers("ds1", us));
    }
}
