package org.tebaldi.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.tebaldi.bench.driver.TimelinePoint;

/** Writes a run's files: {@code summary.json} (pretty-printed) and {@code timeline.csv} ({@code tMs,throughput}). */
public final class ResultFiles {
    /** File name of the summary (docs/experiments.md, "summary.json"). */
    public static final String SUMMARY = "summary.json";
    /** File name of the timeline. */
    public static final String TIMELINE = "timeline.csv";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultFiles() {
    }

    /**
     * Creates {@code dir} if needed and writes both files into it.
     *
     * @throws IOException if a file cannot be written
     */
    public static void write(Path dir, JsonNode summary, List<TimelinePoint> timeline) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(SUMMARY), JSON.writeValueAsString(summary) + "\n", StandardCharsets.UTF_8);
        StringBuilder csv = new StringBuilder("tMs,throughput\n");
        for (TimelinePoint p : timeline) {
            csv.append(p.tMs()).append(',').append(String.format(Locale.ROOT, "%.1f", p.throughput())).append('\n');
        }
        Files.writeString(dir.resolve(TIMELINE), csv, StandardCharsets.UTF_8);
    }
}
