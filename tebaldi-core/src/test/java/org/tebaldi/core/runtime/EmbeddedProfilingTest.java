package org.tebaldi.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.runtime.cost.CostUnits;
import org.tebaldi.core.runtime.cost.HandlerProfile;

/** Handler profiling of {@link EmbeddedRuntime} on a tiny ping-pong between a coordinator and a data server. */
class EmbeddedProfilingTest {
    private static final int ROUNDS = 250;

    /** A request carrying {@code units} work units. */
    record Ping(int units) implements CostUnits {
        @Override
        public int costUnits() {
            return units;
        }
    }

    record Pong() {
    }

    /** tc0: sends ping i (i % 3 units) after pong i - 1, ROUNDS times. */
    private static final class Pinger implements Actor {
        final CountDownLatch done = new CountDownLatch(1);
        NodeContext ctx;
        int sent;

        @Override
        public void onStart(NodeContext c) {
            ctx = c;
            ctx.send(NodeId.ds(0), new Ping(sent++ % 3));
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            if (sent < ROUNDS) {
                ctx.send(NodeId.ds(0), new Ping(sent++ % 3));
            } else {
                done.countDown();
            }
        }
    }

    /** ds0: answers each ping with a pong from a timer task run at once. */
    private static final class Ponger implements Actor {
        NodeContext ctx;

        @Override
        public void onStart(NodeContext c) {
            ctx = c;
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            ctx.schedule(0, () -> ctx.send(from, new Pong()));
        }
    }

    private static Map<String, HandlerProfile.Sums> pingPong(boolean profile, Map<String, List<Object>> samples)
            throws InterruptedException {
        EmbeddedRuntime rt = new EmbeddedRuntime(2, 0);
        Pinger p = new Pinger();
        try {
            rt.profileHandlers(profile);
            rt.spawn(NodeId.ds(0), new Ponger());
            rt.spawn(NodeId.tc(0), p);
            assertTrue(p.done.await(10, TimeUnit.SECONDS), "ping-pong finished");
        } finally {
            rt.close(); // joins the workers: every handler recorded is visible below
        }
        samples.putAll(rt.messageSamples());
        return rt.handlerTotals();
    }

    @Test
    void profilingRecordsEveryHandlerByRoleAndClass() throws Exception {
        Map<String, List<Object>> samples = new java.util.TreeMap<>();
        Map<String, HandlerProfile.Sums> t = pingPong(true, samples);
        assertEquals(List.of("ds Ping", "ds timer", "tc Pong"), List.copyOf(t.keySet()), "no start, no other key");
        assertEquals(ROUNDS, t.get("ds Ping").count);
        assertEquals(ROUNDS, t.get("ds timer").count);
        assertEquals(ROUNDS, t.get("tc Pong").count);
        double units = 0;
        for (int i = 0; i < ROUNDS; i++) {
            units += i % 3;
        }
        assertEquals(units, t.get("ds Ping").units);
        assertEquals(0, t.get("tc Pong").units);
        assertTrue(t.get("ds Ping").nanos > 0);
        int perClass = (ROUNDS + HandlerProfile.SAMPLE_EVERY - 1) / HandlerProfile.SAMPLE_EVERY;
        assertEquals(perClass, samples.get("Ping").size());
        assertEquals(perClass, samples.get("Pong").size());
        assertTrue(samples.get("Ping").get(0) instanceof Ping);
    }

    @Test
    void nothingIsRecordedWhenProfilingIsOff() throws Exception {
        Map<String, List<Object>> samples = new java.util.TreeMap<>();
        assertTrue(pingPong(false, samples).isEmpty());
        assertTrue(samples.isEmpty());
    }
}
