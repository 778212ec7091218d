package org.tebaldi.bench.driver;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tebaldi.core.cc.Mechanisms;

/**
 * Which concurrency-control mechanism aborted an attempt, read from its abort reason ({@link
 * org.tebaldi.core.txn.AbortReason} carries a message and whether a retry helps, nothing more). Two conventions of
 * the reasons' texts are relied on: a mechanism's own aborts begin with its name ({@code "ssi: write-write conflict
 * ..."}, {@code "ssi (inner): ..."}, {@code "ssi/dst: ..."}, {@code "rp: waited more than ..."}, {@code "tso: ..."}),
 * and the shared lock table's ({@code cc.lock.LockTable}: wait-die, no-wait, lock-wait time-out) end with the
 * lock's node, {@code "... at 2pl node 3"}. The framework's own aborts ({@link #FRAMEWORK}: cascading, time-out,
 * recovery, reconfiguration) have no mechanism. {@code AbortCauseTest} pins the conventions on real aborts.
 */
public final class AbortCause {
    private static final Pattern PREFIX = Pattern.compile("^([a-z0-9]+)[:/ (]");
    private static final Pattern LOCK = Pattern.compile(" at ([a-z0-9]+) node (\\d+|#)");

    /**
     * How the coordinators' and data servers' own aborts begin (server {@code ds.DsPhases}, {@code ds.OpExecution},
     * {@code ds.DsModule}, {@code tc.TransactionCoordinator}, {@code tc.TcEpochs}): a cascading abort (the writer a
     * transaction read from aborted), a recovery round, a coordinator's abort, a time-out, a reconfiguration, an
     * epoch of epoch-based commit. They name no mechanism: the default back-off applies.
     */
    public static final List<String> FRAMEWORK = List.of("aborted read:", "dropped by a recovery round",
            "aborted by coordinator", "ended at this data server", "timed out:", "aborted to reconfigure", "epoch ");

    private AbortCause() {
    }

    /** Whether {@code message} is one of the framework's own aborts ({@link #FRAMEWORK}). */
    public static boolean framework(String message) {
        return message != null && FRAMEWORK.stream().anyMatch(message::startsWith);
    }

    /**
     * The mechanism whose part aborted the attempt (e.g. {@code ssi}, {@code 2pl}), or null if the reason names none.
     *
     * @param message the abort reason ({@link org.tebaldi.core.txn.TxnAbortedException#getMessage()}); may be null
     */
    public static String mechanismOf(String message) {
        if (message == null || framework(message)) {
            return null;
        }
        Matcher p = PREFIX.matcher(message);
        if (p.find() && Mechanisms.all().containsKey(p.group(1))) {
            return p.group(1);
        }
        Matcher l = LOCK.matcher(message);
        String found = null;
        while (l.find()) {
            found = l.group(1);
        }
        return found != null && Mechanisms.all().containsKey(found) ? found : null;
    }
}
