package org.tebaldi.core.tree;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" hints for misspelt names in tree files: the closest candidate by edit distance. */
final class Suggest {
    private Suggest() {
    }

    /**
     * @return {@code " (did you mean 'x'?)"} for the candidate closest to {@code word} if it is within a third of
     *         the word's length (at least 1 edit, case ignored), else the empty string
     */
    static String didYouMean(String word, Collection<String> candidates) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        String w = word.toLowerCase(Locale.ROOT);
        for (String c : candidates) {
            int d = distance(w, c.toLowerCase(Locale.ROOT));
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        int limit = Math.max(1, word.length() / 3);
        return best != null && bestD <= limit && !best.equals(word) ? " (did you mean '" + best + "'?)" : "";
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
