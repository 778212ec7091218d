package org.tebaldi.core.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.tebaldi.core.runtime.Cancellable;
import org.tebaldi.core.runtime.NodeContext;
import org.tebaldi.core.runtime.NodeId;

/**
 * A {@link NodeContext} for driving one actor by hand in a unit test: it keeps (or hands on) what the actor sends, never
 * runs a timer (schedule returns a no-op), and its clock stands at 0.
 */
public final class RecordingContext implements NodeContext {
    private final NodeId self;
    private final java.util.function.BiConsumer<NodeId, Object> onSend;
    /** (to, message) in the order sent (when no {@code onSend} was given). */
    public final List<Object[]> sent = new ArrayList<>();

    /** Keeps what is sent in {@link #sent}. */
    public RecordingContext(NodeId self) {
        this.self = self;
        this.onSend = (to, msg) -> sent.add(new Object[] {to, msg});
    }

    /** Hands what is sent to {@code onSend} instead. */
    public RecordingContext(NodeId self, java.util.function.BiConsumer<NodeId, Object> onSend) {
        this.self = self;
        this.onSend = onSend;
    }

    @Override
    public NodeId self() {
        return self;
    }

    @Override
    public void send(NodeId to, Object msg) {
        onSend.accept(to, msg);
    }

    @Override
    public Cancellable schedule(long delayMicros, Runnable task) {
        return () -> { };
    }

    @Override
    public long nowMicros() {
        return 0;
    }

    @Override
    public Random random() {
        return new Random(0);
    }

    /** The messages sent so far, without their destinations. */
    public List<Object> messages() {
        return sent.stream().map(s -> s[1]).toList();
    }
}
