package org.tebaldi.server.tc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tebaldi.core.runtime.NodeDown;
import org.tebaldi.core.runtime.Role;
import org.tebaldi.core.txn.AbortReason;

/**
 * Failures as a coordinator's feature (process mode and the simulated faults, docs/architecture.md "Failures";
 * always on): transactions with a participant on a failed data server abort with a clear, non-retryable error
 * (their partition is unavailable), and so do transactions of a failed client endpoint; later operations on that
 * server abort at once, until a recovery round revives it. A failed singleton service aborts every live
 * transaction. Coordinator thread only.
 */
final class TcFailures implements TcFeature {
    private static final Logger LOG = LoggerFactory.getLogger(TcFailures.class);

    private final TransactionCoordinator tc;
    private final BitSet deadDs = new BitSet();

    TcFailures(TransactionCoordinator tc) {
        this.tc = tc;
    }

    @Override
    public void nodeDown(NodeDown d) {
        if (d.node().role() == Role.TS || d.node().role() == Role.BATCH) {
            serviceDown(d);
            return;
        }
        List<TcTxnImpl> doomed = new ArrayList<>();
        for (TcTxnImpl t : tc.live()) {
            boolean hit = d.node().role() == Role.CLIENT ? t.client.equals(d.node())
                    : d.node().role() == Role.DS
                            && Arrays.stream(t.participants()).anyMatch(p -> p == d.node().index());
            if (hit) {
                doomed.add(t);
            }
        }
        if (d.node().role() == Role.DS) {
            deadDs.set(d.node().index());
        }
        String why = (d.node().role() == Role.DS ? "data server " : "client ") + d.node() + " failed (" + d.reason()
                + ")";
        for (TcTxnImpl t : doomed) {
            tc.commits().abort(t, AbortReason.error(why));
        }
        if (!doomed.isEmpty()) {
            LOG.warn("tc{}: aborted {} transaction(s): {}", tc.tcIndex(), doomed.size(), why);
        }
    }

    /**
     * A singleton service failed and a new term will take over under the same address: its state and the replies
     * it owed are lost, so every live transaction aborts (retryably), and every CC part hears of it
     * ({@link org.tebaldi.core.cc.TcPart#serviceFailed}: no batch of the old term takes new members). The parts
     * are kept, not rebuilt: their clients' request ids go on, so a late reply never matches a new request.
     */
    private void serviceDown(NodeDown d) {
        int n = tc.liveTransactions();
        tc.commits().abortAll("the " + d.node().role().cli() + " service " + d.node() + " failed (" + d.reason() + ")");
        tc.module().parts().forEach(p -> p.serviceFailed(d.node()));
        LOG.warn("tc{}: service {} failed: aborted {} transaction(s)", tc.tcIndex(), d.node(), n);
    }

    /** Whether data server {@code ds} is known to have failed (and not revived). */
    boolean dataServerDown(int ds) {
        return deadDs.get(ds);
    }

    /** Data server {@code ds} is alive again (it reported an epoch after a recovery round). */
    void revive(int ds) {
        deadDs.clear(ds);
    }

    /** A recovery round ended: every data server serves again. */
    void reviveAll() {
        deadDs.clear();
    }
}
