package org.tebaldi.bench.run;

/**
 * A run failed for a reason other than bad input: a node threw (EmbeddedRuntime failures), or workload code
 * threw inside the driver. The message says what happened, in one line; the cause is the first exception.
 */
public class RunFailedException extends Exception {
    /** @param message one line saying what failed; @param cause the first exception */
    public RunFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
