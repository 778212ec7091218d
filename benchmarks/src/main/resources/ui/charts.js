// Time-series charts of the live view (uPlot, served from its WebJar): x is seconds since the run started.
// liveCharts.make(el, title, names, opts) returns {plot, set(xs, ys)}; reconfiguration marks are drawn by
// liveCharts.marks(getMarks, getDecisions, getWarmupEnd, dom): bands on the canvas and, with dom, one <div class="mark">
// per reconfiguration or decision over the plot (its data-start-ms is the reconfiguration's start).
"use strict";
const liveCharts = (() => {
  const palette = ["#000000", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#17becf"];

  function marks(getMarks, getDecisions, getWarmupEnd, dom) {
    function draw(u) {
      const ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
      ctx.save();
      const w = getWarmupEnd();
      if (w != null) {
        const x0 = u.valToPos(u.scales.x.min, "x", true), x1 = u.valToPos(Math.min(w, u.scales.x.max), "x", true);
        ctx.fillStyle = "rgba(0,0,0,0.06)";
        if (x1 > x0) ctx.fillRect(x0, top, x1 - x0, h);
      }
      for (const m of getMarks()) {
        const x0 = u.valToPos(m.startMs / 1000, "x", true), x1 = u.valToPos(m.endMs / 1000, "x", true);
        ctx.fillStyle = m.role === "candidate" ? "rgba(230,81,0,0.22)" : "rgba(57,73,171,0.18)";
        ctx.fillRect(x0, top, Math.max(x1 - x0, 2 * devicePixelRatio), h);
      }
      ctx.restore();
      if (!dom) return;
      u.over.querySelectorAll(".mark").forEach(e => e.remove());
      for (const m of getMarks()) {
        const d = document.createElement("div");
        d.className = "mark mark-swap mark-" + m.role;
        d.dataset.n = m.n;
        d.dataset.startMs = m.startMs;
        d.dataset.endMs = m.endMs;
        d.style.left = u.valToPos(m.startMs / 1000, "x") + "px";
        d.textContent = m.n;
        d.title = "#" + m.n + " " + m.role + " " + m.tree + "\n" + m.describe + "\n" + m.startMs + "–" + m.endMs + " ms";
        u.over.appendChild(d);
      }
      for (const e of getDecisions()) {
        const d = document.createElement("div");
        d.className = "mark mark-decision";
        d.dataset.tMs = e.tMs;
        d.style.left = u.valToPos(e.tMs / 1000, "x") + "px";
        d.textContent = e.kind;
        d.title = e.text;
        u.over.appendChild(d);
      }
    }
    return {hooks: {draw: [draw]}};
  }

  function make(el, names, opts) {
    const series = [{label: "s"}].concat(names.map((n, i) => ({
      label: n, stroke: palette[i % palette.length], width: i === 0 && opts.firstBold ? 2 : 1,
      value: (u, v) => v == null ? "–" : v.toFixed(opts.digits || 0)
    })));
    const width = () => Math.max(300, el.clientWidth - 10);
    const plot = new uPlot({
      width: width(), height: opts.height || 220, series: series,
      scales: {x: {time: false}, y: opts.yRange ? {range: opts.yRange} : {}},
      axes: [{label: "seconds since the start"}, {label: opts.yLabel || "", size: 60}],
      plugins: opts.plugins || [],
      legend: {live: true}
    }, [[]].concat(names.map(() => [])), el);
    window.addEventListener("resize", () => plot.setSize({width: width(), height: opts.height || 220}));
    return {plot: plot, names: names, set: data => plot.setData(data)};
  }

  return {make: make, marks: marks};
})();
