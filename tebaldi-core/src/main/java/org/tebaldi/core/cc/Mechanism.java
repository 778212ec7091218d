package org.tebaldi.core.cc;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.tebaldi.core.runtime.Actor;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.tree.CcNode;

/**
 * A concurrency-control mechanism usable as a node of a CC tree (dissertation §4.3–4.4): a factory for its TC
 * and DS parts. Implementations live in tebaldi-cc, one package each, and register through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/org.tebaldi.core.cc.Mechanism}).
 */
public interface Mechanism {
    /** The name used in tree files, e.g. {@code 2pl}. */
    String name();

    /** Problems with the node's options, each like {@code "option 'lockTimeout': ..."}; empty if fine. */
    default List<String> checkOptions(CcNode node) {
        return List.of();
    }

    /**
     * CC-specific preprocessing of a candidate configuration (dissertation §5.4.2): checks this mechanism can run at
     * {@code node} over its subtree's transaction types (e.g. runtime pipelining's static analysis must succeed).
     *
     * @throws IllegalArgumentException with the reason, if it cannot
     */
    default void preprocess(CcNode node, org.tebaldi.core.db.Database db) {
    }

    /**
     * Inputs of the leaf's transaction types that separate instances unlikely to conflict — candidates for
     * partition-by-instance ({@code instanceBy}, §5.4.2); empty if the mechanism does not benefit from it.
     */
    default List<String> instanceInputs(CcNode leaf, org.tebaldi.core.db.Database db) {
        return List.of();
    }

    /**
     * Whether an inner node of this mechanism can take a new child group while it runs — the online update's
     * requirement on the parent of the replaced subtree (dissertation §5.5.2): transactions of the old subtree and
     * of its replacement then conflict only at this node, which must regulate them like any two of its groups,
     * with no state to rebuild. False by default (e.g. SSI's root optimization allows one update group, runtime
     * pipelining's static analysis covers fixed groups); the online update then moves one level up.
     */
    default boolean acceptsNewChildren(CcNode node) {
        return false;
    }

    /**
     * Whether this mechanism regulates nothing and may hold only read-only transaction types, as a leaf ({@code
     * none}): tree validation refuses an update type in such a leaf, and random trees place only read-only groups
     * there. False by default.
     */
    default boolean readOnlyLeaf() {
        return false;
    }

    /**
     * Whether this mechanism runs efficiently at {@code node} of its tree over {@code db}'s types — the
     * auto-configurator's filter (dissertation §5.4.1) keeps only candidates whose every node is efficient. True by
     * default; e.g. SSI is efficient only where its root optimization applies (at most one update group under the
     * root), elsewhere it must batch.
     */
    default boolean efficientAt(CcNode node, org.tebaldi.core.db.Database db) {
        return true;
    }

    /** Properties a mechanism declares, for framework tools that must not name mechanisms (random trees). */
    enum Property {
        /**
         * Keeps several versions per record and hands out timestamped snapshots (e.g. SSI, TSO): DST snapshots at
         * an SSI root are refused above one (docs/mechanisms.md, "DST").
         */
        MULTIVERSION
    }

    /** The properties this mechanism declares. Empty by default. */
    default java.util.Set<Property> properties() {
        return java.util.Set.of();
    }

    /**
     * The options random trees set or draw on this mechanism's nodes, in order (short timeouts and batch intervals
     * keep simulated runs brisk; flavours such as 2PL's deadlock handling are drawn). Empty by default.
     */
    default List<OptionDraw> randomOptions() {
        return List.of();
    }

    /** The TC part of {@code node} at one coordinator. */
    TcPart<?> tcPart(CcNode node, TcServices services);

    /** The DS part of {@code node} at one data server. */
    DsPart<?> dsPart(CcNode node, DsServices services);

    /**
     * Service nodes this mechanism needs (e.g. the timestamp service for SSI and TSO, the batch manager for SSI),
     * by role, each with the factory of its actor. A cluster starts one actor per role used by any node of its
     * tree; when two mechanisms declare the same role they must declare the same actor class.
     */
    default Map<Role, Supplier<Actor>> services() {
        return Map.of();
    }

    /**
     * The service nodes this mechanism needs when it runs at {@code node}: {@link #services()} unless the node's
     * options make some unnecessary (e.g. {@code ssi} with {@code timestamps: dst} needs neither the timestamp
     * service nor the batch manager). The cluster asks this for every node of its tree.
     */
    default Map<Role, Supplier<Actor>> services(CcNode node) {
        return services();
    }
}
