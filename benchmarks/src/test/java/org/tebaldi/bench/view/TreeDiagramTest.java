package org.tebaldi.bench.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;

/** {@link TreeText}, {@link TreeDot} and rendering through Graphviz ({@link Graphviz}, {@link TreeDiagrams}). */
class TreeDiagramTest {
    @TempDir
    Path tmp;

    static final String THREE_LAYER = """
            root:
              cc: ssi
              children:
                - cc: none
                  txns: [order_status, stock_level]
                - cc: 2pl
                  options: {lockTimeout: 10ms}
                  children:
                    - cc: rp
                      txns: [new_order, payment]
                    - {cc: rp, name: deliveries, txns: [delivery], instanceBy: w_id}
            """;

    static CcTree tree() {
        return TreeLoader.parse(THREE_LAYER, "three.yaml", TreeContext.of(null));
    }

    /** Skips the calling test, with Graphviz's reason, where dot is missing and cannot be installed. */
    static void assumeGraphviz() {
        try {
            Graphviz.dot();
        } catch (Graphviz.Unavailable x) {
            Assumptions.abort("Graphviz unavailable: " + x.getMessage());
        }
    }

    @Test
    void indentedTextShowsMechanismsOptionsAndTypes() {
        assertEquals("""
                ssi
                ├─ none  [order_status, stock_level]
                └─ 2pl {lockTimeout: 10ms}
                   ├─ rp  [new_order, payment]
                   └─ rp "deliveries"  [delivery by w_id]
                """, TreeText.of(tree()));
    }

    @Test
    void dotHasOneBoxPerNodeAndOneEdgePerChild() {
        String dot = TreeDot.of(tree(), "title \"q\"");
        assertTrue(dot.startsWith("digraph cc_tree {"), dot);
        assertTrue(dot.contains("label=\"title \\\"q\\\"\""), dot);
        assertEquals(5, dot.lines().filter(l -> l.matches("  n\\d+ \\[label=<.*")).count(), dot);
        assertEquals(4, dot.lines().filter(l -> l.matches("  n\\d+ -> n\\d+;")).count(), dot);
        assertTrue(dot.contains("<B>2pl</B><BR/><FONT POINT-SIZE=\"10\">{lockTimeout: 10ms}</FONT>"), dot);
        assertTrue(dot.contains("<B>rp</B><BR/><I>deliveries</I><BR/>delivery<BR/><FONT POINT-SIZE=\"10\">by w_id"),
                dot);
        assertTrue(dot.contains("<B>none</B><BR/>order_status<BR/>stock_level>"), dot);
    }

    @Test
    void graphvizDrawsTheTreeAsSvg() throws Exception {
        assumeGraphviz();
        StringWriter err = new StringWriter();
        assertTrue(TreeDiagrams.write(tmp, "tree", tree(), "three", new PrintWriter(err, true)));
        assertEquals("", err.toString());
        String svg = Files.readString(tmp.resolve("tree.svg"));
        assertTrue(svg.contains("<svg"), svg);
        for (String text : new String[] {"ssi", "2pl", "new_order", "delivery", "deliveries", "stock_level"}) {
            assertTrue(svg.contains(">" + text + "<"), text + " in " + svg);
        }
        assertTrue(Files.readString(tmp.resolve("tree.dot")).startsWith("digraph"));
    }

    @Test
    void withoutGraphvizTheDotIsWrittenAndWhyTheSvgIsMissingIsSaidOnce() throws Exception {
        String missing = tmp.resolve("no-such-dot").toString();
        System.setProperty(Graphviz.DOT_PROPERTY, missing);
        try {
            StringWriter out = new StringWriter();
            PrintWriter w = new PrintWriter(out, true);
            assertFalse(TreeDiagrams.write(tmp.resolve("a"), "tree", tree(), "a", w));
            assertFalse(TreeDiagrams.write(tmp.resolve("b"), "trees/start", tree(), "b", w));
            assertEquals("note: tree diagrams are written as .dot only (no .svg): -Dtebaldi.dot=" + missing
                    + " is not an executable file; name Graphviz's dot program, or leave the property out to find "
                    + "(or install) it\n", out.toString());
            assertTrue(Files.readString(tmp.resolve("a/tree.dot")).startsWith("digraph"));
            assertTrue(Files.readString(tmp.resolve("b/trees/start.dot")).startsWith("digraph"));
            assertFalse(Files.exists(tmp.resolve("a/tree.svg")) || Files.exists(tmp.resolve("b/trees/start.svg")));
        } finally {
            System.clearProperty(Graphviz.DOT_PROPERTY);
        }
    }

    @Test
    void renderRejectsAnUnknownFormat() {
        IllegalArgumentException x = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Graphviz.render("digraph {}", tmp.resolve("x.pdf")));
        assertTrue(x.getMessage().contains(".svg or .png"), x.getMessage());
        assertFalse(Files.exists(tmp.resolve("x.pdf")));
    }
}
