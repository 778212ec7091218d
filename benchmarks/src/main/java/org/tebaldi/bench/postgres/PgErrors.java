package org.tebaldi.bench.postgres;

import java.sql.SQLException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Classifies PostgreSQL errors by SQLSTATE (PostgreSQL manual, Appendix A "Error Codes"): serialization failures
 * ({@code 40001}) and detected deadlocks ({@code 40P01}) are concurrency-control aborts that the driver retries like
 * Tebaldi's; connection failures (class {@code 08}) and server shutdowns ({@code 57P01..57P03}) mean the server is
 * gone and cut the run short.
 */
public final class PgErrors {
    /** SQLSTATE serialization_failure. */
    public static final String SERIALIZATION_FAILURE = "40001";
    /** SQLSTATE deadlock_detected. */
    public static final String DEADLOCK_DETECTED = "40P01";

    private PgErrors() {
    }

    /** True for SQLSTATE 40001 and 40P01 (anywhere in the exception's chain of next exceptions). */
    public static boolean retryable(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            String s = x.getSQLState();
            if (SERIALIZATION_FAILURE.equals(s) || DEADLOCK_DETECTED.equals(s)) {
                return true;
            }
        }
        return false;
    }

    /** True if the connection or the server is gone (SQLSTATE class 08, or 57P01/57P02/57P03). */
    public static boolean connectionLost(SQLException e) {
        String s = e.getSQLState();
        return s != null && (s.startsWith("08") || s.equals("57P01") || s.equals("57P02") || s.equals("57P03"));
    }

    /**
     * The abort reason the driver counts for a retryable error: the SQLSTATE's condition name (digits would be
     * blanked by the driver's abort-reason categories), the server's message and, for serialization failures, the
     * reason code of its detail (e.g. {@code serialization_failure: could not serialize access due to read/write
     * dependencies among transactions (Canceled on identification as a pivot, during commit attempt.)}). Process
     * ids of deadlock details are left out.
     */
    public static String abortReason(SQLException e) {
        String state = e.getSQLState();
        String message = e.getMessage();
        String detail = null;
        if (e instanceof PSQLException p && p.getServerErrorMessage() != null) {
            ServerErrorMessage m = p.getServerErrorMessage();
            message = m.getMessage();
            detail = m.getDetail();
        }
        String condition = SERIALIZATION_FAILURE.equals(state) ? "serialization_failure"
                : DEADLOCK_DETECTED.equals(state) ? "deadlock_detected" : "SQLSTATE " + state;
        StringBuilder b = new StringBuilder(condition).append(": ").append(message);
        if (SERIALIZATION_FAILURE.equals(state) && detail != null) {
            b.append(" (").append(detail.replace("Reason code: ", "")).append(')');
        }
        return b.toString();
    }
}
