package org.tebaldi.bench.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes experiment and tree files into a temporary folder for tests. */
public final class ExperimentFixture {
    /** A valid bank experiment using {@code ../trees/bank.yaml}. */
    public static final String BANK = """
            name: bank-test
            workload: {name: bank, accounts: 20}
            tree: ../trees/bank.yaml
            cluster: {dataServers: 2, coordinators: 2}
            clients: 4
            warmup: 1s
            duration: 2s
            """;
    /** A valid bank tree. */
    public static final String TREE = """
            root:
              cc: 2pl
              options: {lockTimeout: 10ms, deadlock: wait-die}
              txns: [transfer, audit]
            """;

    private final Path dir;

    /** Creates {@code dir/trees/bank.yaml} and {@code dir/experiments/}. */
    public ExperimentFixture(Path dir) {
        this.dir = dir;
        write("trees/bank.yaml", TREE);
        write("experiments/.keep", "");
    }

    /** Writes a file under the folder and returns its path. */
    public Path write(String relative, String text) {
        try {
            Path p = dir.resolve(relative);
            Files.createDirectories(p.getParent());
            Files.writeString(p, text);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code experiments/x.yaml} and loads it with the overrides, the fixture folder as working directory. */
    public Experiment load(String experimentYaml, String... sets) {
        Path p = write("experiments/x.yaml", experimentYaml);
        return ExperimentLoader.load(p, List.of(sets), dir);
    }

    /** The path {@code experiments/x.yaml} has in messages. */
    public String file() {
        return dir.resolve("experiments/x.yaml").toString();
    }

    public Path dir() {
        return dir;
    }
}
