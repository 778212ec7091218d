package org.tebaldi.server.net;

import io.netty.channel.Channel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes connections that break the wire protocol ({@link Frames}): a bad or missing handshake, a frame longer than
 * allowed, an undecodable frame, a frame of an unknown kind (counted in {@link TransportStats#rejected()}). The log
 * gets at most one line per second (the first rejection of the second, with the number of rejections not logged since), so
 * a peer sending garbage in a loop cannot flood the log.
 */
final class Rejections {
    private static final Logger LOG = LoggerFactory.getLogger(Rejections.class);
    private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String processName;
    private final LongAdder lines = new LongAdder();
    private final AtomicLong lastLine = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);
    private final AtomicLong unlogged = new AtomicLong();
    private volatile String last;

    Rejections(String processName) {
        this.processName = processName;
    }

    /** Logs it unless a line was logged within the last second, and closes the channel. */
    void reject(Channel ch, String problem) {
        last = problem;
        long now = System.nanoTime();
        long last = lastLine.get();
        if (now - last >= LOG_EVERY_NANOS && lastLine.compareAndSet(last, now)) {
            long before = unlogged.getAndSet(0);
            lines.increment();
            LOG.warn("{}: closing connection from {}: {}{}", processName, ch.remoteAddress(), problem,
                    before == 0 ? "" : " (" + before + " more rejection(s) since the last such line)");
        } else {
            unlogged.incrementAndGet();
        }
        ch.close();
    }

    /** The problem of the latest rejection (logged or not), or null if none. */
    String last() {
        return last;
    }

    /** Log lines written about them. */
    long lines() {
        return lines.sum();
    }
}
