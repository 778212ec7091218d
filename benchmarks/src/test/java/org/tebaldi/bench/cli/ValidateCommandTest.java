package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tebaldi validate}: its table records the runs' verify setting, and real runs taken from an earlier
 * validation must have run with this validation's verify setting (nothing runs otherwise).
 */
class ValidateCommandTest {
    private static final Path BANK = Path.of("../config/experiments/bank-2pl.yaml");
    private static final String HEADER = "experiment,clients,real_txn_s_median,real_txn_s_min,real_txn_s_max,"
            + "sim_txn_s,ratio,real_abort_rate,sim_abort_rate,abort_diff_points,real_cpu,sim_cpu,within";

    @TempDir
    Path tmp;

    @Test
    void theTableEndsWithTheVerifySetting() {
        ValidateCommand.Row r = new ValidateCommand.Row("bank-2pl", 16, List.of(100.0, 110.0, 120.0),
                List.of(0.1), 105.0, 0.12, 0.9, 0.95, "after");
        String csv = ValidationTable.csv(List.of(r));
        assertEquals(HEADER + ",verify", csv.lines().findFirst().orElseThrow());
        String[] row = csv.lines().skip(1).findFirst().orElseThrow().split(",");
        assertEquals("after", row[ValidateCommand.VERIFY_COLUMN]);
        assertEquals("110.0", row[2]);
        assertTrue(ValidationTable.markdown(List.of(r)).get(2).endsWith("| yes | after |"),
                ValidationTable.markdown(List.of(r)).get(2));
    }

    /**
     * The bank experiment in {@code tmp/exp}, its tree by absolute path and the committed cost table beside it (the
     * default {@code config/costs/default.yaml} is resolved against the experiment's folder too).
     */
    private Path bank() throws Exception {
        Path dir = tmp.resolve("exp");
        Path tree = Path.of("../config/trees/bank-2pl.yaml").toAbsolutePath().normalize();
        Files.createDirectories(dir.resolve("config/costs"));
        Files.copy(Path.of("../config/costs/default.yaml"), dir.resolve("config/costs/default.yaml"));
        Path exp = dir.resolve("bank-2pl.yaml");
        Files.writeString(exp, Files.readString(BANK).replace("../trees/bank-2pl.yaml", tree.toString()));
        return exp;
    }

    @Test
    void realRunsOfAnotherVerifySettingAreRefusedBeforeAnythingRuns() throws Exception {
        Path bank = bank();
        Path old = tmp.resolve("old.csv");
        Files.writeString(old, HEADER + "\nbank-2pl,16,100.0,90.0,110.0,105.0,1.050,0.1000,0.1200,2.00,0.900,0.950,"
                + "true\n");
        Path out = tmp.resolve("v");
        RunCommandTest.Run r = RunCommandTest.run("validate", "--reuse-real", old.toString(), "--out", out.toString(),
                bank.toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertEquals(old + ": the real runs of bank-2pl@16 ran with verify off, this validation with verify after. "
                + "Fix: add --set verify=false, or validate that point anew", r.err().strip());
        assertEquals("", r.out());
        assertFalse(Files.exists(out));
        Path after = tmp.resolve("after.csv");
        Files.writeString(after, HEADER + ",verify\nbank-2pl,16,100.0,90.0,110.0,105.0,1.050,0.1000,0.1200,2.00,"
                + "0.900,0.950,true,after\n");
        RunCommandTest.Run off = RunCommandTest.run("validate", "--reuse-real", after.toString(), "--set",
                "verify=false", "--out", out.toString(), bank.toString());
        assertEquals(ExitCodes.CONFIG, off.code(), off.out() + off.err());
        assertTrue(off.err().contains("ran with verify after, this validation with verify off. Fix: add --set "
                + "verify=after"), off.err());
    }

    @Test
    void costsNamesTheSimulatedRunsTableAndAMissingOneIsRefusedBeforeAnythingRuns() throws Exception {
        Path bank = bank();
        Path out = tmp.resolve("v");
        Path missing = tmp.resolve("no-such-table.yaml");
        RunCommandTest.Run r = RunCommandTest.run("validate", "--costs", missing.toString(), "--out", out.toString(),
                bank.toString());
        assertEquals(ExitCodes.CONFIG, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("cluster.simulation.costs: no cost table at " + missing), r.err());
        assertFalse(Files.exists(out));
    }
}
