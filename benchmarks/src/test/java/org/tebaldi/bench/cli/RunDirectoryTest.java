package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Run directories: runs started in the same second never share one (docs/experiments.md). */
class RunDirectoryTest {
    @TempDir
    Path cwd;

    @Test
    void runsStartedInTheSameSecondClaimDirectoriesOfTheirOwn() throws Exception {
        LocalDateTime t = LocalDateTime.of(2026, 11, 29, 6, 49, 44);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Path>> claims = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            claims.add(pool.submit(() -> RunDirectory.of("results", "fig4-7", t, cwd)));
        }
        Set<Path> dirs = new HashSet<>();
        for (Future<Path> f : claims) {
            Path d = f.get();
            assertTrue(Files.isDirectory(d), d + " is created when claimed");
            dirs.add(d);
        }
        pool.shutdown();
        assertEquals(8, dirs.size(), "eight runs, eight directories: " + dirs);
        assertTrue(dirs.contains(cwd.resolve("results/fig4-7-20261129-064944")));
        assertTrue(dirs.contains(cwd.resolve("results/fig4-7-20261129-064944-8")));
    }

    @Test
    void anUnusedClaimIsReleasedAndAUsedOneStays() throws Exception {
        LocalDateTime t = LocalDateTime.of(2026, 11, 29, 7, 0, 0);
        Path empty = RunDirectory.of("results", "run", t, cwd);
        RunDirectory.releaseIfEmpty(empty);
        assertFalse(Files.exists(empty));
        Path used = RunDirectory.of("results", "run", t, cwd);
        Files.writeString(used.resolve("summary.json"), "{}");
        RunDirectory.releaseIfEmpty(used);
        assertTrue(Files.exists(used.resolve("summary.json")));
    }
}
