package org.tebaldi.server.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.tebaldi.core.runtime.NodeId;

/**
 * A primary's side of reads from the nearest replica (docs/mechanisms.md "Replication", {@code
 * cluster.replication.reads: nearest}): the writes committed here are collected as they commit ({@link #committed},
 * after the CC parts stamped them) and leave every {@link #TICK_MICROS} as one {@link ReplicaMessages.View} to each
 * live backup, numbered 1, 2, …, followed in the same message by the watermark {@code W} the root's part gives
 * then ({@code DsPart.replicaFloor}: every transaction that commits here later stamps above {@code W}). Why a backup
 * may then answer snapshots up to {@code W}: every write stamped at or below {@code W} committed here before the
 * tick — so it is in this View or an earlier one — and a backup applies Views in their order before it raises its
 * watermark. A View is sent when it carries writes or the watermark rose. Stops for good at a recovery round
 * ({@link #stop}). Writes are sent once: a View lost with a dropped connection stalls the backup's view (its
 * watermark stops; reads fall back to the primary). Data-server thread only.
 */
public final class ViewShipper {
    /** How often committed writes and the watermark leave, µs. */
    public static final long TICK_MICROS = 1_000;

    private final int partition;
    private final int[] backups;
    private final boolean[] down;
    private final BiConsumer<NodeId, Object> send;
    private final BiConsumer<Long, Runnable> timer;
    private final LongSupplier clock;
    private final LongSupplier floor;
    private List<ReplicaMessages.ViewWrite> buffer = new ArrayList<>();
    private long oldestCommit = -1;
    private long seq;
    private long lastWatermark = Long.MIN_VALUE;
    private boolean started;
    private boolean stopped;

    /**
     * @param backups the data servers keeping this partition's backups
     * @param floor   the root part's {@code replicaFloor()} at this server
     * @param timer   runs a task on this server's thread after a delay in µs
     * @param clock   this server's clock, µs
     */
    public ViewShipper(int partition, int[] backups, BiConsumer<NodeId, Object> send, BiConsumer<Long, Runnable> timer,
                       LongSupplier clock, LongSupplier floor) {
        this.partition = partition;
        this.backups = backups.clone();
        this.down = new boolean[backups.length];
        this.send = send;
        this.timer = timer;
        this.clock = clock;
        this.floor = floor;
    }

    /** The data server started: the ticks begin. */
    public void start() {
        if (!started) {
            started = true;
            timer.accept(TICK_MICROS, this::tick);
        }
    }

    /** A transaction's writes committed here (stamped), to leave with the next tick. */
    public void committed(List<ReplicaMessages.ViewWrite> writes) {
        if (stopped || writes.isEmpty()) {
            return;
        }
        if (buffer.isEmpty()) {
            oldestCommit = clock.getAsLong();
        }
        buffer.addAll(writes);
    }

    private void tick() {
        if (stopped) {
            return;
        }
        long w = floor.getAsLong();
        if (!buffer.isEmpty() || w > lastWatermark) {
            lastWatermark = Math.max(lastWatermark, w);
            ReplicaMessages.View v = new ReplicaMessages.View(partition, ++seq, buffer, lastWatermark,
                    buffer.isEmpty() ? -1 : oldestCommit);
            buffer = new ArrayList<>();
            oldestCommit = -1;
            for (int i = 0; i < backups.length; i++) {
                if (!down[i]) {
                    send.accept(NodeId.ds(backups[i]), v);
                }
            }
        }
        timer.accept(TICK_MICROS, this::tick);
    }

    /** Data server {@code host} failed: if it kept a backup, nothing more goes to it. */
    public void nodeDown(int host) {
        for (int i = 0; i < backups.length; i++) {
            if (backups[i] == host) {
                down[i] = true;
            }
        }
    }

    /** A recovery round began: nothing is shipped any more (the backups drop their views). */
    public void stop() {
        stopped = true;
        buffer = new ArrayList<>();
    }
}
