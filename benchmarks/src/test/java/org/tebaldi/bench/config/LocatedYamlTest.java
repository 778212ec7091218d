package org.tebaldi.bench.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Line tracking, scalar types, and where errors point (file, line, or the override). */
class LocatedYamlTest {
    @Test
    void remembersTheLineOfEveryKeyAndElement() {
        LocatedYaml.Document d = LocatedYaml.parse("""
                name: x
                cluster:
                  dataServers: 2
                list:
                  - a
                  - {k: v}
                """, "f.yaml");
        assertEquals(Map.of("name", 1, "cluster", 2, "cluster.dataServers", 3, "list", 4, "list[0]", 5, "list[1]", 6,
                "list[1].k", 6), d.lines());
    }

    @Test
    void scalarsKeepTheirYamlTypes() {
        assertTrue(LocatedYaml.parseValue("64", "s").isIntegralNumber());
        assertTrue(LocatedYaml.parseValue("0.5", "s").isDouble());
        assertTrue(LocatedYaml.parseValue("true", "s").isBoolean());
        assertEquals("10s", LocatedYaml.parseValue("10s", "s").textValue());
        assertEquals("config/trees/ssi.yaml", LocatedYaml.parseValue("config/trees/ssi.yaml", "s").textValue());
        JsonNode m = LocatedYaml.parseValue("{name: tpcc, warehouses: 2}", "s");
        assertEquals(2, m.get("warehouses").intValue());
        assertTrue(LocatedYaml.parseValue("~", "s").isNull());
    }

    @Test
    void errorsPointAtTheLineOrTheOverride() {
        Locator loc = new Locator("f.yaml", LocatedYaml.parse("a:\n  b: 1\nc: 2\n", "f.yaml").lines());
        assertEquals("f.yaml:2: a.b: bad. Fix: fix it", loc.error("a.b", "bad", "fix it").getMessage());
        assertEquals("f.yaml:1: a.z: missing", loc.error("a.z", "missing", null).getMessage());
        assertEquals("f.yaml: z: missing", loc.error("z", "missing", null).getMessage());
        loc.markOverride("a", "a={b: 2}");
        assertEquals("--set a={b: 2}: a.b: bad", loc.error("a.b", "bad", null).getMessage());
        assertEquals("f.yaml:3: c: bad", loc.error("c", "bad", null).getMessage());
    }

    @Test
    void suggestsTheClosestName() {
        assertEquals(" (did you mean 'clients'?)", Suggest.didYouMean("clinets", List.of("clients", "seed")));
        assertEquals("", Suggest.didYouMean("zzz", List.of("clients", "seed")));
        assertEquals("", Suggest.didYouMean("seed", List.of("seed")));
    }
}
