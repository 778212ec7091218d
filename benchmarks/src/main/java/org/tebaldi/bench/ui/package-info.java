/**
 * The live view of a run ({@code tebaldi run|tune EXP.yaml --ui [PORT]}, docs/experiments.md "Live view"): a read-only web page
 * on the loopback address showing the run while it goes.
 * <ul>
 *   <li>{@link org.tebaldi.bench.ui.LiveView}: what the command line starts and closes;</li>
 *   <li>{@link org.tebaldi.bench.ui.UiServer}: the HTTP server (Netty's HTTP codec): the page, uPlot from its
 *       WebJar, the state as JSON, server-sent events;</li>
 *   <li>{@link org.tebaldi.bench.ui.LiveState}: the state the page shows, as JSON, with deltas for the event
 *       stream;</li>
 *   <li>{@link org.tebaldi.bench.ui.UiExtension}, {@link org.tebaldi.bench.ui.LiveSampler},
 *       {@link org.tebaldi.bench.ui.TuneFeed}: what feeds it — one sample a second of counters the run keeps
 *       anyway, the tree changes, the profiler's reports, the tuning daemon's callbacks and swaps;</li>
 *   <li>{@link org.tebaldi.bench.ui.TreeJson}: a CC tree as JSON for the browser's SVG drawing.</li>
 * </ul>
 * The page itself is plain JavaScript under {@code src/main/resources/ui/} (no build step).
 */
package org.tebaldi.bench.ui;
