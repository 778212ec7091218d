package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tebaldi run --dump DIR} on a small TPC-C run: every table is a CSV with a header, and TPC-C's consistency
 * conditions 1 and 2 (TPC-C §3.3.2.1, §3.3.2.2) hold when checked from the CSV files alone — the way a researcher
 * would check an invariant with their own tools.
 */
class RunDumpTest {
    @TempDir
    Path tmp;

    @Test
    void dumpsEveryTpccTableAndTheConsistencyConditionsHoldOnTheCsvAlone() throws Exception {
        Path exp = tmp.resolve("tpcc.yaml");
        Files.writeString(exp, """
                name: tpcc-dump
                workload: {name: tpcc, warehouses: 2, items: 500, customersPerDistrict: 20, ordersPerDistrict: 20}
                tree: {root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, stock_level]}}
                cluster: {dataServers: 2, coordinators: 1, networkDelay: 0us}
                clients: 4
                warmup: 0s
                duration: 1s
                """);
        Path dump = tmp.resolve("dump");
        RunCommandTest.Run r = RunCommandTest.run("run", exp.toString(), "--out", tmp.resolve("run").toString(),
                "--dump", dump.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("dumped 12 table(s), "), r.out());
        assertTrue(r.out().contains("tables as CSV in " + dump), r.out());
        JsonNode s = new ObjectMapper().readTree(Files.readString(tmp.resolve("run/summary.json")));
        assertEquals(dump.toAbsolutePath().toString(), s.get("dump").get("dir").textValue());
        assertEquals(2, s.get("dump").get("tables").get("warehouse").intValue());
        assertEquals(20, s.get("dump").get("tables").get("district").intValue());

        List<Map<String, String>> warehouses = csv(dump.resolve("warehouse.csv"));
        List<Map<String, String>> districts = csv(dump.resolve("district.csv"));
        List<Map<String, String>> orders = csv(dump.resolve("oorder.csv"));
        List<Map<String, String>> newOrders = csv(dump.resolve("new_order.csv"));
        assertEquals("key0,w_name,w_street_1,w_street_2,w_city,w_state,w_zip,w_tax,w_ytd",
                Files.readAllLines(dump.resolve("warehouse.csv")).get(0));
        assertEquals(2, warehouses.size());
        assertEquals(s.get("dump").get("tables").get("oorder").intValue(), orders.size());
        long newOrdersCommitted = s.get("types").get("new_order").get("committed").longValue();
        assertTrue(orders.size() >= 2 * 10 * 20 + newOrdersCommitted, "loaded orders plus the new ones");

        // condition 1: W_YTD = sum(D_YTD) per warehouse
        Map<String, Double> ytd = new HashMap<>();
        districts.forEach(d -> ytd.merge(d.get("key0"), Double.parseDouble(d.get("d_ytd")), Double::sum));
        for (Map<String, String> w : warehouses) {
            assertEquals(Double.parseDouble(w.get("w_ytd")), ytd.get(w.get("key0")), 0.01, "warehouse " + w);
        }
        // condition 2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) per district
        Map<String, Long> maxOrder = max(orders);
        Map<String, Long> maxNewOrder = max(newOrders);
        for (Map<String, String> d : districts) {
            String k = d.get("key0") + "," + d.get("key1");
            long next = Long.parseLong(d.get("d_next_o_id"));
            assertEquals(next - 1, maxOrder.get(k), "district " + k);
            if (maxNewOrder.containsKey(k)) {
                assertEquals(next - 1, maxNewOrder.get(k), "district " + k);
            }
        }
    }

    @Test
    void aSweepOverTreesGetsEachPointsTreeDiagramAndDump() throws Exception {
        Path exp = tmp.resolve("sweep.yaml");
        Files.writeString(exp, """
                name: trees
                workload: {name: bank, accounts: 6}
                tree: [{root: {cc: 2pl, txns: [transfer, audit]}},
                       {root: {cc: ssi, children: [{cc: none, txns: [audit]}, {cc: 2pl, txns: [transfer]}]}}]
                cluster: {dataServers: 1, coordinators: 1, networkDelay: 0us}
                clients: 2
                warmup: 0s
                duration: 1s
                """);
        Path dir = tmp.resolve("run");
        Path dump = tmp.resolve("dump");
        RunCommandTest.Run r = RunCommandTest.run("run", exp.toString(), "--out", dir.toString(), "--dump",
                dump.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        List<Path> points;
        try (var s = Files.list(dir)) {
            points = s.filter(Files::isDirectory).sorted().toList();
        }
        assertEquals(2, points.size(), points.toString());
        String first = Files.readString(points.get(0).resolve("tree.dot"));
        String second = Files.readString(points.get(1).resolve("tree.dot"));
        assertTrue(first.contains("<B>2pl</B>") && !first.contains("<B>ssi</B>"), first);
        assertTrue(second.contains("<B>ssi</B>") && second.contains("<B>none</B>"), second);
        for (Path p : points) {
            List<String> accounts = Files.readAllLines(dump.resolve(p.getFileName()).resolve("account.csv"));
            assertEquals(7, accounts.size(), p + ": " + accounts);
        }
    }

    @Test
    void aSimulatedRunCannotBeDumped() throws Exception {
        Path exp = tmp.resolve("sim.yaml");
        Files.writeString(exp, """
                name: sim
                workload: {name: bank, accounts: 4}
                tree: {root: {cc: 2pl, txns: [transfer, audit]}}
                cluster: {mode: simulated, simulation: {costs: %s}}
                clients: 2
                duration: 1s
                """.formatted(Path.of("../config/costs/this-machine.yaml").toAbsolutePath()));
        RunCommandTest.Run r = RunCommandTest.run("run", exp.toString(), "--out", tmp.resolve("run").toString(),
                "--dump", tmp.resolve("d").toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertTrue(r.err().startsWith("--dump: experiment 'sim' runs simulated"), r.err());
        assertTrue(!Files.exists(tmp.resolve("d")) && !Files.exists(tmp.resolve("run")));
    }

    /** max(key2) (the order id) per (key0, key1) (warehouse, district). */
    private static Map<String, Long> max(List<Map<String, String>> rows) {
        Map<String, Long> m = new HashMap<>();
        rows.forEach(o -> m.merge(o.get("key0") + "," + o.get("key1"), Long.parseLong(o.get("key2")), Math::max));
        return m;
    }

    /** The rows of an RFC 4180 file with a header, by column name. */
    static List<Map<String, String>> csv(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        List<String> header = fields(lines.get(0));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> f = fields(line);
            assertEquals(header.size(), f.size(), file + ": " + line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < f.size(); i++) {
                row.put(header.get(i), f.get(i));
            }
            rows.add(row);
        }
        return rows;
    }

    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    b.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    b.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(b.toString());
                b.setLength(0);
            } else {
                b.append(c);
            }
        }
        out.add(b.toString());
        return out;
    }
}
