package org.tebaldi.bench.tpcc;

import java.util.List;

/**
 * A transaction mix: transaction type names and their shares, in per-mille (they sum to 1000).
 *
 * <ul>
 *   <li>{@link #STANDARD}: TPC-C §5.2.3 minimum mix as used by the dissertation (§4.6, docs/experiments.md): 45%
 *       new_order, 43% payment, 4% each of delivery, order_status and stock_level.</li>
 *   <li>{@link #HOT_ITEM}: the extensibility experiment of dissertation §4.6.3 (Fig 4.9): 41.8% new_order,
 *       41.8% payment, 4.1% each of delivery, order_status, stock_level and hot_item.</li>
 *   <li>{@link #NEW_ORDER_PAYMENT}: COCO's TPC-C (Lu et al. VLDB 2021, §7.1): only new_order and payment, 50% each
 *       (88% of the standard mix; the other three need range scans there).</li>
 *   <li>{@link #READ_HEAVY}: the read-only share raised to TPC-E's 79% (DST, NSDI 2021, §5): 10% new_order, 10%
 *       payment, 1% delivery, 39.5% each of order_status and stock_level (with the workload option
 *       {@code stockLevelDistricts: 20}, each stock_level scans 20 districts, as DST evaluates).</li>
 * </ul>
 */
public enum TpccMix {
    STANDARD(List.of(NewOrder.NAME, Payment.NAME, Delivery.NAME, OrderStatus.NAME, StockLevel.NAME),
            new int[] {450, 430, 40, 40, 40}),
    HOT_ITEM(List.of(NewOrder.NAME, Payment.NAME, Delivery.NAME, OrderStatus.NAME, StockLevel.NAME, HotItem.NAME),
            new int[] {418, 418, 41, 41, 41, 41}),
    NEW_ORDER_PAYMENT(List.of(NewOrder.NAME, Payment.NAME), new int[] {500, 500}),
    READ_HEAVY(List.of(NewOrder.NAME, Payment.NAME, Delivery.NAME, OrderStatus.NAME, StockLevel.NAME),
            new int[] {100, 100, 10, 395, 395});

    private final List<String> types;
    private final int[] perMille;

    TpccMix(List<String> types, int[] perMille) {
        this.types = types;
        this.perMille = perMille;
        int sum = 0;
        for (int p : perMille) {
            sum += p;
        }
        if (sum != 1000 || perMille.length != types.size()) {
            throw new IllegalStateException("mix " + name() + " does not sum to 1000 per mille");
        }
    }

    /** The transaction type names of this mix, in declaration order. */
    public List<String> types() {
        return types;
    }

    /** Share of {@code type} in per-mille (0 if the type is not in this mix). */
    public int perMille(String type) {
        int i = types.indexOf(type);
        return i < 0 ? 0 : perMille[i];
    }

    /**
     * The type drawn for a uniform number.
     *
     * @param draw uniform in [0, 1000)
     * @throws IllegalArgumentException if {@code draw} is out of range
     */
    public String pick(int draw) {
        if (draw < 0 || draw >= 1000) {
            throw new IllegalArgumentException("draw must be in [0, 1000), got " + draw);
        }
        int acc = 0;
        for (int i = 0; i < perMille.length; i++) {
            acc += perMille[i];
            if (draw < acc) {
                return types.get(i);
            }
        }
        throw new AssertionError("unreachable");
    }

    /**
     * The mix named {@code name}: {@code standard}, {@code hot_item}, {@code new_order_payment} or {@code read_heavy}
     * (case-insensitive, '-' or '_').
     *
     * @throws IllegalArgumentException for another name, listing the valid ones
     */
    public static TpccMix parse(String name) {
        String n = name.trim().toLowerCase().replace('-', '_');
        return switch (n) {
            case "standard" -> STANDARD;
            case "hot_item" -> HOT_ITEM;
            case "new_order_payment" -> NEW_ORDER_PAYMENT;
            case "read_heavy" -> READ_HEAVY;
            default -> throw new IllegalArgumentException("unknown TPC-C mix '" + name
                    + "'; mixes: standard, hot_item, new_order_payment, read_heavy");
        };
    }
}
