package org.tebaldi.server.process;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeSpec;
import org.tebaldi.server.node.ClusterConfig;
import org.tebaldi.server.sim.BankWorkload;
import org.tebaldi.server.zk.ClusterManifest;

/**
 * The launcher checks memory before it starts anything: with a node heap that cannot fit beside the runner,
 * {@link ProcessCluster#start} fails with the numbers and the fix before it connects to ZooKeeper (the ensemble
 * given is unreachable: trying it first would fail with another message) or makes a log directory.
 */
class ProcessClusterMemoryTest {
    @TempDir
    Path tmp;

    @Test
    void nodesThatCannotFitFailBeforeAnythingStarts() {
        BankWorkload w = new BankWorkload(8);
        CcTree tree = CcTree.build(TreeSpec.leaf("2pl", "transfer", "audit"), "memory-check");
        ClusterConfig cfg = new ClusterConfig(w.database(), tree, 2, 2, null, false);
        ClusterManifest m = new ClusterManifest(Map.of("name", "bank"), 2, 2, false, 1, 1000);
        Path logs = tmp.resolve("nodes");
        // 4 nodes of 64 TiB each: no machine running this test has that much memory
        ProcessCluster.Spec spec = new ProcessCluster.Spec(cfg, m, "memory-check", "127.0.0.1:1",
                List.of("java", "-Xmx64t", "-version"), logs, 5_000);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ProcessCluster.start(spec));
        assertTrue(e.getMessage().contains("cannot fit its 4 node JVMs"), e.getMessage());
        assertTrue(e.getMessage().contains("4 nodes x -Xmx 67,108,864 MiB"), e.getMessage());
        assertTrue(e.getMessage().contains("fix: a smaller node heap in TEBALDI_NODE_JAVA_OPTS"), e.getMessage());
        assertFalse(Files.exists(logs), "no node was launched");
    }
}
