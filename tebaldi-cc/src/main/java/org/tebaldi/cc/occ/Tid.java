package org.tebaldi.cc.occ;

/**
 * Silo's transaction ids (Tu et al., SOSP 2013, §4.2; COCO §5.1 "PT-OCC"): a 64-bit number, the epoch in the high 32
 * bits and a sequence number in the low 32. A committing transaction takes the smallest TID that is (a) larger
 * than the TID of every record it read or overwrote, (b) larger than the last TID its coordinator chose and (c) in
 * the coordinator's current epoch. Each record's TID — here the stamp the OCC node puts on the versions it
 * commits — therefore grows along the record's version order. TIDs do not order transactions linked only by an
 * anti-dependency (Silo tracks none); the lock-then-validate protocol does. Epochs here come from each
 * coordinator's clock (Silo has one global epoch): with skewed clocks rule (a) still holds, and a TID may then lie
 * in a later epoch than the coordinator's own.
 */
final class Tid {
    /** Bits of the sequence number below the epoch. */
    static final int SEQ_BITS = 32;

    private Tid() {
    }

    /** The first TID of {@code epoch}. */
    static long first(long epoch) {
        return epoch << SEQ_BITS;
    }

    /** The epoch of {@code tid}. */
    static long epoch(long tid) {
        return tid >>> SEQ_BITS;
    }

    /**
     * The commit TID by Silo's three rules.
     *
     * @param epoch   the coordinator's current epoch
     * @param maxSeen the largest TID among the records read or overwritten (0 if none)
     * @param last    the coordinator's last chosen TID (0 if none)
     */
    static long next(long epoch, long maxSeen, long last) {
        return Math.max(first(epoch), Math.max(maxSeen, last) + 1);
    }

    /** {@code epoch.sequence}, for messages. */
    static String format(long tid) {
        return epoch(tid) + "." + (tid & ((1L << SEQ_BITS) - 1));
    }
}
