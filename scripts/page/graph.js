// The evaluation graph: for each position of the game the best value the
// analysis (or the review) found there, as the first side's chance to
// win (two sides), the mover's (more players) or mark 1's points (solo);
// proven values as squares, the review's mistakes ringed in red, the
// position shown marked. Axes: the value on the left, the move numbers
// below. A click shows the position under it.

import { el, text } from "./svg.js";
import { twoSides, firstSideValue } from "./panels.js";

// view: the game's latest snapshot; evals: record -> evaluation; marks:
// the review's mistakes; index: the position shown; onGo(ply).
export function drawGraph(svg, view, evals, marks, index, colourOf, onGo) {
    svg.textContent = "";
    const h = view.history;
    const n = h.length - 1;
    const known = [];
    for (let p = 0; p <= n; p++) {
        const e = evals.get(h.slice(0, p + 1).join("\n"));
        if (e) known.push([p, e]);
    }
    const sides = twoSides(view);
    const solo = view.info.players === 1;
    const top = solo ? Math.max(1, ...known.map(([, e]) => Math.ceil(e.value))) : 1;
    // drawn in the graph's own pixels, so that dots stay round and texts
    // keep their size
    const width = Math.max(160, Math.round(svg.getBoundingClientRect().width) || 300);
    const L = 40, R = 8, T = 8, B = 22;
    const W = width - L - R,
        H = 80;
    const N = Math.max(n, 1);
    const px = (p) => L + (p / N) * W;
    const py = (v) => T + H - (v / top) * H;
    svg.setAttribute("viewBox", "0 0 " + width + " " + (H + T + B));
    svg.setAttribute("height", H + T + B);
    const ink = { fill: "none", stroke: "#cfc6b4", "stroke-width": 1 };
    el("rect", Object.assign({ x: L, y: T, width: W, height: H }, ink, { fill: "#fff" }), svg);
    // the value axis: 0%, 50%, 100% (or points)
    const ticks = solo ? [0, top / 2, top] : [0, 0.5, 1];
    for (const v of ticks) {
        el("line", { x1: L - 3, y1: py(v), x2: L + W, y2: py(v), stroke: "#e4ddcf", "stroke-dasharray": v === ticks[1] ? "3 3" : "" }, svg);
        text(svg, L - 5, py(v), solo ? String(+v.toFixed(1)) : Math.round(v * 100) + "%", { "text-anchor": "end", class: "axis", "font-size": 12 });
    }
    // the move axis: about six numbers, whole moves
    const step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].find((s) => N / s <= 6) || 2000;
    for (let p = 0; p <= N; p += step) {
        el("line", { x1: px(p), y1: T + H, x2: px(p), y2: T + H + 3, stroke: "#8a7f6a" }, svg);
        text(svg, px(p), T + H + 12, String(p), { class: "axis", "font-size": 12 });
    }
    const yOf = (e) => py(sides ? firstSideValue(view, e) : e.value);
    const pts = known.map(([p, e]) => [px(p), yOf(e), p, e]);
    if (pts.length > 1) el("polyline", Object.assign({ points: pts.map((q) => q[0] + "," + q[1]).join(" ") }, ink, { stroke: "#555", "stroke-width": 1.5 }), svg);
    for (const [x, y, p, e] of pts) {
        const colour = sides ? "#333" : colourOf(e.player);
        const node = e.proven
            ? el("rect", { x: x - 3.5, y: y - 3.5, width: 7, height: 7, fill: colour, class: "proven" }, svg)
            : el("circle", { cx: x, cy: y, r: 3, fill: colour, class: "point" }, svg);
        const v = solo ? e.value.toFixed(1) + " points" : Math.round(e.value * 100) + "% for player " + e.player;
        el("title", {}, node).textContent = "after move " + p + ": " + v + (e.proven ? " (proven " + e.proven + ")" : "");
    }
    // a mistake ringed where it was made (the position before it)
    for (const m of marks) {
        const p = m.ply - 1;
        const e = evals.get(h.slice(0, p + 1).join("\n"));
        el("circle", Object.assign({ cx: px(p), cy: e ? yOf(e) : py(top / 2), r: 6, class: "mistake" }, ink, { stroke: "#b3261e", "stroke-width": 2 }), svg);
    }
    // the position shown
    el("rect", { x: px(index) - 1, y: T, width: 2, height: H, fill: "#1d6fb8", opacity: 0.6, class: "shown" }, svg);
    svg.onclick = (ev) => {
        const r = svg.getBoundingClientRect();
        const x = ((ev.clientX - r.left) / r.width) * width;
        onGo(Math.max(0, Math.min(n, Math.round(((x - L) / W) * N))));
    };
}
