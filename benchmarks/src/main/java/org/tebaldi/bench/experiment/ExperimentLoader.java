package org.tebaldi.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tebaldi.bench.config.LocatedYaml;
import org.tebaldi.bench.config.Locator;
import org.tebaldi.bench.config.Values;
import org.tebaldi.core.config.ConfigException;

/**
 * Loads an experiment file (docs/experiments.md, "Writing an experiment"): reads the YAML (Jackson, with line numbers), applies the
 * {@code --set} overrides, expands sweeps (a list of values for a field, {@link SweepExpander}), applies each point's
 * profile under its keys ({@link Profiles}), then validates every key of every point and builds the workload and the
 * tree. Every problem is ONE {@link ConfigException}
 * naming the file (or override), line, place and fix; nothing is run or written.
 *
 * <pre>
 * name: tpcc-2pl
 * workload: {name: tpcc, warehouses: 10}
 * tree: ../trees/2pl.yaml          # relative to this file, or an inline tree mapping
 * cluster: {mode: embedded, dataServers: 2, coordinators: 2, networkDelay: 50us, threads: 0}
 * clients: 50                      # or a list to sweep: clients: [50, 200, 800]
 * warmup: 5s
 * duration: 30s
 * verify: true
 * retry: {backoff: 1ms, maxBackoff: 50ms}
 * seed: 1
 * output: results
 * profile: dissertation            # keys of config/profiles/dissertation.yaml the file does not set
 * </pre>
 */
public final class ExperimentLoader {
    private ExperimentLoader() {
    }

    /**
     * Loads one experiment that sweeps nothing.
     *
     * @param file the experiment file, as the user named it (used in messages)
     * @param sets {@code key=value} overrides, applied in order
     * @param cwd  the working directory, against which {@code --set tree=<path>} resolves
     * @throws ConfigException for the first problem, or if the file lists values to sweep (use {@link #loadSweep})
     */
    public static Experiment load(Path file, List<String> sets, Path cwd) {
        return parse(read(file, cwd), file, sets, cwd);
    }

    /**
     * Like {@link #load} for text already read.
     *
     * @param file the file the text came from (messages; its folder resolves a relative tree path)
     * @throws ConfigException for the first problem, or if the text lists values to sweep
     */
    public static Experiment parse(String text, Path file, List<String> sets, Path cwd) {
        Document d = document(text, file, sets);
        List<SweepExpander.Axis> axes = SweepExpander.axes(d.root(), d.loc());
        if (!axes.isEmpty()) {
            String place = axes.get(0).place();
            throw d.loc().error(place, "lists values to sweep, but a single experiment was expected",
                    "run it with scripts/tebaldi run (which runs every point), or write one value");
        }
        Profiles.apply(d.root(), d.loc(), file, cwd);
        return ExperimentReader.read(d.root(), d.loc(), file, cwd);
    }

    /**
     * Loads one or more experiment files, each expanded over its swept fields ({@link SweepExpander}), and
     * validates every point. With one file that lists nothing, the result is not a sweep ({@link Sweep#isSweep()}
     * false) and holds that one experiment. With several files, {@code experiment} (the experiment's name) is the
     * first swept key, and the names must differ.
     *
     * @param files experiment files as the user named them, at least one
     * @param sets  {@code key=value} overrides applied to every file, in order; a value may be a list
     *              ({@code clients=[50,200]}) to sweep it
     * @param cwd   the working directory, against which {@code --set tree=<path>} resolves
     * @throws ConfigException for the first problem in any file or point
     */
    public static Sweep loadSweep(List<Path> files, List<String> sets, Path cwd) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no experiment file");
        }
        boolean several = files.size() > 1;
        Set<String> keys = new LinkedHashSet<>();
        if (several) {
            keys.add("experiment");
        }
        List<Map<String, String>> values = new ArrayList<>();
        List<Experiment> experiments = new ArrayList<>();
        Map<String, Path> names = new HashMap<>();
        for (Path file : files) {
            Document d = document(read(file, cwd), file, sets);
            List<SweepExpander.Axis> axes = SweepExpander.axes(d.root(), d.loc());
            axes.forEach(a -> keys.add(a.place()));
            for (SweepExpander.Expanded x : SweepExpander.expand(d.root(), axes)) {
                Locator loc = d.loc().copy();
                Profiles.apply(x.doc(), loc, file, cwd);
                Experiment e = ExperimentReader.read(x.doc(), loc, file, cwd);
                Path other = names.putIfAbsent(e.name(), file);
                if (several && other != null && !other.equals(file)) {
                    throw d.loc().error("name", "experiment name '" + e.name() + "' is also the name in " + other
                            + "; the names label the experiments in results.csv and the charts",
                            "give each experiment file its own name");
                }
                Map<String, String> v = new LinkedHashMap<>();
                if (several) {
                    v.put("experiment", e.name());
                }
                v.putAll(x.labels());
                values.add(v);
                experiments.add(e);
            }
        }
        List<SweepPoint> points = new ArrayList<>();
        for (int i = 0; i < experiments.size(); i++) {
            String dir = keys.isEmpty() ? "" : SweepPoint.dirName(i + 1, experiments.size(), values.get(i));
            points.add(new SweepPoint(i + 1, dir, values.get(i), experiments.get(i)));
        }
        return new Sweep(List.copyOf(keys), points);
    }

    /** A parsed experiment document with its overrides applied, and where its values came from. */
    private record Document(ObjectNode root, Locator loc) {
    }

    private static Document document(String text, Path file, List<String> sets) {
        LocatedYaml.Document doc = LocatedYaml.parse(text, file.toString());
        JsonNode root = doc.root();
        if (root == null || root.isNull()) {
            throw new ConfigException(file.toString(), 0, "", "the experiment file is empty",
                    "write at least name, workload, tree, clients and duration");
        }
        if (!root.isObject()) {
            throw new ConfigException(file.toString(), 0, "", "an experiment must be a "
                    + "mapping of keys such as name, workload, tree; found " + Values.describe(root),
                    "write one 'key: value' per line");
        }
        Locator loc = new Locator(file.toString(), doc.lines());
        Overrides.apply((ObjectNode) root, sets, loc);
        return new Document((ObjectNode) root, loc);
    }

    /** Largest experiment file read, bytes (a path to some other big file fails at once, not out of memory). */
    private static final long MAX_BYTES = 16 << 20;

    private static String read(Path file, Path cwd) {
        String source = file.toString();
        try {
            if (Files.isRegularFile(file) && Files.size(file) > MAX_BYTES) {
                throw new ConfigException(source, 0, "", "the file has " + Files.size(file) + " bytes, too many for an "
                        + "experiment file (at most " + MAX_BYTES + ")", "check the path: an experiment is a short YAML file");
            }
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(source, 0, "", "no such experiment file", "check the path (relative paths start "
                    + "at " + cwd.toAbsolutePath().normalize() + ")");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ConfigException(source, 0, "", "the experiment file is not UTF-8 text",
                    "save it as UTF-8 (plain YAML text)");
        } catch (IOException e) {
            throw new ConfigException(source, 0, "", "cannot read the experiment file (" + e.getMessage() + ")",
                    "check that it is a readable UTF-8 text file");
        }
    }
}
