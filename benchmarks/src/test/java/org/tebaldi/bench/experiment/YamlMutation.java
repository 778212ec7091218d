package org.tebaldi.bench.experiment;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * One way of damaging a YAML file, for the property-based fuzz tests of tree and experiment files: deleted,
 * duplicated or swapped lines, renamed keys, values of the wrong type, huge numbers, negative durations, unknown
 * mechanisms, wrong indentation, truncation, random unicode, empty files, YAML anchor/alias bombs, tags, and
 * references to the wrong file. {@link #apply} is deterministic, so jqwik shrinks a failing case to a small one.
 *
 * @param kind  what to do
 * @param at    where (an index reduced modulo the lines or characters of the file)
 * @param other a second index (the other line of a swap, the indentation change, the cut length)
 * @param text  what to put in (a junk value or random text)
 */
record YamlMutation(Kind kind, int at, int other, String text) {
    enum Kind { DELETE_LINE, DUPLICATE_LINE, SWAP_LINES, RENAME_KEY, REPLACE_VALUE, REINDENT, TRUNCATE, INSERT_TEXT,
        REPLACE_ALL, EMPTY, ALIAS_BOMB, APPEND_KEY }

    /** Values of the wrong type or range, syntax fragments, unknown names and references. */
    static final List<String> JUNK = List.of("[1, 2]", "{a: 1}", "abc", "-1", "0", "1.5", "-0.0",
            "99999999999999999999999999999999", "1e309", "-1e309", "NaN", ".inf", "-5s", "0s", "-1ms", "1.5.3s",
            "99999999999999h", "9223372036854775807us", "2147483648", "true", "null", "~", "''", "\"\"",
            "\"\\u0000\"", "&a x", "*a", "*undefined", "!!binary AAAA", "!!java.lang.Object {}", "!foo bar",
            "2p1", "unknown-mechanism", "SSI", "-", ": :", "[", "{", "'", "\"", "\t", "|", ">", "? x", "---", "...",
            "%YAML 1.1", "@x", "`x`", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓", "\u0000", "\uFEFF", "\u202E", "é", "../trees/missing.yaml",
            "../experiments/bank-2pl.yaml", "../trees", "/", ".", "/dev/zero", "x.yaml", "[../trees/2pl.yaml, [x]]",
            "{cc: 2pl, txns: [x]}", "[]", "{}");

    /** Every mutation kind with junk or random text (unicode included). */
    static Arbitrary<YamlMutation> any() {
        Arbitrary<String> text = Arbitraries.oneOf(Arbitraries.of(JUNK),
                Arbitraries.strings().all().ofMaxLength(12),
                Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz_").ofMinLength(1).ofMaxLength(12));
        return Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.integers().between(0, 10_000),
                Arbitraries.integers().between(0, 10_000), text).as(YamlMutation::new);
    }

    /** The damaged text. */
    String apply(String yaml) {
        List<String> lines = new ArrayList<>(List.of(yaml.split("\n", -1)));
        int n = lines.size();
        int i = at % n;
        switch (kind) {
            case DELETE_LINE:
                lines.remove(i);
                return String.join("\n", lines);
            case DUPLICATE_LINE:
                lines.add(i, lines.get(i));
                return String.join("\n", lines);
            case SWAP_LINES: {
                int j = other % n;
                String s = lines.get(i);
                lines.set(i, lines.get(j));
                lines.set(j, s);
                return String.join("\n", lines);
            }
            case RENAME_KEY: {
                String l = lines.get(i);
                int colon = l.indexOf(':');
                if (colon < 0) {
                    return yaml;
                }
                int start = 0;
                while (start < colon && (l.charAt(start) == ' ' || l.charAt(start) == '-')) {
                    start++;
                }
                lines.set(i, l.substring(0, start) + text + l.substring(colon));
                return String.join("\n", lines);
            }
            case REPLACE_VALUE: {
                String l = lines.get(i);
                int colon = l.indexOf(": ");
                lines.set(i, colon < 0 ? l + " " + text : l.substring(0, colon + 2) + text);
                return String.join("\n", lines);
            }
            case REINDENT: {
                String l = lines.get(i);
                int d = other % 7 - 3;
                if (d > 0) {
                    l = " ".repeat(d) + l;
                } else if (d < 0) {
                    l = l.substring(Math.min(-d, l.length() - l.stripLeading().length()));
                } else {
                    l = "\t" + l;
                }
                lines.set(i, l);
                return String.join("\n", lines);
            }
            case TRUNCATE:
                return yaml.substring(0, at % (yaml.length() + 1));
            case INSERT_TEXT: {
                int p = at % (yaml.length() + 1);
                return yaml.substring(0, p) + text + yaml.substring(p);
            }
            case REPLACE_ALL:
                return text;
            case EMPTY:
                return List.of("", " ", "\n\n", "# nothing\n", "---\n", "~\n", "---\n...\n").get(other % 7);
            case ALIAS_BOMB: { // "billion laughs": one value of nested anchors, 10^10 leaves if expanded
                StringBuilder b = new StringBuilder("[&a0 [x, x, x, x, x, x, x, x, x, x]");
                for (int k = 1; k < 10; k++) {
                    b.append(", &a").append(k).append(" [");
                    for (int r = 0; r < 10; r++) {
                        b.append(r == 0 ? "" : ", ").append("*a").append(k - 1);
                    }
                    b.append(']');
                }
                b.append(']');
                int line = i;
                for (int k = 0; k < n && (!lines.get(line).contains(": ") || lines.get(line).strip().startsWith("#")); k++) {
                    line = (line + 1) % n;
                }
                String l = lines.get(line);
                int colon = l.indexOf(": ");
                lines.set(line, colon < 0 ? l + ": " + b : l.substring(0, colon + 2) + b);
                return String.join("\n", lines);
            }
            case APPEND_KEY:
                return yaml + "\n" + text + ": " + JUNK.get(other % JUNK.size()) + "\n";
            default:
                throw new IllegalStateException(kind.toString());
        }
    }
}
