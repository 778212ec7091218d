package org.tebaldi.bench.experiment;

import java.util.Objects;

/**
 * Where an experiment's transactions run (the {@code target:} key): {@code tebaldi}, the Tebaldi cluster of the
 * {@code cluster:} section (default), or {@code postgresql}, the same workload's transactions in SQL over JDBC
 * against a PostgreSQL server at SERIALIZABLE isolation (the baseline of dissertation Table 5.2), configured by
 * the {@code postgresql:} section.
 *
 * @param kind       {@link #TEBALDI} or {@link #POSTGRESQL}
 * @param postgresql the {@code postgresql:} section with its defaults (also present, and ignored, for tebaldi)
 */
public record TargetSpec(String kind, PostgresSpec postgresql) {
    /** The Tebaldi cluster (default). */
    public static final String TEBALDI = "tebaldi";
    /** A PostgreSQL server over JDBC. */
    public static final String POSTGRESQL = "postgresql";

    /** The default: the Tebaldi cluster. */
    public static final TargetSpec DEFAULT = new TargetSpec(TEBALDI, PostgresSpec.DEFAULT);

    /** @throws IllegalArgumentException for another kind */
    public TargetSpec {
        Objects.requireNonNull(postgresql, "postgresql");
        if (!TEBALDI.equals(kind) && !POSTGRESQL.equals(kind)) {
            throw new IllegalArgumentException("target must be tebaldi or postgresql, got " + kind);
        }
    }

    /** True for {@code target: postgresql}. */
    public boolean isPostgresql() {
        return POSTGRESQL.equals(kind);
    }
}
