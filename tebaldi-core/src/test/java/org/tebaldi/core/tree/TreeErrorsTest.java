package org.tebaldi.core.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.config.ConfigException;

/** One clear message (file, line, place, fix) for each kind of bad tree input (docs/trees.md). */
class TreeErrorsTest {
    private static final String ALL = "[new_order, payment, delivery, order_status, stock_level]";
    private final TreeContext tpcc = Fixtures.ctx(Fixtures.tpcc());

    private ConfigException fail(String yaml) {
        return fail(yaml, tpcc);
    }

    private static ConfigException fail(String yaml, TreeContext ctx) {
        return assertThrows(ConfigException.class, () -> TreeLoader.parse(yaml, "t.yaml", ctx));
    }

    private static void expect(ConfigException e, int line, String place, String message) {
        assertEquals(message, e.getMessage());
        assertEquals("t.yaml", e.file());
        assertEquals(line, e.line());
        assertEquals(place, e.place());
        assertTrue(e.fix() != null && !e.fix().isBlank(), "every message has a fix");
        assertEquals(0, e.getStackTrace().length, "no stack trace");
    }

    @Test
    void yamlSyntaxErrorHasLineAndColumn() {
        ConfigException e = fail("root:\n  cc: ssi\n children: x\n");
        expect(e, 3, "", "t.yaml:3: YAML syntax error at line 3, column 2: expected <block end>, but found "
                + "'<block mapping start>' (while parsing a block mapping). Fix: check the indentation (spaces, not "
                + "tabs), colons, brackets and quotes near line 3");
    }

    @Test
    void tabIndentationIsASyntaxError() {
        ConfigException e = fail("root:\n\tcc: 2pl\n");
        assertEquals(2, e.line());
        assertTrue(e.getMessage().startsWith("t.yaml:2: YAML syntax error at line 2, column 1: found character "
                + "'\\t(TAB)' that cannot start any token"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one line");
    }

    @Test
    void unclosedBracket() {
        ConfigException e = fail("root:\n  cc: 2pl\n  txns: [new_order, payment\n");
        assertTrue(e.getMessage().startsWith("t.yaml:4: YAML syntax error at line 4, column 1: expected ',' or ']', "
                + "but got <stream end> (while parsing a flow sequence)"), e.getMessage());
    }

    @Test
    void emptyFile() {
        expect(fail("# nothing\n"), 0, "", "t.yaml: the tree is empty. Fix: write the tree under 'root:', e.g. "
                + "root: {cc: 2pl, txns: [new_order, payment]}");
    }

    @Test
    void unknownTopLevelKey() {
        expect(fail("root: {cc: 2pl, txns: " + ALL + "}\nbatch: 5ms\n"), 2, "",
                "t.yaml:2: unknown top-level key 'batch'. Fix: a tree file has the single top-level key 'root' "
                        + "holding the root node");
    }

    @Test
    void unknownNodeKeySuggestsTheClosest() {
        expect(fail("root:\n  cc: ssi\n  chidren:\n    - {cc: 2pl, txns: " + ALL + "}\n"), 3, "root",
                "t.yaml:3: root: unknown key 'chidren'. Fix: use only cc, name, options, children, txns, instanceBy "
                        + "(did you mean 'children'?)");
    }

    @Test
    void keyWrittenTwice() {
        expect(fail("root:\n  cc: 2pl\n  cc: rp\n  txns: " + ALL + "\n"), 3, "root.cc",
                "t.yaml:3: root.cc: key 'cc' is written twice (first at line 2). Fix: keep one 'cc' in this mapping");
    }

    @Test
    void secondDocument() {
        ConfigException e = fail("root: {cc: 2pl, txns: " + ALL + "}\n---\nroot: {cc: rp, txns: [a]}\n");
        expect(e, 3, "", "t.yaml:3: a second YAML document starts here. Fix: keep one tree per file (remove the "
                + "'---' separator)");
    }

    @Test
    void txnsMustBeAList() {
        expect(fail("root:\n  cc: 2pl\n  txns: new_order\n"), 3, "root.txns", "t.yaml:3: root.txns: txns must be a "
                + "list of transaction types, found 'new_order'. Fix: write e.g. txns: [new_order, payment]");
    }

    @Test
    void optionWithoutValue() {
        expect(fail("root:\n  cc: 2pl\n  options:\n    lockTimeout:\n  txns: " + ALL + "\n"), 4,
                "root.options.lockTimeout", "t.yaml:4: root.options.lockTimeout: option 'lockTimeout' has no value. "
                        + "Fix: give it a value or remove it to use the default");
    }

    @Test
    void missingCc() {
        expect(fail("root:\n  cc: ssi\n  children:\n    - txns: [order_status, stock_level]\n"
                + "    - {cc: 2pl, txns: [new_order, payment, delivery]}\n"), 4, "root.children[0]",
                "t.yaml:4: root.children[0]: missing 'cc' (the node's mechanism). Fix: add cc: <mechanism>, one of "
                        + "2pl, none, rp, ssi, tso");
    }

    @Test
    void unknownMechanismListsTheKnownOnes() {
        expect(fail("root:\n  cc: ssi\n  children:\n    - {cc: none, txns: [order_status, stock_level]}\n"
                + "    - cc: 2p1\n      txns: [new_order, payment, delivery]\n"), 5, "root.children[1].cc",
                "t.yaml:5: root.children[1].cc: unknown mechanism '2p1'. Fix: use one of 2pl, none, rp, ssi, tso "
                        + "(did you mean '2pl'?)");
    }

    @Test
    void noMechanismsOnTheClassPath() {
        ConfigException e = fail("root: {cc: 2pl, txns: [a]}\n", new TreeContext(null, java.util.Map.of(),
                CompositionRules.standard()));
        assertEquals("t.yaml:1: root.cc: unknown mechanism '2pl'. Fix: no mechanisms are on the class path: add "
                + "tebaldi-cc", e.getMessage());
    }

    @Test
    void bothChildrenAndTxns() {
        expect(fail("root:\n  cc: ssi\n  txns: [order_status]\n  children:\n    - {cc: 2pl, txns: [new_order]}\n"),
                2, "root", "t.yaml:2: root: a node has both children and txns. Fix: an inner node lists children, "
                        + "a leaf lists txns: move the txns into a child leaf");
    }

    @Test
    void neitherChildrenNorTxns() {
        expect(fail("root:\n  cc: ssi\n  children:\n    - {cc: none, txns: [order_status, stock_level]}\n"
                + "    - {cc: 2pl, txns: []}\n"), 5, "root.children[1]", "t.yaml:5: root.children[1]: a node has "
                + "neither children nor txns. Fix: give an inner node children: [...] or a leaf txns: [...]");
    }

    @Test
    void typeInTwoLeavesNamesBothPlaces() {
        expect(fail("""
                root:
                  cc: 2pl
                  children:
                    - cc: rp
                      txns: [new_order, payment]
                    - cc: rp
                      txns:
                        - delivery
                        - payment
                    - {cc: none, txns: [order_status, stock_level]}
                """), 9, "root.children[1].txns[1]", "t.yaml:9: root.children[1].txns[1]: transaction type 'payment' "
                + "is also in root.children[0] (line 4). Fix: keep each transaction type in one leaf");
    }

    @Test
    void typeTwiceInOneLeaf() {
        expect(fail("root: {cc: 2pl, txns: [new_order, payment, delivery, order_status, stock_level, payment]}\n"),
                1, "root.txns[5]", "t.yaml:1: root.txns[5]: transaction type 'payment' is listed twice in this leaf. "
                        + "Fix: list it once");
    }

    @Test
    void typeUnknownToTheDatabase() {
        expect(fail("root:\n  cc: 2pl\n  txns: [new_order, paymnt, delivery, order_status, stock_level]\n"), 3,
                "root.txns[1]", "t.yaml:3: root.txns[1]: unknown transaction type 'paymnt'. Fix: use the database's "
                        + "types: new_order, payment, delivery, order_status, stock_level (did you mean 'payment'?)");
    }

    @Test
    void typeInNoLeaf() {
        expect(fail("root:\n  cc: 2pl\n  txns: [new_order, payment, order_status, stock_level]\n"), 1, "root",
                "t.yaml:1: root: transaction type 'delivery' is in no leaf. Fix: add 'delivery' to the txns of one "
                        + "leaf");
        expect(fail("root:\n  cc: 2pl\n  txns: [new_order, payment, order_status]\n"), 1, "root",
                "t.yaml:1: root: transaction types 'delivery', 'stock_level' are in no leaf. Fix: add each to the "
                        + "txns of one leaf");
    }

    @Test
    void instanceByOnInnerNode() {
        expect(fail("""
                root:
                  cc: 2pl
                  instanceBy: w_id
                  children:
                    - {cc: rp, txns: [new_order, payment, delivery]}
                    - {cc: none, txns: [order_status, stock_level]}
                """), 3, "root.instanceBy", "t.yaml:3: root.instanceBy: instanceBy on an inner node "
                + "(partition-by-instance splits one leaf group, dissertation §5.4.2). Fix: move instanceBy to a leaf "
                + "below, or remove it");
    }

    @Test
    void instanceByInputMissingFromAType() {
        expect(fail("""
                root:
                  cc: 2pl
                  children:
                    - cc: tso
                      instanceBy: d_id
                      txns: [new_order, payment, delivery]
                    - {cc: none, txns: [order_status, stock_level]}
                """), 5, "root.children[0].instanceBy", "t.yaml:5: root.children[0].instanceBy: transaction type "
                + "'delivery' has no input 'd_id' (its inputs: w_id). Fix: name an input every type of this leaf has, "
                + "or move 'delivery' to another leaf");
    }

    @Test
    void noneLeafWithUpdateType() {
        expect(fail("""
                root:
                  cc: ssi
                  children:
                    - cc: none
                      txns: [order_status, stock_level, payment]
                    - {cc: 2pl, txns: [new_order, delivery]}
                """), 5, "root.children[0].txns[2]", "t.yaml:5: root.children[0].txns[2]: transaction type 'payment' "
                + "writes, but a 'none' leaf runs no concurrency control and may hold only read-only types. Fix: move "
                + "'payment' to a leaf with a mechanism such as 2pl");
    }

    @Test
    void badOptionReportedByTheMechanism() {
        expect(fail("""
                root:
                  cc: 2pl
                  options:
                    lockTimeout: -5ms
                  txns: [new_order, payment, delivery, order_status, stock_level]
                """), 4, "root.options.lockTimeout", "t.yaml:4: root.options.lockTimeout: option 'lockTimeout': "
                + "duration '-5ms' is negative. Fix: correct the option or remove it to use 2pl's default");
    }

    @Test
    void optionCheckThatThrowsBecomesOneMessage() {
        ConfigException e = fail("""
                root:
                  cc: ssi
                  options: {explode: lots}
                  children:
                    - {cc: none, txns: [order_status, stock_level]}
                    - {cc: 2pl, txns: [new_order, payment, delivery]}
                """);
        expect(e, 3, "root.options", "t.yaml:3: root.options: options rejected (For input string: \"lots\"). Fix: "
                + "correct the option or remove it to use ssi's default");
    }

    @Test
    void forbiddenPairGivesReasonAndFix() {
        ConfigException e = fail("""
                root:
                  cc: rp
                  children:
                    - {cc: rp, txns: [new_order, payment, delivery]}
                    - cc: ssi
                      children:
                        - {cc: none, txns: [order_status]}
                        - {cc: 2pl, txns: [stock_level]}
                """);
        expect(e, 5, "root.children[1]", "t.yaml:5: root.children[1]: 'ssi' cannot be a child of 'rp' (root): "
                + CompositionRules.standard().reason("rp", "ssi") + ". Fix: put 'ssi' under a parent such as 2pl, "
                + "ssi, tso, or give 'rp' a child it accepts: 2pl, rp, none");
        assertTrue(e.problem().contains("§4.4.2"));
    }

    @Test
    void noneCannotBeAParent() {
        ConfigException e = fail("""
                root:
                  cc: none
                  children:
                    - {cc: none, txns: [order_status, stock_level]}
                    - {cc: 2pl, txns: [new_order, payment, delivery]}
                """);
        expect(e, 4, "root.children[0]", "t.yaml:4: root.children[0]: 'none' cannot be a child of 'none' (root): "
                + CompositionRules.standard().reason("none", "none") + ". Fix: none is a leaf for read-only "
                + "transactions: give this inner node a mechanism such as 2pl or ssi");
    }

    @Test
    void missingFile(@TempDir Path dir) {
        Path f = dir.resolve("absent.yaml");
        ConfigException e = assertThrows(ConfigException.class, () -> TreeLoader.load(f, tpcc));
        assertEquals(f.toString(), e.file());
        assertEquals("no such tree file", e.problem());
        assertTrue(e.fix().startsWith("check the path"));
    }

    @Test
    void inlineJsonErrorsHaveNoLineButAPlace() throws Exception {
        var node = new ObjectMapper().readTree("{\"cc\": \"ssi\", \"children\": [{\"cc\": \"2pl\", \"txns\": "
                + "[\"new_order\"]}, {\"cc\": \"rp\", \"txns\": [\"new_order\"]}]}");
        ConfigException e = assertThrows(ConfigException.class, () -> TreeLoader.fromJson(node, "exp.yaml (tree)",
                Fixtures.ctx(null)));
        assertEquals("exp.yaml (tree): root.children[1].txns[0]: transaction type 'new_order' is also in "
                + "root.children[0]. Fix: keep each transaction type in one leaf", e.getMessage());
        assertEquals(0, e.line());
    }

    @Test
    void specErrorsFromCodeNameThePlace() {
        TreeSpec bad = TreeSpec.inner("2pl", TreeSpec.leaf("rp", "a"), TreeSpec.inner("rp"));
        ConfigException e = assertThrows(ConfigException.class, () -> TreeValidator.validate(bad, "<code>",
                Fixtures.ctx(null)));
        assertEquals("<code>: root.children[1]: a node has neither children nor txns. Fix: give an inner node "
                + "children: [...] or a leaf txns: [...]", e.getMessage());
    }
}
