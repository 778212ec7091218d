package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Feeds a complete history to an {@link IncrementalChecker} the way a running cluster would: its records in a
 * random order that keeps what the nodes guarantee (a transaction's reads and writes before its outcome, a read of
 * a version after the writer's write, a key's versions reported final in version order, each after its writer's
 * outcome and after every read of the version before it), outcomes at a coordinator source and the records of
 * each key at one of {@code dataServers} sources, handed over in random chunks with pruning passes in between.
 */
final class StreamFeed {
    private interface Event {
        boolean enabled();

        void emit();
    }

    private final History h;
    private final Random rnd;
    private final int dataServers;
    private final HistoryLog[] buffers;
    private final IncrementalChecker checker;
    private final double handOverChance;
    private final double pruneChance;
    private final Map<Long, Integer> writesLeft = new HashMap<>();
    private final Map<Integer, Integer> readsLeft = new HashMap<>();
    private final boolean[] outcomeDone;
    private final Map<Long, Integer> readsOfVersion = new HashMap<>();
    private final int[] finalsDone;
    private HistorySpill mirror;

    StreamFeed(History h, long seed, int dataServers, double handOverChance, double pruneChance) {
        this.h = h;
        this.rnd = new Random(seed);
        this.dataServers = dataServers;
        this.buffers = new HistoryLog[dataServers + 1];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = new HistoryLog();
        }
        this.checker = new IncrementalChecker(dataServers + 1, SerializabilityChecker.DEFAULT_MAX_STORED_PER_TYPE);
        this.handOverChance = handOverChance;
        this.pruneChance = pruneChance;
        this.outcomeDone = new boolean[h.txnCount()];
        this.finalsDone = new int[h.keyCount()];
    }

    /** The streamed verdict of {@code logs}, fed with {@code seed}. */
    static CheckResult check(List<HistoryLog> logs, long seed) {
        return new StreamFeed(History.merge(logs), seed, 1 + (int) (seed % 3), 0.3, 0.3).run();
    }

    private int source(int key) {
        return 1 + Math.floorMod(h.key(key).hashCode(), dataServers);
    }

    /** Also writes every hand-over and pruning pass, in the same order, to {@code spill}. */
    StreamFeed mirror(HistorySpill spill) {
        this.mirror = spill;
        return this;
    }

    IncrementalChecker checker() {
        return checker;
    }

    CheckResult run() {
        List<Event> events = new ArrayList<>();
        Map<Long, Boolean> pairDone = new HashMap<>();
        h.forEachFinalWrite((w, k, seq) -> {
            long p = History.pair(w, k);
            writesLeft.merge((long) w, 1, Integer::sum);
            events.add(new Event() {
                @Override
                public boolean enabled() {
                    return true;
                }

                @Override
                public void emit() {
                    for (int s = 1; s <= seq; s++) {
                        buffers[source(k)].write(h.txnId(w), h.key(k), s);
                    }
                    pairDone.put(p, true);
                    writesLeft.merge((long) w, -1, Integer::sum);
                }
            });
        });
        for (int r = 0; r < h.readCount(); r++) {
            int read = r;
            int reader = h.readReader(r);
            int writer = h.readWriter(r);
            int k = h.readKey(r);
            readsLeft.merge(reader, 1, Integer::sum);
            readsOfVersion.merge(History.pair(writer, k), 1, Integer::sum);
            boolean needsWrite = writer != History.INITIAL && h.finalWriteSeq(writer, k) > 0;
            events.add(new Event() {
                @Override
                public boolean enabled() {
                    return !needsWrite || pairDone.containsKey(History.pair(writer, k));
                }

                @Override
                public void emit() {
                    buffers[source(k)].read(h.txnId(reader), h.key(k), h.txnId(writer), h.readWriteSeq(read));
                    readsLeft.merge(reader, -1, Integer::sum);
                    readsOfVersion.merge(History.pair(writer, k), -1, Integer::sum);
                }
            });
        }
        for (int t = 1; t < h.txnCount(); t++) {
            if (h.status(t) == TxnStatus.UNFINISHED) {
                continue;
            }
            int txn = t;
            events.add(new Event() {
                @Override
                public boolean enabled() {
                    return writesLeft.getOrDefault((long) txn, 0) == 0 && readsLeft.getOrDefault(txn, 0) == 0;
                }

                @Override
                public void emit() {
                    buffers[0].outcome(h.txnId(txn), h.committed(txn), h.type(txn));
                    outcomeDone[txn] = true;
                }
            });
        }
        for (int k = 0; k < h.keyCount(); k++) {
            List<Integer> order = new ArrayList<>();
            order.add(History.INITIAL);
            for (int i = 0; i < h.versionOrderLength(k); i++) {
                int w = h.versionOrderAt(k, i);
                if (w != History.INITIAL && h.committed(w)) {
                    order.add(w);
                }
            }
            int key = k;
            for (int i = 1; i < order.size(); i++) {
                int pos = i;
                int w = order.get(i);
                int prev = order.get(i - 1);
                events.add(new Event() {
                    @Override
                    public boolean enabled() {
                        return finalsDone[key] == pos - 1 && outcomeDone[w]
                                && readsOfVersion.getOrDefault(History.pair(prev, key), 0) == 0;
                    }

                    @Override
                    public void emit() {
                        buffers[source(key)].finalVersion(h.key(key), h.txnId(w), h.finalWriteSeq(w, key));
                        finalsDone[key] = pos;
                    }
                });
            }
        }
        while (!events.isEmpty()) {
            int start = rnd.nextInt(events.size());
            int i = start;
            while (!events.get(i).enabled()) {
                i = (i + 1) % events.size();
                if (i == start) {
                    throw new IllegalStateException("no event can be emitted: the history breaks the protocol");
                }
            }
            Event e = events.get(i);
            events.set(i, events.get(events.size() - 1));
            events.remove(events.size() - 1);
            e.emit();
            if (rnd.nextDouble() < handOverChance) {
                handOver(rnd.nextInt(buffers.length));
            }
            if (rnd.nextDouble() < pruneChance) {
                checker.prune();
                if (mirror != null) {
                    mirror.pass();
                }
            }
        }
        for (int s = 0; s < buffers.length; s++) {
            handOver(s);
        }
        return checker.finish();
    }

    private void handOver(int s) {
        checker.add(s, buffers[s]);
        if (mirror != null) {
            HistoryLog l = buffers[s];
            mirror.handOver(s, () -> l);
        }
        buffers[s] = new HistoryLog();
    }
}
