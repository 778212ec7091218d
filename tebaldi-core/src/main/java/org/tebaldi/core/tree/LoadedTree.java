package org.tebaldi.core.tree;

import java.util.List;

/**
 * A validated tree and the warnings found while loading it (inefficient parent/child pairs, pairs the rules do
 * not cover), each a one-line message like {@code trees/x.yaml:9: root.children[1]: ...}.
 *
 * @param tree     the validated tree
 * @param warnings warnings in tree order; empty if none
 */
public record LoadedTree(CcTree tree, List<String> warnings) {
    public LoadedTree {
        warnings = List.copyOf(warnings);
    }
}
