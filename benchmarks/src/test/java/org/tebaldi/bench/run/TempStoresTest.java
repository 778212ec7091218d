package org.tebaldi.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentFixture;

/**
 * A durable run without a run directory (calibrate-durability's runs) keeps its RocksDB stores in a temporary
 * folder and deletes it afterwards: each such run used to leave ~800 MB of TPC-C stores behind.
 */
class TempStoresTest {
    @TempDir
    Path tmp;

    private static List<Path> storesSince(FileTime start) throws Exception {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("tebaldi-rocksdb-")).filter(p -> {
                try {
                    return Files.getLastModifiedTime(p).compareTo(start) >= 0;
                } catch (java.io.IOException x) {
                    return false;
                }
            }).toList();
        }
    }

    @Test
    void aDurableRunWithoutARunDirectoryDeletesItsTemporaryStores() throws Exception {
        FileTime start = FileTime.fromMillis(System.currentTimeMillis() - 1_000);
        Experiment e = new ExperimentFixture(tmp).load(ExperimentFixture.BANK + "durability: {enabled: true}\n");
        RunResult r = new ExperimentRun(e, new RunListener() { }).run();
        assertTrue(r.driver().total().committed() > 0, "the run committed transactions");
        assertEquals(List.of(), storesSince(start), "temporary stores left behind");
    }
}
