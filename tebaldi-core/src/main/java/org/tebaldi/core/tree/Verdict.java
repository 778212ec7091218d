package org.tebaldi.core.tree;

import java.util.Locale;

/**
 * Whether one mechanism may be the parent of another in a CC tree (dissertation §4.3.2: a parent may need
 * dependency reports at phases where a child cannot give them). Written in lower case in
 * {@code composability.yaml}.
 */
public enum Verdict {
    /** The pair works as parent and child; the tree loads silently. */
    ALLOWED,
    /** The pair is correct but slow (waiting, batching); the tree loads with a warning. */
    INEFFICIENT,
    /** The pair cannot enforce consistent ordering together; the tree is rejected. */
    FORBIDDEN;

    /** The word used in the rules file: {@code allowed}, {@code inefficient} or {@code forbidden}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a rules-file word (case ignored).
     *
     * @return the verdict, or null if {@code word} is none of the three
     */
    public static Verdict parse(String word) {
        for (Verdict v : values()) {
            if (v.word().equalsIgnoreCase(word)) {
                return v;
            }
        }
        return null;
    }
}
