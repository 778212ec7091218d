package org.tebaldi.bench.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;

/**
 * The live view's HTTP server (Netty's HTTP codec, one event-loop thread), read-only: {@code GET /} the page and its
 * scripts (classpath {@code ui/}), {@code /uplot/*} the uPlot chart library from its WebJar, {@code /api/state}
 * everything so far as JSON ({@link LiveState#snapshot}), {@code /api/tree} the current CC tree
 * ({@link TreeJson}), and {@code /events} a server-sent-event stream: the whole state first ({@code event: state}),
 * then what changed ({@code event: delta}) each time {@link #push} is called (once a second, by the sampler). Other
 * methods get 405, other paths 404. Binds where it is told (the command line defaults to 127.0.0.1).
 */
public final class UiServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UPLOT_POM = "META-INF/maven/org.webjars.npm/uplot/pom.properties";
    private static final Map<String, String> STATIC = Map.of(
            "/", "ui/index.html", "/index.html", "ui/index.html", "/app.js", "ui/app.js", "/charts.js",
            "ui/charts.js", "/tree.js", "ui/tree.js", "/style.css", "ui/style.css");

    private final LiveState state;
    private final EventLoopGroup group = new NioEventLoopGroup(1, r -> {
        Thread t = new Thread(r, "tebaldi-ui-http");
        t.setDaemon(true);
        return t;
    });
    private final ChannelGroup streams = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final LiveState.Cursor cursor = new LiveState.Cursor();
    private final String uplotDir;
    private final Channel server;

    /**
     * Starts listening.
     *
     * @param host the address to bind, e.g. {@code 127.0.0.1}
     * @param port the port, 0 for any free one
     * @throws IOException if the address cannot be bound (e.g. the port is taken), with the address in the message
     */
    public UiServer(LiveState state, String host, int port) throws IOException {
        this.state = state;
        this.uplotDir = "META-INF/resources/webjars/uplot/" + uplotVersion() + "/dist/";
        try {
            server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65_536),
                                    new Handler());
                        }
                    }).bind(host, port).sync().channel();
        } catch (Exception x) {
            group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            throw new IOException("cannot listen on " + host + ":" + port + ": " + x.getMessage(), x);
        }
    }

    private static String uplotVersion() throws IOException {
        try (InputStream in = UiServer.class.getClassLoader().getResourceAsStream(UPLOT_POM)) {
            if (in == null) {
                throw new IOException("the uPlot WebJar (org.webjars.npm:uplot) is not on the class path; rebuild "
                        + "with mvn -B package");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        }
    }

    /** The page's address, e.g. {@code http://127.0.0.1:41234/}. */
    public String url() {
        InetSocketAddress a = (InetSocketAddress) server.localAddress();
        String h = a.getAddress().getHostAddress();
        return "http://" + (h.contains(":") ? "[" + h + "]" : h) + ":" + a.getPort() + "/";
    }

    /** Sends what changed since the previous push to every open event stream. */
    public synchronized void push() {
        String data = sse("delta", state.delta(cursor));
        streams.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(data, StandardCharsets.UTF_8)));
    }

    private synchronized void subscribe(ChannelHandlerContext ctx) {
        HttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        HttpUtil.setTransferEncodingChunked(r, true);
        ctx.write(r);
        ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(sse("state", state.snapshot()),
                StandardCharsets.UTF_8)));
        streams.add(ctx.channel());
    }

    private static String sse(String event, JsonNode data) {
        try {
            return "event: " + event + "\ndata: " + JSON.writeValueAsString(data) + "\n\n";
        } catch (JsonProcessingException x) {
            throw new IllegalStateException("cannot write the live view's state as JSON", x);
        }
    }

    /** Stops listening and closes every stream. */
    @Override
    public void close() {
        streams.close().awaitUninterruptibly(1000);
        server.close().awaitUninterruptibly(1000);
        group.shutdownGracefully(0, 500, java.util.concurrent.TimeUnit.MILLISECONDS).awaitUninterruptibly(2000);
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) throws IOException {
            String path = new QueryStringDecoder(req.uri()).path();
            if (!req.method().equals(HttpMethod.GET)) {
                send(ctx, req, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain", bytes("read-only: GET only\n"));
            } else if (path.equals("/events")) {
                subscribe(ctx);
            } else if (path.equals("/api/state")) {
                send(ctx, req, HttpResponseStatus.OK, "application/json", JSON.writeValueAsBytes(state.snapshot()));
            } else if (path.equals("/api/tree")) {
                send(ctx, req, HttpResponseStatus.OK, "application/json", JSON.writeValueAsBytes(state.tree()));
            } else {
                byte[] b = STATIC.containsKey(path) ? resource(STATIC.get(path))
                        : path.matches("/uplot/[A-Za-z.]+") ? resource(uplotDir + path.substring("/uplot/".length()))
                        : null;
                if (b == null) {
                    send(ctx, req, HttpResponseStatus.NOT_FOUND, "text/plain", bytes("not found\n"));
                } else {
                    send(ctx, req, HttpResponseStatus.OK, type(path), b);
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = UiServer.class.getClassLoader().getResourceAsStream(name)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    private static String type(String path) {
        if (path.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (path.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        return "text/html; charset=utf-8";
    }

    private static void send(ChannelHandlerContext ctx, FullHttpRequest req, HttpResponseStatus status, String type,
                             byte[] body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, type).setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        boolean keep = HttpUtil.isKeepAlive(req);
        if (keep) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        var f = ctx.writeAndFlush(r);
        if (!keep) {
            f.addListener(ChannelFutureListener.CLOSE);
        }
    }
}
