package org.tebaldi.core.tree;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.tebaldi.core.config.ConfigException;

/**
 * Loads CC trees from YAML (docs/trees.md) and writes them back. A tree document is a mapping with the single key
 * {@code root} holding the root node, or the root node mapping itself; a node has {@code cc} (mechanism),
 * optional {@code name} and {@code options}, and either {@code children} (inner node) or {@code txns} (leaf,
 * optionally with {@code instanceBy: <input>} for partition-by-instance, dissertation §5.4.2):
 *
 * <pre>
 * root:
 *   cc: ssi
 *   options: {batchInterval: 5ms}
 *   children:
 *     - cc: none
 *       txns: [order_status, stock_level]
 *     - cc: 2pl
 *       name: updates
 *       children:
 *         - {cc: rp, txns: [new_order, payment]}
 *         - {cc: rp, txns: [delivery]}
 * </pre>
 *
 * Nodes keep their 1-based line and place (e.g. {@code root.children[1].children[0]}). Every problem is one
 * {@link ConfigException} naming file, line, place and fix ({@link TreeValidator}); the {@code read*} methods
 * also return warnings (inefficient parent/child pairs), the {@code CcTree} ones drop them.
 */
public final class TreeLoader {
    private TreeLoader() {
    }

    /**
     * Reads and validates a tree file.
     *
     * @return the tree and its warnings; the file name (as given) is the tree's source
     * @throws ConfigException if the file cannot be read or the tree is bad
     */
    public static LoadedTree read(Path file, TreeContext ctx) {
        return readString(text(file), file.toString(), ctx);
    }

    /**
     * Reads a tree file's spec only, as {@link #readSpec(String, String)} does for text.
     *
     * @throws ConfigException if the file cannot be read, for syntax and shape problems
     */
    public static TreeSpec readSpec(Path file) {
        return readSpec(text(file), file.toString());
    }

    /** Largest tree file read, bytes (a path to some other big file fails at once, not out of memory). */
    private static final long MAX_BYTES = 16 << 20;

    private static String text(Path file) {
        String source = file.toString();
        try {
            if (Files.isRegularFile(file) && Files.size(file) > MAX_BYTES) {
                throw new ConfigException(source, 0, "", "the file has " + Files.size(file) + " bytes, too many for a "
                        + "tree file (at most " + MAX_BYTES + ")", "check the path: a tree is a short YAML file");
            }
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(source, 0, "", "no such tree file", "check the path (relative paths start at "
                    + Path.of("").toAbsolutePath() + ")");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ConfigException(source, 0, "", "the tree file is not UTF-8 text",
                    "save it as UTF-8 (plain YAML text)");
        } catch (IOException e) {
            String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            throw new ConfigException(source, 0, "", "cannot read the tree file (" + why + ")",
                    "check that the file exists, is readable and is UTF-8 text");
        }
    }

    /**
     * Parses and validates YAML text.
     *
     * @param sourceName name used in messages and as {@link CcTree#source()}, e.g. a file name
     * @throws ConfigException for YAML syntax errors (with line and column) and every tree problem
     */
    public static LoadedTree readString(String yaml, String sourceName, TreeContext ctx) {
        SpecReader.Result r = SpecReader.read(YamlNode.parse(yaml, sourceName), sourceName);
        return TreeValidator.validate(r.spec(), sourceName, ctx, r.lines());
    }

    /**
     * Validates a tree given as a Jackson tree, e.g. written inline in an experiment file: a mapping with key
     * {@code root}, or the root node mapping itself. Lines are unknown (0) since Jackson trees keep none.
     *
     * @param sourceName name used in messages, e.g. {@code experiments/x.yaml (tree)}
     * @throws ConfigException for every tree problem
     */
    public static LoadedTree readJson(JsonNode node, String sourceName, TreeContext ctx) {
        SpecReader.Result r = SpecReader.read(node == null ? null : YamlNode.of(node), sourceName);
        return TreeValidator.validate(r.spec(), sourceName, ctx, r.lines());
    }

    /** {@link #read(Path, TreeContext)} without the warnings. @throws ConfigException as there */
    public static CcTree load(Path file, TreeContext ctx) {
        return read(file, ctx).tree();
    }

    /** {@link #readString(String, String, TreeContext)} without the warnings. @throws ConfigException as there */
    public static CcTree parse(String yaml, String sourceName, TreeContext ctx) {
        return readString(yaml, sourceName, ctx).tree();
    }

    /** {@link #readJson(JsonNode, String, TreeContext)} without the warnings. @throws ConfigException as there */
    public static CcTree fromJson(JsonNode node, String sourceName, TreeContext ctx) {
        return readJson(node, sourceName, ctx).tree();
    }

    /**
     * Reads the spec only, checking the YAML syntax and the shape (known keys, lists and mappings) but not the
     * meaning; e.g. for tools that edit a tree before validating it.
     *
     * @throws ConfigException for syntax and shape problems
     */
    public static TreeSpec readSpec(String yaml, String sourceName) {
        return SpecReader.read(YamlNode.parse(yaml, sourceName), sourceName).spec();
    }

    /** The tree in the file format, loadable again with the same structure, names, options and instanceBy. */
    public static String toYaml(CcTree tree) {
        return TreeWriter.write(tree.toSpec());
    }

    /** The spec in the file format ({@code root:} then the nodes), ending with a newline. */
    public static String toYaml(TreeSpec spec) {
        return TreeWriter.write(spec);
    }
}
