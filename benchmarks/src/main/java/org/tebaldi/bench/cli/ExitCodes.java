package org.tebaldi.bench.cli;

/** Exit codes of the {@code tebaldi} command. */
public final class ExitCodes {
    /** The run finished and every check that ran passed. */
    public static final int OK = 0;
    /** The run finished but a check failed (not serializable, or the workload's consistency check failed). */
    public static final int CHECK_FAILED = 1;
    /** Bad input (experiment, override, tree, command line): one message, nothing written. */
    public static final int CONFIG = 2;
    /** The run failed: a node or workload code threw, or results could not be written. */
    public static final int RUN_FAILED = 3;

    private ExitCodes() {
    }
}
