package org.tebaldi.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.ValidateRequest;

/**
 * The JMH benchmarks' cluster does real work on every path: transactions commit, every update lands once, and
 * each phase boundary the phase benchmarks stop at is reached. Correctness only; speed belongs to the benchmarks.
 */
class PathFixtureTest {
    private static final int OPS = 7;

    private static List<String> allPaths() {
        List<String> paths = new ArrayList<>(PathFixture.PATHS);
        PathFixture.LAYER_PATHS.stream().filter(p -> !paths.contains(p)).forEach(paths::add);
        return paths;
    }

    /** One fixture per path (building one loads 100,000 rows): whole transactions, then phase by phase. */
    @Test
    void everyPathCommitsEveryUpdateOnceAndReachesEveryPhaseBoundary() {
        for (String path : allPaths()) {
            try (PathFixture f = new PathFixture(path)) {
                int txns = 20;
                for (int i = 0; i < txns; i++) {
                    f.transaction(OPS);
                }
                long expected = path.equals("none-1") ? 0 : 1;
                for (long k = 0; k < txns * OPS; k++) {
                    assertEquals(expected, f.committedValue(k), path + " key " + k);
                }
                assertEquals(0, f.committedValue(txns * OPS), path);
                for (int i = 0; i < 3; i++) {
                    f.begin();
                    f.sendOperation();
                    f.runUntilNext(ExecRequest.class, PathFixture.DS);
                    f.runUntilNext(ExecReply.class, PathFixture.TC);
                    f.awaitOpDone();
                    f.sendCommit();
                    f.runUntilNext(ValidateRequest.class, PathFixture.DS);
                    f.runUntilNext(ValidateReply.class, PathFixture.TC);
                    f.runUntilNext(CommitRequest.class, PathFixture.DS);
                    f.deliverNext(CommitRequest.class, PathFixture.DS);
                    f.awaitEnded();
                    assertEquals(expected, f.committedValue(txns * OPS + i), path);
                }
            }
        }
    }

    @Test
    void pathsParseAndBuildTheirTrees() {
        assertEquals(List.of("2pl", "2pl", "2pl"), PathFixture.mechanisms("2pl-3"));
        assertEquals(List.of("ssi", "rp"), PathFixture.mechanisms("SSI/rp"));
        assertEquals(List.of("2pl"), PathFixture.mechanisms("2pl"));
        assertEquals("root: {cc: ssi, children: [{cc: rp, txns: [work]}, {cc: rp, txns: [side1]}]}\n",
                PathFixture.treeYaml(List.of("ssi", "rp")));
        assertEquals("root: {cc: tso, txns: [work]}\n", PathFixture.treeYaml(List.of("tso")));
        for (String bad : List.of("2pl-0", "2pl-5", "2pl-x", "xyz-1", "none-2", "2pl/none", "rp/rp/rp/rp/rp")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PathFixture.mechanisms(bad),
                    bad);
            assertTrue(e.getMessage().startsWith("path '" + bad + "'"), e.getMessage());
        }
        IllegalArgumentException forbidden = assertThrows(IllegalArgumentException.class,
                () -> new PathFixture("rp/ssi"));
        assertTrue(forbidden.getMessage().startsWith("path 'rp/ssi': "), forbidden.getMessage());
    }
}
