package org.tebaldi.core.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.InputStream;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.config.ConfigException;

/** The rules file is complete, consistent, and says what the dissertation says. */
class CompositionRulesTest {
    private static final List<String> FIVE = List.of("2pl", "rp", "ssi", "tso", "none");
    /** The dissertation's five, OCC the lease-based leaves (TicToc, Sundial) and Chiller. */
    private static final List<String> ALL = List.of("2pl", "rp", "ssi", "tso", "none", "occ", "tictoc", "sundial",
            "chiller");
    private final CompositionRules rules = CompositionRules.standard();

    @Test
    void everyPairOfTheMechanismsExactlyOnce() throws Exception {
        JsonNode doc;
        try (InputStream in = CompositionRules.class.getResourceAsStream(CompositionRules.RESOURCE)) {
            doc = new ObjectMapper(new YAMLFactory()).readTree(in);
        }
        Map<String, Integer> count = new HashMap<>();
        for (JsonNode r : doc.get("rules")) {
            String parent = r.get("parent").asText();
            String child = r.get("child").asText();
            assertTrue(ALL.contains(parent) && ALL.contains(child), parent + "/" + child);
            count.merge(parent + "/" + child, 1, Integer::sum);
            assertTrue(Verdict.parse(r.get("verdict").asText()) != null, r.toString());
            String reason = r.get("reason").asText();
            assertTrue(reason.contains("§") && !reason.contains("\n"), "one line citing the dissertation: " + reason);
        }
        for (String p : ALL) {
            for (String c : ALL) {
                assertEquals(1, count.getOrDefault(p + "/" + c, 0), p + " over " + c);
            }
        }
        assertEquals(ALL.size() * ALL.size(), count.size());
        assertEquals(ALL.size() * ALL.size(), rules.rules().size());
        assertEquals(ALL, rules.mechanisms());
    }

    @Test
    void leaseBasedMechanismsAreLeavesOnlyAndNotUnderRp() {
        for (String m : List.of("tictoc", "sundial")) {
            for (String c : ALL) {
                assertEquals(Verdict.FORBIDDEN, rules.verdict(m, c), m + " over " + c);
            }
            assertEquals(Verdict.FORBIDDEN, rules.verdict("rp", m));
            assertEquals(Verdict.ALLOWED, rules.verdict("2pl", m));
            assertEquals(Verdict.ALLOWED, rules.verdict("ssi", m));
            assertEquals(Verdict.INEFFICIENT, rules.verdict("tso", m));
        }
    }

    @Test
    void noneIsOnlyALeaf() {
        for (String c : ALL) {
            assertEquals(Verdict.FORBIDDEN, rules.verdict("none", c), "none over " + c);
        }
        assertEquals(List.of(), rules.childrenOf("none", EnumSet.of(Verdict.ALLOWED, Verdict.INEFFICIENT)));
    }

    @Test
    void rpParentNeedsPerOperationReports() {
        assertEquals(Verdict.FORBIDDEN, rules.verdict("rp", "ssi"));
        assertEquals(Verdict.FORBIDDEN, rules.verdict("rp", "tso"));
        assertEquals(Verdict.ALLOWED, rules.verdict("rp", "rp"));
        assertEquals(Verdict.ALLOWED, rules.verdict("rp", "2pl"));
        assertTrue(rules.reason("rp", "ssi").contains("§4.4.2"));
    }

    @Test
    void treesFromTheDissertationAreAllowed() {
        // Fig 4.6c-d, Fig 5.2, Fig 5.15, Table 4.1, §4.6.3
        for (String[] pair : new String[][] {{"ssi", "none"}, {"ssi", "rp"}, {"ssi", "2pl"}, {"2pl", "rp"},
                {"2pl", "2pl"}, {"2pl", "tso"}, {"rp", "rp"}}) {
            assertEquals(Verdict.ALLOWED, rules.verdict(pair[0], pair[1]), pair[0] + " over " + pair[1]);
        }
    }

    @Test
    void lateOrConservativeReportsAreInefficient() {
        assertEquals(Verdict.INEFFICIENT, rules.verdict("2pl", "ssi"));
        assertEquals(Verdict.INEFFICIENT, rules.verdict("ssi", "ssi"));
        for (String c : List.of("2pl", "rp", "ssi", "tso", "none")) {
            assertEquals(Verdict.INEFFICIENT, rules.verdict("tso", c), "inner tso over " + c);
        }
    }

    @Test
    void occIsALeafUnderParentsThatAdoptItsCommitTimeOrder() {
        for (String c : ALL) {
            assertEquals(Verdict.FORBIDDEN, rules.verdict("occ", c), "occ over " + c);
            assertTrue(rules.rule("occ", c).fix().contains("leaf"), "occ over " + c);
        }
        assertEquals(List.of("2pl", "ssi"), rules.parentsOf("occ", EnumSet.of(Verdict.ALLOWED, Verdict.INEFFICIENT)));
        assertTrue(rules.reason("rp", "occ").contains("§4.4.2"));
    }

    @Test
    void unknownPairsHaveNoRule() {
        assertNull(rules.verdict("calvin", "2pl"));
        assertNull(rules.reason("2pl", "calvin"));
        assertNull(rules.rule("calvin", "calvin"));
    }

    @Test
    void rulesFileProblemsAreReported() {
        String head = "mechanisms: [a, b]\nrules:\n";
        String ab = "  - {parent: a, child: b, verdict: allowed, reason: r}\n";
        String ba = "  - {parent: b, child: a, verdict: allowed, reason: r}\n";
        String aa = "  - {parent: a, child: a, verdict: forbidden, reason: r, fix: f}\n";
        String bb = "  - {parent: b, child: b, verdict: inefficient, reason: r}\n";
        CompositionRules ok = CompositionRules.parse(head + ab + ba + aa + bb, "r.yaml");
        assertEquals("f", ok.rule("a", "a").fix());
        assertEquals(Verdict.INEFFICIENT, ok.verdict("b", "b"));
        assertEquals(List.of("b"), ok.parentsOf("a", EnumSet.of(Verdict.ALLOWED)));

        ConfigException dup = assertThrows(ConfigException.class,
                () -> CompositionRules.parse(head + ab + ba + aa + bb + ab, "r.yaml"));
        assertEquals("r.yaml:7: rules[4]: the pair (a, b) is already ruled at line 3. Fix: keep one rule per pair",
                dup.getMessage());
        ConfigException missing = assertThrows(ConfigException.class,
                () -> CompositionRules.parse(head + ab + ba + aa, "r.yaml"));
        assertEquals("no rule for parent 'b' over child 'b'", missing.problem());
        ConfigException verdict = assertThrows(ConfigException.class,
                () -> CompositionRules.parse(head + ab.replace("allowed", "maybe"), "r.yaml"));
        assertEquals("r.yaml:3: rules[0].verdict: unknown verdict 'maybe'. Fix: use allowed, inefficient or forbidden",
                verdict.getMessage());
        ConfigException stranger = assertThrows(ConfigException.class,
                () -> CompositionRules.parse(head + ab.replace("child: b", "child: c"), "r.yaml"));
        assertEquals("mechanism 'c' is not in 'mechanisms'", stranger.problem());
    }
}
