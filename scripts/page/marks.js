// What the board marks over its pieces: the legal places, the move being
// clicked together, the last move, and at the end the units the score is
// made of (scoring). All in the overlay, which takes no clicks.

import { el, disc } from "./svg.js";
import { moveNames } from "./protocol.js";
import { placeOf } from "./board.js";

const GOLD = "#f2b705";
const BLUE = "#1d6fb8";

export function drawMarks(g, d, opts) {
    const { view } = d;
    if (opts.pickPoints) drawPoints(g, d, opts);
    if (opts.showUnits) drawUnits(g, d);
    drawLastMove(g, d);
    drawTargets(g, d, opts);
    // the names clicked so far: ringed, joined by a dashed line
    const chosen = opts.chosen.map((n) => placeOf(view, n)).filter(Boolean);
    if (chosen.length > 1)
        el("polyline", { points: chosen.map((p) => p.x + "," + p.y).join(" "), fill: "none", stroke: BLUE, "stroke-width": 0.1, "stroke-dasharray": "0.25 0.12", class: "chosen-line" }, g);
    for (const p of chosen) disc(g, p.x, p.y, opts.pickPoints ? 0.2 : 0.44, "none", BLUE, { class: "ring", "stroke-width": 0.09 });
}

// The lattice points of a free turn (a drawn line): small dots, each the
// centre of its own click square.
function drawPoints(g, d, opts) {
    const r = Math.max(0.08, d.px(3));
    for (const [name, c] of d.view.geo.points)
        disc(g, c.x, -c.y, opts.chosen.includes(name) ? r * 1.8 : r, opts.chosen.includes(name) ? BLUE : "#555", "none", { class: "lattice" });
}

// Legal next places: a gold dot on an empty cell, a gold frame round a
// cell with something on it (the dot would hide its count), a gold
// hatch over a whole area (distinct from every player's flat tint).
function drawTargets(g, d, opts) {
    const { view } = d;
    d.dots = new Map();
    for (const name of opts.targets) {
        const c = view.geo.cells.get(name);
        if (!c) continue;
        const x = c.x,
            y = -c.y;
        if (d.shape === "areas") {
            const sq = d.areaCells.get(name) || [];
            const path = sq.map((p) => `M${p.x - 0.5} ${p.y - 0.5}h1v1h-1Z`).join("");
            el("path", { d: path, fill: "url(#legal-hatch)", class: "legal-area" }, g);
        } else if (holds(view.contents.at.get(name))) {
            if (d.shape === "square") el("rect", { x: x - 0.44, y: y - 0.44, width: 0.88, height: 0.88, rx: 0.08, fill: "none", stroke: GOLD, "stroke-width": 0.08, class: "frame" }, g);
            else disc(g, x, y, 0.46, "none", GOLD, { "stroke-width": 0.08, class: "frame" });
        } else d.dots.set(name, disc(g, x, y, Math.min(Math.max(0.12, d.px(4)), d.px(7)), GOLD, "#7a5b00", { class: "dot", "stroke-width": 0.03 }));
    }
    if (d.shape === "areas" && opts.targets.size) {
        const defs = el("defs", {}, g);
        const pat = el("pattern", { id: "legal-hatch", width: 0.35, height: 0.35, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
        el("line", { x1: 0, y1: 0, x2: 0, y2: 0.35, stroke: "rgba(200,140,0,0.6)", "stroke-width": 0.1 }, pat);
    }
}

// The last move (history's last play line): its places ringed, a chain
// traced through them, an area framed. A move that names no place (pass,
// drop) and a roll are said beside the board instead.
function drawLastMove(g, d) {
    const { view } = d;
    const last = /^play (\S+)$/.exec(view.history[view.history.length - 1] || "");
    const out = el("g", { id: "last-move" }, g);
    if (!last) return;
    out.dataset.move = last[1];
    const names = moveNames(view.geo, last[1]);
    const pts = names.map((n) => placeOf(view, n)).filter(Boolean);
    if (pts.length > 1)
        el("polyline", { points: pts.map((p) => p.x + "," + p.y).join(" "), stroke: GOLD, "stroke-width": 0.09, "stroke-linejoin": "round", fill: "none", opacity: 0.9, class: "last" }, out);
    for (const n of names) {
        const p = placeOf(view, n);
        if (!p) continue;
        if (d.shape === "areas" && d.areaCells.has(n)) outlineArea(out, d, n, GOLD, 0.12, "last");
        else disc(out, p.x, p.y, 0.47, "none", GOLD, { class: "last", "stroke-width": 0.08 });
    }
}

// The edges round an area's squares, or only those it shares with
// another area.
function areaEdges(d, name, other) {
    let path = "";
    for (const p of d.areaCells.get(name) || []) {
        for (const [dx, dy, seg] of [
            [-1, 0, `M${p.x - 0.5} ${p.y - 0.5}v1`],
            [1, 0, `M${p.x + 0.5} ${p.y - 0.5}v1`],
            [0, -1, `M${p.x - 0.5} ${p.y - 0.5}h1`],
            [0, 1, `M${p.x - 0.5} ${p.y + 0.5}h1`],
        ]) {
            const next = d.whose.get(p.x + dx + "," + (p.y + dy));
            if (other ? next === other : next !== name) path += seg;
        }
    }
    return path;
}

function outlineArea(g, d, name, colour, width, cls) {
    el("path", { d: areaEdges(d, name), stroke: colour, "stroke-width": width, fill: "none", "stroke-linecap": "round", class: cls }, g);
}

// The scoring units at the end (scoring's kinds, protocol.md "Discovery"):
// a pair of areas by the border they share (what scores: over the lines,
// under the names, in the player's colour); a line of cells struck
// through, as tic-tac-toe is (a white casing keeps it plain on pieces of
// its own colour; lines along the same row side by side); the cells of
// any other unit ringed (a penalty in red), so that nothing crosses a
// name or a count.
function drawUnits(g, d) {
    const { view } = d;
    const along = new Map(); // a row of cells -> the lines struck along it
    for (const u of view.units) {
        const pts = u.cells.map((n) => placeOf(view, n)).filter(Boolean);
        if (!pts.length) continue;
        const colour = u.points < 0 ? "#b3261e" : d.colourOf(u.player);
        const areas = d.shape === "areas" && u.cells.every((n) => d.areaCells.has(n));
        const unit = el("g", { class: "unit", "data-kind": u.kind, "data-player": u.player, "data-cells": u.cells.join(" ") }, areas ? d.pieces : g);
        el("title", {}, unit).textContent = u.kind + " of player " + u.player + ": " + u.cells.join(" ") + " (" + u.points + ")";
        if (areas) {
            const shared = u.cells.length === 2 ? areaEdges(d, u.cells[0], u.cells[1]) : "";
            if (shared) {
                el("path", { d: shared, stroke: "#fff", "stroke-width": 0.36, fill: "none", "stroke-linecap": "round" }, unit);
                el("path", { d: shared, stroke: colour, "stroke-width": 0.26, fill: "none", "stroke-linecap": "round" }, unit);
            } else for (const n of u.cells) outlineArea(unit, d, n, colour, 0.14, "unit-area");
        } else if (u.kind === "line" && pts.length > 1 && collinear(pts)) {
            const [a, b] = [pts[0], pts[pts.length - 1]];
            const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
            const n = { x: -(b.y - a.y) / len, y: (b.x - a.x) / len };
            const key = [n.x, n.y, n.x * a.x + n.y * a.y].map((v) => Math.abs(v).toFixed(2)).join(",");
            const line = { unit, a, b, n, colour };
            (along.get(key) || along.set(key, []).get(key)).push(line);
        } else for (const p of pts) disc(unit, p.x, p.y, 0.47, "none", colour, { "stroke-width": 0.07, opacity: 0.95 });
    }
    for (const group of along.values())
        group.forEach((l, i) => {
            const off = (i - (group.length - 1) / 2) * 0.13;
            const pt = (p) => p.x + l.n.x * off + "," + (p.y + l.n.y * off);
            const points = pt(l.a) + " " + pt(l.b);
            el("polyline", { points, stroke: "#fff", "stroke-width": 0.15, "stroke-linecap": "round", fill: "none", opacity: 0.9 }, l.unit);
            el("polyline", { points, stroke: l.colour, "stroke-width": 0.08, "stroke-linecap": "round", fill: "none" }, l.unit);
        });
}

// Whether a cell's contents are something on it (not only a tag).
export function holds(a) {
    return !!a && !!(a.owner || a.kind || (a.counted ? a.count : a.count > 1));
}

function collinear(pts) {
    const [a, b] = pts;
    return pts.every((p) => Math.abs((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) < 1e-6);
}
