package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.Sizes;
import org.tebaldi.server.storage.StorageOptions;

/**
 * Reads and validates the {@code storage:} section into a {@link StorageSpec}; every problem is one
 * {@link org.tebaldi.core.config.ConfigException} at its place, with the fix.
 */
final class StorageReader {
    private StorageReader() {
    }

    /**
     * @param mode the cluster's mode: node processes keep their own defaults (the section is refused there)
     * @throws org.tebaldi.core.config.ConfigException for the first problem
     */
    static StorageSpec read(Fields top, String mode) {
        if (!top.node().has("storage")) {
            return StorageSpec.DEFAULT;
        }
        Fields s = top.section("storage", "{memory: 2g}");
        s.checkKnown(ExperimentSchema.STORAGE);
        if (mode.equals("processes")) {
            throw top.error("storage", "node processes keep their rows with the default storage (off the heap, within"
                    + " half of each node's direct-memory limit); storage: applies to embedded and simulated clusters",
                    "remove storage, or run mode embedded");
        }
        boolean offHeap = s.choice("rows", "offheap", List.of("offheap", "heap")).equals("offheap");
        long memory = memory(s);
        String dir = s.path("dir", "", "data/storage");
        if (!offHeap && s.node().has("memory")) {
            throw s.error("memory", "memory bounds the rows kept off the heap, and rows: heap keeps every version as "
                    + "Java objects", "remove memory, or use rows: offheap");
        }
        if (!dir.isEmpty() && (!offHeap || memory == StorageOptions.UNLIMITED)) {
            throw s.error("dir", "dir takes the rows beyond storage.memory, and " + (offHeap ? "memory: unlimited"
                    : "rows: heap") + " sends none there", "remove dir, or set memory to a size, e.g. memory: 2g");
        }
        return new StorageSpec(offHeap, memory, dir.isEmpty() ? null : dir);
    }

    private static long memory(Fields s) {
        JsonNode v = s.node().get("memory");
        if (v == null) {
            return StorageOptions.AUTO;
        }
        String example = "write e.g. memory: 2g (a size: 512m, 4g, 1.5g), memory: auto (half of the direct-memory "
                + "limit) or memory: unlimited";
        if (!v.isTextual() && !v.isIntegralNumber()) {
            throw s.error("memory", "expected a size, auto or unlimited, found " + Values.describe(v), example);
        }
        String text = v.isTextual() ? v.textValue().trim().toLowerCase(Locale.ROOT) : v.asText();
        if (text.equals("auto")) {
            return StorageOptions.AUTO;
        }
        if (text.equals("unlimited")) {
            return StorageOptions.UNLIMITED;
        }
        long bytes;
        try {
            bytes = Sizes.parseBytes(text);
        } catch (IllegalArgumentException e) {
            throw s.error("memory", e.getMessage(), example);
        }
        long limit = StorageOptions.maxDirectMemory();
        if (bytes > limit) {
            throw s.error("memory", "memory " + Sizes.format(bytes) + " is more than this JVM may hold off the heap ("
                    + Sizes.format(limit) + ": -XX:MaxDirectMemorySize, by default the heap size -Xmx)",
                    "lower memory, or raise the limit: TEBALDI_JAVA_OPTS=-XX:MaxDirectMemorySize="
                            + Sizes.format(bytes * 5 / 4));
        }
        return bytes;
    }
}
