// The analysis on the board: each candidate's value in a badge near the
// place its move ends (a move across a border: on the border), the best
// line's next moves numbered. Where moves are chains of places, each
// place the next click may name shows the best value of the moves
// through it, so that a person sees where to go on. A badge never
// covers a piece, a label or another badge: each is tried at a list of
// spots, nearest first (the empty target itself, the border a two-place
// move crosses, the corners between pieces, then further out with a thin
// leader line), and one that fits nowhere is left to the list beside the
// board.

import { el, text } from "./svg.js";
import { moveNames } from "./protocol.js";
import { placeOf } from "./board.js";

const BLUE = "#1d6fb8";

// The obstacles' shapes, in board units: circles for discs, boxes for
// everything else.
function shapes(elements) {
    return elements.map((e) => {
        if (e.tagName === "circle") return { cx: +e.getAttribute("cx"), cy: +e.getAttribute("cy"), r: +e.getAttribute("r") };
        const b = e.getBBox();
        return { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
    });
}

function hits(r, s, pad) {
    if (s.r !== undefined) {
        const nx = Math.max(r.x0, Math.min(s.cx, r.x1));
        const ny = Math.max(r.y0, Math.min(s.cy, r.y1));
        return Math.hypot(nx - s.cx, ny - s.cy) < s.r + pad;
    }
    return r.x0 < s.x1 + pad && s.x0 < r.x1 + pad && r.y0 < s.y1 + pad && s.y0 < r.y1 + pad;
}

// Spots for a mark of a move ending at place T (after S, where it came
// from), in the order tried.
function spots(d, names) {
    const { view } = d;
    const last = names[names.length - 1];
    const t = placeOf(view, last);
    const out = [];
    const area = d.areaCells.get(last);
    if (area) {
        // an area's own squares, nearest its name first, then halfway
        // between squares
        const sq = area.slice().sort((a, b) => Math.hypot(a.x - t.x, a.y - t.y) - Math.hypot(b.x - t.x, b.y - t.y));
        for (const p of sq) out.push({ x: p.x, y: p.y, own: true });
        for (const p of sq) for (const [dx, dy] of [[0, 0.5], [0.5, 0], [0, -0.5], [-0.5, 0]]) out.push({ x: p.x + dx, y: p.y + dy, own: true });
    } else {
        if (names.length > 1) {
            // the border a move from a neighbour crosses
            const s = placeOf(view, names[names.length - 2]);
            if (s && Math.hypot(s.x - t.x, s.y - t.y) < 1.6) {
                const mx = (s.x + t.x) / 2,
                    my = (s.y + t.y) / 2;
                const len = Math.hypot(t.x - s.x, t.y - s.y) || 1;
                const px = -(t.y - s.y) / len,
                    py = (t.x - s.x) / len;
                for (const k of [0.24, -0.24, 0.38, -0.38]) out.push({ x: mx + px * k, y: my + py * k, own: true });
            }
        }
        out.push({ x: t.x, y: t.y, own: true });
        for (const [dx, dy] of [[0, 0.28], [0, -0.28], [0.28, 0], [-0.28, 0]]) out.push({ x: t.x + dx, y: t.y + dy, own: true });
        for (const [dx, dy] of [[0.5, 0.5], [-0.5, 0.5], [0.5, -0.5], [-0.5, -0.5], [0, 0.5], [0, -0.5], [0.5, 0], [-0.5, 0]])
            out.push({ x: t.x + dx, y: t.y + dy, own: Math.abs(dx) + Math.abs(dy) < 0.6 });
    }
    // further out, with a leader line back to the place
    for (const r of [1, 1.5])
        for (let k = 0; k < 12; k++) {
            const a = (Math.PI * 2 * k) / 12;
            out.push({ x: t.x + r * Math.cos(a), y: t.y + r * Math.sin(a), own: false });
        }
    return { t, out };
}

// Places a group (drawn at the origin, of the given half size) at the
// first spot where it covers nothing; answers the spot or null.
function place(d, taken, names, hw, hh) {
    const { t, out } = spots(d, names);
    const b = d.box;
    for (const s of out) {
        const r = { x0: s.x - hw, y0: s.y - hh, x1: s.x + hw, y1: s.y + hh };
        if (r.x0 < b.x0 || r.y0 < b.y0 || r.x1 > b.x1 || r.y1 > b.y1) continue;
        if (taken.some((o) => hits(r, o, d.px(1)))) continue;
        taken.push(r);
        return { x: s.x, y: s.y, t, own: s.own };
    }
    return null;
}

// Draws the candidates' badges and the best line's numbers; answers the
// moves whose value found no room on the board.
//   cands: analyze's candidates, best first; chosen: the names clicked
//   so far; label(c): a value's text; colour(c): its colour; words(c):
//   its tooltip.
export function drawBadges(d, cands, chosen, label, colour, words) {
    const g = d.badges;
    g.textContent = "";
    if (!cands.length) return [];
    const { view } = d;
    const all = cands;
    cands = group(d, cands, chosen);
    const taken = shapes(d.obstacles);
    const dots = d.dots || new Map();
    const omitted = [];
    const fs = d.font(0.22, 15);
    const named = (m) => moveNames(view.geo, m).filter((n) => placeOf(view, n));
    cands.forEach((c, k) => {
        const names = c.at || named(c.move);
        if (!names.length) return omitted.push(c.move); // a word: in the list
        const badge = el("g", { class: "badge" + (k === 0 ? " best" : "") }, g);
        const t = text(badge, 0, 0, label(c), { class: "cand", "font-size": fs, fill: colour(c), "font-weight": 700 });
        t.dataset.move = c.move;
        const bb = t.getBBox();
        const hw = bb.width / 2 + d.px(3),
            hh = bb.height / 2 + d.px(1);
        const spot = place(d, taken, names, hw, hh);
        if (!spot) {
            badge.remove();
            return omitted.push(c.at ? c.at[0] : c.move);
        }
        const rect = el("rect", { x: -hw, y: -hh, width: 2 * hw, height: 2 * hh, rx: hh / 2, fill: "rgba(255,255,255,0.94)", stroke: k === 0 ? BLUE : "#999", "stroke-width": k === 0 ? Math.max(0.05, d.px(2)) : d.px(1) }, null);
        badge.insertBefore(rect, t);
        badge.setAttribute("transform", `translate(${spot.x} ${spot.y})`);
        el("title", {}, badge).textContent = (c.at ? "through " + c.at[0] + ", best " : "") + words(c);
        leader(g, badge, spot, hw, hh, d);
        // the badge says it: the legal dot under it goes
        const dot = dots.get(names[names.length - 1]);
        if (dot && spot.own) dot.remove();
    });
    // the best line after its first move: 2, 3, ... where the moves go,
    // in squares (no piece, claim or region number is one)
    const r = Math.max(d.px(9), 0.15);
    (all[0].pv || []).slice(1, 6).forEach((m, i) => {
        const names = named(m);
        if (!names.length) return;
        const spot = place(d, taken, names, r, r);
        if (!spot) return;
        const n = el("g", { class: "pv", transform: `translate(${spot.x} ${spot.y})` }, g);
        const odd = i % 2 === 0; // the replies, in the other colours
        el("rect", { x: -r, y: -r, width: 2 * r, height: 2 * r, rx: r / 3, fill: odd ? "#fff" : BLUE, stroke: BLUE, "stroke-width": Math.max(0.03, d.px(1.5)) }, n);
        text(n, 0, 0, String(i + 2), { "font-size": d.font(0.2, 13), fill: odd ? BLUE : "#fff", "font-weight": 700, class: "pv-number" });
        leader(g, n, spot, r, r, d);
    });
    return omitted;
}

// The marks to draw: each move (at most MOST), where every move is one
// place or two neighbouring ones; else, for each place the next click may
// name (after CHOSEN), the best move through it, marked there (its `at`).
const MOST = 14;

function group(d, cands, chosen) {
    const { view } = d;
    const names = (m) => moveNames(view.geo, m);
    const near = (n) => {
        if (n.length < 2) return true;
        const a = placeOf(view, n[0]),
            b = placeOf(view, n[1]);
        return n.length === 2 && a && b && Math.hypot(a.x - b.x, a.y - b.y) < 1.6;
    };
    if (!chosen.length && cands.every((c) => near(names(c.move)))) return cands.slice(0, MOST);
    const best = new Map();
    for (const c of cands) {
        const n = names(c.move);
        if (n.length <= chosen.length || !chosen.every((x, i) => n[i] === x)) continue;
        const next = n[chosen.length];
        if (!best.has(next) && placeOf(view, next)) best.set(next, Object.assign({}, c, { at: [next] }));
    }
    return [...best.values()].slice(0, MOST);
}

// A thin line from a mark placed away from its place back to it.
function leader(g, node, spot, hw, hh, d) {
    if (spot.own) return;
    const dx = spot.t.x - spot.x,
        dy = spot.t.y - spot.y;
    const k = Math.min(hw / Math.abs(dx || 1e-9), hh / Math.abs(dy || 1e-9));
    const line = el("line", { x1: spot.x + dx * k, y1: spot.y + dy * k, x2: spot.t.x, y2: spot.t.y, stroke: "#555", "stroke-width": d.px(1.2), class: "leader" }, null);
    g.insertBefore(line, node);
}
