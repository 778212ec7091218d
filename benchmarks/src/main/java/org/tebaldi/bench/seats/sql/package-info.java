/**
 * SEATS in SQL for {@code target: postgresql} (the baseline of dissertation Table 5.2): the Tebaldi version's
 * tables, data and transaction logic as PL/pgSQL functions and client-issued statements, and its consistency
 * conditions as queries. Entry point {@link org.tebaldi.bench.seats.sql.SeatsSql}, registered by
 * {@link org.tebaldi.bench.seats.sql.SeatsSqlProvider}.
 */
package org.tebaldi.bench.seats.sql;
