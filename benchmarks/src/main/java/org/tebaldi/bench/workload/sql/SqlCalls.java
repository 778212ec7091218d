package org.tebaldi.bench.workload.sql;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.tebaldi.core.txn.Inputs;

/** Statement helpers shared by the SQL implementations: parameters from longs or a request's {@link Inputs}. */
public final class SqlCalls {
    private SqlCalls() {
    }

    /**
     * Runs the session's prepared {@code sql} with {@code args} as bigint parameters 1, 2, ...
     *
     * @return the open result set (the caller closes it)
     * @throws SQLException from the server
     */
    public static ResultSet query(SqlSession s, String sql, long... args) throws SQLException {
        PreparedStatement ps = s.prepare(sql);
        for (int i = 0; i < args.length; i++) {
            ps.setLong(i + 1, args[i]);
        }
        return ps.executeQuery();
    }

    /**
     * Runs a one-column, one-row query (typically a stored-function call) with the inputs as parameters in order
     * (Double as {@code double precision}, any other Number as {@code bigint}).
     *
     * @return the value of the first column of the first row
     * @throws SQLException from the server
     * @throws IllegalStateException if the query returned no row
     */
    public static Object scalar(SqlSession s, String sql, Inputs in) throws SQLException {
        PreparedStatement ps = s.prepare(sql);
        for (int i = 0; i < in.size(); i++) {
            Object v = in.get(i);
            if (v instanceof Double d) {
                ps.setDouble(i + 1, d);
            } else {
                ps.setLong(i + 1, ((Number) v).longValue());
            }
        }
        try (ResultSet r = ps.executeQuery()) {
            if (!r.next()) {
                throw new IllegalStateException("no row from " + sql);
            }
            return r.getObject(1);
        }
    }
}
