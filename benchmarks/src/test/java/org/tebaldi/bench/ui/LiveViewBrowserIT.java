package org.tebaldi.bench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live view in a real browser (headless Chromium from Debian's packages, driven by Selenium): starts
 * {@code tebaldi tune config/experiments/bank-autotune.yaml --ui 0} from the fat jar (the daemon on, so that the run
 * outlasts the test, which ends it), opens the printed address, waits for the first reconfiguration mark on the
 * throughput timeline, saves {@code target/ui-screenshot.png}, and checks that what is drawn is the run's live data:
 * the tree drawing changes with the swaps (each tree drawn is the start tree or one swapped to), has as many node
 * boxes as the current tree from {@code /api/tree} and names the same tree, the timeline's points are the samples of
 * {@code /api/state} and grow while the run goes on, the first mark sits at the first reconfiguration's start and
 * end, and the heat map covers every pair of transaction types. Each look at the page waits on a condition, with
 * bounds generous enough for a loaded 2-core machine (minutes, where an idle machine needs seconds), and reads what
 * the page redraws with every push (the marks, the tree) afresh, in one script per look. Runs
 * {@code scripts/install-chromium} when the browser or its driver is missing; skipped, with that script's message,
 * only where it cannot install them.
 */
class LiveViewBrowserIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // a bound for a stalled machine; the waits below end far sooner
    void showsATuneRunLive() throws Exception {
        ensureChromium();
        Process run = startTune();
        ChromeDriver browser = null;
        try {
            String url = awaitUrl(run);
            browser = browser();
            browser.get(url);
            JavascriptExecutor js = browser;
            // every tree the page draws from now on, as the page labels its drawing (an observer on #tree's
            // data-describe, so that no drawing is missed between two looks)
            js.executeScript("""
                    const svg = document.getElementById('tree');
                    window.drawnTrees = [];
                    const note = () => {
                      const d = svg.dataset.describe;
                      if (d && !window.drawnTrees.includes(d)) window.drawnTrees.push(d);
                    };
                    note();
                    new MutationObserver(note).observe(svg, {attributes: true, attributeFilter: ['data-describe']});
                    """);
            until(browser, 180, () -> "no reconfiguration mark on the timeline within 180 s",
                    d -> !d.findElements(By.cssSelector("#chart-throughput .mark-swap")).isEmpty());

            // the page redraws the tree as the daemon swaps candidates in and the incumbent back
            List<String> drawnTrees = new ArrayList<>();
            until(browser, 180, () -> "the page drew only " + drawnTrees + " within 180 s", d -> {
                drawnTrees.clear();
                for (Object t : (List<?>) js.executeScript("return window.drawnTrees;")) {
                    drawnTrees.add((String) t);
                }
                return drawnTrees.size() >= 2;
            });
            JsonNode swapped = get(url + "api/state").get("swaps");
            java.util.Set<String> known = new java.util.HashSet<>(List.of("ssi{none[audit],2pl[transfer]}"));
            swapped.forEach(x -> known.add(x.get("tree").textValue()));
            assertTrue(known.containsAll(drawnTrees), "trees drawn " + drawnTrees
                    + ", the start tree and the trees swapped to " + known);

            // the tree drawn is the tree running now: the page follows the endpoint within a push or two (read the
            // endpoint before and after the page, at a moment when no swap came in between; the drawing's label
            // and its boxes are read in one script, so that no redraw comes between them)
            JsonNode[] tree = new JsonNode[1];
            int[] boxes = {-1};
            String[] seen = {""};
            until(browser, 120, () -> "the page never showed the running tree within 120 s; last: " + seen[0], d -> {
                JsonNode before = get(url + "api/tree");
                List<?> drawing = (List<?>) js.executeScript("const svg = document.getElementById('tree');"
                        + "return [svg.dataset.describe || '', svg.querySelectorAll('g.tree-node').length];");
                String drawn = (String) drawing.get(0);
                JsonNode after = get(url + "api/tree");
                seen[0] = before.get("describe") + " / drawn " + drawn + " / " + after.get("describe");
                if (before.equals(after) && before.get("describe").textValue().equals(drawn)) {
                    tree[0] = after;
                    boxes[0] = ((Number) drawing.get(1)).intValue();
                    return true;
                }
                return false;
            });
            assertEquals(tree[0].get("nodes").intValue(), boxes[0], "node boxes drawn vs /api/tree " + tree[0]);
            assertTrue(boxes[0] >= 3, "ssi over two leaves at least: " + tree[0]);

            // the timeline is the live samples, and grows
            long n1 = points(js);
            assertTrue(n1 >= 3, "timeline points " + n1);
            long[] n2 = {n1};
            until(browser, 60, () -> "timeline points stayed at " + n1 + " for 60 s", d -> {
                n2[0] = points(js);
                return n2[0] > n1;
            });
            List<?> series = (List<?>) js.executeScript( // both series from one drawing
                    "const d = liveView.charts.throughput.plot.data; return [d[0], d[1]];");
            List<?> xs = (List<?>) series.get(0);
            List<?> total = (List<?>) series.get(1);
            assertEquals(xs.size(), total.size(), "x values and totals");
            JsonNode state = get(url + "api/state"); // after the page: it holds at least what the page drew
            JsonNode samples = state.get("samples");
            assertTrue(samples.size() >= xs.size(), samples.size() + " samples, " + xs.size() + " points");
            for (int i = 0; i < xs.size(); i++) {
                assertEquals(samples.get(i).get("tMs").longValue() / 1000.0, ((Number) xs.get(i)).doubleValue(), 1e-9);
                assertEquals(samples.get(i).get("total").doubleValue(), ((Number) total.get(i)).doubleValue(), 1e-6);
            }
            assertTrue(samples.findValues("total").stream().anyMatch(v -> v.doubleValue() > 0), "commits seen");

            // the first mark is the first reconfiguration; the chart redraws its marks with every push, so the mark
            // is found afresh and read in one script together with the axis position it must sit at
            JsonNode swap = state.get("swaps").get(0);
            Map<?, ?>[] mark = new Map<?, ?>[1];
            until(browser, 60, () -> "no mark #1 on the throughput timeline", d -> {
                mark[0] = (Map<?, ?>) js.executeScript("""
                        const m = document.querySelector("#chart-throughput .mark-swap[data-n='1']");
                        if (!m) return null;
                        return {start: m.dataset.startMs, end: m.dataset.endMs, left: getComputedStyle(m).left,
                                at: liveView.charts.throughput.plot.valToPos(arguments[0], 'x')};
                        """, swap.get("startMs").longValue() / 1000.0);
                return mark[0] != null;
            });
            assertEquals(swap.get("startMs").asText(), mark[0].get("start"));
            assertEquals(swap.get("endMs").asText(), mark[0].get("end"));
            assertTrue(swap.get("protocol").textValue().matches("online-update|partial-restart|none"), swap.toString());
            assertEquals(((Number) mark[0].get("at")).doubleValue(),
                    Double.parseDouble(((String) mark[0].get("left")).replace("px", "")), 1.0,
                    "the mark sits at the reconfiguration's time on the x axis: " + mark[0]);
            assertFalse(browser.findElements(By.cssSelector("#swaps tr[data-n='1']")).isEmpty());

            // the profiler's scores over every pair of types (bank: transfer, audit)
            until(browser, 60, () -> "no heat map within 60 s",
                    d -> !d.findElements(By.cssSelector("#heat td.heat-cell")).isEmpty());
            assertEquals(4, browser.findElements(By.cssSelector("#heat td.heat-cell")).size());

            Path shot = Path.of("target", "ui-screenshot.png");
            Files.createDirectories(shot.getParent());
            Files.move(browser.getScreenshotAs(OutputType.FILE).toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
            byte[] png = Files.readAllBytes(shot);
            assertTrue(png.length > 10_000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "a PNG screenshot");
        } finally {
            if (browser != null) {
                browser.quit();
            }
            run.destroy();
            if (!run.waitFor(10, TimeUnit.SECONDS)) {
                run.destroyForcibly();
            }
        }
    }

    /**
     * Waits until {@code condition} holds, looking every 250 ms for at most {@code seconds} s; a look that meets an
     * element the page has just redrawn is repeated. Fails with {@code message} when the time is up.
     */
    private static void until(WebDriver browser, int seconds, Supplier<String> message,
                              Function<WebDriver, Boolean> condition) {
        new WebDriverWait(browser, Duration.ofSeconds(seconds), Duration.ofMillis(250))
                .ignoring(StaleElementReferenceException.class).withMessage(message).until(condition);
    }

    /** Points on the throughput timeline as uPlot has them. */
    private static long points(JavascriptExecutor js) {
        return ((Number) js.executeScript("return liveView.charts.throughput.plot.data[0].length;")).longValue();
    }

    private Process startTune() throws IOException {
        String jar = System.getProperty("tebaldi.jar", ROOT.resolve("benchmarks/target/tebaldi.jar").toString());
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx768m", "-jar", jar, "tune",
                ROOT.resolve("config/experiments/bank-autotune.yaml").toString(), "--ui", "0", "--set",
                "autoconf.daemon=true", "--set", "duration=900s", "--out", tmp.resolve("run").toString())
                .redirectErrorStream(true); // the daemon keeps the run (and the view) up after tuning; ended below
        return pb.start();
    }

    /** Reads the run's output until it prints the live view's address (and keeps draining it). */
    private static String awaitUrl(Process run) throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(run.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.add(l);
                    if (l.startsWith("live view: http://127.0.0.1:")) {
                        url.complete(l.substring("live view: ".length()).split(" ")[0]);
                    }
                }
            } catch (IOException x) {
                url.completeExceptionally(x);
            }
            url.completeExceptionally(new AssertionError("the run ended without a live view address:\n"
                    + String.join("\n", lines)));
        }, "tune-output");
        t.setDaemon(true);
        t.start();
        return url.get(180, TimeUnit.SECONDS);
    }

    /** The endpoint's JSON (status 200), read within 60 s. */
    private static JsonNode get(String url) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), url);
            return JSON.readTree(r.body());
        } catch (IOException x) {
            throw new UncheckedIOException(url, x);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + url, x);
        }
    }

    private ChromeDriver browser() throws IOException {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(which("chromium"));
        o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,2000",
                "--user-data-dir=" + Files.createDirectories(tmp.resolve("chromium-profile")));
        ChromeDriverService s = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(which("chromedriver")).toFile()).usingAnyFreePort().build();
        return new ChromeDriver(s, o);
    }

    /** Installs Chromium and chromedriver when missing; skips the test with the script's message if it cannot. */
    private static void ensureChromium() throws Exception {
        if (which("chromium") != null && which("chromedriver") != null) {
            return;
        }
        Path script = ROOT.resolve("scripts/install-chromium");
        Process p = new ProcessBuilder(script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean ok = p.waitFor(10, TimeUnit.MINUTES) && p.exitValue() == 0;
        Assumptions.assumeTrue(ok && which("chromium") != null && which("chromedriver") != null,
                () -> "headless Chromium cannot be installed here, so the live view's browser test is skipped; "
                        + script + " said:\n" + tail(out));
    }

    private static String tail(String out) {
        List<String> l = new ArrayList<>(out.lines().toList());
        return String.join("\n", l.subList(Math.max(0, l.size() - 10), l.size()));
    }

    /** The program's path on the PATH, or null. */
    private static String which(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        Path deb = Path.of("/usr/bin", name);
        return Files.isExecutable(deb) ? deb.toString() : null;
    }
}
