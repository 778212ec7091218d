package org.tebaldi.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.cli.Main;
import org.tebaldi.bench.workload.bank.BankWorkload;

/**
 * {@code tebaldi run --dump DIR} in processes mode (node JVMs from the fat jar; failsafe runs this after
 * {@code package}): the tables come from the data-server processes, collected over the network as the verification
 * collects them, and the bank's invariant — every account present, the total balance unchanged — holds on the CSV.
 */
class DumpProcessesIT {
    @TempDir
    Path tmp;

    @Test
    void dumpsTheDataServerProcessesTables() throws Exception {
        Path exp = tmp.resolve("bank.yaml");
        Files.writeString(exp, """
                name: bank-processes-dump
                workload: {name: bank, accounts: 20}
                tree: {root: {cc: 2pl, txns: [transfer, audit]}}
                cluster: {mode: processes, dataServers: 2, coordinators: 1, threads: 1}
                clients: 4
                warmup: 0s
                duration: 2s
                """);
        Path dump = tmp.resolve("dump");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"run", exp.toString(), "--out", tmp.resolve("run").toString(), "--dump",
            dump.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, out + "" + err);
        assertTrue(out.toString().contains("collecting the final state from the data servers"), out.toString());
        List<String> lines = Files.readAllLines(dump.resolve("account.csv"));
        assertEquals("key0,balance", lines.get(0));
        assertEquals(21, lines.size(), lines.toString());
        long total = lines.stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[1])).sum();
        assertEquals(20 * BankWorkload.INITIAL_BALANCE, total);
        assertTrue(lines.stream().skip(1).anyMatch(l -> !l.endsWith("," + BankWorkload.INITIAL_BALANCE)),
                "transfers moved money: the dump is the final state, not the load");
    }
}
