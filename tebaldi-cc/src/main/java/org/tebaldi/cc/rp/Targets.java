package org.tebaldi.cc.rp;

/**
 * What a transition waits for: per dependency, the step it must have entered and the step it must have released
 * (-1: any), merged by maximum when a transaction is listed twice. Dependency sets are small, so a linear
 * search over parallel arrays does (no boxed keys, no hash nodes per transition).
 */
final class Targets {
    long[] ids = new long[4];
    int[] types = new int[4];
    int[] entered = new int[4];
    int[] released = new int[4];
    int n;

    void require(long id, int type, int enter, int release) {
        for (int i = 0; i < n; i++) {
            if (ids[i] == id) {
                entered[i] = Math.max(entered[i], enter);
                released[i] = Math.max(released[i], release);
                return;
            }
        }
        if (n == ids.length) {
            ids = java.util.Arrays.copyOf(ids, n * 2);
            types = java.util.Arrays.copyOf(types, n * 2);
            entered = java.util.Arrays.copyOf(entered, n * 2);
            released = java.util.Arrays.copyOf(released, n * 2);
        }
        ids[n] = id;
        types[n] = type;
        entered[n] = enter;
        released[n] = release;
        n++;
    }

    boolean reachedBy(Reached reached) {
        for (int i = 0; i < n; i++) {
            if (!reached.test(ids[i], entered[i], released[i])) {
                return false;
            }
        }
        return true;
    }
}
