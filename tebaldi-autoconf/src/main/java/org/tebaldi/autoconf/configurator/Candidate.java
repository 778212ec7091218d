package org.tebaldi.autoconf.configurator;

import org.tebaldi.core.tree.CcTree;

/** A candidate configuration proposed for a bottleneck (dissertation §5.4.1), with how it was derived. */
public record Candidate(CcTree tree, String strategy) {
    @Override
    public String toString() {
        return strategy + ": " + tree.describe();
    }
}
