// The live view: takes the run's state from the server-sent events of /events (a whole "state" first, then a
// "delta" about once a second; items carry their index i, so repeated ones are dropped) and draws it.
// window.liveView exposes what is drawn (for the browser test and the curious).
"use strict";
(() => {
  const S = {types: [], samples: [], swaps: [], events: [], tree: null, treeKey: "", heat: null, latency: []};
  const charts = {};
  let cpuNodes = null;
  window.liveView = {state: S, charts: charts};
  const $ = id => document.getElementById(id);
  const fmt = (v, d) => v == null ? "–" : Number(v).toFixed(d);
  const esc = s => String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);

  const decisions = () => S.events.filter(e => e.kind === "adopted" || e.kind === "kept");
  const warmupEnd = () => {
    const m = S.samples.find(s => s.phase === "measure");
    return m ? m.tMs / 1000 : (S.samples.length ? S.samples[S.samples.length - 1].tMs / 1000 : null);
  };

  function setup(st) {
    S.types = st.types;
    $("name").textContent = st.name;
    $("command").textContent = st.command;
    document.title = "Tebaldi " + st.command + " " + st.name;
    const names = ["total"].concat(st.types);
    charts.throughput = liveCharts.make($("chart-throughput"), names, {firstBold: true, yLabel: "txn/s",
      plugins: [liveCharts.marks(() => S.swaps, decisions, warmupEnd, true)], height: 260});
    charts.abort = liveCharts.make($("chart-abort"), names, {firstBold: true, yLabel: "%", digits: 1,
      plugins: [liveCharts.marks(() => S.swaps, () => [], warmupEnd, false)]});
    charts.latency = liveCharts.make($("chart-latency"), ["p50", "p95", "p99"], {yLabel: "ms", digits: 2,
      plugins: [liveCharts.marks(() => S.swaps, () => [], warmupEnd, false)]});
    charts.memory = liveCharts.make($("chart-memory"), ["heap after GC", "off-heap", "disk"], {yLabel: "MB",
      digits: 0, plugins: [liveCharts.marks(() => S.swaps, () => [], warmupEnd, false)]});
  }

  function add(list, items) {
    for (const x of items) if (x.i === list.length) list.push(x);
  }

  function apply(d) {
    $("status").textContent = d.status;
    add(S.samples, d.samples);
    add(S.swaps, d.swaps);
    add(S.events, d.events);
    const key = JSON.stringify(d.tree);
    if (key !== S.treeKey) {
      S.treeKey = key;
      S.tree = d.tree;
      $("tree-describe").textContent = d.tree.describe;
      liveTree.draw($("tree"), d.tree);
    }
    S.heat = d.heat;
    S.latency = d.latency;
    drawCharts();
    drawHeat();
    drawLatencyTable();
    drawSwaps(d.swaps);
    drawEvents(d.events);
  }

  function drawCharts() {
    const xs = S.samples.map(s => s.tMs / 1000);
    const col = (f) => S.samples.map(f);
    charts.throughput.set([xs, col(s => s.total)].concat(S.types.map(t => col(s => s.txn[t]))));
    charts.abort.set([xs, col(s => 100 * s.abortTotal)].concat(S.types.map(t => col(s => s.abort[t] == null ? null : 100 * s.abort[t]))));
    charts.latency.set([xs, col(s => s.latencyMs.p50), col(s => s.latencyMs.p95), col(s => s.latencyMs.p99)]);
    const mem = s => s.memory || {};
    charts.memory.set([xs, col(s => mem(s).heapAfterGcMb), col(s => mem(s).offHeapMb), col(s => mem(s).diskMb)]);
    drawMemoryNote();
    if (!S.samples.length) return;
    const nodes = Object.keys(S.samples[S.samples.length - 1].cpu);
    if (!cpuNodes || nodes.join() !== cpuNodes.join()) {
      cpuNodes = nodes;
      $("chart-cpu").innerHTML = "";
      charts.cpu = liveCharts.make($("chart-cpu"), nodes, {firstBold: true, yLabel: "% of a core",
        plugins: [liveCharts.marks(() => S.swaps, () => [], warmupEnd, false)]});
      if (nodes.length === 1) {
        const p = document.createElement("p");
        p.className = "note";
        p.textContent = "The nodes run in their own processes: only this JVM's CPU is shown.";
        $("chart-cpu").appendChild(p);
      }
    }
    charts.cpu.set([xs].concat(cpuNodes.map(n => col(s => s.cpu[n] == null ? null : s.cpu[n]))));
  }

  function drawMemoryNote() {
    const last = S.samples.length ? S.samples[S.samples.length - 1].memory : null;
    $("memory-note").textContent = !last ? "" : last.keys == null
      ? "The data servers run in their own processes: only this JVM's heap is shown."
      : last.keys + " keys (" + last.hotKeys + " in memory as objects); heap after GC " +
        fmt(last.heapPerKeyB, 0) + " B per key";
  }

  function drawHeat() {
    const h = S.heat, box = $("heat");
    if (!h) {
      box.innerHTML = "<p class='note'>No profiler report yet (the profiler runs with tune, or with profiler.enabled: true).</p>";
      return;
    }
    const n = S.types.length;
    let max = 0;
    h.msPerSec.forEach(r => r.forEach(v => { max = Math.max(max, v); }));
    const t = document.createElement("table");
    t.className = "heat";
    let head = "<tr><th></th>" + S.types.map(x => "<th class='col'>" + esc(x) + "</th>").join("") + "</tr>";
    let rows = "";
    for (let a = 0; a < n; a++) {
      rows += "<tr><th>" + esc(S.types[a]) + "</th>";
      for (let b = 0; b < n; b++) {
        const v = h.msPerSec[a][b], f = max > 0 ? v / max : 0;
        const name = S.types[Math.min(a, b)] + "–" + S.types[Math.max(a, b)];
        const bott = h.bottleneck === name ? " bottleneck" : "";
        rows += "<td class='heat-cell" + bott + "' data-edge='" + name + "' title='" + name + ": " + v +
          " ms blocked per s' style='background: rgba(183,28,28," + (0.08 + 0.92 * f).toFixed(3) + "); color:" +
          (f > 0.5 ? "#fff" : "#222") + "'>" + (v > 0 ? fmt(v, v < 10 ? 1 : 0) : "") + "</td>";
      }
      rows += "</tr>";
    }
    t.innerHTML = head + rows;
    box.innerHTML = "";
    box.appendChild(t);
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = "bottleneck: " + (h.bottleneck || "none") + " · " + h.events + " blocking events over the last " +
      h.spanMs + " ms";
    box.appendChild(p);
  }

  function drawLatencyTable() {
    $("latency-table").innerHTML = "<tr><th class='l'>type</th><th>commits</th><th>p50</th><th>p95</th><th>p99</th><th>p99.9</th></tr>" +
      S.latency.map(r => "<tr><td class='l'>" + esc(r.type) + "</td><td>" + r.count + "</td><td>" + fmt(r.p50, 2) +
        "</td><td>" + fmt(r.p95, 2) + "</td><td>" + fmt(r.p99, 2) + "</td><td>" + fmt(r.p999, 2) + "</td></tr>").join("");
  }

  function drawSwaps(added) {
    const t = $("swaps");
    if (!t.rows.length) {
      t.innerHTML = "<tr><th>#</th><th>iteration</th><th>start s</th><th>window ms</th><th class='l'>puts in</th>" +
        "<th class='l'>protocol</th><th class='l'>tree</th><th class='l'>phases</th></tr>";
    }
    for (const m of added) {
      if (t.querySelector("tr[data-n='" + m.n + "']")) continue;
      const r = t.insertRow();
      r.dataset.n = m.n;
      r.innerHTML = "<td>" + m.n + "</td><td>" + m.iteration + "</td><td>" + fmt(m.startMs / 1000, 1) + "</td><td>" +
        (m.endMs - m.startMs) + "</td><td class='l'>" + m.role + "</td><td class='l'>" + esc(m.protocol) +
        (m.note ? "<div class='note'>" + esc(m.note) + "</div>" : "") + "</td><td class='tree'>" + esc(m.tree) +
        "</td><td class='l'>" + esc(m.phases) + "</td>";
    }
  }

  function drawEvents(added) {
    const ol = $("events");
    for (const e of added) {
      if (ol.querySelector("li[data-i='" + e.i + "']")) continue;
      const li = document.createElement("li");
      li.dataset.i = e.i;
      li.className = e.kind;
      li.textContent = fmt(e.tMs / 1000, 1) + " s  " + e.text;
      ol.appendChild(li);
    }
    ol.scrollTop = ol.scrollHeight;
  }

  const es = new EventSource("/events");
  es.addEventListener("state", ev => {
    const st = JSON.parse(ev.data);
    if (!charts.throughput) setup(st);
    apply(st);
    $("conn").textContent = "live";
    $("conn").classList.remove("down");
  });
  es.addEventListener("delta", ev => apply(JSON.parse(ev.data)));
  es.onerror = () => {
    $("conn").textContent = "disconnected (the run ended or the server stopped)";
    $("conn").classList.add("down");
  };
})();
