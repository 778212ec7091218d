package org.tebaldi.server.net;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tebaldi.core.codec.CodecContext;
import org.tebaldi.core.runtime.EmbeddedRuntime;

/** A transport bound to loopback (the default of every node process) cannot be reached on other interfaces. */
class BindTest {
    @Test
    void boundToLoopbackItIsReachableThereOnly() throws Exception {
        NettyTransport[] t = new NettyTransport[1];
        try (EmbeddedRuntime rt = new EmbeddedRuntime(1, r -> t[0] = new NettyTransport(r, r::hosts, r.stats(),
                RawPeer.REG, CodecContext.NONE, new StaticDirectory(), NettyOptions.defaults(), "b"))) {
            InetSocketAddress bound = t[0].bind("127.0.0.1", 0);
            assertTrue(bound.getAddress().isLoopbackAddress(), "bound to " + bound);
            try (Socket s = new Socket(bound.getAddress(), bound.getPort())) {
                assertTrue(s.isConnected());
            }
            List<InetAddress> others = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                    .filter(this::up).flatMap(NetworkInterface::inetAddresses)
                    .filter(a -> !a.isLoopbackAddress() && !a.isLinkLocalAddress()).collect(Collectors.toList());
            assumeTrue(!others.isEmpty(), "this machine has no non-loopback address to try");
            for (InetAddress a : others) {
                assertThrows(IOException.class, () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(a, bound.getPort()), 2_000);
                    }
                }, "reachable on " + a);
            }
        }
    }

    private boolean up(NetworkInterface n) {
        try {
            return n.isUp();
        } catch (IOException e) {
            return false;
        }
    }
}
