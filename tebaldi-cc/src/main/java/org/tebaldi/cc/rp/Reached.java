package org.tebaldi.cc.rp;

/** Whether a transaction reached a step target ({@code RpTcPart.reached}: entered and released at least these steps). */
@FunctionalInterface
interface Reached {
    boolean test(long id, int entered, int released);
}
