package org.tebaldi.autoconf.profiler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The analysis stage's scoring (dissertation §5.3.2, Fig 5.6): for every blocking event where {@code t_j} waited
 * for {@code t_i}, only the time {@code t_i} was not itself blocked counts towards score(⟨T_i, T_j⟩); while
 * {@code t_i} waited for {@code t_k}, the time goes to ⟨T_k, T_i⟩ instead — recursively, since {@code t_k} may be
 * blocked too (nested-wait attribution, as when profiling multi-threaded programs). A blocker waiting on two
 * transactions at once is charged to the one it started waiting for first. Cycles (deadlocks) stop the recursion:
 * the time is charged to the pair at hand. Scores are in µs.
 */
public final class ContentionScores {
    private final Map<Long, List<BlockingEvent>> byWaiter = new HashMap<>();
    private final Map<TypePair, Long> scores = new LinkedHashMap<>();

    private ContentionScores() {
    }

    /**
     * Scores the {@code counted} events, looking up nested waits among {@code known} (which should include the
     * counted ones and any earlier events still relevant).
     */
    public static ContentionScores of(List<BlockingEvent> counted, List<BlockingEvent> known) {
        ContentionScores s = new ContentionScores();
        for (BlockingEvent e : known) {
            s.byWaiter.computeIfAbsent(e.waiter(), k -> new ArrayList<>()).add(e);
        }
        s.byWaiter.values().forEach(l -> l.sort(Comparator.comparingLong(BlockingEvent::begin)));
        for (BlockingEvent e : counted) {
            Set<Long> visited = new HashSet<>();
            visited.add(e.waiter());
            s.attribute(e.blocker(), e.blockerType(), e.waiterType(), e.begin(), e.end(), visited);
        }
        return s;
    }

    /** Scores the events among themselves. */
    public static ContentionScores of(List<BlockingEvent> events) {
        return of(events, events);
    }

    private void attribute(long blocker, int blockerType, int waiterType, long from, long to, Set<Long> visited) {
        if (to <= from) {
            return;
        }
        long covered = 0;
        long cursor = from;
        List<BlockingEvent> inner = byWaiter.getOrDefault(blocker, List.of());
        for (BlockingEvent f : inner) {
            long s = Math.max(Math.max(f.begin(), from), cursor);
            long e = Math.min(f.end(), to);
            if (e <= s) {
                continue;
            }
            covered += e - s;
            cursor = e;
            if (visited.contains(f.blocker())) {
                add(new TypePair(f.blockerType(), blockerType), e - s);
            } else {
                visited.add(blocker);
                attribute(f.blocker(), f.blockerType(), blockerType, s, e, visited);
                visited.remove(blocker);
            }
        }
        add(new TypePair(blockerType, waiterType), (to - from) - covered);
    }

    private void add(TypePair p, long micros) {
        if (micros > 0) {
            scores.merge(p, micros, Long::sum);
        }
    }

    /** score(⟨blocker, waiter⟩) in µs for every ordered pair with time charged. */
    public Map<TypePair, Long> pairs() {
        return scores;
    }

    /** The score of one ordered pair, µs. */
    public long score(int blockerType, int waiterType) {
        return scores.getOrDefault(new TypePair(blockerType, waiterType), 0L);
    }

    /** Conflict-edge scores (both orders summed; a self edge counted once), highest first. */
    public Map<ConflictEdge, Long> edges() {
        Map<ConflictEdge, Long> e = new HashMap<>();
        scores.forEach((p, v) -> e.merge(p.edge(), v, Long::sum));
        Map<ConflictEdge, Long> sorted = new LinkedHashMap<>();
        e.entrySet().stream().sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
                .forEach(x -> sorted.put(x.getKey(), x.getValue()));
        return sorted;
    }

    /** The bottleneck: the conflict edge with the highest score, or null if nothing blocked. */
    public ConflictEdge bottleneck() {
        return edges().keySet().stream().findFirst().orElse(null);
    }
}
