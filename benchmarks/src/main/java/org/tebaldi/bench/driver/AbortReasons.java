package org.tebaldi.bench.driver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * Aborted attempts counted by cause, so a user sees why a tree aborts (lock timeouts, write-write conflicts, pivot
 * batches, ...). Causes are normalized: keys, transaction ids and numbers are blanked, e.g. {@code "lock wait
 * timeout on t3[1, 2] after 100 ms at 2pl node 0"} becomes {@code "lock wait timeout on t#[..] after # ms at 2pl
 * node #"}. Thread-safe and cheap (called on abort only).
 */
public final class AbortReasons {
    private static final Pattern BRACKETS = Pattern.compile("\\[[^\\]]*\\]");
    private static final Pattern TXN = Pattern.compile("\\bT\\d+\\.\\d+\\b");
    /** Numbers, but not the digits of a mechanism name such as {@code 2pl}. */
    private static final Pattern NUMBER = Pattern.compile("\\d+(?![a-z])");
    private static final int MAX_CATEGORIES = 200;

    private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** The category of an abort message. */
    static String category(String message) {
        if (message == null || message.isBlank()) {
            return "(no reason given)";
        }
        String s = BRACKETS.matcher(message).replaceAll("[..]");
        s = TXN.matcher(s).replaceAll("T#");
        return NUMBER.matcher(s).replaceAll("#");
    }

    /** Counts one abort with that message. */
    void add(String message) {
        String c = category(message);
        LongAdder a = counts.get(c);
        if (a == null) {
            if (counts.size() >= MAX_CATEGORIES) {
                c = "(other)";
            }
            a = counts.computeIfAbsent(c, x -> new LongAdder());
        }
        a.increment();
    }

    /** Counts by category, most frequent first. */
    Map<String, Long> snapshot() {
        Map<String, Long> out = new LinkedHashMap<>();
        counts.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue().sum()))
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
