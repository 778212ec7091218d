/**
 * SEATS, the airline-reservation benchmark (Stonebraker and Pavlo; benchbase's transaction logic), adapted to the
 * key-value store as in dissertation §4.6.2 and §5.6.2 and docs/experiments.md: 50 flights of 30,000 seats, no
 * customer-name or range scans (secondary-index tables {@code reservation_seat} by (flight, seat) and
 * {@code reservation_customer} by (customer, flight) replace them), {@code find_open_seats} reads 30 seats.
 *
 * <p>Transaction types: {@link org.tebaldi.bench.seats.NewReservation}, {@link org.tebaldi.bench.seats.DeleteReservation}
 * and {@link org.tebaldi.bench.seats.UpdateReservation} are stored procedures with a {@code flight_id} input, so a CC
 * tree can partition them by flight (one TSO instance per flight, Fig 5.15);
 * {@link org.tebaldi.bench.seats.UpdateCustomer}, {@link org.tebaldi.bench.seats.FindFlights} and
 * {@link org.tebaldi.bench.seats.FindOpenSeats} are interactive and declare their table-access order. Mix
 * ({@link org.tebaldi.bench.seats.SeatsMix}): delete_reservation 10%, find_flights 10%, find_open_seats 35%,
 * new_reservation 20%, update_customer 10%, update_reservation 15%.
 *
 * <p>Files: schema ({@code SeatsSchema}), scale ({@code SeatsConfig}), the deterministic initial layout shared by
 * loader and clients ({@code SeatsLayout}), loader ({@code SeatsLoader}), one class per transaction, input
 * generator ({@code SeatsClient}), consistency conditions ({@code SeatsConsistency}), and the experiment adapter
 * ({@code SeatsWorkload}, {@code SeatsFactory}).
 */
package org.tebaldi.bench.seats;
