package org.tebaldi.cc.chiller;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.tree.CcNode;

/**
 * Chiller's two-region execution as a leaf of a CC tree (Zamanian, Shun, Binnig and Kraska, SIGMOD 2020, §3):
 * a transaction's operations on records in the placement's hot-record lookup table ({@link
 * org.tebaldi.core.cc.CcServices#hot}) form its <em>inner region</em>, executed at one data server (the inner host)
 * after every earlier operation — the <em>outer region</em> — holds its lock and has returned; everything else is
 * NO_WAIT two-phase locking (a lock that cannot be granted at once aborts). The inner host decides: a conflict on a
 * hot record aborts the transaction there, before its inner region commits; once the inner host voted yes, it
 * releases the hot records' locks at once (the inner region commits) and nothing but a failure aborts the
 * transaction afterwards. Later transactions see the released, not yet globally committed, hot writes and commit
 * after their writer (a commit dependency). Without a placement no record is hot and the mechanism is NO_WAIT 2PL.
 * Leaf only (docs/mechanisms.md, "Chiller").
 *
 * <p>No options.
 */
public final class Chiller implements Mechanism {
    /** Lock-wait timeout handed to the lock table, µs; unused in practice, since no request ever waits (NO_WAIT). */
    static final long UNUSED_TIMEOUT_MICROS = 100_000;

    @Override
    public String name() {
        return "chiller";
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        for (String k : node.options().keySet()) {
            problems.add("option '" + k + "' is unknown to chiller (it has no options; hot records come from "
                    + "cluster.placement)");
        }
        return problems;
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        return new ChillerTcPart(services);
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new ChillerDsPart(node, services);
    }

    @Override
    public String toString() {
        return name() + " (two-region execution over NO_WAIT 2PL)";
    }
}
