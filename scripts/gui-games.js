// How each game looks and reads, one entry a game: the board's drawing
// (look), the rules in our own words (rules, HTML), what its options and
// score mean to a person, and the few places its moves put a value. gui.js
// knows no game: it draws with GAMES[name] when there is an entry and a
// plain drawing of the geometry otherwise. The rules themselves (legal
// moves, scores, who moves) still come from the engine.
"use strict";

// checkertoe: checkers on a checkerboard; float's reach and layout;
// exchange's locked squares.
function lookCheckertoe(g) {
    squares(g, (n, c) => ((c.x + c.y) % 2 ? "#f0dcb4" : "#9c6b43"));
    drawLabels(g);
    const own = S.geo.own;
    const rect = (a, b) => {
        const p = at(a),
            q = at(b);
        return { x: X(p.x) - 0.5, y: Y(q.y) - 0.5, width: q.x - p.x + 1, height: q.y - p.y + 1 };
    };
    if (own.reach) {
        const r = rect(own.reach[0][0], own.reach[0][1]);
        const dim = el("path", { d: "", fill: "rgba(40,40,40,0.45)", "fill-rule": "evenodd" }, g);
        const b = bounds(0.5);
        dim.setAttribute(
            "d",
            `M${b.x0} ${b.y0}H${b.x1}V${b.y1}H${b.x0}Z M${r.x} ${r.y}h${r.width}v${r.height}h${-r.width}Z`,
        );
    }
    if (own.layout) {
        const r = rect(own.layout[0][0], own.layout[0][1]);
        el(
            "rect",
            Object.assign(r, {
                fill: "none",
                stroke: "#1d6fb8",
                "stroke-width": 0.08,
                "stroke-dasharray": "0.2 0.1",
            }),
            g,
        );
    }
    const cells = boardCells(S.pos.board);
    for (const [name, ch] of cells) {
        const c = at(name);
        if (ch === "x") {
            disc(g, c, 0.4, "#c0392b", "#7d1f16");
            disc(g, c, 0.27, "none", "#e57368");
        } else if (ch === "o") {
            disc(g, c, 0.4, "#2b2b2b", "#000");
            disc(g, c, 0.27, "none", "#666");
        }
    }
    for (const sq of (S.pos.locked || "").split(",").filter(Boolean)) {
        if (at(sq))
            disc(g, at(sq), 0.46, "none", "#f2b705", {
                "stroke-width": 0.07,
                "stroke-dasharray": "0.1 0.06",
            });
    }
    return bounds();
}

// takebacktoe: stacks of chips with their counts; the owned rows tinted.
function lookTakebacktoe(g) {
    const rowOf = new Map();
    for (const [kw, rows] of Object.entries(S.geo.own)) {
        for (const w of rows) {
            if (kw === "home") w.slice(1).forEach((n) => rowOf.set(n, +w[0]));
            if (kw === "neutral") w.forEach((n) => rowOf.set(n, 0));
        }
    }
    for (const [name, c] of S.geo.cells) {
        const p = rowOf.get(name) || 0;
        el(
            "rect",
            {
                x: X(c.x) - 0.46,
                y: Y(c.y) - 0.46,
                width: 0.92,
                height: 0.92,
                rx: 0.08,
                fill: p ? PALE[p - 1] : "#e9e2d2",
                stroke: "#8a7f6a",
                "stroke-width": 0.02,
            },
            g,
        );
    }
    drawLabels(g);
    const rowsLabelled = new Set();
    for (const [name, c] of S.geo.cells) {
        const p = rowOf.get(name);
        if (p === undefined || rowsLabelled.has(c.y)) continue;
        rowsLabelled.add(c.y);
        let maxx = -Infinity;
        for (const d of S.geo.cells.values()) if (d.y === c.y) maxx = Math.max(maxx, d.x);
        text(g, X(maxx + 0.6), Y(c.y), p ? "player " + p + "'s row" : "neutral", {
            class: "label",
            "text-anchor": "start",
            "font-size": fontSize(0.26),
        });
    }
    // board=ROW/ROW/... with counts separated by commas, top row first
    const rows = cellsTopDown();
    (S.pos.board || "").split("/").forEach((r, i) => {
        r.split(",").forEach((n, j) => {
            const name = rows[i] && rows[i][j];
            if (name) stack(g, at(name), +n);
        });
    });
    const last = /^([a-z]\d+)-([a-z]\d+):(\d+)$/.exec(S.pos.last || "");
    // the last move's arrow (how many chips: the roll before it, in the
    // move list), unlabelled so that the analysis values keep the edge
    if (last && at(last[1]) && at(last[2])) arrow(g, at(last[1]), at(last[2]), "#555");
    const b = bounds(0.9);
    b.x1 += 2.4; // the rows' labels
    return b;
}

// A pile: up to 12 chips drawn, its count at the tile's left edge (inside
// the tile however many digits), the tile's edges left free for the
// analysis values of the moves across them.
function stack(g, c, n) {
    const shown = Math.min(n, 12);
    for (let k = 0; k < shown; k++) {
        const y = Y(c.y) + 0.25 - k * 0.035;
        el(
            "ellipse",
            {
                cx: X(c.x) + 0.08,
                cy: y,
                rx: 0.19,
                ry: 0.07,
                fill: k % 2 ? "#2a7f7a" : "#f5efe0",
                stroke: "#1c4b48",
                "stroke-width": 0.02,
            },
            g,
        );
    }
    text(g, X(c.x) - 0.3, Y(c.y) + 0.02, String(n), {
        class: "count",
        "font-size": n >= 10 ? 0.22 : 0.26,
        "font-weight": 700,
        fill: n ? "#222" : "#999",
    });
}

// takeitaway: white, red and blue pieces on the 8x8.
const PIECE = { w: ["#f7f3e8", "#8a8170"], r: ["#c8352b", "#6e1711"], b: ["#2456a6", "#0f2a57"] };

function lookTakeitaway(g) {
    squares(g, (n, c) => ((c.x + c.y) % 2 ? "#efe6d2" : "#ddd0b3"));
    drawLabels(g);
    for (const [name, ch] of boardCells(S.pos.board)) {
        const p = PIECE[ch];
        if (!p) continue;
        disc(g, at(name), 0.38, p[0], p[1]);
    }
    return bounds();
}

// abstractoe: the cut-up figure, regions in their real shapes, claims.
function lookAbstractoe(g) {
    const own = S.geo.own;
    const [W, H] = own.lattice[0].map(Number);
    const map = []; // map[y][x], y from 0 at the bottom
    const i = S.geo.lines.findIndex((w) => w[0] === "regions");
    for (let r = 0; r < H; r++) map[H - 1 - r] = S.geo.lines[i + 1 + r].map(Number);
    const owners = (own.owners ? own.owners[0] : []).map(Number);
    const reg = (x, y) => (x < 0 || y < 0 || x >= W || y >= H ? 0 : map[y][x]);
    for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
            const r = reg(x, y);
            if (!r) continue;
            const o = owners[r - 1];
            el(
                "rect",
                {
                    x: X(x) - 0.5,
                    y: Y(y) - 0.5,
                    width: 1.02,
                    height: 1.02,
                    fill: o ? PALE[o - 1] : "#fffdf6",
                },
                g,
            );
        }
    }
    const vl = new Set(own.vlines[0].map(Number));
    const hl = new Set(own.hlines[0].map(Number));
    // Every lattice edge between two different regions (or a region and the
    // outside) is a border; straight lines and the outline drawn heavier.
    let thin = "",
        outline = "",
        straight = "";
    for (let y = 0; y <= H; y++) {
        for (let x = 0; x <= W; x++) {
            if (reg(x, y) !== reg(x - 1, y)) {
                const seg = `M${x - 0.5} ${-(y - 0.5)}v-1`;
                if (!reg(x, y) || !reg(x - 1, y)) outline += seg;
                else if (vl.has(x)) straight += seg;
                else thin += seg;
            }
            if (reg(x, y) !== reg(x, y - 1)) {
                const seg = `M${x - 0.5} ${-(y - 0.5)}h1`;
                if (!reg(x, y) || !reg(x, y - 1)) outline += seg;
                else if (hl.has(y)) straight += seg;
                else thin += seg;
            }
        }
    }
    el("path", { d: thin, stroke: "#9a8f7a", "stroke-width": 0.06, fill: "none" }, g);
    el(
        "path",
        {
            d: straight,
            stroke: "#333",
            "stroke-width": 0.14,
            fill: "none",
            "stroke-linecap": "square",
        },
        g,
    );
    el(
        "path",
        {
            d: outline,
            stroke: "#222",
            "stroke-width": 0.18,
            fill: "none",
            "stroke-linecap": "square",
        },
        g,
    );
    const line = own.line && own.line[0][0] !== "none" ? own.line[0].map(Number) : [];
    if (line.length) {
        let d = "";
        for (let k = 0; k < line.length; k += 2)
            d += (k ? "L" : "M") + (line[k] - 0.5) + " " + -(line[k + 1] - 0.5);
        el(
            "path",
            {
                d,
                stroke: "#b3261e",
                "stroke-width": 0.16,
                fill: "none",
                "stroke-linejoin": "round",
            },
            g,
        );
    }
    for (const [name, c] of S.geo.cells) {
        const o = owners[+name - 1];
        if (o) disc(g, c, 0.48, COLOURS[o - 1], "#222", { "stroke-width": 0.04 });
        text(g, X(c.x), Y(c.y), name, {
            "font-size": 0.55,
            "font-weight": 700,
            fill: o ? "#fff" : "#333",
        });
    }
    // the line being drawn
    if (S.line.length) {
        const pts = S.line.map(at);
        el(
            "polyline",
            {
                points: pts.map((p) => X(p.x) + "," + Y(p.y)).join(" "),
                stroke: "#b3261e",
                "stroke-width": 0.14,
                fill: "none",
                "stroke-dasharray": "0.3 0.15",
            },
            g,
        );
    }
    return { x0: -1.2, x1: W - 0.3, y0: -(H - 0.3), y1: 1.2 };
}

// tiptoe: White and Black pieces on the square or the hexagonal board.
function lookTiptoe(g, kind) {
    if (kind === "hex") {
        // a hex board has no edge to write its coordinates on: each empty
        // cell shows its name
        const cells = boardCells(S.pos.board);
        for (const [name, c] of S.geo.cells) {
            el(
                "path",
                { d: hexPath(c, 0.577), fill: "#ecdcb4", stroke: "#8a7052", "stroke-width": 0.03 },
                g,
            );
            // each empty cell's name, where it can be read (fontSize: 12 px at least);
            // on a big board a cell's name is its tooltip instead
            const size = fontSize(0.2);
            if (cells.get(name) === "." && size * name.length * 0.6 < 0.9)
                text(g, X(c.x), Y(c.y) + 0.28, name, { class: "label", "font-size": size });
        }
    } else {
        squares(g, () => "#ecdcb4");
        drawLabels(g);
    }
    for (const [name, ch] of boardCells(S.pos.board)) {
        if (ch === "o") disc(g, at(name), 0.36, "#fafafa", "#333");
        else if (ch === "x") disc(g, at(name), 0.36, "#1e1e1e", "#000");
    }
    return bounds();
}


// A small diagram for a rules panel: cells given as [x, y, fill, text].
function diagram(w, h, cells, extra) {
    let s =
        `<svg class="diagram" viewBox="-0.55 -0.55 ${w + 0.1} ${h + 0.1}"` +
        ` width="${w * 28}" height="${h * 28}" aria-hidden="true">`;
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++)
            s +=
                `<rect x="${x - 0.5}" y="${y - 0.5}" width="1" height="1"` +
                ` fill="#efe6d2" stroke="#8a7f6a" stroke-width="0.03"/>`;
    for (const [x, y, fill, t] of cells) {
        const ink = fill === "#1e1e1e" || fill === "#c0392b" ? "#fff" : "#222";
        if (fill)
            s += `<circle cx="${x}" cy="${y}" r="0.36" fill="${fill}" stroke="#333" stroke-width="0.04"/>`;
        if (t)
            s +=
                `<text x="${x}" y="${y}" text-anchor="middle" dominant-baseline="central"` +
                ` font-size="0.42" font-weight="700" fill="${ink}">${t}</text>`;
    }
    return s + (extra || "") + "</svg>";
}

const GAMES = {
    checkertoe: {
        look: lookCheckertoe,
        rules: `<p>Two players, 12 checkers each, take turns putting one checker on any
empty square of the 5 by 5 board. After all 24 are down one square is
left empty and the game ends.</p>
<p>Then each player counts <b>tic-tac-toes</b>: three squares side by side
in a row, a column or a diagonal, each holding that player's checker or the
empty square. The empty square helps both players. Lines may share squares:
four in a row count as two. More tic-tac-toes wins; equal is a draw.</p>
${diagram(5, 1, [[0, 0, "#c0392b"], [1, 0, "#c0392b"], [2, 0, null, "·"], [3, 0, "#c0392b"], [4, 0, "#1e1e1e"]])}
<p class="muted">Red's row above: squares 1-3 and 2-4 are two
tic-tac-toes, thanks to the empty square.</p>
<p><b>Variants.</b> <i>6 by 6</i>: 18 checkers each, every square gets
filled, only your own checkers make lines. <i>Float</i>: an 8 by 8 board;
the first checker goes in the middle four squares and all checkers must
always fit in 5 columns and 5 rows: the 5 by 5 board forms where you play.
<i>Exchange</i>: once all are down, each player in turn may swap one of
their checkers with one of the opponent's, or pass; the second player may
not touch the two checkers just swapped.</p>`,
        score: "Score: tic-tac-toes made (while checkers are still going down, only lines of your own checkers).",
        options: {
            first: ["Who starts", "chance decides"],
            size: ["Board", { 5: "5 by 5", 6: "6 by 6 (every square filled)" }],
            float: ["Float: the 5 by 5 forms on an 8 by 8 board"],
            exchange: ["Exchange: two swap turns at the end"],
        },
    },
    takebacktoe: {
        look: lookTakebacktoe,
        rules: `<p>Two players, 40 chips in four piles of 10 on the middle row. Row 1
is player 1's <b>home row</b>, row 3 player 2's. Chips belong to nobody.</p>
<p>Each turn: roll the die, then move exactly that many chips from one
space to a neighbouring one (left, right, up or down). Any space with
enough chips may give them. If no space has enough, you pass.</p>
<p>You may not simply undo the opponent's last move (move the same number
straight back).</p>
<p><b>Winning.</b> After every move both home rows are looked at: a player
wins when three or four spaces of <i>their</i> home row hold piles of the
same height (at least one chip). It does not matter who made the move, so
beware of completing your opponent's row. The winner scores the height of
those piles.</p>
${diagram(4, 1, [[0, 0, "#f5efe0", "5"], [1, 0, "#f5efe0", "5"], [2, 0, null, ""], [3, 0, "#f5efe0", "5"]])}
<p class="muted">A home row with three piles of 5: its owner wins and scores 5.</p>
<p>After the turn limit (1000 turns unless set) the game is a draw.</p>`,
        score: "Score: the height of the equal piles that won; 0 until then.",
        options: {
            first: ["Who starts", "chance decides"],
            maxturns: ["Draw after this many turns"],
        },
        // "(turn 7 of 1000)": the limit is when the game is drawn
        prompt: (s) => s.replace(/\(turn (\d+) of (\d+)\)/, "(turn $1; a draw after turn $2)"),
        dot: { x: 0.34, y: 0 },
        // a move joins two neighbouring spaces: its value sits on the edge
        // between them, to one side, so that the piles stay clear
        badge: (n) => {
            const a = at(n[0]),
                b = at(n[n.length - 1]);
            const dx = b.x - a.x,
                dy = b.y - a.y;
            const side = dx + dy > 0 ? 1 : -1;
            return {
                x: (a.x + b.x) / 2 + dy * 0.22 * side,
                y: (a.y + b.y) / 2 + dx * 0.26 * side,
                size: 0.17,
            };
        },
    },
    takeitaway: {
        look: lookTakeitaway,
        // the pieces are white, red and blue and belong to nobody: the
        // players' colours must be none of those
        colours: ["#2e8b3e", "#d9822b", "#7b3fa0", "#0f8b8d"],
        rules: `<p>Two to four players share one set of pieces: 34 white (worth 1),
20 red (worth 2) and 10 blue (worth 3) fill the 8 by 8 board. Anyone may
move any piece.</p>
<p>The first player takes a white piece off the board. From then on a move
is a <b>jump</b>: a piece jumps over a neighbouring piece (in any of 8
directions) onto the empty square behind it, and the player moving
captures the piece jumped over. While the jumping piece can jump again it
must: the move is the whole chain (click each square of it).</p>
${diagram(3, 1, [[0, 0, "#f7f3e8"], [1, 0, "#c8352b"], [2, 0, null, "→"]])}
<p class="muted">White jumps over red to the empty square: the mover captures red, 2 points.</p>
<p><b>Dropping out.</b> At the start of your turn you may <i>drop</i>: you
leave the game and keep your captures. The last player left goes on alone
until no jump is possible, and then pays for every piece still on the
board: its value times 2 (or 4) comes off their score.</p>
<p>The game ends when the player to move cannot jump. Highest score wins.</p>`,
        score: "Score: the value of your captures (white 1, red 2, blue 3), less the penalty of the last player left.",
        options: {
            players: ["Players"],
            board: ["Board (64 letters w, r, b or .)", "from the seed"],
            open: ["Open game: the first 8 moves each take a white piece"],
            nodrop: ["Nobody may drop out"],
            penalty: [
                "Penalty for the last player left",
                { 1: "1 × the board's value", 2: "2 × the board's value", 4: "4 × the board's value" },
            ],
            plain: ["Plain game: 63 pieces, each worth 1"],
        },
    },
    abstractoe: {
        look: lookAbstractoe,
        rules: `<p>The board is a figure cut into <b>regions</b> by two vertical and
two horizontal straight lines and one bending line (red). Players take
turns claiming a vacant region by clicking it.</p>
<p>You score a point for every pair of your regions that <b>border</b>
each other (share an edge, not just a corner). When every region is
claimed, the highest score wins.</p>
${diagram(3, 1, [[0, 0, "#c0392b", "X"], [1, 0, "#c0392b", "X"], [2, 0, "#1f5fa8", "O"]])}
<p class="muted">X holds two bordering regions: one point.</p>
<p><b>Variants.</b> <i>Teams</i> (4 players): players 1 and 3 against 2
and 4; a team scores every bordering pair its players hold between them.
<i>Solo</i> (1 player): you place both marks in turn, X then O, and try
to make X's score as high as you can. <i>Draw</i>: player 1 first draws
the bending line, point by point along the lattice, from the outline to
the outline without touching itself or running along a straight line.</p>`,
        score: "Score: bordering pairs of your own regions (with teams, of your team's).",
        options: {
            players: ["Players", { 1: "1 (the solo puzzle)", 2: "2", 3: "3", 4: "4" }],
            teams: ["Two teams of two (4 players)"],
            draw: ["Player 1 draws the bending line"],
            outline: ["Figure (rows of x and .)", "from the seed"],
            vlines: ["Vertical lines (two letters)", "from the seed"],
            hlines: ["Horizontal lines (two numbers)", "from the seed"],
            line: ["Bending line (points joined by -)", "from the seed"],
        },
        // a lattice point named like a square (c3: the lower-left corner of
        // cell c3), where a drawn line's corners lie once the geometry no
        // longer lists the points
        place: (name) => {
            const m = /^([a-z])(\d+)$/.exec(name);
            return m && !S.geo.cells.has(name)
                ? { x: m[1].charCodeAt(0) - 97 - 0.5, y: +m[2] - 1 - 0.5 }
                : null;
        },
        // a claim's value under the region's number, not on it
        badge: (n) => {
            const p = at(n[n.length - 1]);
            return { x: p.x, y: p.y - 0.62 };
        },
    },
    tiptoe: {
        look: lookTiptoe,
        rules: `<p>Two players, White (player 1) and Black. Every turn adds one piece of
your colour on an empty square; nothing ever moves. A player with nowhere
to put a piece loses; there are no draws.</p>
<p><b>Set-up.</b> The first four pieces go anywhere: White one, Black two,
White one. (So Black, then White, move twice in a row.)</p>
<p><b>Stepping.</b> After that a new piece must go exactly <i>S</i>
squares from one of your pieces, straight along a row or column, over
empty squares only, where <i>S</i> is the size of that piece's group
(pieces of one colour joined side by side). A lone piece reaches its empty
neighbours; a piece in a group of three reaches squares three away.
Groups only grow, so steps only get longer.</p>
${diagram(5, 1, [[0, 0, "#fafafa"], [1, 0, "#fafafa"], [2, 0, null, ""], [3, 0, null, "●"]])}
<p class="muted">White's group of two steps 2 squares: to the dot.</p>
<p><b>Variants.</b> <i>Diagonal</i>: diagonal neighbours join groups and
steps go diagonally too. <i>Hex</i>: a hexagonal board, six directions.</p>`,
        score: "Score: 1 for the winner once the game is over.",
        options: {
            size: ["Board size (squares a side; with hex, cells an edge)"],
            diagonal: ["Diagonal: groups and steps along diagonals too"],
            hex: ["Hexagonal board"],
        },
    },
};

// Words for the options every game has.
const COMMON_OPTIONS = {
    seed: ["Seed (the same seed, the same game)", "random"],
    first: ["Who starts", "chance decides"],
    players: ["Players"],
};
