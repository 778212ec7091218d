package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.tree.LoadedTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;

/**
 * Resolves an experiment's {@code tree:} value: a path (relative to the experiment file's folder; relative to the
 * working directory when it comes from {@code --set tree=...}) or an inline tree mapping, then loads and validates
 * the tree against the workload's database with {@link TreeLoader} (whose {@link ConfigException}s pass through).
 */
final class TreeResolver {
    private TreeResolver() {
    }

    /** A resolved reference and the loaded tree. */
    record Resolved(TreeRef ref, LoadedTree tree) {
    }

    /**
     * @param value     the {@code tree} value (present)
     * @param experimentDir folder of the experiment file
     * @param cwd       working directory, for overrides
     * @throws ConfigException if the value is neither text nor a mapping, the file is missing, or the tree is bad
     */
    static Resolved resolve(JsonNode value, Locator loc, Path experimentDir, Path cwd, Database db) {
        TreeContext ctx = TreeContext.of(db);
        if (value.isObject()) {
            LoadedTree t = TreeLoader.readJson(value, loc.file() + " (tree)", ctx);
            return new Resolved(new TreeRef(null, value), t);
        }
        if (!value.isTextual() || value.textValue().isBlank()) {
            throw loc.error("tree", "expected a tree file path or an inline tree mapping, found "
                    + Values.describe(value), "write e.g. tree: ../trees/2pl.yaml");
        }
        Fields.checkPath(loc, "tree", value.textValue(), "../trees/2pl.yaml");
        boolean fromSet = loc.overridden("tree");
        Path base = fromSet ? cwd : experimentDir;
        Path file = base.resolve(value.textValue()).normalize();
        if (!Files.isRegularFile(file)) {
            String relativeTo = fromSet ? "the working directory (" + cwd.toAbsolutePath().normalize() + ")"
                    : "the experiment file's folder (" + experimentDir.toAbsolutePath().normalize() + ")";
            throw loc.error("tree", "tree file '" + value.textValue() + "' not found (looked for "
                    + file.toAbsolutePath() + ")", "give a path relative to " + relativeTo
                    + ", or write the tree inline");
        }
        return new Resolved(new TreeRef(file, null), TreeLoader.read(file, ctx));
    }
}
