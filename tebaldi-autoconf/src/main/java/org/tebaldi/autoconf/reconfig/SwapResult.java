package org.tebaldi.autoconf.reconfig;

/**
 * How one reconfiguration went (dissertation §5.5): the protocol used ({@code partial-restart}, {@code online-update}
 * or {@code none} when the target was already running), a note (e.g. why online update fell back to partial
 * restart), when it started (µs, cluster clock) and how long its phases took (µs). Partial restart: clean-up
 * (new transactions queued, running ones drained), prepare (CC module rebuilt everywhere); new transactions start
 * right after. Online update: prepare (data servers install the merged tree), apply (coordinators route new
 * transactions to the new subtree; no pause), drain (until the old subtree had no transaction left and was retired
 * everywhere). {@code forceAborted} counts transactions clean-up aborted.
 */
public record SwapResult(String protocol, String note, long epoch, long startMicros, long cleanupMicros,
                         long prepareMicros, long applyMicros, long drainMicros, long totalMicros, int forceAborted) {
    /** One line, e.g. {@code online-update: prepare 0.4 ms, apply 0.3 ms, drain 12.0 ms, total 12.7 ms}. */
    public String describe() {
        StringBuilder b = new StringBuilder(protocol);
        if (note != null) {
            b.append(" (").append(note).append(')');
        }
        b.append(':');
        if (protocol.equals("partial-restart")) {
            b.append(ms(" clean-up", cleanupMicros)).append(',').append(ms(" prepare", prepareMicros));
            if (forceAborted > 0) {
                b.append(", ").append(forceAborted).append(" force-aborted");
            }
        } else if (protocol.equals("online-update")) {
            b.append(ms(" prepare", prepareMicros)).append(',').append(ms(" apply", applyMicros)).append(',')
                    .append(ms(" drain", drainMicros));
        }
        return b.append(',').append(ms(" total", totalMicros)).toString();
    }

    private static String ms(String label, long micros) {
        return String.format("%s %.1f ms", label, micros / 1000.0);
    }
}
