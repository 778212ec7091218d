package org.tebaldi.cc.tictoc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.cc.DsPart;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.cc.TcPart;
import org.tebaldi.core.cc.TcServices;
import org.tebaldi.core.tree.CcNode;

/**
 * TicToc (Yu, Pavlo, Sanchez and Devadas, SIGMOD 2016; "LT-OCC" in COCO's terms) as a CC-tree leaf: optimistic
 * concurrency control with a logical lease {@code [wts, rts]} per record and a commit timestamp computed from the
 * leases the transaction accessed, so a reader may commit before a writer that already overwrote what it read
 * ("time travel"). Distributed as in Sundial (§3): the coordinator fixes the commit timestamp from the execution's
 * leases; each data server locks the write set, checks the writes follow their keys' leases and renews the reads'
 * leases in the validation phase ({@link TicTocDsPart}). Needs no service.
 *
 * <p>Leaf only (docs/mechanisms.md, "TicToc and Sundial"): an inner node would have to fit its children's
 * dependency orders into logical time, which the leases do not carry. No options; {@code instanceBy} is refused.
 */
public final class TicToc implements Mechanism {
    @Override
    public String name() {
        return "tictoc";
    }

    @Override
    public List<String> checkOptions(CcNode node) {
        List<String> problems = new ArrayList<>();
        String ts = org.tebaldi.core.cc.ts.TimestampScheme.unused(node, "tictoc",
                "it computes each commit timestamp from the read and write leases of the records the transaction "
                        + "accessed (Yu et al., SIGMOD 2016, §3.2), so it needs neither a service nor a clock");
        if (ts != null) {
            problems.add(ts);
        }
        for (String k : node.options().keySet()) {
            if (k.equals(org.tebaldi.core.cc.ts.TimestampScheme.OPTION)) {
                continue;
            }
            problems.add("option '" + k + "' is unknown to tictoc (it has no options)");
        }
        if (node.instanceBy() != null) {
            problems.add("tictoc does not partition by instance: remove instanceBy '" + node.instanceBy() + "'");
        }
        return problems;
    }

    @Override
    public TcPart<?> tcPart(CcNode node, TcServices services) {
        return new TicTocTcPart();
    }

    @Override
    public DsPart<?> dsPart(CcNode node, DsServices services) {
        return new TicTocDsPart(node, services);
    }
}
