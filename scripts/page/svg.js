// Small helpers for drawing SVG, shared by the board, the die, the
// evaluation graph and the seat swatches.

const SVGNS = "http://www.w3.org/2000/svg";

export function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
}

export function text(parent, x, y, s, attrs) {
    const t = el("text", Object.assign({ x, y, "text-anchor": "middle", "dominant-baseline": "central" }, attrs), parent);
    t.textContent = s;
    return t;
}

export function disc(parent, x, y, r, fill, stroke, extra) {
    return el("circle", Object.assign({ cx: x, cy: y, r, fill, stroke, "stroke-width": 0.05 }, extra || {}), parent);
}

// A regular hexagon with pointy tops, centre (x, y), corner radius r.
export function hexPath(x, y, r) {
    let d = "";
    for (let k = 0; k < 6; k++) {
        const a = (Math.PI / 3) * k + Math.PI / 6;
        d += (k ? "L" : "M") + (x + r * Math.cos(a)).toFixed(3) + " " + (y + r * Math.sin(a)).toFixed(3);
    }
    return d + "Z";
}

// How the colours game_info names are drawn.
export const COLOUR_WORDS = {
    white: "#f7f3e8",
    black: "#1e1e1e",
    red: "#c0392b",
    blue: "#1f5fa8",
    green: "#2e8b3e",
    yellow: "#e0b000",
    orange: "#d9822b",
    purple: "#7b3fa0",
    brown: "#8a5a2b",
    grey: "#888",
    gray: "#888",
};

// Player colours where game_info gives none, with their names (a prompt
// that names a side by its mark names it by its colour instead):
// distinct for four players, and none the legal gold or the drawn violet.
export const PLAYER_COLOURS = [
    ["#c0392b", "red"],
    ["#1f5fa8", "blue"],
    ["#2e8b3e", "green"],
    ["#d9822b", "orange"],
];

// A colour mixed towards white (t = 0: the colour, 1: white): the tint of
// a player's claimed region.
export function pale(colour, t) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
    if (!m) return colour;
    const mix = (h) => Math.round(parseInt(h, 16) + (255 - parseInt(h, 16)) * t);
    return "rgb(" + [m[1], m[2], m[3]].map(mix).join(",") + ")";
}

// Dark text on light fills, light on dark ones.
export function inkOn(colour) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
    if (!m) return "#222";
    const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#222" : "#fff";
}

// A seat's swatch: the disc its pieces are drawn with (HTML-sized).
export function swatch(colour, px) {
    const svg = el("svg", { viewBox: "-1 -1 2 2", width: px || 16, height: px || 16, "aria-hidden": "true", class: "swatch" });
    disc(svg, 0, 0, 0.8, colour, "#333", { "stroke-width": 0.15 });
    return svg;
}
