package org.tebaldi.cc.sundial;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.OptionDraw;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.config.Durations;
import org.tebaldi.core.tree.CcNode;

/**
 * Sundial (Yu, Xia, Pavlo, Sanchez, Rudolph and Devadas, VLDB 2018) as a CC-tree leaf: logical leases {@code [wts,
 * rts]} per record; write-write conflicts by Wait-Die exclusive locks taken during execution, read-write conflicts
 * optimistically — reads never wait and a transaction commits at a logical timestamp inside the lease of every
 * record it accessed, renewing leases in the prepare phase ({@link SundialDsPart}, {@link SundialTcPart}); and
 * optionally the coordinator's cache of remote reads with its policies (§4) and table-level leases for read-only
 * tables (§4.3). Needs no service.
 *
 * <p>Options: {@code lockTimeout} (duration, default 100ms; an older transaction's wait for a lock aborts after
 * this long); {@code cache}: {@code off} (default), {@code always-reuse}, {@code always-request} or {@code hybrid}
 * — allowed only when this leaf is the whole tree, since every other level must see each read at its data server;
 * {@code cacheSize} (entries per coordinator, default 100000); {@code cacheThreshold} (the hybrid policy's share of
 * votes for the cache above which it reuses, default 0.8); {@code tableLeases} (boolean, default: on with the
 * cache; also only on a one-node tree). Leaf only (docs/mechanisms.md, "TicToc and Sundial"); {@code instanceBy} is
 * refused.
 */
public final class Sundial implements Mechanism, org.tebaldi.core.cc.LabelledCounters {
    /** Default lock-wait timeout, µs. */
    public static final long DEFAULT_LOCK_TIMEOUT_MICROS = 100_000;
    /** Default cache capacity, entries per coordinator. */
    public static final int DEFAULT_CACHE_SIZE = 100_000;
    /** Default threshold of the hybrid caching policy (Sundial §4.2). */
    public static final double DEFAULT_THRESHOLD = 0.8;
    private static final List<String> OPTIONS = List.of("lockTimeout", "cache", "cacheSize", "cacheThreshold",
            "tableLeases");
    private static final List<String> POLICIES = List.of("off", "always-reuse", "always-request", "hybrid");

    @Override
    public String name() {
        return "sundial";
    }

    /** Random trees: a 20 ms lock timeout, and a caching policy drawn for a leaf that is the whole tree. */
    @Override
    public List<OptionDraw> randomOptions() {
        return List.of(OptionDraw.fixed("lockTimeout", "20ms", OptionDraw.Scope.EVERY_NODE),
                OptionDraw.drawn("cache", OptionDraw.Scope.WHOLE_TREE, false, POLICIES.toArray(new String[0])));
    }

    /**
     * The coordinators' cache of remote reads (§4), {@code summary.json} key {@code cache}: lookups of plain reads,
     * hits (the key was cached), reads served from the cache, renewals of cached reads' leases and how many failed;
     * {@code hitRate = hits / lookups}, {@code servedRate = served / lookups} ({@link RemoteCache#counters}).
     */
    @Override
    public List<org.tebaldi.core.cc.CounterGroup> counterGroups() {
        return List.of(new org.tebaldi.core.cc.CounterGroup("cache", "cache of remote reads", RemoteCache.PREFIX,
                List.of("lookups", "hits", "served", "renewals", "renewalFailures"), List.of(
                        new org.tebaldi.core.cc.CounterGroup.Rate("hitRate", "hits", "lookups"),
                        new org.tebaldi.core.cc.CounterGroup.Rate("servedRate", "served", "lookups"))));
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        String ts = org.tebaldi.core.cc.ts.TimestampScheme.unused(node, "sundial",
                "it computes each commit timestamp from the leases of the records the transaction accessed and "
                        + "extends leases on demand (Yu et al., VLDB 2018, §3), so it needs neither a service nor a clock");
        if (ts != null) {
            problems.add(ts);
        }
        for (String k : node.options().keySet()) {
            if (k.equals(org.tebaldi.core.cc.ts.TimestampScheme.OPTION)) {
                continue;
            }
            if (!OPTIONS.contains(k)) {
                problems.add("option '" + k + "' is unknown to sundial (options: " + String.join(", ", OPTIONS) + ")");
            }
        }
        try {
            if (node.durationOption("lockTimeout", DEFAULT_LOCK_TIMEOUT_MICROS) <= 0) {
                problems.add("option 'lockTimeout' must be positive");
            }
        } catch (IllegalArgumentException e) {
            problems.add("option 'lockTimeout': " + e.getMessage());
        }
        String c = node.option("cache", "off");
        if (!POLICIES.contains(c)) {
            problems.add("option 'cache' must be off, always-reuse, always-request or hybrid, not '" + c + "'");
        }
        boolean whole = node.isRoot() && node.isLeaf();
        if (!c.equals("off") && !whole) {
            problems.add("option 'cache' needs sundial to be the whole tree (one leaf at the root): on a deeper path"
                    + " every other level must see each read at its data server");
        }
        try {
            long n = node.longOption("cacheSize", DEFAULT_CACHE_SIZE);
            if (n < 1 || n > Integer.MAX_VALUE) {
                problems.add("option 'cacheSize' must be 1.." + Integer.MAX_VALUE + " entries, not " + n);
            }
        } catch (NumberFormatException e) {
            problems.add("option 'cacheSize' must be a whole number of entries, not '" + node.option("cacheSize", "")
                    + "'");
        }
        Object th = node.options().get("cacheThreshold");
        if (th != null) {
            double d = Double.NaN;
            try {
                d = Double.parseDouble(String.valueOf(th));
            } catch (NumberFormatException e) {
                // reported below
            }
            if (!(d >= 0 && d <= 1)) {
                problems.add("option 'cacheThreshold' must be a number in [0, 1], not '" + th + "'");
            }
        }
        Object tl = node.options().get("tableLeases");
        if (tl != null && !(tl instanceof Boolean) && !"true".equals(tl) && !"false".equals(tl)) {
            problems.add("option 'tableLeases' must be true or false, not '" + tl + "'");
        } else if (tl != null && node.boolOption("tableLeases", false) && !whole) {
            problems.add("option 'tableLeases' needs sundial to be the whole tree (one leaf at the root)");
        }
        if (node.instanceBy() != null) {
            problems.add("sundial does not partition by instance: remove instanceBy '" + node.instanceBy() + "'");
        }
        return problems;
    }

    private static RemoteCache.Policy policy(CcNode node) {
        return switch (node.option("cache", "off")) {
            case "always-reuse" -> RemoteCache.Policy.ALWAYS_REUSE;
            case "always-request" -> RemoteCache.Policy.ALWAYS_REQUEST;
            case "hybrid" -> RemoteCache.Policy.HYBRID;
            default -> null;
        };
    }

    private static boolean tableLeases(CcNode node) {
        return node.boolOption("tableLeases", policy(node) != null);
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        RemoteCache.Policy p = policy(node);
        RemoteCache cache = p == null ? null : new RemoteCache(p,
                (int) node.longOption("cacheSize", DEFAULT_CACHE_SIZE),
                Double.parseDouble(node.option("cacheThreshold", String.valueOf(DEFAULT_THRESHOLD))));
        return new SundialTcPart(node, services, cache);
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new SundialDsPart(node, services, node.durationOption("lockTimeout", DEFAULT_LOCK_TIMEOUT_MICROS),
                policy(node) != null, tableLeases(node));
    }

    @Override
    public String toString() {
        return name() + " (lock timeout default " + Durations.format(DEFAULT_LOCK_TIMEOUT_MICROS) + ")";
    }
}
