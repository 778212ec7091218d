package org.tebaldi.core.testkit;

import java.util.List;
import java.util.stream.Collectors;
import org.tebaldi.core.proc.Stmt;

/** A one-line outline of a body for structure assertions: {@code "read a; for i { write b }; if { abort }"}. */
public final class Pretty {
    private Pretty() {
    }

    public static String outline(List<Stmt> body) {
        return body.stream().map(Pretty::outline).collect(Collectors.joining("; "));
    }

    private static String outline(Stmt s) {
        if (s instanceof Stmt.If i) {
            String t = "if { " + outline(i.then()) + " }";
            return i.otherwise().isEmpty() ? t : t + " else { " + outline(i.otherwise()) + " }";
        }
        if (s instanceof Stmt.For f) {
            return "for " + f.var() + " { " + outline(f.body()) + " }";
        }
        return s.describe();
    }
}
