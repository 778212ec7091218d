package org.tebaldi.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code tebaldi node --session-timeout}: out of range is one message and exit code 2, before anything starts. */
class NodeSessionTimeoutTest {
    @Test
    void outOfRangeSessionTimeoutIsOneMessage() {
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"node", "--role", "ds", "--id", "0", "--zk", "127.0.0.1:2181",
            "--session-timeout", "500"}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code);
        assertEquals("--session-timeout: session timeout 500 ms out of range. Fix: use 2000..600000 ms, e.g. "
                + "--session-timeout 15000", err.toString().strip());
    }
}
