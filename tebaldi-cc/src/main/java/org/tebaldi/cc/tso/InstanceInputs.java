package org.tebaldi.cc.tso;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.db.TxnType;
import org.tebaldi.core.proc.Expr;
import org.tebaldi.core.proc.Stmt;
import org.tebaldi.core.tree.CcNode;

/**
 * Finds the input that separates TSO instances (dissertation §5.4.2): an input every stored procedure of the leaf
 * takes and uses directly as a key part of at least one of its writes — transactions with different values then
 * write different rows there, so one TSO per value orders only the transactions likely to conflict.
 */
final class InstanceInputs {
    private InstanceInputs() {
    }

    static List<String> of(CcNode leaf, Database db) {
        Map<String, Integer> uses = new HashMap<>();
        List<String> common = null;
        for (String name : leaf.txns()) {
            TxnType t = db.type(name);
            if (!t.isProcedure()) {
                return List.of();
            }
            Map<String, Integer> mine = new HashMap<>();
            for (Stmt.Access a : t.procedure().accesses()) {
                if (!a.kind().writes()) {
                    continue;
                }
                for (Expr part : a.key()) {
                    if (part instanceof Expr.In in) {
                        mine.merge(in.param(), 1, Integer::sum);
                    }
                }
            }
            mine.forEach((p, n) -> uses.merge(p, n, Integer::sum));
            if (common == null) {
                common = new ArrayList<>(mine.keySet());
            } else {
                common.retainAll(mine.keySet());
            }
        }
        if (common == null) {
            return List.of();
        }
        common.sort((a, b) -> uses.get(b) - uses.get(a) != 0 ? uses.get(b) - uses.get(a) : a.compareTo(b));
        return common;
    }
}
