// The board, drawn from the protocol alone: geometry gives the places
// (cells, lattice points) and contents what stands on them (protocol.md,
// "geometry", "contents"). Every game is drawn here; a game's skin
// (skins.js) may only change how cells and pieces look and add its own
// decoration, so a game without one is fully playable and readable.
//
// Board units: one unit a square, x to the right and y DOWN (SVG's), so
// geometry's (x, y) is drawn at (x, -y). Texts are sized in pixels on the
// screen (never under MIN_TEXT_PX) and places are clicked on areas of at
// least MIN_TARGET_PX square (WCAG 2.2's target size): the scale is
// chosen before drawing, and a board too big for the window at that scale
// scrolls in its frame instead of shrinking.

import { el, text, disc, hexPath, pale, inkOn } from "./svg.js";
import { drawMarks } from "./marks.js";

export const MIN_TEXT_PX = 12;
export const MIN_TARGET_PX = 26; // 24, and a margin for rounding
const MAX_UNIT_PX = 110; // a 4 by 3 board is not blown up to the window
const GOLD = "#f2b705";

// square (whole-number centres), hex (rows sqrt(3)/2 apart), areas
// (contents' area lines: cells bigger than a square) or dots (anything
// else: a disc per cell).
export function shapeOf(geo, contents) {
    if (contents && contents.areas.size) return "areas";
    const cs = [...geo.cells.values()];
    if (cs.every((c) => Number.isInteger(c.x) && Number.isInteger(c.y))) return "square";
    const h = Math.sqrt(3) / 2;
    if (cs.every((c) => Math.abs(c.y / h - Math.round(c.y / h)) < 0.01)) return "hex";
    return "dots";
}

// Where a name (cell or point) is drawn, in board units.
export function placeOf(view, name) {
    const c = view.geo.cells.get(name) || view.geo.points.get(name);
    return c ? { x: c.x, y: -c.y } : null;
}

// Row and column labels for places named like squares (a letter and a
// number). On a grid whose columns stand upright, along its left and
// bottom edges, as a chessboard is labelled, whatever the places' outline
// (Abs-Trac-Toe's lattice). Elsewhere (a hexagon) each row's number
// beyond its first place, each column's letter beyond its end, at
// whichever end (bottom, else top) no row label takes, so that the
// slanted columns are lettered along the upper edge.
function coordinateLabels(places) {
    const rows = new Map();
    const cols = new Map();
    for (const [name, c] of places) {
        const m = /^([a-z]+)(\d+)$/.exec(name);
        if (!m) return [];
        const p = { x: c.x, y: -c.y, name };
        (rows.get(m[2]) || rows.set(m[2], []).get(m[2])).push(p);
        (cols.get(m[1]) || cols.set(m[1], []).get(m[1])).push(p);
    }
    const upright = [...cols.values()].every((ps) => ps.every((p) => Math.abs(p.x - ps[0].x) < 0.01));
    if (upright) {
        const all = [...places.values()];
        const left = Math.min(...all.map((c) => c.x)) - 0.8;
        const bottom = -Math.min(...all.map((c) => c.y)) + 0.8;
        return [...[...rows].map(([n, ps]) => ({ text: n, x: left, y: ps[0].y })), ...[...cols].map(([l, ps]) => ({ text: l, x: ps[0].x, y: bottom }))];
    }
    const out = [];
    const beyond = (a, b) => ({ x: a.x + (a.x - b.x) * 0.8, y: a.y + (a.y - b.y) * 0.8 });
    for (const [n, ps] of rows) {
        ps.sort((a, b) => a.x - b.x);
        const a = ps[0];
        const b = ps[1] || { x: a.x + 1, y: a.y };
        out.push(Object.assign({ text: n }, beyond(a, b)));
    }
    const key = (p) => p.x.toFixed(2) + "," + p.y.toFixed(2);
    const taken = new Set(out.map(key));
    const colLabels = (end) => {
        const res = [];
        for (const [l, ps] of cols) {
            ps.sort((a, b) => (end === "bottom" ? b.y - a.y : a.y - b.y));
            const a = ps[0];
            const b = ps[1] || { x: a.x, y: a.y + (end === "bottom" ? -1 : 1) };
            res.push(Object.assign({ text: l }, beyond(a, b)));
        }
        return res;
    };
    let cl = colLabels("bottom");
    if (cl.some((p) => [...taken].some((k) => near(k, p)))) cl = colLabels("top");
    return out.concat(cl);
}

function near(k, p) {
    const [x, y] = k.split(",").map(Number);
    return Math.hypot(x - p.x, y - p.y) < 0.75;
}

// The extent of everything drawn, in board units, and the labels.
function extent(view, shape, labels, skin) {
    let x0 = Infinity,
        x1 = -Infinity,
        y0 = Infinity,
        y1 = -Infinity;
    const add = (x, y, r) => {
        x0 = Math.min(x0, x - r);
        x1 = Math.max(x1, x + r);
        y0 = Math.min(y0, y - r);
        y1 = Math.max(y1, y + r);
    };
    const r = shape === "hex" ? 0.58 : 0.5;
    for (const c of view.geo.cells.values()) add(c.x, -c.y, r);
    for (const c of view.geo.points.values()) add(c.x, -c.y, 0.5);
    for (const sq of view.contents.areas.values()) for (const p of sq) add(p.x, -p.y, 0.5);
    for (const l of view.contents.lines) for (const p of l.pts) add(p.x, -p.y, 0.1);
    for (const l of labels) add(l.x, l.y, 0.45);
    const box = { x0: x0 - 0.15, x1: x1 + 0.15, y0: y0 - 0.15, y1: y1 + 0.15 };
    return skin && skin.extent ? skin.extent(box, view) : box;
}

// The scale: as large as the room allows (at most MAX_UNIT_PX), but never
// so small that a place is under MIN_TARGET_PX.
function scale(box, availW, availH) {
    const w = box.x1 - box.x0;
    const h = box.y1 - box.y0;
    const fit = Math.min(availW / w, availH / h, MAX_UNIT_PX);
    return Math.max(fit, MIN_TARGET_PX);
}

// What a side's pieces look like: {fill, stroke, ink}.
function pieceLook(a, colourOf, kindColour) {
    const fill = a.owner ? colourOf(a.owner) : kindColour(a.kind);
    return { fill, stroke: "#333", ink: inkOn(fill) };
}

// Draws VIEW (a snapshot: geo, contents, info, status, moves, history,
// units, turn) into SVG. OPTS: skin, colourOf(side), kindColour(kind),
// availW, availH, targets (Set of names a click may extend the move
// with), chosen (names clicked so far), pickPoints (the free turn's
// lattice points are the places to click), showUnits, onPick(name).
// Answers the drawing: {unitPx, px(n): n pixels in units, obstacles,
// badges (the layer for analysis), areaCells, shape}.
export function drawBoard(svg, view, opts) {
    svg.textContent = "";
    const skin = opts.skin || {};
    const { geo, contents } = view;
    const shape = shapeOf(geo, contents);
    const labelPlaces = opts.pickPoints || (!geo.cells.size && geo.points.size) ? geo.points : shape === "areas" ? new Map() : geo.cells;
    const labels = shape === "dots" ? [] : coordinateLabels(labelPlaces);
    const box = extent(view, shape, labels, skin);
    const unitPx = scale(box, opts.availW, opts.availH);
    const W = box.x1 - box.x0;
    const H = box.y1 - box.y0;
    svg.setAttribute("viewBox", [box.x0, box.y0, W, H].join(" "));
    svg.setAttribute("width", Math.round(W * unitPx));
    svg.setAttribute("height", Math.round(H * unitPx));
    svg.dataset.shape = shape;
    const px = (n) => n / unitPx;
    // a text's size: UNITS, but at least MIN_TEXT_PX and (given) at most
    // MAX pixels, so that labels stay modest on a big drawing
    const font = (units, max) => Math.max(max ? Math.min(units, px(max)) : units, px(MIN_TEXT_PX));
    const d = {
        view,
        unitPx,
        px,
        font,
        box,
        shape,
        obstacles: [], // pieces and labels: what analysis may not cover
        areaCells: new Map(), // area name -> its squares, in board units
        skin,
        colourOf: opts.colourOf,
    };
    for (const [name, sq] of contents.areas) d.areaCells.set(name, sq.map((p) => ({ x: p.x, y: -p.y })));
    const layer = (cls) => el("g", { class: cls }, svg);
    const cells = layer("cells");
    const under = layer("under"); // scoring bands, under the pieces
    const lines = layer("lines");
    const pieces = layer("pieces");
    const names = layer("names");
    d.under = under;
    d.pieces = pieces; // empty on a board of areas: their scores go there
    drawCells(cells, d);
    if (skin.decorate) skin.decorate(cells, view, d);
    drawLines(lines, d);
    drawPieces(pieces, d, opts);
    for (const l of labels) d.obstacles.push(text(names, l.x, l.y, l.text, { class: "label", "font-size": font(0.34, 16) }));
    if (shape === "areas") drawAreaNames(names, d);
    if (shape === "dots") for (const [name, c] of geo.cells) d.obstacles.push(text(names, c.x, -c.y + 0.62, name, { class: "label", "font-size": font(0.26) }));
    drawMarks(layer("overlay marks"), d, opts);
    drawHits(layer("hits"), d, opts);
    d.badges = layer("overlay analysis");
    d.badges.id = "analysis-layer";
    return d;
}

// The cells' ground: squares, hexagons, discs, or the areas' squares
// with their borders (thin between cells, heavy round the figure); a
// side's own cells (contents' zone) in its pale tint.
function drawCells(g, d) {
    const { view, skin } = d;
    const fill = (name, c) => {
        const zone = (view.contents.at.get(name) || {}).zone;
        if (zone) return pale(d.colourOf(zone), 0.68);
        return skin.cellFill ? skin.cellFill(name, c, view) : "#efe6cf";
    };
    if (d.shape === "areas") return drawAreas(g, d);
    for (const [name, c] of view.geo.cells) {
        const f = fill(name, c);
        if (d.shape === "square")
            el("rect", { x: c.x - 0.5, y: -c.y - 0.5, width: 1, height: 1, fill: f, stroke: "#8a7f6a", "stroke-width": 0.02 }, g);
        else if (d.shape === "hex") el("path", { d: hexPath(c.x, -c.y, 0.577), fill: f, stroke: "#8a7052", "stroke-width": 0.03 }, g);
        else disc(g, c.x, -c.y, 0.45, f, "#8a7f6a", { "stroke-width": 0.03 });
    }
    // tags: a dead cell counts for nothing any more (dimmed); a locked
    // one's piece may not be used this turn (marked with the pieces)
    for (const [name, a] of view.contents.at) {
        const c = view.geo.cells.get(name);
        if (!c || !a.tags.includes("dead")) continue;
        const attrs = { class: "dead", fill: "rgba(40,40,40,0.45)" };
        if (d.shape === "hex") el("path", Object.assign({ d: hexPath(c.x, -c.y, 0.577) }, attrs), g);
        else el("rect", Object.assign({ x: c.x - 0.5, y: -c.y - 0.5, width: 1, height: 1 }, attrs), g);
    }
}

function drawAreas(g, d) {
    const { view } = d;
    const owner = (name) => (view.contents.at.get(name) || {}).owner || 0;
    const whose = new Map(); // "x,y" of a square -> its area
    for (const [name, sq] of d.areaCells) {
        const o = owner(name);
        const fill = o ? pale(d.colourOf(o), 0.62) : "#fffdf6";
        let path = "";
        for (const p of sq) {
            whose.set(p.x + "," + p.y, name);
            path += `M${p.x - 0.5} ${p.y - 0.5}h1v1h-1Z`;
        }
        el("path", { d: path, fill, "data-area": name, class: "area" + (o ? " claimed" : "") }, g);
    }
    // every square edge between two areas is a border, the figure's
    // edge (an area beside nothing) a heavier one
    let thin = "",
        outline = "";
    for (const [key, name] of whose) {
        const [x, y] = key.split(",").map(Number);
        for (const [dx, dy, seg] of [
            [-1, 0, `M${x - 0.5} ${y - 0.5}v1`],
            [1, 0, `M${x + 0.5} ${y - 0.5}v1`],
            [0, -1, `M${x - 0.5} ${y - 0.5}h1`],
            [0, 1, `M${x - 0.5} ${y + 0.5}h1`],
        ]) {
            const other = whose.get(x + dx + "," + (y + dy));
            if (!other) outline += seg;
            else if (other !== name && (dx > 0 || dy > 0)) thin += seg;
        }
    }
    el("path", { d: thin, stroke: "#9a8f7a", "stroke-width": 0.06, fill: "none" }, g);
    el("path", { d: outline, stroke: "#222", "stroke-width": 0.16, fill: "none", "stroke-linecap": "square" }, g);
    d.whose = whose;
}

// contents' lines: a fixed line that cuts the board, heavy and dark; the
// line a player drew, in violet (no player's colour); others plain.
function drawLines(g, d) {
    const look = {
        cut: { stroke: "#333", "stroke-width": 0.14, "stroke-linecap": "square" },
        drawn: { stroke: "#6a3d9a", "stroke-width": 0.16, "stroke-linejoin": "round", "stroke-linecap": "round" },
    };
    for (const l of d.view.contents.lines) {
        const points = l.pts.map((p) => p.x + "," + -p.y).join(" ");
        el("polyline", Object.assign({ points, fill: "none", class: "line-" + l.kind }, look[l.kind] || { stroke: "#777", "stroke-width": 0.08 }), g);
    }
}

// Each cell's contents: a piece in its side's colour (or its kind's),
// its count where a cell holds several, its tags. A skin may draw a
// cell's pieces its own way (skin.piece answers true).
function drawPieces(g, d, opts) {
    const { view, skin } = d;
    const kindColour = opts.kindColour;
    for (const [name, a] of view.contents.at) {
        const c = view.geo.cells.get(name);
        if (!c) continue;
        const x = c.x,
            y = -c.y;
        if (d.shape === "areas") continue; // claims: drawn with the names
        if (skin.piece && skin.piece(g, { x, y }, a, d)) continue;
        const r = d.shape === "hex" ? 0.4 : 0.38;
        if (a.owner || a.kind) {
            const look = pieceLook(a, d.colourOf, kindColour);
            d.obstacles.push(disc(g, x, y, r, look.fill, look.stroke, { class: "piece", "data-cell": name }));
            if (a.owner && a.kind)
                d.obstacles.push(text(g, x, y, a.kind.charAt(0).toUpperCase(), { "font-size": d.font(0.4, 20), fill: look.ink, "font-weight": 700 }));
            if (a.counted || a.count > 1) {
                const n = text(g, x, y, String(a.count), { class: "count", "font-size": d.font(0.36, 20), fill: look.ink, "font-weight": 700 });
                d.obstacles.push(n);
            }
        } else if (a.counted) {
            // a count of pieces that belong to nobody: a neutral stack
            if (a.count) d.obstacles.push(disc(g, x, y, r, "#f5efe0", "#6b6458", { class: "piece", "data-cell": name }));
            d.obstacles.push(text(g, x, y, String(a.count), { class: "count", "font-size": d.font(0.36, 20), fill: "#222", "font-weight": 700 }));
        }
        for (const tag of a.tags) {
            if (tag === "dead") continue;
            const ring = { fill: "none", stroke: tag === "locked" ? GOLD : "#777", "stroke-width": 0.07, class: "tag tag-" + tag };
            if (tag === "locked") ring["stroke-dasharray"] = "0.1 0.06";
            el("circle", Object.assign({ cx: x, cy: y, r: 0.46 }, ring), g);
        }
    }
}

// An area's name (Abs-Trac-Toe's region number) at its cell's point; a
// claimed one in a disc of its owner's colour.
function drawAreaNames(g, d) {
    const { view } = d;
    for (const [name, c] of view.geo.cells) {
        const a = view.contents.at.get(name);
        const fs = d.font(0.42, 18);
        if (a && a.owner) {
            const fill = d.colourOf(a.owner);
            const r = Math.min(0.47, Math.max(0.36, fs * 0.75));
            d.obstacles.push(disc(g, c.x, -c.y, r, fill, "#222", { "stroke-width": 0.04, class: "piece", "data-cell": name }));
            text(g, c.x, -c.y, name, { class: "area-name", "font-size": fs, fill: inkOn(fill), "font-weight": 700 });
        } else d.obstacles.push(text(g, c.x, -c.y, name, { class: "area-name", "font-size": fs, fill: "#333", "font-weight": 700 }));
    }
}

// The clickable layer: one transparent element per place a click may
// name, on top of everything; targets (legal next names) are marked,
// reachable with Tab and played with Enter.
function drawHits(g, d, opts) {
    const { view } = d;
    const add = (name, node, c) => {
        const target = opts.targets.has(name);
        node.setAttribute("class", "hit" + (target ? " target" : "") + (opts.chosen.includes(name) ? " selected" : ""));
        node.dataset.name = name;
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", name + (target ? " (legal)" : ""));
        node.setAttribute("tabindex", target ? "0" : "-1");
        node.dataset.x = c.x; // where a click surely lands (the tests use it)
        node.dataset.y = c.y;
        node.addEventListener("click", () => opts.onPick(name));
        node.addEventListener("keydown", (e) => {
            if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                opts.onPick(name);
            }
        });
        return node;
    };
    if (opts.pickPoints) {
        for (const [name, c] of view.geo.points) {
            const hit = add(name, el("rect", { x: c.x - 0.5, y: -c.y - 0.5, width: 1, height: 1 }, g), { x: c.x, y: -c.y });
            hit.classList.add("point");
        }
        return;
    }
    for (const [name, c] of view.geo.cells) {
        const x = c.x,
            y = -c.y;
        if (d.shape === "areas") {
            const sq = d.areaCells.get(name) || [{ x, y }];
            const path = sq.map((p) => `M${p.x - 0.5} ${p.y - 0.5}h1v1h-1Z`).join("");
            const hit = add(name, el("path", { d: path }, g), { x, y });
            if (opts.targets.has(name)) hit.classList.add("region");
        } else if (d.shape === "hex") add(name, el("path", { d: hexPath(x, y, 0.577) }, g), { x, y });
        else if (d.shape === "square") add(name, el("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1 }, g), { x, y });
        else add(name, el("circle", { cx: x, cy: y, r: 0.5 }, g), { x, y });
    }
}

export { GOLD };
