// Draws a CC tree (JSON from /api/tree or the state's "tree") as SVG: one <g class="tree-node"> per node (mechanism
// in bold, a leaf's transaction types below it), lines from parent to children; a draining subtree is dashed.
"use strict";
const liveTree = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const LINE = 15, GAP_X = 16, GAP_Y = 36, PAD = 8;

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function lines(n) {
    const head = n.cc + (n.name ? " (" + n.name + ")" : "");
    return [head].concat(n.children.length ? [] : n.txns.map(t => t + (n.instanceBy ? " by " + n.instanceBy : "")));
  }

  // width and height of each node's box, and of its subtree's slot
  function measure(n) {
    const ls = lines(n);
    n._w = Math.max(56, 2 * PAD + 7.2 * Math.max(...ls.map(s => s.length)));
    n._h = 2 * PAD + LINE * ls.length;
    n.children.forEach(measure);
    const kids = n.children.reduce((s, c) => s + c._slot, 0) + GAP_X * Math.max(0, n.children.length - 1);
    n._slot = Math.max(n._w, kids);
  }

  function place(n, x, y, g, parent) {
    const cx = x + n._slot / 2;
    if (parent) el("line", {x1: parent.cx, y1: parent.bottom, x2: cx, y2: y, class: "tree-edge"}, g);
    const node = el("g", {class: "tree-node " + n.state, "data-id": n.id, "data-cc": n.cc}, g);
    el("rect", {x: cx - n._w / 2, y: y, width: n._w, height: n._h, rx: 4}, node);
    lines(n).forEach((s, i) => {
      const t = el("text", {x: cx, y: y + PAD + LINE * (i + 1) - 3, class: i === 0 ? "cc" : "txn"}, node);
      t.textContent = s;
    });
    const opts = Object.entries(n.options || {}).map(([k, v]) => k + ": " + v).join(", ");
    el("title", {}, node).textContent = n.cc + (opts ? " {" + opts + "}" : "") + " — " + n.state;
    let kx = x + (n._slot - (n.children.reduce((s, c) => s + c._slot, 0) + GAP_X * Math.max(0, n.children.length - 1))) / 2;
    let depth = y + n._h;
    for (const c of n.children) {
      depth = Math.max(depth, place(c, kx, y + n._h + GAP_Y, g, {cx: cx, bottom: y + n._h}));
      kx += c._slot + GAP_X;
    }
    return depth;
  }

  function draw(svg, tree) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const root = JSON.parse(JSON.stringify(tree.root));
    measure(root);
    const g = el("g", {}, svg);
    const bottom = place(root, 4, 4, g, null);
    svg.setAttribute("viewBox", "0 0 " + (root._slot + 8) + " " + (bottom + 8));
    svg.setAttribute("height", Math.min(420, bottom + 8));
    svg.dataset.describe = tree.describe;
  }

  return {draw: draw};
})();
