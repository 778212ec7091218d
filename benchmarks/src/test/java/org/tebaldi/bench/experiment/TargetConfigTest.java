package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;

/** {@code target:} and {@code postgresql:}: defaults, a PostgreSQL experiment without a tree, and bad input. */
class TargetConfigTest {
    private static final String TPCC_PG = """
            name: pg
            target: postgresql
            workload: {name: tpcc, warehouses: 1}
            clients: 4
            duration: 1s
            """;

    @TempDir
    Path tmp;
    ExperimentFixture fx;

    @BeforeEach
    void setUp() {
        fx = new ExperimentFixture(tmp);
    }

    private String error(String yaml, String... sets) {
        ConfigException e = assertThrows(ConfigException.class, () -> fx.load(yaml, sets));
        return e.getMessage().replace(tmp.toString(), "<dir>");
    }

    @Test
    void defaultTargetIsTebaldi() {
        Experiment e = fx.load(ExperimentFixture.BANK);
        assertFalse(e.target().isPostgresql());
        assertEquals("tebaldi", ResolvedConfig.toJson(e).get("target").asText());
        assertTrue(ResolvedConfig.toJson(e).get("postgresql").get("url").isNull());
    }

    @Test
    void postgresqlNeedsNoTreeAndDefaultsToALocalServer() {
        Experiment e = fx.load(TPCC_PG);
        assertTrue(e.target().isPostgresql());
        assertNull(e.tree());
        assertNull(e.treeRef());
        PostgresSpec p = e.target().postgresql();
        assertTrue(p.local());
        assertEquals("tebaldi", p.schema());
        assertFalse(p.fsync());
        ObjectNode json = ResolvedConfig.toJson(e);
        assertTrue(json.get("tree").isNull());
        assertEquals("postgresql", json.get("target").asText());
        assertFalse(json.get("postgresql").get("fsync").asBoolean());
    }

    @Test
    void passwordIsNeverWrittenToTheResolvedConfig() {
        Experiment e = fx.load(TPCC_PG + "postgresql: {url: 'jdbc:postgresql://db:5432/b', user: u, password: s3cret}\n");
        assertEquals("s3cret", e.target().postgresql().password());
        ObjectNode pg = (ObjectNode) ResolvedConfig.toJson(e).get("postgresql");
        assertEquals("***", pg.get("password").asText());
        assertFalse(ResolvedConfig.toJson(e).toString().contains("s3cret"));
        assertEquals("jdbc:postgresql://db:5432/b", pg.get("url").asText());
    }

    @Test
    void aTebaldiExperimentSwitchesToPostgresqlWithOneOverride() {
        Experiment e = fx.load(ExperimentFixture.BANK.replace("bank, accounts: 20", "tpcc, warehouses: 1")
                .replace("../trees/bank.yaml", "{root: {cc: 2pl, txns: [new_order, payment, delivery, order_status,"
                        + " stock_level]}}"), "target=postgresql", "postgresql.fsync=true");
        assertTrue(e.target().isPostgresql());
        assertTrue(e.target().postgresql().fsync());
    }

    @Test
    void unknownTarget() {
        assertEquals("<dir>/experiments/x.yaml:2: target: unknown target 'mysql'. Fix: use target: tebaldi or "
                + "postgresql", error(TPCC_PG.replace("target: postgresql", "target: mysql")));
    }

    @Test
    void workloadWithoutSqlImplementation() {
        assertEquals("<dir>/experiments/x.yaml:2: target: workload 'bank' has no SQL implementation to run on "
                        + "PostgreSQL. Fix: use target: tebaldi, or a workload with one: tpcc",
                error(TPCC_PG.replace("tpcc, warehouses: 1", "bank")));
    }

    @Test
    void localServerKeysWithAUrl() {
        assertEquals("<dir>/experiments/x.yaml:6: postgresql.fsync: fsync configures the local throw-away server, "
                        + "but url names a server to use. Fix: remove fsync, or remove url to run a local server",
                error(TPCC_PG + "postgresql: {url: 'jdbc:postgresql://db/b', fsync: true}\n"));
    }

    @Test
    void badUrlSchemaAndSettings() {
        assertEquals("<dir>/experiments/x.yaml:6: postgresql.url: 'jdbc:mysql://db/b' is not a PostgreSQL JDBC URL. "
                        + "Fix: write e.g. url: jdbc:postgresql://localhost:5432/bench, or leave url out for a local "
                        + "server",
                error(TPCC_PG + "postgresql: {url: 'jdbc:mysql://db/b'}\n"));
        assertTrue(error(TPCC_PG + "postgresql: {schema: public}\n").contains("postgresql.schema: 'public' cannot "
                + "be the benchmark's schema"));
        assertTrue(error(TPCC_PG + "postgresql: {settings: {shared_buffers: [1, 2]}}\n")
                .contains("postgresql.settings.shared_buffers: expected a single value"));
        assertTrue(error(TPCC_PG + "postgresql: {sheme: x}\n").contains("postgresql.sheme: unknown key 'sheme'"));
        assertTrue(error(TPCC_PG + "postgresql: {settings: {port: 5432}}\n").contains("postgresql.settings.port: "
                + "the run sets port itself"));
    }

    @Test
    void tebaldiStillNeedsATree() {
        assertTrue(error(TPCC_PG.replace("target: postgresql", "target: tebaldi"))
                .contains("missing required key 'tree'"));
    }
}
