package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.bench.config.Suggest;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.LoadedTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.core.tree.TreeValidator;

/**
 * The experiment key {@code treeOptions: {<mechanism>: {<option>: value, ...}, ...}} (docs/experiments.md, "Writing an
 * experiment"): options set on <em>every</em> node of that mechanism in the experiment's tree, over the tree file's
 * own — e.g. {@code treeOptions: {2pl: {deadlock: timeout, lockTimeout: 100ms}}} makes every 2PL node of any tree
 * break dead-locks by time-out only (dissertation §4.4.1: "Any deadlocks are handled by timing out transactions"),
 * whatever the tree files say. A mechanism without a node in the tree is left alone, but its options are still
 * checked (by the mechanism, {@link Mechanism#checkOptions}), so a profile's bad value is reported on any tree.
 * Option values are scalars (text, numbers, booleans), as in a tree file.
 */
final class TreeOptions {
    private TreeOptions() {
    }

    /**
     * Reads and checks {@code treeOptions} (absent: empty).
     *
     * @return options by mechanism, in file order
     * @throws ConfigException for a non-mapping, an unknown mechanism, a non-scalar value, or options the mechanism
     *                         rejects
     */
    static Map<String, Map<String, Object>> read(Fields top) {
        JsonNode t = top.node().get("treeOptions");
        if (t == null) {
            return Map.of();
        }
        if (!t.isObject()) {
            throw top.error("treeOptions", "expected a mapping of mechanism to options, found " + Values.describe(t),
                    "write e.g. treeOptions: {2pl: {deadlock: timeout, lockTimeout: 100ms}}");
        }
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String m = e.getKey();
            String place = "treeOptions." + m;
            Mechanism mech = Mechanisms.all().get(m);
            if (mech == null) {
                throw top.error(place, "unknown mechanism '" + m + "'" + Suggest.didYouMean(m,
                        Mechanisms.all().keySet()), "use one of " + String.join(", ", Mechanisms.all().keySet()));
            }
            if (!e.getValue().isObject()) {
                throw top.error(place, "expected the options of every " + m + " node as a mapping, found "
                        + Values.describe(e.getValue()), "write e.g. treeOptions: {" + m + ": {option: value}}");
            }
            Map<String, Object> opts = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> o = e.getValue().fields(); o.hasNext(); ) {
                Map.Entry<String, JsonNode> f = o.next();
                Object v = scalar(f.getValue());
                if (v == null) {
                    throw top.error(place + "." + f.getKey(), "expected a value (text, number or boolean), found "
                            + Values.describe(f.getValue()), "write e.g. " + f.getKey() + ": 100ms");
                }
                opts.put(f.getKey(), v);
            }
            TreeSpec probe = TreeSpec.leaf(m, "t");
            probe.options.putAll(opts);
            List<String> problems = mech.checkOptions(CcTree.build(probe, "<treeOptions>").root());
            if (problems != null && !problems.isEmpty()) {
                throw top.error(optionPlace(place, problems.get(0), opts), problems.get(0), "fix the value, or remove "
                        + "it to keep the tree files' options");
            }
            out.put(m, Collections.unmodifiableMap(opts));
        }
        return Collections.unmodifiableMap(out);
    }

    /** {@code treeOptions.<m>.<option>} if the problem names one of the given options, else {@code at}. */
    private static String optionPlace(String at, String problem, Map<String, Object> opts) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^option '([^']+)'").matcher(problem);
        return m.find() && opts.containsKey(m.group(1)) ? at + "." + m.group(1) : at;
    }

    private static Object scalar(JsonNode v) {
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.longValue();
        }
        if (v.isFloatingPointNumber()) {
            return v.doubleValue();
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        return null;
    }

    /**
     * {@code tree} with {@code options} set on every node of each named mechanism (validated again as a whole).
     *
     * @throws ConfigException at {@code treeOptions.<mechanism>} if the tree rejects the options
     */
    static LoadedTree apply(Map<String, Map<String, Object>> options, LoadedTree tree, TreeContext ctx, Fields top) {
        if (options.isEmpty() || tree == null) {
            return tree;
        }
        TreeSpec spec = tree.tree().activeSpec();
        for (Map.Entry<String, Map<String, Object>> e : options.entrySet()) {
            set(spec, e.getKey(), e.getValue());
            try {
                TreeValidator.validate(spec.copy(), tree.tree().source(), ctx);
            } catch (ConfigException x) {
                throw top.error("treeOptions." + e.getKey(), x.problem(), "fix the value, or remove it to keep the "
                        + "tree files' options");
            }
        }
        return TreeValidator.validate(spec, tree.tree().source(), ctx);
    }

    private static void set(TreeSpec s, String mechanism, Map<String, Object> options) {
        if (s.cc.equals(mechanism)) {
            s.options.putAll(options);
        }
        for (TreeSpec c : s.children) {
            set(c, mechanism, options);
        }
    }
}
