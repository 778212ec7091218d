package org.tebaldi.server.node;

import java.util.function.Consumer;
import org.tebaldi.core.cc.CcServices;
import org.tebaldi.core.cc.Continuation;
import org.tebaldi.core.txn.AbortReason;

/**
 * Runs one pass of a phase over the levels of a path (dissertation §4.3.1): top-down (level 0 → n-1) or
 * bottom-up (n-1 → 0). Each level's part gets this object as its {@link Continuation}; a part that proceeds
 * synchronously is followed in a loop (no recursion), a part that parks is resumed later through the node's
 * ready queue. Each level must call exactly one of proceed/abort exactly once.
 */
public final class LevelPass implements Continuation {
    /** The work of one level. */
    @FunctionalInterface
    public interface Step {
        void run(int level, Continuation k);
    }

    private final CcServices node;
    private final Step step;
    private final int stop;
    private final int dir;
    private final Runnable onDone;
    private final Consumer<AbortReason> onAbort;
    private int level;
    private boolean inCall;
    private boolean answered;
    private AbortReason aborted;

    private LevelPass(CcServices node, int from, int stop, int dir, Step step, Runnable onDone,
                      Consumer<AbortReason> onAbort) {
        this.node = node;
        this.level = from;
        this.stop = stop;
        this.dir = dir;
        this.step = step;
        this.onDone = onDone;
        this.onAbort = onAbort;
    }

    /** Runs levels 0..n-1 now. */
    public static void topDown(CcServices node, int n, Step step, Runnable onDone, Consumer<AbortReason> onAbort) {
        new LevelPass(node, 0, n, 1, step, onDone, onAbort).run();
    }

    /** Runs levels n-1..0 now. */
    public static void bottomUp(CcServices node, int n, Step step, Runnable onDone, Consumer<AbortReason> onAbort) {
        new LevelPass(node, n - 1, -1, -1, step, onDone, onAbort).run();
    }

    private void run() {
        while (level != stop) {
            answered = false;
            inCall = true;
            step.run(level, this);
            inCall = false;
            if (aborted != null) {
                onAbort.accept(aborted);
                return;
            }
            if (!answered) {
                return; // parked: resumed through proceed() or abort() later
            }
            level += dir;
        }
        onDone.run();
    }

    @Override
    public void proceed() {
        answer();
        if (!inCall) {
            node.later(() -> {
                level += dir;
                run();
            });
        }
    }

    @Override
    public void abort(AbortReason reason) {
        answer();
        aborted = reason;
        if (!inCall) {
            node.later(() -> onAbort.accept(reason));
        }
    }

    private void answer() {
        if (answered) {
            throw new IllegalStateException("CC part at level " + level + " answered its continuation twice");
        }
        answered = true;
    }
}
