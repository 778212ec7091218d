package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;

/**
 * Where an experiment's CC tree came from: a file (relative paths resolved against the experiment file's folder,
 * or the working directory for {@code --set tree=...}) or an inline mapping. Exactly one is non-null.
 *
 * @param file   the tree file, normalized
 * @param inline the inline tree mapping
 */
public record TreeRef(Path file, JsonNode inline) {
    /** A short description: the file path, or {@code inline}. */
    public String describe() {
        return file != null ? file.toString() : "inline";
    }
}
