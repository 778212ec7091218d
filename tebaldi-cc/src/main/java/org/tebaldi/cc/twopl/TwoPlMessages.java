package org.tebaldi.cc.twopl;

/** 2PL's payloads: the wounds of {@code deadlock: wound-wait} ({@link WoundWaitDsPart}). */
final class TwoPlMessages {
    private TwoPlMessages() {
    }

    /**
     * Transaction {@code txnId} was wounded by an older one ({@code why}, the abort reason it gets): sent by the data
     * server where the older requester found it to its coordinator, which passes it on to every data server the
     * transaction took part at, so a request it parked anywhere aborts at once.
     */
    record Wound(long txnId, String why) {
    }
}
