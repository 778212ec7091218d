package org.tebaldi.core.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreeLoaderTest {
    private final TreeContext tpcc = Fixtures.ctx(Fixtures.tpcc());

    @Test
    void monolithicTreeIsOneLeaf() {
        CcTree t = TreeLoader.parse("root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, stock_level]}\n",
                "mono.yaml", tpcc);
        assertEquals(1, t.size());
        assertTrue(t.root().isLeaf());
        assertTrue(t.root().isRoot());
        assertEquals("2pl[new_order,payment,delivery,order_status,stock_level]", t.describe());
        assertEquals(1, t.root().line());
        assertEquals("root", t.root().place());
        assertEquals("mono.yaml", t.source());
    }

    @Test
    void twoLevelInitialConfiguration() {
        LoadedTree l = TreeLoader.readString("""
                root:
                  cc: ssi
                  children:
                    - cc: none
                      txns: [order_status, stock_level]
                    - cc: 2pl
                      txns: [new_order, payment, delivery]
                """, "init.yaml", tpcc);
        assertEquals("ssi{none[order_status,stock_level],2pl[new_order,payment,delivery]}", l.tree().describe());
        assertEquals(List.of(), l.warnings());
        assertEquals(2, l.tree().height());
        assertEquals(6, l.tree().leafFor("delivery").line());
        assertEquals("root.children[1]", l.tree().leafFor("delivery").place());
    }

    @Test
    void threeLevelTreeKeepsLinesPlacesNamesAndOptions() {
        LoadedTree l = TreeLoader.readString(Fixtures.TPCC_3LAYER, "tebaldi-3layer.yaml", tpcc);
        CcTree t = l.tree();
        assertEquals(List.of(), l.warnings());
        assertEquals("ssi{none[order_status,stock_level],2pl{rp[new_order,payment],rp[delivery]}}", t.describe());
        assertEquals(3, t.height());
        assertEquals(3, t.root().line());
        assertEquals(5000, t.root().durationOption("batchInterval", 0));
        CcNode updates = t.node(2);
        assertEquals("updates", updates.name());
        assertEquals("root.children[1]", updates.place());
        assertEquals(8, updates.line());
        CcNode delivery = t.leafFor("delivery");
        assertEquals("root.children[1].children[1]", delivery.place());
        assertEquals(12, delivery.line());
        assertEquals(11, t.leafFor("new_order").line());
        assertNull(t.node(1).name());
    }

    @Test
    void partitionByInstanceLeaf() {
        CcTree t = TreeLoader.parse(Fixtures.SEATS, "seats.yaml", Fixtures.ctx(Fixtures.seats()));
        CcNode tso = t.leafFor("new_reservation");
        assertEquals("tso", tso.mechanism());
        assertEquals("flight_id", tso.instanceBy());
        assertEquals("root.children[1].children[0]", tso.place());
        assertNull(t.leafFor("update_reservation").instanceBy());
        assertEquals(50_000, t.node(2).durationOption("lockTimeout", 0));
        assertEquals("ssi{none[find_flights],2pl{tso[new_reservation,delete_reservation by flight_id],"
                + "2pl[update_reservation]}}", t.describe());
    }

    @Test
    void nodeMappingWithoutRootKey() {
        CcTree t = TreeLoader.parse("cc: 2pl\ntxns: [a, b]\n", "bare.yaml", Fixtures.ctx(null));
        assertEquals("2pl[a,b]", t.describe());
        assertEquals("root", t.root().place());
    }

    @Test
    void withoutDatabaseTypesAreNotChecked() {
        CcTree t = TreeLoader.parse("root: {cc: none, txns: [anything]}\n", "x.yaml", Fixtures.ctx(null));
        assertEquals("none[anything]", t.describe());
    }

    @Test
    void inlineTreeFromExperimentJsonNode() throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode exp = yaml.readTree("""
                clients: 8
                tree:
                  root:
                    cc: ssi
                    options: {batchInterval: 5ms, pivotChecks: false, maxBatch: 64}
                    children:
                      - {cc: none, txns: [order_status, stock_level]}
                      - {cc: rp, txns: [new_order, payment, delivery]}
                other:
                  cc: 2pl
                  txns: [new_order, payment, delivery, order_status, stock_level]
                """);
        CcTree t = TreeLoader.fromJson(exp.get("tree"), "exp.yaml (tree)", tpcc);
        assertEquals("ssi{none[order_status,stock_level],rp[new_order,payment,delivery]}", t.describe());
        assertEquals(0, t.root().line());
        assertEquals("root.children[1]", t.leafFor("payment").place());
        assertEquals(64L, t.root().options().get("maxBatch"));
        assertEquals(false, t.root().boolOption("pivotChecks", true));
        assertEquals("2pl[new_order,payment,delivery,order_status,stock_level]",
                TreeLoader.fromJson(exp.get("other"), "exp.yaml (other)", tpcc).describe());
    }

    @Test
    void loadsFromFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.yaml");
        Files.writeString(f, Fixtures.TPCC_3LAYER);
        CcTree t = TreeLoader.load(f, tpcc);
        assertEquals(f.toString(), t.source());
        assertEquals(5, t.size());
        assertEquals(List.of(), TreeLoader.read(f, tpcc).warnings());
    }

    @Test
    void inefficientPairLoadsWithWarning() {
        LoadedTree l = TreeLoader.readString("""
                root:
                  cc: 2pl
                  children:
                    - cc: ssi
                      children:
                        - {cc: none, txns: [order_status, stock_level]}
                        - {cc: 2pl, txns: [new_order, payment]}
                    - {cc: rp, txns: [delivery]}
                """, "slow.yaml", tpcc);
        assertEquals(1, l.warnings().size());
        String w = l.warnings().get(0);
        assertTrue(w.startsWith("slow.yaml:4: root.children[0]: 'ssi' under '2pl' (root) is inefficient: 2PL needs "
                + "the dependency set at validation"), w);
        assertTrue(w.contains("§4.4.3"), w);
    }

    @Test
    void innerTsoWarnsForEachChild() {
        LoadedTree l = TreeLoader.readString("""
                root:
                  cc: tso
                  children:
                    - {cc: none, txns: [order_status, stock_level]}
                    - {cc: 2pl, txns: [new_order, payment, delivery]}
                """, "tso.yaml", tpcc);
        assertEquals(2, l.warnings().size());
        assertTrue(l.warnings().get(0).startsWith("tso.yaml:4: root.children[0]: 'none' under 'tso' (root)"));
        assertTrue(l.warnings().get(1).contains("§4.4.4"));
    }

    @Test
    void pairMissingFromRulesWarns() {
        List<org.tebaldi.core.cc.Mechanism> ms = new java.util.ArrayList<>(Fixtures.mechanisms());
        ms.add(new Fixtures.FakeMechanism("calvin", n -> List.of()));
        LoadedTree l = TreeLoader.readString("root: {cc: 2pl, children: [{cc: calvin, txns: [a]}]}\n", "new.yaml",
                TreeContext.of(null, ms));
        assertEquals(List.of("new.yaml:1: root.children[0]: no composability rule for '2pl' over 'calvin' in "
                + CompositionRules.RESOURCE + "; assuming the pair works"), l.warnings());
    }

    @Test
    void validatesSpecsBuiltInCode() {
        TreeSpec spec = TreeSpec.inner("ssi", TreeSpec.leaf("none", "order_status", "stock_level"),
                TreeSpec.inner("2pl", TreeSpec.leaf("rp", "new_order", "payment"), TreeSpec.leaf("rp", "delivery")));
        CcTree t = TreeValidator.validate(spec, "<code>", tpcc).tree();
        assertEquals("root.children[1].children[1]", t.leafFor("delivery").place());
        assertEquals(TreeLoader.parse(Fixtures.TPCC_3LAYER, "x", tpcc).describe(), t.describe());
    }
}
