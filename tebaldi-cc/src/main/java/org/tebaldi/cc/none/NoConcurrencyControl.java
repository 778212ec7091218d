package org.tebaldi.cc.none;

import java.util.List;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.tree.CcNode;
import org.tebaldi.core.txn.AbortReason;

/**
 * {@code none}: no concurrency control, for groups of read-only transactions, which never conflict with each
 * other (dissertation §4.6.1, Fig 4.6 c–d). It proposes no read version and adds no constraint, leaving
 * everything to its ancestors; a write by a transaction of a {@code none} group is refused (abort, not
 * retryable), since nothing would regulate it.
 */
public final class NoConcurrencyControl implements Mechanism {
    @Override
    public String name() {
        return "none";
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        return node.options().isEmpty() ? List.of() : List.of("'none' takes no options");
    }

    /** A none leaf regulates nothing: it may hold only read-only types. */
    @Override
    public boolean readOnlyLeaf() {
        return true;
    }

    @Override
    public TcPart<Void> tcPart(CcNode node, TcServices services) {
        return new TcPart<>() {
        };
    }

    @Override
    public DsPart<Void> dsPart(CcNode node, DsServices services) {
        return new DsPart<>() {
            @Override
            public void execute(DsTxn t, Void st, OpContext op, Continuation k) {
                if (op.op().kind().exclusive()) {
                    k.abort(AbortReason.error(op.op().kind() + " on " + op.key() + " by a transaction of the read-only"
                            + " group at " + node.place() + " (mechanism none)"));
                } else {
                    k.proceed();
                }
            }
        };
    }
}
