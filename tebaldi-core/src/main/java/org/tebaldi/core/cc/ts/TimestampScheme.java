package org.tebaldi.core.cc.ts;

import java.util.Arrays;
import java.util.Locale;
import org.tebaldi.core.tree.CcNode;

/**
 * Where a tree node's timestamps come from (the timestamp-scheme SPI), chosen per node with {@code
 * options: {timestamps: gts|dst}}:
 * <ul>
 *   <li>{@link #GTS} — the central timestamp service ({@link org.tebaldi.core.service.TimestampService}, one
 *       request per timestamp, batching and watermarks through it; the default and the path every mechanism took
 *       before the SPI);</li>
 *   <li>{@link #DST} — decentralized scalar timestamps (NSDI 2021): a {@link HybridClock} per node, commit
 *       timestamps derived from the timestamps of the tuples a transaction accessed (RW1) and installed into them
 *       at commit (RW2), read-only snapshots at a local timestamp (RO1) claimed on each tuple before reading
 *       (RO2); no timestamp-service message.</li>
 * </ul>
 * A mechanism reads its node's scheme with {@link #of} and makes its source with {@link TimestampSources#of}.
 */
public enum TimestampScheme {
    /** The central timestamp service. */
    GTS,
    /** Decentralized scalar timestamps piggybacked on the CC's own conflicts. */
    DST;

    /** The option's name in tree files. */
    public static final String OPTION = "timestamps";

    /** The name used in tree files. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The scheme chosen at {@code node} ({@link #GTS} when the option is absent).
     *
     * @throws IllegalArgumentException for an unknown value, with the values allowed
     */
    public static TimestampScheme of(CcNode node) {
        String v = node.option(OPTION, "gts");
        for (TimestampScheme s : values()) {
            if (s.optionValue().equals(v)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown timestamp scheme '" + v + "' (allowed: "
                + String.join(", ", Arrays.stream(values()).map(TimestampScheme::optionValue).toList()) + ")");
    }

    /**
     * The option check of a mechanism that takes no timestamp from any scheme (lease-based mechanisms compute commit
     * timestamps from the leases of the records a transaction accessed; no timestamp service, no clock): null if
     * the node does not set {@code timestamps}, else one message naming the mechanism, {@code why} and the fix.
     */
    public static String unused(CcNode node, String mechanism, String why) {
        if (!node.options().containsKey(OPTION)) {
            return null;
        }
        return "option '" + OPTION + "': " + mechanism + " takes no timestamps from gts or dst: " + why
                + " (remove the option; it sends 0 timestamp-service messages either way)";
    }

    /** The option check for {@code checkOptions}: null if fine, else {@code "option 'timestamps': ..."}. */
    public static String problem(CcNode node) {
        try {
            of(node);
            return null;
        } catch (IllegalArgumentException e) {
            return "option '" + OPTION + "': " + e.getMessage();
        }
    }
}
