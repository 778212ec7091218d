package org.tebaldi.bench.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.tebaldi.core.config.ConfigException;

/**
 * Property-based fuzzing of experiment files: every shipped {@code config/experiments/**.yaml},
 * damaged by a {@link YamlMutation}, either loads with every point of its sweep (the damage was harmless) or fails
 * with exactly one clear {@link ConfigException} ({@link ClearError}); nothing else may escape the loader. The
 * damaged file is written next to links to the shipped {@code config/} folders, so its relative tree and cost paths
 * resolve as the original's do. 200 tries by default; {@code -Djqwik.tries.default=N} raises it.
 */
class ExperimentYamlFuzzTest {
    private static final Path CONFIG = Path.of("../config").toAbsolutePath().normalize();
    private static final TreeMap<String, String> TEXT = new TreeMap<>();
    private static final Path DIR;

    static {
        try {
            try (Stream<Path> s = Files.walk(CONFIG.resolve("experiments"))) {
                for (Path p : s.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                    TEXT.put(CONFIG.resolve("experiments").relativize(p).toString(), Files.readString(p));
                }
            }
            DIR = Files.createTempDirectory("tebaldi-experiment-fuzz");
            try (Stream<Path> s = Files.list(CONFIG)) {
                for (Path p : s.filter(p -> !p.getFileName().toString().equals("experiments")).toList()) {
                    Files.createSymbolicLink(DIR.resolve(p.getFileName().toString()), p);
                }
            }
            for (String name : TEXT.keySet()) { // every sub-folder of the shipped experiments (cluster/, coco/, ...)
                Files.createDirectories(DIR.resolve("experiments").resolve(name).getParent());
            }
            Files.copy(CONFIG.resolve("experiments/chiller/placement.json"),
                    DIR.resolve("experiments/chiller/placement.json")); // the chiller experiments' placement
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterContainer
    static void clean() throws IOException {
        try (Stream<Path> s = Files.walk(DIR)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Provide
    Arbitrary<String> shippedExperiment() {
        return Arbitraries.of(List.copyOf(TEXT.keySet()));
    }

    @Provide
    Arbitrary<YamlMutation> mutation() {
        return YamlMutation.any();
    }

    @Property
    void aDamagedExperimentLoadsOrFailsWithOneClearMessage(@ForAll("shippedExperiment") String name,
                                                            @ForAll("mutation") YamlMutation m) throws IOException {
        load(name, m.apply(TEXT.get(name)));
    }

    @Example
    void everyShippedExperimentLoadsFromTheFuzzFolder() throws IOException {
        for (String name : TEXT.keySet()) {
            load(name, TEXT.get(name));
        }
    }

    /**
     * Tree references to the experiment itself, folders, devices, a missing file, a file that is not UTF-8, a path
     * with a NUL character (regressions: {@code /proc/self/mem} leaked {@code java.io.IOException} into the message;
     * the NUL character threw {@code InvalidPathException}).
     */
    @Example
    void aTreeThatIsNotATreeFileIsOneClearMessage() throws IOException {
        String bank = TEXT.get("bank-2pl.yaml");
        Files.write(DIR.resolve("experiments/not-utf8.yaml"), new byte[] {'r', 'o', (byte) 0xff, 't', ':'});
        for (String tree : List.of("bank-2pl-fuzz.yaml", "../experiments/bank-2pl-fuzz.yaml", ".", "../trees",
                "/dev/zero", "/dev/null", "/proc/self/mem", "../trees/missing.yaml", "\"\"", "not-utf8.yaml",
                "\"a\\0b.yaml\"")) {
            String text = bank.replace("tree: ../trees/bank-2pl.yaml", "tree: " + tree);
            Path file = DIR.resolve("experiments/bank-2pl-fuzz.yaml");
            Files.writeString(file, text);
            try {
                ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                        () -> ExperimentLoader.loadSweep(List.of(file), List.of(), DIR), tree);
                ClearError.check(e, text);
            } finally {
                Files.delete(file);
            }
        }
    }

    /** Other paths with a NUL character (regression: InvalidPathException escaped the reader). */
    @Example
    void pathsThatAreNotPathsAreOneClearMessage() throws IOException {
        for (String set : List.of("output=\"r\\0\"", "durability.dir=\"d\\0\"")) {
            String text = TEXT.get("bank-2pl.yaml");
            ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                    () -> ExperimentLoader.parse(text, DIR.resolve("experiments/x.yaml"), List.of(set), DIR), set);
            ClearError.check(e, set);
        }
    }

    /** The durable-write latency and in-memory store keys (COCO Fig 11) with bad values. */
    @Example
    void badDurabilityValuesAreOneClearMessage() throws IOException {
        for (String set : List.of("durability.writeLatency=soon", "durability.writeLatency=-5us",
                "durability.writeLatency=11s", "durability.writeLatency=[1us]", "durability.store=disk",
                "durability.store=7")) {
            String text = TEXT.get("bank-2pl.yaml");
            ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                    () -> ExperimentLoader.parse(text, DIR.resolve("experiments/x.yaml"),
                            List.of("durability.enabled=true", set), DIR), set);
            ClearError.check(e, set);
        }
    }

    @Example
    void anAliasBombIsOneClearMessage() throws IOException {
        for (int at = 0; at < 6; at++) {
            String text = new YamlMutation(YamlMutation.Kind.ALIAS_BOMB, at, at, "").apply(TEXT.get("bank-2pl.yaml"));
            ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                    () -> ExperimentLoader.parse(text, DIR.resolve("experiments/x.yaml"), List.of(), DIR));
            ClearError.check(e, text);
        }
    }

    @Example
    void bytesThatAreNotUtf8AreOneClearMessage() throws IOException {
        String bank = TEXT.get("bank-2pl.yaml");
        byte[] bad = {(byte) 0xff, (byte) 0xfe, (byte) 0xc3, 0x28, (byte) 0xa0, (byte) 0xa1};
        byte[] mixed = new byte[bank.length() / 2 + bad.length];
        System.arraycopy(bank.getBytes(StandardCharsets.UTF_8), 0, mixed, 0, bank.length() / 2);
        System.arraycopy(bad, 0, mixed, bank.length() / 2, bad.length);
        load("bank-2pl.yaml", mixed, "bank-2pl.yaml with bytes that are not UTF-8 halfway");
        load("bank-2pl.yaml", bad, "bytes that are not UTF-8");
    }

    private static void load(String name, String text) throws IOException {
        load(name, text.getBytes(StandardCharsets.UTF_8), text);
    }

    private static void load(String name, byte[] bytes, String text) throws IOException {
        Path file = DIR.resolve("experiments").resolve(name.replace(".yaml", "-fuzz.yaml"));
        Files.write(file, bytes);
        try {
            ExperimentLoader.loadSweep(List.of(file), List.of(), DIR);
        } catch (ConfigException e) {
            ClearError.check(e, text);
        } finally {
            Files.delete(file);
        }
    }
}
