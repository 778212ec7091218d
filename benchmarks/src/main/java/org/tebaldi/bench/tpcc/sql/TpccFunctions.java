package org.tebaldi.bench.tpcc.sql;

import java.util.List;

/**
 * The TPC-C stored procedures (new_order, payment, delivery, hot_item) as PL/pgSQL functions, one statement each,
 * written to do exactly what the Tebaldi stored procedures {@link org.tebaldi.bench.tpcc.NewOrder},
 * {@link org.tebaldi.bench.tpcc.Payment}, {@link org.tebaldi.bench.tpcc.Delivery} and
 * {@link org.tebaldi.bench.tpcc.HotItem} do, with the same adaptations (dissertation §4.6): customers by id (no
 * last-name scan), the {@code customer_last_order} index written by new_order, the {@code district_deliv} cursor
 * instead of the scan for the oldest new order, no rolled-back new orders, c_data grown without truncation.
 *
 * <p>Two differences of form, not of effect: new_order updates the stock rows in (supply warehouse, item) order
 * — the lines keep their numbers — so that two new orders never deadlock on stock rows; and delivery stamps an
 * order's lines and sums their amounts with one UPDATE (checking that it touched {@code o_ol_cnt} lines) instead of
 * one update per line. A missing row raises an exception (SQLSTATE P0001, an error, not retried), as the Tebaldi
 * procedures abort.
 *
 * <p>Row locks: each row a function both reads and writes (district in new_order; warehouse, district and customer
 * in payment; the cursor, order and customer in delivery; stock) is read by the {@code UPDATE ... RETURNING} that
 * writes it, or by {@code SELECT ... FOR UPDATE} (the delivery cursor), so the read already holds the row lock —
 * what BenchBase's {@code SELECT ... FOR UPDATE} before an {@code UPDATE} achieves. No further {@code FOR UPDATE}
 * or {@code FOR SHARE} is taken: at SERIALIZABLE, PostgreSQL fails a transaction that locks or updates a row
 * changed by a transaction that committed after its snapshot (first updater wins), so a row lock cannot make two
 * updaters of one row queue and both commit; and a {@code FOR SHARE} on new_order's read of the warehouse row
 * would make a new_order that meets a payment's uncommitted {@code w_ytd} update wait for it and then fail, where
 * the plain read takes the previous version and both commit.
 */
final class TpccFunctions {
    private TpccFunctions() {
    }

    /** {@code CREATE FUNCTION} statements. */
    static List<String> create(boolean hotItem) {
        return hotItem ? List.of(NEW_ORDER, PAYMENT, DELIVERY, HOT_ITEM) : List.of(NEW_ORDER, PAYMENT, DELIVERY);
    }

    /** Call of new_order: w, d, c, items[], supply_w_ids[], quantities[], o_entry_d; returns (o_id, total). */
    static final String CALL_NEW_ORDER = "SELECT * FROM tpcc_new_order(?, ?, ?, ?, ?, ?, ?)";
    /** Call of payment: w, d, c_w, c_d, c, amount, h_seq, h_date; returns c_balance. */
    static final String CALL_PAYMENT = "SELECT tpcc_payment(?, ?, ?, ?, ?, ?, ?, ?)";
    /** Call of delivery: w, carrier, delivery date; returns districts delivered. */
    static final String CALL_DELIVERY = "SELECT tpcc_delivery(?, ?, ?)";
    /** Call of hot_item: w, d; returns the sampled order id. */
    static final String CALL_HOT_ITEM = "SELECT tpcc_hot_item(?, ?)";

    private static final String NEW_ORDER = """
            CREATE FUNCTION tpcc_new_order(p_w_id bigint, p_d_id bigint, p_c_id bigint, p_item_ids bigint[],
                p_supply_w_ids bigint[], p_quantities bigint[], p_o_entry_d bigint)
            RETURNS TABLE (out_o_id bigint, out_total double precision) LANGUAGE plpgsql AS $$
            DECLARE
              v_w_tax double precision;
              v_d_tax double precision;
              v_discount double precision;
              v_o_id bigint;
              v_n int := coalesce(array_length(p_item_ids, 1), 0);
              v_all_local bigint := 1;
              v_total double precision := 0;
              v_k int;
              v_price double precision;
              v_dist text;
              v_amount double precision;
            BEGIN
              SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
              IF NOT FOUND THEN RAISE EXCEPTION 'new_order: no such warehouse %', p_w_id; END IF;
              UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id
                RETURNING d_next_o_id - 1, d_tax INTO v_o_id, v_d_tax;
              IF NOT FOUND THEN RAISE EXCEPTION 'new_order: no such district (%, %)', p_w_id, p_d_id; END IF;
              SELECT c_discount INTO v_discount FROM customer
                WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
              IF NOT FOUND THEN RAISE EXCEPTION 'new_order: no such customer %', p_c_id; END IF;
              FOR v_k IN 1 .. v_n LOOP
                IF p_supply_w_ids[v_k] <> p_w_id THEN v_all_local := 0; END IF;
              END LOOP;
              INSERT INTO oorder (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
                VALUES (p_w_id, p_d_id, v_o_id, p_c_id, p_o_entry_d, NULL, v_n, v_all_local);
              INSERT INTO new_order (no_w_id, no_d_id, no_o_id) VALUES (p_w_id, p_d_id, v_o_id);
              INSERT INTO customer_last_order (clo_w_id, clo_d_id, clo_c_id, clo_o_id)
                VALUES (p_w_id, p_d_id, p_c_id, v_o_id)
                ON CONFLICT (clo_w_id, clo_d_id, clo_c_id) DO UPDATE SET clo_o_id = EXCLUDED.clo_o_id;
              FOR v_k IN SELECT x.k FROM unnest(p_supply_w_ids, p_item_ids) WITH ORDINALITY AS x(sw, it, k)
                         ORDER BY x.sw, x.it LOOP
                SELECT i_price INTO v_price FROM item WHERE i_id = p_item_ids[v_k];
                IF NOT FOUND THEN RAISE EXCEPTION 'new_order: unknown item %', p_item_ids[v_k]; END IF;
                UPDATE stock SET
                    s_quantity = CASE WHEN s_quantity >= p_quantities[v_k] + 10 THEN s_quantity - p_quantities[v_k]
                                      ELSE s_quantity - p_quantities[v_k] + 91 END,
                    s_ytd = s_ytd + p_quantities[v_k],
                    s_order_cnt = s_order_cnt + 1,
                    s_remote_cnt = s_remote_cnt + CASE WHEN p_supply_w_ids[v_k] = p_w_id THEN 0 ELSE 1 END
                  WHERE s_w_id = p_supply_w_ids[v_k] AND s_i_id = p_item_ids[v_k]
                  RETURNING CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
                                        WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
                                        WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
                                        ELSE s_dist_10 END
                  INTO v_dist;
                IF NOT FOUND THEN RAISE EXCEPTION 'new_order: no stock row'; END IF;
                v_amount := p_quantities[v_k] * v_price;
                v_total := v_total + v_amount;
                INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
                                        ol_quantity, ol_amount, ol_dist_info)
                  VALUES (p_w_id, p_d_id, v_o_id, v_k, p_item_ids[v_k], p_supply_w_ids[v_k], NULL, p_quantities[v_k],
                          v_amount, v_dist);
              END LOOP;
              out_o_id := v_o_id;
              out_total := v_total * ((1.0 - v_discount) * (1.0 + (v_w_tax + v_d_tax)));
              RETURN NEXT;
            END $$""";

    private static final String PAYMENT = """
            CREATE FUNCTION tpcc_payment(p_w_id bigint, p_d_id bigint, p_c_w_id bigint, p_c_d_id bigint, p_c_id bigint,
                p_h_amount double precision, p_h_seq bigint, p_h_date bigint)
            RETURNS double precision LANGUAGE plpgsql AS $$
            DECLARE
              v_w_name text;
              v_d_name text;
              v_balance double precision;
            BEGIN
              UPDATE warehouse SET w_ytd = w_ytd + p_h_amount WHERE w_id = p_w_id RETURNING w_name INTO v_w_name;
              IF NOT FOUND THEN RAISE EXCEPTION 'payment: no such warehouse %', p_w_id; END IF;
              UPDATE district SET d_ytd = d_ytd + p_h_amount WHERE d_w_id = p_w_id AND d_id = p_d_id
                RETURNING d_name INTO v_d_name;
              IF NOT FOUND THEN RAISE EXCEPTION 'payment: no such district (%, %)', p_w_id, p_d_id; END IF;
              UPDATE customer SET
                  c_balance = c_balance - p_h_amount,
                  c_ytd_payment = c_ytd_payment + p_h_amount,
                  c_payment_cnt = c_payment_cnt + 1,
                  c_data = CASE WHEN c_credit = 'BC'
                                THEN p_c_id || ' ' || p_c_d_id || ' ' || p_c_w_id || ' ' || p_d_id || ' ' || p_w_id
                                     || ' ' || p_h_amount || '|' || c_data
                                ELSE c_data END
                WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = p_c_id
                RETURNING c_balance INTO v_balance;
              IF NOT FOUND THEN RAISE EXCEPTION 'payment: no such customer %', p_c_id; END IF;
              INSERT INTO history (h_c_w_id, h_c_d_id, h_c_id, h_seq, h_d_id, h_w_id, h_date, h_amount, h_data)
                VALUES (p_c_w_id, p_c_d_id, p_c_id, p_h_seq, p_d_id, p_w_id, p_h_date, p_h_amount,
                        v_w_name || '    ' || v_d_name);
              RETURN v_balance;
            END $$""";

    private static final String DELIVERY = """
            CREATE FUNCTION tpcc_delivery(p_w_id bigint, p_o_carrier_id bigint, p_ol_delivery_d bigint)
            RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
              v_o_id bigint;
              v_c_id bigint;
              v_ol_cnt bigint;
              v_lines bigint;
              v_sum double precision;
              v_delivered bigint := 0;
            BEGIN
              FOR v_d IN 1 .. 10 LOOP
                SELECT d_next_deliv_o_id INTO v_o_id FROM district_deliv
                  WHERE dd_w_id = p_w_id AND dd_d_id = v_d FOR UPDATE;
                IF NOT FOUND THEN RAISE EXCEPTION 'delivery: no delivery cursor (%, %)', p_w_id, v_d; END IF;
                DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_o_id;
                IF FOUND THEN
                  UPDATE district_deliv SET d_next_deliv_o_id = d_next_deliv_o_id + 1
                    WHERE dd_w_id = p_w_id AND dd_d_id = v_d;
                  UPDATE oorder SET o_carrier_id = p_o_carrier_id
                    WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id
                    RETURNING o_c_id, o_ol_cnt INTO v_c_id, v_ol_cnt;
                  IF NOT FOUND THEN RAISE EXCEPTION 'delivery: new_order row without its order'; END IF;
                  WITH u AS (UPDATE order_line SET ol_delivery_d = p_ol_delivery_d
                             WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id AND ol_number <= v_ol_cnt
                             RETURNING ol_amount)
                    SELECT count(*), coalesce(sum(ol_amount), 0.0) INTO v_lines, v_sum FROM u;
                  IF v_lines <> v_ol_cnt THEN RAISE EXCEPTION 'delivery: order line missing'; END IF;
                  UPDATE customer SET c_balance = c_balance + v_sum, c_delivery_cnt = c_delivery_cnt + 1
                    WHERE c_w_id = p_w_id AND c_d_id = v_d AND c_id = v_c_id;
                  IF NOT FOUND THEN RAISE EXCEPTION 'delivery: order''s customer missing'; END IF;
                  v_delivered := v_delivered + 1;
                END IF;
              END LOOP;
              RETURN v_delivered;
            END $$""";

    private static final String HOT_ITEM = """
            CREATE FUNCTION tpcc_hot_item(p_w_id bigint, p_d_id bigint)
            RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
              v_o_id bigint;
              v_cnt bigint;
              v_i_id bigint;
            BEGIN
              SELECT d_next_o_id - 1 INTO v_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
              IF NOT FOUND THEN RAISE EXCEPTION 'hot_item: no such district'; END IF;
              SELECT o_ol_cnt INTO v_cnt FROM oorder WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_id = v_o_id;
              IF NOT FOUND THEN RAISE EXCEPTION 'hot_item: latest order missing'; END IF;
              FOR v_ol IN 1 .. v_cnt LOOP
                SELECT ol_i_id INTO v_i_id FROM order_line
                  WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o_id AND ol_number = v_ol;
                IF NOT FOUND THEN RAISE EXCEPTION 'hot_item: order line missing'; END IF;
                UPDATE item_stats SET is_count = is_count + 1 WHERE is_i_id = v_i_id;
                IF NOT FOUND THEN RAISE EXCEPTION 'hot_item: no item_stats row (load with the hot_item mix)'; END IF;
              END LOOP;
              RETURN v_o_id;
            END $$""";
}
