package org.tebaldi.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatedRuntimeTest {
    /** Ping-pongs random payloads with a peer; logs (virtual time, receiver, payload). */
    private static final class Pinger implements Actor {
        final NodeId peer;
        final List<String> log;
        final int rounds;
        NodeContext ctx;

        Pinger(NodeId peer, List<String> log, int rounds) {
            this.peer = peer;
            this.log = log;
            this.rounds = rounds;
        }

        @Override
        public void onStart(NodeContext ctx) {
            this.ctx = ctx;
            ctx.send(peer, 0);
            ctx.send(NodeId.ds(9), -1);
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            int n = (Integer) msg;
            log.add(ctx.nowMicros() + ":" + ctx.self() + ":" + n);
            if (n < rounds) {
                ctx.send(peer, n + 1 + ctx.random().nextInt(3));
            }
        }
    }

    private static final class Sink implements Actor {
        final List<Integer> got = new ArrayList<>();

        @Override
        public void onStart(NodeContext ctx) {
        }

        @Override
        public void onMessage(NodeId from, Object msg) {
            got.add((Integer) msg);
        }
    }

    private static List<String> trace(long seed, SimulatedRuntime.Model model) {
        List<String> log = new ArrayList<>();
        SimulatedRuntime sim = new SimulatedRuntime(seed, model);
        sim.spawn(NodeId.ds(9), new Sink());
        sim.spawn(NodeId.tc(0), new Pinger(NodeId.tc(1), log, 200));
        sim.spawn(NodeId.tc(1), new Pinger(NodeId.tc(0), log, 200));
        sim.runUntil(10_000_000);
        return log;
    }

    @Test
    void sameSeedSameRunDifferentSeedDifferentRun() {
        assertEquals(trace(42, SimulatedRuntime.Model.withPauses()), trace(42, SimulatedRuntime.Model.withPauses()));
        assertNotEquals(trace(42, SimulatedRuntime.Model.jittery()), trace(43, SimulatedRuntime.Model.jittery()));
    }

    @Test
    void linksStayFifoUnderRandomDelays() {
        SimulatedRuntime sim = new SimulatedRuntime(7, new SimulatedRuntime.Model(1, 1000, 0, 0));
        Sink sink = new Sink();
        sim.spawn(NodeId.ds(0), sink);
        sim.spawn(NodeId.tc(0), new Actor() {
            @Override
            public void onStart(NodeContext ctx) {
                for (int i = 0; i < 1000; i++) {
                    ctx.send(NodeId.ds(0), i);
                }
            }

            @Override
            public void onMessage(NodeId from, Object msg) {
            }
        });
        sim.runUntil(10_000_000);
        assertEquals(1000, sink.got.size());
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, sink.got.get(i));
        }
    }

    @Test
    void differentLinksAreReordered() {
        SimulatedRuntime sim = new SimulatedRuntime(3, new SimulatedRuntime.Model(1, 1000, 0, 0));
        Sink sink = new Sink();
        sim.spawn(NodeId.ds(0), sink);
        for (int s = 0; s < 20; s++) {
            int me = s;
            sim.spawn(NodeId.tc(s), new Actor() {
                @Override
                public void onStart(NodeContext ctx) {
                    ctx.send(NodeId.ds(0), me);
                }

                @Override
                public void onMessage(NodeId from, Object msg) {
                }
            });
        }
        sim.runUntil(10_000_000);
        List<Integer> sorted = new ArrayList<>(sink.got);
        sorted.sort(Integer::compare);
        assertEquals(20, sink.got.size());
        assertNotEquals(sorted, sink.got, "messages sent in order on different links arrive reordered");
    }

    @Test
    void failuresNameTheSeed() {
        SimulatedRuntime sim = new SimulatedRuntime(1234, SimulatedRuntime.Model.jittery());
        sim.spawn(NodeId.ds(0), new Actor() {
            @Override
            public void onStart(NodeContext ctx) {
                ctx.schedule(500, () -> {
                    throw new IllegalStateException("bad state");
                });
            }

            @Override
            public void onMessage(NodeId from, Object msg) {
            }
        });
        SimulationException e = assertThrows(SimulationException.class, () -> sim.runUntil(1_000_000));
        assertEquals(1234, e.seed());
        assertTrue(e.getMessage().startsWith("seed=1234: at t=500µs"), e.getMessage());
    }

    @Test
    void pausesDelayDeliveryButKeepFifo() {
        SimulatedRuntime sim = new SimulatedRuntime(5, new SimulatedRuntime.Model(10, 10, 2_000, 5_000));
        List<long[]> got = new ArrayList<>();
        sim.spawn(NodeId.ds(0), new Actor() {
            NodeContext ctx;

            @Override
            public void onStart(NodeContext ctx) {
                this.ctx = ctx;
            }

            @Override
            public void onMessage(NodeId from, Object msg) {
                got.add(new long[]{(Long) msg, ctx.nowMicros()});
            }
        });
        sim.spawn(NodeId.tc(0), new Actor() {
            NodeContext ctx;

            @Override
            public void onStart(NodeContext ctx) {
                this.ctx = ctx;
                tick();
            }

            void tick() {
                ctx.send(NodeId.ds(0), ctx.nowMicros());
                ctx.schedule(100, this::tick);
            }

            @Override
            public void onMessage(NodeId from, Object msg) {
            }
        });
        sim.runUntil(1_000_000);
        long maxLatency = 0;
        for (int i = 0; i < got.size(); i++) {
            maxLatency = Math.max(maxLatency, got.get(i)[1] - got.get(i)[0]);
            if (i > 0) {
                assertTrue(got.get(i)[0] > got.get(i - 1)[0], "FIFO");
            }
        }
        assertTrue(got.size() > 1000, "messages kept flowing: " + got.size());
        assertTrue(maxLatency > 1_000, "some messages waited out a pause (max latency " + maxLatency + " µs)");
    }
}
