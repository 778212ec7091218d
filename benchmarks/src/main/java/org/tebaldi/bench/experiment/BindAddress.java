package org.tebaldi.bench.experiment;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;

/** Checks of {@code cluster.bind} (docs/cluster.md "Process mode"): whether a node process could listen on an address. */
final class BindAddress {
    private BindAddress() {
    }

    /**
     * Whether {@code host} names an interface of this machine: the wildcard ({@code 0.0.0.0}, {@code ::}), a
     * loopback address, or an address of one of its network interfaces. Names are resolved (one lookup).
     */
    static boolean isLocal(String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        try {
            InetAddress a = InetAddress.getByName(host);
            return a.isAnyLocalAddress() || a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }
}
