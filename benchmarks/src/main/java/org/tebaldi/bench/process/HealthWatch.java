package org.tebaldi.bench.process;

import java.util.concurrent.TimeUnit;
import org.tebaldi.core.runtime.NodeId;
import org.tebaldi.server.process.ProcessCluster;

/**
 * Polls every live node's status once a second on a daemon thread during the run; {@link #failed()} turns true
 * once a node reports an exception in actor code (the driver then cuts the run short, as in embedded mode). A node
 * that dies is not a failure of the run: the cluster keeps serving (docs/cluster.md "Failures").
 */
final class HealthWatch implements AutoCloseable {
    private final Thread thread;
    private volatile boolean failed;
    private volatile boolean closed;

    HealthWatch(ProcessCluster pc) {
        thread = new Thread(() -> {
            while (!closed && !failed) {
                for (NodeId n : pc.nodes()) {
                    if (pc.failedNodes().contains(n)) {
                        continue;
                    }
                    try {
                        if (pc.control().status(n).get(2, TimeUnit.SECONDS).failures() > 0) {
                            failed = true;
                        }
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        // not answering now: the membership decides whether it failed
                    }
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "tebaldi-health");
        thread.setDaemon(true);
        thread.start();
    }

    boolean failed() {
        return failed;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
