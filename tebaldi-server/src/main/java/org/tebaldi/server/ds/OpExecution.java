package org.tebaldi.server.ds;

import org.tebaldi.core.cc.DsTxn;
import org.tebaldi.core.cc.OpContext;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.txn.AbortReason;
import org.tebaldi.core.txn.Op;
import org.tebaldi.core.txn.OpKind;
import org.tebaldi.server.msg.ExecRequest;

/**
 * One operation at a data server (dissertation §4.3.1, execution phase): the top-down pass over every level's
 * DS part (lock / wait / abort), then the storage access with the bottom-up read-version chain (Fig 4.5), then
 * the bottom-up dependency reports, then one reply — whatever the depth of the path (§4.5.2).
 */
final class OpExecution implements OpContext {
    private final DataServer ds;
    private final DsTxnImpl t;
    private final ExecRequest req;
    private final NodeId from;
    private final VersionChain chain;
    private int level;
    private Version chosen;
    private Version written;
    private java.util.List<java.util.function.Predicate<Version>> placeBefore;

    OpExecution(DataServer ds, DsTxnImpl t, ExecRequest req, NodeId from) {
        this.ds = ds;
        this.t = t;
        this.req = req;
        this.from = from;
        this.chain = ds.store().chain(req.op().key());
    }

    void start() {
        org.tebaldi.server.node.AccessSampler s = ds.config().accessSampler();
        if (s != null && s.sampled(t.id())) {
            s.access(ds.dsIndex(), t.id(), req.op().key(), req.op().kind().exclusive());
        }
        ds.module().execute(t, this, this::apply, this::fail);
    }

    /** This operation as seen by the part at {@code l}: its dependency reports are attributed to that level. */
    OpExecution at(int l) {
        level = l;
        return this;
    }

    private void fail(AbortReason r) {
        if (!t.finished()) {
            ds.phases().localAbort(t, r);
        }
        ds.phases().replyExec(from, t, req.opId(), false, null, r);
    }

    private void apply() {
        if (t.finished()) {
            return; // aborted while this operation was parked
        }
        if (ds.phases().dropped(t)) {
            fail(AbortReason.conflict("dropped by a recovery round at this server")); // granted by the old CC module
            return;
        }
        if (t.doomed != null) {
            // Doomed while this operation was parked (e.g. a writer it read from aborted while an SSI level made
            // it wait for that writer): it can never commit, and the storage access would hand the body a state
            // no serializable execution shows (the aborted writer's first writes without the rest). Abort now,
            // as DsPhases.exec does for an operation that arrives doomed.
            fail(AbortReason.conflict(t.doomed));
            return;
        }
        Op op = req.op();
        Row result = null;
        try {
            if (op.kind().reads()) {
                result = read();
            }
            if (op.kind().writes()) {
                Row nv = switch (op.kind()) {
                    case UPDATE -> result == null ? null : op.update().apply(result);
                    case UPSERT -> result == null ? op.value() : op.update().apply(result);
                    case WRITE -> op.value();
                    default -> null; // delete
                };
                if (op.kind() != OpKind.UPDATE || result != null) {
                    write(nv);
                    result = nv;
                }
            }
        } catch (NoRoom e) {
            fail(AbortReason.conflict(e.getMessage()));
            return;
        } catch (RuntimeException e) {
            fail(AbortReason.error("operation " + op.kind() + " on " + op.key() + " failed: " + e.getMessage()));
            return;
        }
        ds.module().afterOp(t, this);
        ds.phases().replyExec(from, t, req.opId(), true, result, null);
    }

    private Row read() {
        Version p = ds.module().chooseRead(t, this, t.ownVersion(chain));
        if (p == Version.ABSENT) {
            p = null; // the root's view holds no version of this key: the row is absent
        } else if (p == null) {
            p = chain.latestCommitted();
        }
        chosen = p;
        if (p == null) {
            ds.recorder().read(t, req.op().key(), Version.INITIAL_WRITER, 1);
            return null;
        }
        if (p.writer() != t.id()) {
            ds.recorder().read(t, req.op().key(), p.writer(), p.writeSeq());
            if (!p.committed()) {
                DsTxnImpl w = ds.txns().get(p.writer());
                if (w != null) {
                    t.readFrom.add(w);
                }
                p.addForeignReader(t);
            }
        }
        return p.value();
    }

    private void write(Row nv) {
        Version own = t.ownVersion(chain);
        if (own != null) {
            own.overwrite(nv);
        } else {
            own = new Version(t.id(), t.leaf(), t.instance(), nv, false);
            int at = -1;
            if (placeBefore != null) {
                for (int i = 0; i < chain.size() && at < 0; i++) {
                    for (java.util.function.Predicate<Version> p : placeBefore) {
                        if (p.test(chain.get(i))) {
                            at = i;
                            break;
                        }
                    }
                }
            }
            if (at < 0) {
                chain.append(own);
            } else if (!chain.insert(at, own)) {
                throw new NoRoom("no room left in the version order of " + req.op().key() + " before position " + at);
            }
            t.writes.add(new DsTxnImpl.Written(req.op().key(), chain, own));
            ds.txns().versionAdded();
        }
        written = own;
        ds.recorder().write(t, req.op().key(), own.writeSeq());
    }

    /** An insertion found no order key between its neighbours (retryable: the chain is pruned meanwhile). */
    private static final class NoRoom extends RuntimeException {
        NoRoom(String message) {
            super(message, null, false, false);
        }
    }

    @Override
    public Op op() {
        return req.op();
    }

    @Override
    public VersionChain chain() {
        return chain;
    }

    @Override
    public Version chosen() {
        return chosen;
    }

    @Override
    public Version written() {
        return written;
    }

    @Override
    public void dependOn(DsTxn other) {
        ds.phases().addDependency(t, other, level);
    }

    @Override
    public void placeBefore(java.util.function.Predicate<Version> later) {
        if (placeBefore == null) {
            placeBefore = new java.util.ArrayList<>(1);
        }
        placeBefore.add(later);
    }
}
