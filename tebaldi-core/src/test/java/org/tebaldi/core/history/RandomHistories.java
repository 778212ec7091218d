package org.tebaldi.core.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.txn.TxnIds;

/**
 * Random histories of a multiversion store without concurrency control, so that many contain anomalies: batches
 * of up to four concurrent transactions read the latest committed version of a key, sometimes an older one (rw
 * edges back in time, cycles that span many chunks), sometimes a batch-mate's uncommitted write (aborted and
 * intermediate reads), and write; each commits, aborts or never finishes; committed versions join their key's
 * order in a random commit order.
 */
final class RandomHistories {
    private RandomHistories() {
    }

    /** Two logs (data server, coordinator) of {@code txns} transactions over {@code keys} keys. */
    static List<HistoryLog> generate(long seed, int txns, int keys) {
        Random rnd = new Random(seed);
        HistoryLog ds = new HistoryLog();
        HistoryLog tc = new HistoryLog();
        Map<Integer, List<long[]>> versions = new HashMap<>();
        int made = 0;
        long seq = 0;
        while (made < txns) {
            int batch = 1 + rnd.nextInt(4);
            List<Long> ids = new ArrayList<>();
            Map<Long, Map<Integer, Integer>> writes = new HashMap<>();
            for (int b = 0; b < batch; b++) {
                long id = TxnIds.make(rnd.nextInt(3), ++seq);
                ids.add(id);
                writes.put(id, new HashMap<>());
            }
            for (long id : ids) {
                int ops = 1 + rnd.nextInt(4);
                for (int o = 0; o < ops; o++) {
                    int k = rnd.nextInt(keys);
                    Key key = Key.of(1, k);
                    if (rnd.nextBoolean()) {
                        int s = writes.get(id).merge(k, 1, Integer::sum);
                        ds.write(id, key, s);
                        continue;
                    }
                    List<long[]> vs = versions.getOrDefault(k, List.of());
                    double p = rnd.nextDouble();
                    long mate = ids.get(rnd.nextInt(ids.size()));
                    Integer mateSeq = writes.get(mate).get(k);
                    if (p < 0.06 && mate != id && mateSeq != null) {
                        ds.read(id, key, mate, 1 + rnd.nextInt(mateSeq));
                    } else if (vs.isEmpty()) {
                        ds.read(id, key, 0L, 1);
                    } else if (p < 0.2) {
                        int at = rnd.nextInt(vs.size() + 1);
                        long[] v = at == 0 ? new long[] {0L, 1} : vs.get(at - 1);
                        ds.read(id, key, v[0], (int) v[1]);
                    } else {
                        long[] v = vs.get(vs.size() - 1);
                        ds.read(id, key, v[0], (int) v[1]);
                    }
                }
            }
            List<Long> order = new ArrayList<>(ids);
            Collections.shuffle(order, rnd);
            for (long id : order) {
                double p = rnd.nextDouble();
                if (p < 0.85) {
                    tc.outcome(id, true, "T" + (id % 3));
                    writes.get(id).forEach((k, s) -> versions.computeIfAbsent(k, x -> new ArrayList<>())
                            .add(new long[] {id, s}));
                } else if (p < 0.97) {
                    tc.outcome(id, false, "T" + (id % 3));
                }
            }
            made += batch;
        }
        versions.forEach((k, vs) -> {
            long[] order = new long[vs.size() + 1];
            for (int i = 0; i < vs.size(); i++) {
                order[i + 1] = vs.get(i)[0];
            }
            ds.versionOrder(Key.of(1, k), order);
        });
        return List.of(ds, tc);
    }
}
