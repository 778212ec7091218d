package org.tebaldi.bench.config;

import java.util.Collection;
import java.util.Locale;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** "Did you mean" hints for misspelt keys and names in experiment files (Levenshtein distance, commons-text). */
public final class Suggest {
    private Suggest() {
    }

    /**
     * The candidate closest to {@code word}, case ignored, if it is close enough: one edit for words of up to three
     * letters, else two edits or a third of the word's length, whichever is more.
     *
     * @return {@code " (did you mean 'x'?)"}, or the empty string if no candidate is close enough
     */
    public static String didYouMean(String word, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String w = word.toLowerCase(Locale.ROOT);
        for (String c : candidates) {
            int d = LevenshteinDistance.getDefaultInstance().apply(w, c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        int limit = word.length() <= 3 ? 1 : Math.max(2, word.length() / 3);
        return best != null && bestDistance <= limit && !best.equals(word) ? " (did you mean '" + best + "'?)" : "";
    }
}
