package org.tebaldi.core.tree;

/**
 * One entry of the composability rules: may {@code parent} run as the parent of {@code child}?
 *
 * @param parent  the inner node's mechanism, e.g. {@code rp}
 * @param child   the child's mechanism, e.g. {@code ssi}
 * @param verdict allowed, inefficient (warning) or forbidden (error)
 * @param reason  one line, citing the dissertation, e.g. "... (§4.4.2)"
 * @param fix     what to do instead, or null to let the validator suggest allowed pairs
 * @param line    1-based line of the entry in its rules file, 0 if unknown
 */
public record CompositionRule(String parent, String child, Verdict verdict, String reason, String fix, int line) {
}
