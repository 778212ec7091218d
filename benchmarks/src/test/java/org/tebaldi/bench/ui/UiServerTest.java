package org.tebaldi.bench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tebaldi.bench.experiment.Experiment;
import org.tebaldi.bench.experiment.ExperimentLoader;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeLoader;

/**
 * The live view's HTTP server without a run: the page, its scripts and uPlot come from the jar; {@code /api/tree}
 * and {@code /api/state} are the state as JSON; {@code /events} streams the whole state, then each push's changes
 * (a new sample, a new tree); it is read-only, binds the loopback address, and a taken port is one clear error.
 */
class UiServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path tmp;

    private Experiment bank() {
        return ExperimentLoader.parse("""
                name: ui-bank
                workload: {name: bank, accounts: 10}
                tree: {root: {cc: ssi, children: [{cc: none, txns: [audit]}, {cc: 2pl, txns: [transfer]}]}}
                clients: 2
                duration: 1s
                """, tmp.resolve("x.yaml"), List.of(), tmp);
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void servesThePageTheStateAndAStreamOfChanges() throws Exception {
        Experiment e = bank();
        LiveState state = new LiveState(e.name(), "run", List.of("transfer", "audit"), e.tree().tree());
        try (UiServer s = new UiServer(state, "127.0.0.1", 0)) {
            String url = s.url();
            assertTrue(url.matches("http://127\\.0\\.0\\.1:\\d+/"), url);
            HttpResponse<String> page = get(url);
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("/uplot/uPlot.iife.min.js") && page.body().contains("/app.js"));
            for (String js : new String[] {"app.js", "charts.js", "tree.js", "style.css"}) {
                assertEquals(200, get(url + js).statusCode(), js);
            }
            HttpResponse<String> uplot = get(url + "uplot/uPlot.iife.min.js");
            assertEquals(200, uplot.statusCode());
            assertTrue(uplot.body().contains("uPlot") && uplot.body().length() > 10_000, "uPlot from its WebJar");
            assertEquals(404, get(url + "uplot/LICENSE.txt").statusCode());
            assertEquals(404, get(url + "nothing-here").statusCode());
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(url + "api/state"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode(), "read-only");

            JsonNode tree = JSON.readTree(get(url + "api/tree").body());
            assertEquals("ssi{none[audit],2pl[transfer]}", tree.get("describe").textValue());
            assertEquals(3, tree.get("nodes").intValue());
            assertEquals("2pl", tree.get("root").get("children").get(1).get("cc").textValue());
            assertEquals("transfer", tree.get("root").get("children").get(1).get("txns").get(0).textValue());

            HttpResponse<Stream<String>> sse = http.send(HttpRequest.newBuilder(URI.create(url + "events")).build(),
                    HttpResponse.BodyHandlers.ofLines());
            assertTrue(sse.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
            Iterator<String> lines = sse.body().iterator();
            JsonNode first = event(lines, "state");
            assertEquals("ui-bank", first.get("name").textValue());
            assertEquals(0, first.get("samples").size());

            ObjectNode sample = JsonNodeFactory.instance.objectNode().put("tMs", 1000).put("total", 42.0);
            state.sample(sample);
            state.swap(JsonNodeFactory.instance.objectNode().put("n", 1).put("startMs", 900).put("endMs", 950));
            CcTree next = TreeLoader.parse("root: {cc: 2pl, txns: [transfer, audit]}", "next",
                    TreeContext.of(e.workload().database()));
            state.tree(next);
            s.push();
            JsonNode delta = event(lines, "delta");
            assertEquals(1, delta.get("samples").size());
            assertEquals(0, delta.get("samples").get(0).get("i").intValue());
            assertEquals(42.0, delta.get("samples").get(0).get("total").doubleValue());
            assertEquals(900, delta.get("swaps").get(0).get("startMs").intValue());
            assertEquals("2pl[transfer,audit]", delta.get("tree").get("describe").textValue());
            assertEquals(1, delta.get("tree").get("nodes").intValue());
            s.push();
            JsonNode again = event(lines, "delta");
            assertEquals(0, again.get("samples").size(), "a push sends only what changed: " + again);
            assertEquals(1, JSON.readTree(get(url + "api/state").body()).get("samples").size());
        }
    }

    /** Reads the next server-sent event, which must be {@code name}, and returns its data. */
    private static JsonNode event(Iterator<String> lines, String name) throws IOException {
        String l = lines.next();
        while (l.isEmpty()) {
            l = lines.next();
        }
        assertEquals("event: " + name, l);
        String data = lines.next();
        assertTrue(data.startsWith("data: "), data);
        return JSON.readTree(data.substring("data: ".length()));
    }

    @Test
    void aTakenPortIsOneClearError() throws Exception {
        Experiment e = bank();
        LiveState state = new LiveState(e.name(), "run", List.of("transfer", "audit"), e.tree().tree());
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            IOException x = assertThrows(IOException.class, () -> new UiServer(state, "127.0.0.1",
                    taken.getLocalPort()));
            assertTrue(x.getMessage().startsWith("cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": "),
                    x.getMessage());
        }
    }
}
