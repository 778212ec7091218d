package org.tebaldi.bench.tpcc;

import java.util.Objects;

/**
 * Scale and mix of a TPC-C database (TPC-C §1.2, §4.2, §5.2.3; dissertation §4.6). Immutable; the {@code with*}
 * methods return modified copies. {@link #spec(int)} gives the specification's cardinalities; the other knobs
 * shrink the database for tests.
 *
 * @param warehouses           W, at least 1 (dissertation default: 10)
 * @param items                rows of {@code item}, and of {@code stock} per warehouse (spec: 100,000)
 * @param customersPerDistrict customers per district (spec: 3,000)
 * @param ordersPerDistrict    initial orders per district (spec: 3,000); the last 30% (spec: 900) are
 *                             undelivered and have a {@code new_order} row
 * @param mix                  the transaction mix ({@link TpccMix#HOT_ITEM} also registers {@code hot_item} and
 *                             loads {@code item_stats})
 * @param seed                 seeds the loader, the NURand constants and (combined with each client's own seed)
 *                             the input generators
 */
public record TpccConfig(int warehouses, int items, int customersPerDistrict, int ordersPerDistrict, TpccMix mix,
                         long seed) {
    /** Districts per warehouse (TPC-C §1.2.1; fixed, not a knob). */
    public static final int DISTRICTS = 10;
    /** Spec cardinalities (TPC-C §1.2.1, §4.3.3.1): items, customers and orders per district, new orders. */
    public static final int SPEC_ITEMS = 100_000;
    public static final int SPEC_CUSTOMERS = 3_000;
    public static final int SPEC_ORDERS = 3_000;
    public static final int SPEC_NEW_ORDERS = 900;

    /** @throws IllegalArgumentException on a count below 1 or a null mix */
    public TpccConfig {
        Objects.requireNonNull(mix, "mix");
        if (warehouses < 1 || items < 1 || customersPerDistrict < 1 || ordersPerDistrict < 1) {
            throw new IllegalArgumentException("TPC-C scale must be at least 1 everywhere: warehouses=" + warehouses
                    + " items=" + items + " customersPerDistrict=" + customersPerDistrict + " ordersPerDistrict="
                    + ordersPerDistrict);
        }
        if (items > 100_000_000 || customersPerDistrict > 10_000_000 || ordersPerDistrict > 100_000_000) {
            throw new IllegalArgumentException("TPC-C scale too large: items=" + items + " customersPerDistrict="
                    + customersPerDistrict + " ordersPerDistrict=" + ordersPerDistrict);
        }
    }

    /** The specification's database for {@code warehouses} warehouses, standard mix, seed 1. */
    public static TpccConfig spec(int warehouses) {
        return new TpccConfig(warehouses, SPEC_ITEMS, SPEC_CUSTOMERS, SPEC_ORDERS, TpccMix.STANDARD, 1L);
    }

    /** The dissertation's database (§4.6): 10 warehouses at spec scale. */
    public static TpccConfig dissertation() {
        return spec(10);
    }

    /**
     * Undelivered orders per district: {@code ordersPerDistrict * 900 / 3000} rounded down (TPC-C §4.3.3.1: 900
     * of 3,000).
     */
    public int newOrdersPerDistrict() {
        return (int) ((long) ordersPerDistrict * SPEC_NEW_ORDERS / SPEC_ORDERS);
    }

    /** First undelivered order id of a district at load time: {@code ordersPerDistrict - newOrders + 1}. */
    public int firstUndeliveredOrder() {
        return ordersPerDistrict - newOrdersPerDistrict() + 1;
    }

    /** A copy with {@code w} warehouses. */
    public TpccConfig withWarehouses(int w) {
        return new TpccConfig(w, items, customersPerDistrict, ordersPerDistrict, mix, seed);
    }

    /** A copy with {@code n} items (and stock rows per warehouse). */
    public TpccConfig withItems(int n) {
        return new TpccConfig(warehouses, n, customersPerDistrict, ordersPerDistrict, mix, seed);
    }

    /** A copy with {@code n} customers per district. */
    public TpccConfig withCustomersPerDistrict(int n) {
        return new TpccConfig(warehouses, items, n, ordersPerDistrict, mix, seed);
    }

    /** A copy with {@code n} initial orders per district. */
    public TpccConfig withOrdersPerDistrict(int n) {
        return new TpccConfig(warehouses, items, customersPerDistrict, n, mix, seed);
    }

    /** A copy with another mix. */
    public TpccConfig withMix(TpccMix m) {
        return new TpccConfig(warehouses, items, customersPerDistrict, ordersPerDistrict, m, seed);
    }

    /** A copy with another seed. */
    public TpccConfig withSeed(long s) {
        return new TpccConfig(warehouses, items, customersPerDistrict, ordersPerDistrict, mix, s);
    }
}
