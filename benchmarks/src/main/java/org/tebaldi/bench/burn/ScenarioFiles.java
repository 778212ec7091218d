package org.tebaldi.bench.burn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.tebaldi.core.cc.Mechanisms;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;

/**
 * Scenario files: a {@link Scenario} as JSON (Jackson) and back, and the checks that make a hand-edited file fail
 * with one {@link ConfigException} (file, place, fix) instead of a stack trace in the middle of a run.
 */
public final class ScenarioFiles {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ScenarioFiles() {
    }

    /** The scenario as indented JSON text. */
    public static String toJson(Scenario s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write scenario as JSON", e);
        }
    }

    /**
     * Parses and checks JSON text.
     *
     * @param source the file name for messages
     * @throws ConfigException for malformed JSON, unknown fields and every check of {@link #check}
     */
    public static Scenario fromJson(String json, String source) {
        Scenario s;
        try {
            s = JSON.readValue(json, Scenario.class);
        } catch (InvalidFormatException e) {
            throw new ConfigException(source, line(e), path(e), "bad value " + e.getValue() + " ("
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")", "write a value of the field's type; "
                    + "fault kinds are " + java.util.Arrays.toString(FaultKind.values()));
        } catch (MismatchedInputException e) {
            throw new ConfigException(source, line(e), path(e), e.getOriginalMessage().lines().findFirst().orElse(""),
                    "compare with a scenario written by 'tebaldi burn --seed S --out DIR'");
        } catch (JsonProcessingException e) {
            throw new ConfigException(source, line(e), "", "not valid JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""), "fix the JSON syntax");
        }
        check(s, source);
        return s;
    }

    /** Writes the scenario to {@code file} as JSON. @throws IOException if it cannot be written */
    public static void write(Scenario s, Path file) throws IOException {
        Files.writeString(file, toJson(s) + "\n", StandardCharsets.UTF_8);
    }

    /** Reads and checks a scenario file. @throws ConfigException if it cannot be read or is bad */
    public static Scenario read(Path file) {
        try {
            return fromJson(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), 0, "", "no such scenario file", "check the path");
        } catch (IOException e) {
            throw new ConfigException(file.toString(), 0, "", "cannot read the scenario file (" + e + ")",
                    "check that it is readable UTF-8 text");
        }
    }

    /**
     * Checks what {@link BurnRun} needs: a known workload, positive counts, a valid tree for the workload's
     * transaction types, and faults it can apply (a cluster crash needs durability; at most one cluster crash, and
     * not together with reconfigurations; a reconfiguration names a valid tree; the timed kinds as
     * {@link FaultChecks} says).
     *
     * @throws ConfigException naming the field and the fix
     */
    public static void check(Scenario s, String source) {
        BurnWorkload w;
        try {
            w = BurnWorkload.of(s.workload());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(source, 0, "workload", e.getMessage(), "use one of the known workloads");
        }
        positive(source, "coordinators", s.coordinators());
        positive(source, "dataServers", s.dataServers());
        positive(source, "clients", s.clients());
        positive(source, "txnsPerClient", s.txnsPerClient());
        if (s.tree() == null) {
            throw new ConfigException(source, 0, "tree", "missing", "give the CC tree in the tree file format");
        }
        CcTree tree = tree(s.tree(), w, source + " (tree)");
        int crashes = 0;
        for (int i = 0; i < s.faults().size(); i++) {
            Fault f = s.faults().get(i);
            String at = "faults[" + i + "]";
            if (f.kind() == null) {
                throw new ConfigException(source, 0, at + ".kind", "missing", "use one of "
                        + java.util.Arrays.toString(FaultKind.values()));
            }
            if (f.atMicros() < 0 || f.durationMicros() < 0) {
                throw new ConfigException(source, 0, at, "negative time", "atMicros and durationMicros are ≥ 0");
            }
            switch (f.kind()) {
                case NET_JITTER -> {
                    if (f.parameter() < 20) {
                        throw new ConfigException(source, 0, at + ".parameter", "largest delay " + f.parameter()
                                + " µs is below the smallest (20 µs)", "give a delay of at least 20 µs");
                    }
                }
                case NODE_PAUSES -> positive(source, at + ".parameter", f.parameter());
                case CLUSTER_CRASH -> {
                    crashes++;
                    if (!s.durable()) {
                        throw new ConfigException(source, 0, at, "a cluster crash needs durability",
                                "set \"durable\": true or drop the fault");
                    }
                }
                case RECONFIG -> {
                    if (f.tree() == null) {
                        throw new ConfigException(source, 0, at + ".tree", "missing", "give the target tree");
                    }
                    tree(f.tree(), w, source + " (" + at + ".tree)");
                }
                default -> FaultChecks.timed(s, tree, f, source, at);
            }
        }
        FaultChecks.together(s, source);
        if (crashes > 1 || crashes == 1 && !s.faults(FaultKind.RECONFIG).isEmpty()) {
            throw new ConfigException(source, 0, "faults", "at most one cluster crash per scenario, and not together"
                    + " with reconfigurations", "drop faults");
        }
    }

    /** The tree, validated for the workload's database with every mechanism on the class path. */
    static CcTree tree(String yaml, BurnWorkload w, String source) {
        return TreeLoader.parse(yaml, source, TreeContext.of(w.create().database(), Mechanisms.all().values()));
    }

    private static void positive(String source, String field, long v) {
        if (v < 1) {
            throw new ConfigException(source, 0, field, "is " + v, "give a positive number");
        }
    }

    private static int line(JsonProcessingException e) {
        return e.getLocation() == null ? 0 : e.getLocation().getLineNr();
    }

    private static String path(MismatchedInputException e) {
        return e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."));
    }
}
