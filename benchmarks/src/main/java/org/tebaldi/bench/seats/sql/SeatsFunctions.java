package org.tebaldi.bench.seats.sql;

import java.util.List;

/**
 * The SEATS stored procedures (new_reservation, delete_reservation, update_reservation) as PL/pgSQL functions, one
 * statement each, doing exactly what the Tebaldi stored procedures {@link org.tebaldi.bench.seats.NewReservation},
 * {@link org.tebaldi.bench.seats.DeleteReservation} and {@link org.tebaldi.bench.seats.UpdateReservation} do, in the
 * same order: the same index reads ({@code reservation_seat}, {@code reservation_customer}) decide whether anything
 * is written; the flight's {@code f_seats_left} is updated right after those checks; the price is
 * {@code base + base * taken / total} cents in integer arithmetic; a reservation that finds nothing to do commits
 * without writing and returns 0. A missing flight, customer or reservation, or an overbooked flight, raises an
 * exception (SQLSTATE P0001, an error, not retried), as the Tebaldi procedures abort.
 *
 * <p>A Tebaldi write of an absent row is an insert here: each inserted key was read absent earlier in the same
 * function, so a concurrent insert of the same key is a serialization failure (PostgreSQL reports SQLSTATE 40001
 * rather than a unique violation when the transaction had read the key's absence), retried like any abort.
 */
final class SeatsFunctions {
    private SeatsFunctions() {
    }

    /** {@code CREATE FUNCTION} statements. */
    static List<String> create() {
        return List.of(NEW_RESERVATION, DELETE_RESERVATION, UPDATE_RESERVATION);
    }

    /** Call of new_reservation: flight_id, c_id, seat, r_id; returns reserved (1 or 0). */
    static final String CALL_NEW_RESERVATION = "SELECT seats_new_reservation(?, ?, ?, ?)";
    /** Call of delete_reservation: flight_id, c_id; returns deleted (1 or 0). */
    static final String CALL_DELETE_RESERVATION = "SELECT seats_delete_reservation(?, ?)";
    /** Call of update_reservation: flight_id, c_id, seat, attr; returns moved (1 or 0). */
    static final String CALL_UPDATE_RESERVATION = "SELECT seats_update_reservation(?, ?, ?, ?)";

    private static final String NEW_RESERVATION = """
            CREATE FUNCTION seats_new_reservation(p_f_id bigint, p_c_id bigint, p_seat bigint, p_r_id bigint)
            RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
              v_seat_taken boolean;
              v_holds_seat boolean;
              v_base bigint;
              v_total bigint;
              v_left bigint;
              v_price bigint;
            BEGIN
              PERFORM 1 FROM reservation_seat WHERE rs_f_id = p_f_id AND rs_seat = p_seat;
              v_seat_taken := FOUND;
              PERFORM 1 FROM reservation_customer WHERE rc_c_id = p_c_id AND rc_f_id = p_f_id;
              v_holds_seat := FOUND;
              IF v_seat_taken OR v_holds_seat THEN RETURN 0; END IF;
              UPDATE flight SET f_seats_left = f_seats_left - 1 WHERE f_id = p_f_id
                RETURNING f_base_price, f_seats_total, f_seats_left INTO v_base, v_total, v_left;
              IF NOT FOUND THEN RAISE EXCEPTION 'new_reservation: no such flight %', p_f_id; END IF;
              IF v_left < 0 THEN RAISE EXCEPTION 'new_reservation: flight % overbooked', p_f_id; END IF;
              v_price := v_base + (v_base * (v_total - v_left)) / v_total;
              UPDATE customer SET c_balance = c_balance - v_price, c_reservations = c_reservations + 1
                WHERE c_id = p_c_id;
              IF NOT FOUND THEN RAISE EXCEPTION 'new_reservation: no such customer %', p_c_id; END IF;
              INSERT INTO reservation (r_f_id, r_id, r_c_id, r_seat, r_price, r_iattr00)
                VALUES (p_f_id, p_r_id, p_c_id, p_seat, v_price, 0);
              INSERT INTO reservation_seat (rs_f_id, rs_seat, rs_r_id, rs_c_id) VALUES (p_f_id, p_seat, p_r_id, p_c_id);
              INSERT INTO reservation_customer (rc_c_id, rc_f_id, rc_r_id, rc_seat)
                VALUES (p_c_id, p_f_id, p_r_id, p_seat);
              RETURN 1;
            END $$""";

    private static final String DELETE_RESERVATION = """
            CREATE FUNCTION seats_delete_reservation(p_f_id bigint, p_c_id bigint)
            RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
              v_r_id bigint;
              v_seat bigint;
              v_price bigint;
            BEGIN
              SELECT rc_r_id, rc_seat INTO v_r_id, v_seat FROM reservation_customer
                WHERE rc_c_id = p_c_id AND rc_f_id = p_f_id;
              IF NOT FOUND THEN RETURN 0; END IF;
              UPDATE flight SET f_seats_left = f_seats_left + 1 WHERE f_id = p_f_id;
              IF NOT FOUND THEN RAISE EXCEPTION 'delete_reservation: no such flight %', p_f_id; END IF;
              SELECT r_price INTO v_price FROM reservation WHERE r_f_id = p_f_id AND r_id = v_r_id;
              IF NOT FOUND THEN
                RAISE EXCEPTION 'delete_reservation: reservation_customer names a missing reservation %', v_r_id;
              END IF;
              UPDATE customer SET c_balance = c_balance + v_price, c_reservations = c_reservations - 1
                WHERE c_id = p_c_id;
              IF NOT FOUND THEN RAISE EXCEPTION 'delete_reservation: no such customer %', p_c_id; END IF;
              DELETE FROM reservation WHERE r_f_id = p_f_id AND r_id = v_r_id;
              DELETE FROM reservation_seat WHERE rs_f_id = p_f_id AND rs_seat = v_seat;
              DELETE FROM reservation_customer WHERE rc_c_id = p_c_id AND rc_f_id = p_f_id;
              RETURN 1;
            END $$""";

    private static final String UPDATE_RESERVATION = """
            CREATE FUNCTION seats_update_reservation(p_f_id bigint, p_c_id bigint, p_seat bigint, p_attr bigint)
            RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
              v_seat_taken boolean;
              v_r_id bigint;
              v_old_seat bigint;
            BEGIN
              PERFORM 1 FROM reservation_seat WHERE rs_f_id = p_f_id AND rs_seat = p_seat;
              v_seat_taken := FOUND;
              SELECT rc_r_id, rc_seat INTO v_r_id, v_old_seat FROM reservation_customer
                WHERE rc_c_id = p_c_id AND rc_f_id = p_f_id;
              IF v_seat_taken OR NOT FOUND THEN RETURN 0; END IF;
              UPDATE reservation SET r_seat = p_seat, r_iattr00 = p_attr WHERE r_f_id = p_f_id AND r_id = v_r_id;
              IF NOT FOUND THEN
                RAISE EXCEPTION 'update_reservation: reservation_customer names a missing reservation %', v_r_id;
              END IF;
              DELETE FROM reservation_seat WHERE rs_f_id = p_f_id AND rs_seat = v_old_seat;
              INSERT INTO reservation_seat (rs_f_id, rs_seat, rs_r_id, rs_c_id) VALUES (p_f_id, p_seat, v_r_id, p_c_id);
              UPDATE reservation_customer SET rc_seat = p_seat WHERE rc_c_id = p_c_id AND rc_f_id = p_f_id;
              RETURN 1;
            END $$""";
}
