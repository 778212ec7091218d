package org.tebaldi.cc.sundial;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.tebaldi.core.cc.DsServices;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.core.storage.Version;

/**
 * GC confirmation at a data server with the coordinators' caches on (docs/mechanisms.md, "TicToc and Sundial";
 * the contract: docs/cluster.md, "Garbage collection", {@code DsPart.confirmGc}). A data server read returns the
 * latest committed version, but a coordinator's cache may serve a version overwritten since, valid at a logical
 * time in its lease (Sundial §4): that read is ordered before the newer version. So an epoch's versions are
 * confirmed only once every coordinator answered a {@link SundialMessages.Fence} listing those that overwrote a
 * committed version: the coordinator drops every cached version older than one of them (and takes no cache
 * refresh from a transaction that began before the fence, whose data-server read may be older), and answers once
 * its history — the reads its cache served before — is handed over, so that the streamed check meets those reads
 * before the newer versions are reported final. A fence not answered within the wait timeout
 * ({@link DsServices#waitTimeoutMicros()}: a lost message, a coordinator whose part was not rebuilt yet by an online
 * update) is sent again to those that did not answer, at most {@value #MAX_SENDS} times; after that the epoch stays
 * unconfirmed and its versions are kept, as before confirmation existed (a coordinator that crashed). Data-server
 * thread only.
 */
final class CacheFences {
    /** Times a fence is sent to a coordinator that does not answer before the epoch is left unconfirmed. */
    static final int MAX_SENDS = 25;

    /** A fence waiting for answers. */
    private static final class Pending {
        final SundialMessages.Fence fence;
        final boolean[] waiting;
        int left;
        int sends = 1;
        final Runnable confirmed;

        Pending(SundialMessages.Fence fence, int coordinators, Runnable confirmed) {
            this.fence = fence;
            this.waiting = new boolean[coordinators];
            java.util.Arrays.fill(waiting, true);
            this.left = coordinators;
            this.confirmed = confirmed;
        }
    }

    private final DsServices services;
    private final int ccNode;
    private final ToLongFunction<Version> wts;
    /** Versions committed by this part, not confirmed yet: the key if they overwrote a committed version, else null. */
    private final IdentityHashMap<Version, Key> committed = new IdentityHashMap<>();
    private final Map<Long, Pending> pending = new LinkedHashMap<>();
    private boolean ticking;

    /** @param wts a version's {@code wts} (its lease's start) at this server */
    CacheFences(DsServices services, int ccNode, ToLongFunction<Version> wts) {
        this.services = services;
        this.ccNode = ccNode;
        this.wts = wts;
    }

    /** This part committed {@code v} on {@code key}; {@code overwrote}: over an older committed version. */
    void committed(Key key, Version v, boolean overwrote) {
        committed.put(v, overwrote ? key : null);
    }

    /**
     * {@code DsPart.confirmGc}: runs {@code confirmed} once no coordinator's cache serves a version older than one of
     * {@code written} — at once if none overwrote a committed version (no cache can hold an older one).
     */
    void confirm(List<Version> written, Runnable confirmed) {
        List<SundialMessages.Settled> over = new ArrayList<>();
        boolean unknown = false;
        for (Version v : written) {
            if (!committed.containsKey(v)) {
                unknown = true; // written before this part was installed (an online update, a rebuild)
                continue;
            }
            Key k = committed.remove(v);
            if (k != null) {
                over.add(new SundialMessages.Settled(k, v.writer(), v.writeSeq(), wts.applyAsLong(v)));
            }
        }
        int n = services.coordinators();
        if (over.isEmpty() && !unknown || n == 0) {
            confirmed.run();
            return;
        }
        SundialMessages.Fence f = new SundialMessages.Fence(services.newRequestId(),
                over.toArray(new SundialMessages.Settled[0]), unknown);
        Pending p = new Pending(f, n, confirmed);
        pending.put(f.id(), p);
        send(p);
        if (!ticking) {
            ticking = true;
            services.schedule(services.waitTimeoutMicros(), this::resend);
        }
    }

    /** Coordinator {@code from} answered a fence. */
    void answered(NodeId from, SundialMessages.Fenced a) {
        Pending p = pending.get(a.id());
        int i = from.index();
        if (p == null || i < 0 || i >= p.waiting.length || !p.waiting[i]) {
            return;
        }
        p.waiting[i] = false;
        if (--p.left == 0) {
            pending.remove(a.id());
            p.confirmed.run();
        }
    }

    private void send(Pending p) {
        for (int i = 0; i < p.waiting.length; i++) {
            if (p.waiting[i]) {
                services.send(NodeId.tc(i), ccNode, p.fence);
            }
        }
    }

    private void resend() {
        pending.values().removeIf(p -> p.sends >= MAX_SENDS);
        for (Pending p : pending.values()) {
            p.sends++;
            send(p);
        }
        if (pending.isEmpty()) {
            ticking = false;
        } else {
            services.schedule(services.waitTimeoutMicros(), this::resend);
        }
    }

    /** Fences waiting for answers. */
    int waiting() {
        return pending.size();
    }
}
