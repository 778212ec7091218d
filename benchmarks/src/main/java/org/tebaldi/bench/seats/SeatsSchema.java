package org.tebaldi.bench.seats;

import static org.tebaldi.core.model.Catalog.longCol;
import static org.tebaldi.core.model.Catalog.stringCol;

import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.TableSchema;

/**
 * The SEATS tables adapted to the key-value store (dissertation §4.6.2, docs/experiments.md). Keys are tuples of longs;
 * money is a LONG in cents (so balances add up exactly), times are LONG epoch milliseconds.
 *
 * <pre>
 * table                 key                 columns                                         partitioned by
 * airport               (ap_id)             ap_code ap_name ap_flights                      ap_id
 * airport_flights       (ap_id, k)          af_f_id                                         ap_id
 * flight                (f_id)              f_depart_ap_id f_arrive_ap_id f_depart_time     f_id
 *                                           f_base_price f_seats_total f_seats_left
 * customer              (c_id)              c_id_str c_base_ap_id c_balance c_iattr00       c_id
 *                                           c_iattr01 c_reservations
 * reservation           (f_id, r_id)        r_c_id r_seat r_price r_iattr00                 f_id
 * reservation_seat      (f_id, seat)        rs_r_id rs_c_id                                 f_id
 * reservation_customer  (c_id, f_id)        rc_r_id rc_seat                                 f_id
 * </pre>
 *
 * <p>Adaptations: {@code airport_flights} lists the {@code ap_flights} flights departing from an airport (it replaces
 * find_flights' range scan of flights by departure airport); {@code reservation_seat} and
 * {@code reservation_customer} are the secondary indexes that replace benchbase's {@code WHERE R_F_ID = ? AND
 * R_SEAT = ?} and {@code WHERE R_F_ID = ? AND R_C_ID = ?} lookups (a customer holds at most one seat per flight).
 * {@code c_reservations} counts a customer's reservations (benchbase's C_IATTR10); {@code c_balance} is charged
 * the price at new_reservation and refunded at delete_reservation. No airline, country, airport-distance or
 * frequent-flyer tables: no transaction of the adapted mix needs them.
 */
public final class SeatsSchema {
    /** Table names (see the class doc). */
    public static final String AIRPORT = "airport";
    public static final String AIRPORT_FLIGHTS = "airport_flights";
    public static final String FLIGHT = "flight";
    public static final String CUSTOMER = "customer";
    public static final String RESERVATION = "reservation";
    public static final String RESERVATION_SEAT = "reservation_seat";
    public static final String RESERVATION_CUSTOMER = "reservation_customer";

    private final Catalog catalog = new Catalog();
    private final TableSchema airport;
    private final TableSchema airportFlights;
    private final TableSchema flight;
    private final TableSchema customer;
    private final TableSchema reservation;
    private final TableSchema reservationSeat;
    private final TableSchema reservationCustomer;

    /** Builds the catalog; table ids are dense, in the order of the class doc. */
    public SeatsSchema() {
        airport = catalog.add(AIRPORT, 1, 0, false, stringCol("ap_code"), stringCol("ap_name"),
                longCol("ap_flights"));
        airportFlights = catalog.add(AIRPORT_FLIGHTS, 2, 0, false, longCol("af_f_id"));
        flight = catalog.add(FLIGHT, 1, 0, false, longCol("f_depart_ap_id"), longCol("f_arrive_ap_id"),
                longCol("f_depart_time"), longCol("f_base_price"), longCol("f_seats_total"), longCol("f_seats_left"));
        customer = catalog.add(CUSTOMER, 1, 0, false, stringCol("c_id_str"), longCol("c_base_ap_id"),
                longCol("c_balance"), longCol("c_iattr00"), longCol("c_iattr01"), longCol("c_reservations"));
        reservation = catalog.add(RESERVATION, 2, 0, false, longCol("r_c_id"), longCol("r_seat"), longCol("r_price"),
                longCol("r_iattr00"));
        reservationSeat = catalog.add(RESERVATION_SEAT, 2, 0, false, longCol("rs_r_id"), longCol("rs_c_id"));
        reservationCustomer = catalog.add(RESERVATION_CUSTOMER, 2, 1, false, longCol("rc_r_id"), longCol("rc_seat"));
    }

    /** The catalog of all tables. */
    public Catalog catalog() {
        return catalog;
    }

    /** Table {@code airport}. */
    public TableSchema airport() {
        return airport;
    }

    /** Table {@code airport_flights}. */
    public TableSchema airportFlights() {
        return airportFlights;
    }

    /** Table {@code flight}. */
    public TableSchema flight() {
        return flight;
    }

    /** Table {@code customer}. */
    public TableSchema customer() {
        return customer;
    }

    /** Table {@code reservation}. */
    public TableSchema reservation() {
        return reservation;
    }

    /** Table {@code reservation_seat}. */
    public TableSchema reservationSeat() {
        return reservationSeat;
    }

    /** Table {@code reservation_customer}. */
    public TableSchema reservationCustomer() {
        return reservationCustomer;
    }
}
