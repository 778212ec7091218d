package org.tebaldi.bench.experiment;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.tree.LoadedTree;

/**
 * A validated experiment (docs/experiments.md, "Writing an experiment"), with every default applied and every override folded in. Built by
 * {@link ExperimentLoader}.
 *
 * @param file            the experiment file as named by the user
 * @param name            experiment name, used for the run directory
 * @param workload        the workload instance
 * @param workloadOptions the resolved {@code workload:} section ({@code name} and every option with its value, in
 *                        order)
 * @param treeRef         where the tree came from; null only with {@code target: postgresql} and no tree given
 * @param tree            the validated tree and its warnings; null when {@code treeRef} is
 * @param cluster         the cluster section
 * @param clients         closed-loop clients, at least 1
 * @param warmup          warm-up (excluded from measurement): fixed, or until throughput settles
 * @param durationMicros  measured duration, µs, positive
 * @param verification    whether and how to record the history and check serializability and consistency
 *                        ({@link VerifyMode})
 * @param retry           abort back-off
 * @param seed            random seed of the clients
 * @param output          default parent directory of run directories, as written (relative to the repository)
 * @param profiler        the profiler section (off unless enabled)
 * @param autoconf        the automatic configuration section (used by {@code tebaldi tune})
 * @param target          where the transactions run: the Tebaldi cluster or PostgreSQL over JDBC ({@code target:},
 *                        {@code postgresql:})
 * @param durability      the {@code durability:} section
 * @param storage         the {@code storage:} section
 * @param profile         the profile applied under the experiment's keys ({@code profile:}, {@link Profiles}), or
 *                        null for none
 * @param treeOptions     options set on every node of each mechanism ({@code treeOptions:}, {@link TreeOptions};
 *                        already applied to {@code tree}); empty for none
 */
public record Experiment(Path file, String name, Workload workload, Map<String, Object> workloadOptions,
                         TreeRef treeRef, LoadedTree tree, ClusterSpec cluster, int clients, WarmupSpec warmup,
                         long durationMicros, VerifyMode verification, RetrySpec retry, long seed, String output,
                         ProfilerSpec profiler, AutoconfSpec autoconf, TargetSpec target,
                         DurabilitySpec durability, StorageSpec storage, String profile,
                         Map<String, Map<String, Object>> treeOptions) {
    /** Copies the workload options, keeping their order. */
    public Experiment {
        workloadOptions = Collections.unmodifiableMap(new LinkedHashMap<>(workloadOptions));
        treeOptions = Collections.unmodifiableMap(new LinkedHashMap<>(treeOptions));
        java.util.Objects.requireNonNull(target, "target");
        java.util.Objects.requireNonNull(durability, "durability");
        java.util.Objects.requireNonNull(storage, "storage");
        java.util.Objects.requireNonNull(verification, "verification");
        java.util.Objects.requireNonNull(warmup, "warmup");
    }

    /** Whether the run records its history and checks it ({@link VerifyMode#on()}). */
    public boolean verify() {
        return verification.on();
    }

    /** An experiment without a profile or tree-wide options. */
    public Experiment(Path file, String name, Workload workload, Map<String, Object> workloadOptions, TreeRef treeRef,
                      LoadedTree tree, ClusterSpec cluster, int clients, WarmupSpec warmup, long durationMicros,
                      VerifyMode verification, RetrySpec retry, long seed, String output, ProfilerSpec profiler,
                      AutoconfSpec autoconf, TargetSpec target, DurabilitySpec durability, StorageSpec storage) {
        this(file, name, workload, workloadOptions, treeRef, tree, cluster, clients, warmup, durationMicros,
                verification, retry, seed, output, profiler, autoconf, target, durability, storage, null, Map.of());
    }

    /** An experiment with the default storage ({@link StorageSpec#DEFAULT}), without a profile. */
    public Experiment(Path file, String name, Workload workload, Map<String, Object> workloadOptions, TreeRef treeRef,
                      LoadedTree tree, ClusterSpec cluster, int clients, WarmupSpec warmup, long durationMicros,
                      VerifyMode verification, RetrySpec retry, long seed, String output, ProfilerSpec profiler,
                      AutoconfSpec autoconf, TargetSpec target, DurabilitySpec durability) {
        this(file, name, workload, workloadOptions, treeRef, tree, cluster, clients, warmup, durationMicros,
                verification, retry, seed, output, profiler, autoconf, target, durability, StorageSpec.DEFAULT);
    }

    /** An experiment without durability. */
    public Experiment(Path file, String name, Workload workload, Map<String, Object> workloadOptions, TreeRef treeRef,
                      LoadedTree tree, ClusterSpec cluster, int clients, WarmupSpec warmup, long durationMicros,
                      boolean verify, RetrySpec retry, long seed, String output, ProfilerSpec profiler,
                      AutoconfSpec autoconf, TargetSpec target) {
        this(file, name, workload, workloadOptions, treeRef, tree, cluster, clients, warmup, durationMicros,
                verify ? VerifyMode.AFTER : VerifyMode.OFF, retry, seed, output, profiler, autoconf, target, DurabilitySpec.OFF);
    }

    /** An experiment on the Tebaldi cluster ({@link TargetSpec#DEFAULT}). */
    public Experiment(Path file, String name, Workload workload, Map<String, Object> workloadOptions, TreeRef treeRef,
                      LoadedTree tree, ClusterSpec cluster, int clients, WarmupSpec warmup, long durationMicros,
                      boolean verify, RetrySpec retry, long seed, String output, ProfilerSpec profiler,
                      AutoconfSpec autoconf) {
        this(file, name, workload, workloadOptions, treeRef, tree, cluster, clients, warmup, durationMicros,
                verify ? VerifyMode.AFTER : VerifyMode.OFF, retry, seed, output, profiler, autoconf, TargetSpec.DEFAULT, DurabilitySpec.OFF);
    }
}
