package org.tebaldi.server.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.tebaldi.core.codec.ByteArrayEncoder;
import org.tebaldi.core.codec.CodecRegistry;
import org.tebaldi.core.runtime.NodeId;

/**
 * A hand-driven TCP client of a Netty transport for the wire tests: reads the challenge, writes raw bytes or
 * well-formed frames (hello, message), and tells whether the node closed the connection.
 */
final class RawPeer implements AutoCloseable {
    static final CodecRegistry REG = CodecRegistry.classPath();
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private byte[] nonce;

    RawPeer(InetSocketAddress node) throws IOException {
        socket = new Socket(node.getAddress(), node.getPort());
        socket.setSoTimeout(5_000);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Reads the node's challenge frame and returns its nonce. */
    byte[] challenge() throws IOException {
        DataInputStream d = new DataInputStream(in);
        int len = d.readInt();
        if (len != 1 + ClusterSecret.NONCE_BYTES || d.readUnsignedByte() != Frames.CHALLENGE) {
            throw new IOException("not a challenge: length " + len);
        }
        nonce = new byte[ClusterSecret.NONCE_BYTES];
        d.readFully(nonce);
        return nonce;
    }

    /** Answers the challenge read before with a hello made with {@code secret} and the classpath codecs. */
    void hello(ClusterSecret secret, String name) throws IOException {
        write(helloFrame(secret, nonce, REG.fingerprint(), name));
    }

    static byte[] helloFrame(ClusterSecret secret, byte[] nonce, long fingerprint, String name) {
        ByteArrayEncoder e = new ByteArrayEncoder(REG);
        e.writeLong(fingerprint);
        e.writeString(name);
        byte[] mac = secret.mac(nonce, fingerprint, name);
        e.writeRaw(mac, 0, mac.length);
        return frame(Frames.HELLO, e.toByteArray());
    }

    /** A message frame from {@code from} to {@code to} carrying {@code msg}. */
    static byte[] messageFrame(NodeId from, NodeId to, Object msg) {
        ByteArrayEncoder e = new ByteArrayEncoder(REG);
        Frames.writeNode(e, from);
        Frames.writeNode(e, to);
        e.writeValue(msg);
        return frame(Frames.MESSAGE, e.toByteArray());
    }

    /** {@code [int32 length][kind][body]}. */
    static byte[] frame(int kind, byte[] body) {
        return ByteBuffer.allocate(5 + body.length).putInt(1 + body.length).put((byte) kind).put(body).array();
    }

    void write(byte[] b) throws IOException {
        out.write(b);
        out.flush();
    }

    /** Half-closes: no more bytes from this side. */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /**
     * Whether the node closes the connection within {@code millis} (reads and discards what it sends; a reset
     * counts as closed).
     */
    boolean closedByNode(int millis) throws IOException {
        socket.setSoTimeout(millis);
        byte[] sink = new byte[256];
        try {
            while (in.read(sink) >= 0) {
                // discard (e.g. the challenge)
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // connection reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
