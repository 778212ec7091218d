package org.tebaldi.core.cc;

import java.util.function.Consumer;

/** What a data server offers its DS parts. */
public interface DsServices extends CcServices {
    /** Index of this data server. */
    int dsIndex();

    /**
     * Records that {@code owner} depends on {@code on} (on is ordered first), attributed to {@code level}, when the
     * fact is discovered outside {@code owner}'s own operation (e.g. a reader finds a later version): it is
     * reported with owner's next reply, and validation-time waits see it.
     */
    void addDependency(DsTxn owner, DsTxn on, int level);

    /**
     * The versions of {@code key} at this server, or null if the key has none — for a part that answers a message
     * outside any operation (e.g. the lease renewal of a read a coordinator served from its cache). Read only.
     */
    org.tebaldi.core.storage.VersionChain find(org.tebaldi.core.model.Key key);

    /**
     * How many coordinators the cluster has ({@code NodeId.tc(0)} .. {@code NodeId.tc(n - 1)}), for a part that must
     * hear from every coordinator, e.g. Sundial's GC confirmation with the coordinators' caches on; 0 (the default)
     * if not known.
     */
    default int coordinators() {
        return 0;
    }

    /** The live transaction with that id at this server, or null. */
    DsTxn txn(long id);

    /**
     * Calls {@code onFinish} (with true for commit) once {@code other}'s commit or abort is applied at this
     * server — right away if it already is. The call happens after the current event.
     */
    void awaitFinish(DsTxn other, Consumer<Boolean> onFinish);

    /**
     * Remembers that CC node {@code ccNode}'s part at this server served a transaction with timestamp {@code ts}. The
     * data server keeps the highest such timestamp per node across rebuilds of the part (partial restart, online
     * update), so a rebuilt part can stand in for the state it lost (e.g. TSO's read marks under {@code timestamps:
     * dst}). By default nothing is kept.
     */
    default void served(int ccNode, long ts) {
    }

    /** The highest timestamp {@link #served} recorded for {@code ccNode} at this server, or {@code -1} if none. */
    default long highestServed(int ccNode) {
        return -1;
    }
}
