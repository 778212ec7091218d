package org.tebaldi.bench.run;

import org.tebaldi.bench.driver.ProgressTick;

/** What an {@link ExperimentRun} reports while it runs, on the runner's thread; every method is optional. */
public interface RunListener {
    /** Load progress from the workload ({@link org.tebaldi.bench.workload.Progress}). */
    default void loading(String stage, long done, long total) {
    }

    /** Loading finished: {@code rows} rows in {@code millis} ms. */
    default void loaded(long rows, long millis) {
    }

    /** One second of the run. */
    default void tick(ProgressTick tick) {
    }

    /** A phase starts, e.g. {@code verifying}. */
    default void phase(String what) {
    }

    /** A line of information, e.g. the output of an install step or which server a run uses. */
    default void note(String line) {
    }
}
