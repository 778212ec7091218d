package org.tebaldi.core.cc;

import java.util.List;

/**
 * Capability of a {@link Mechanism} whose parts report counters: it labels them, so run reports and {@code
 * summary.json} show them without naming the mechanism (docs/architecture.md, "Adding a mechanism"). Found once
 * in the registry ({@link Mechanisms#counterGroups()}).
 */
public interface LabelledCounters {
    /** The groups of counters this mechanism's parts report; each group's key unique among all mechanisms. */
    List<CounterGroup> counterGroups();
}
