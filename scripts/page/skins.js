// Optional skins: how a game looks and reads to a person, beyond what
// the generic drawing (board.js) makes of geometry and contents. A skin
// never decides a rule; every entry is optional, and a game with none is
// drawn, played and scored from the protocol alone. An entry may give:
//   rules       the rules in our own words (HTML, with small diagrams)
//   score       what the score counts, in a sentence
//   options     words for its options: key -> [label, what empty means,
//               {value: words}]
//   colours     players' colours where game_info names none: [hex, name]
//   prompt(s)   turn_info's prompt, reworded
//   cellFill(name, c, view)    a cell's ground
//   piece(g, at, a, d)         draws a cell's contents, answers true
//   decorate(g, view, d)       extra drawing under the pieces
//   extent(box, view)          the drawing's box, grown for the above

import { el, text, disc, placeOf } from "./svg.js";

// A small diagram for a rules panel: cells given as [x, y, fill, text].
function diagram(w, h, cells, extra) {
    let s = `<svg class="diagram" viewBox="-0.55 -0.55 ${w + 0.1} ${h + 0.1}"` + ` width="${w * 28}" height="${h * 28}" aria-hidden="true">`;
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++)
            s += `<rect x="${x - 0.5}" y="${y - 0.5}" width="1" height="1"` + ` fill="#efe6d2" stroke="#8a7f6a" stroke-width="0.03"/>`;
    for (const [x, y, fill, t] of cells) {
        const ink = fill === "#1e1e1e" || fill === "#c0392b" ? "#fff" : "#222";
        if (fill) s += `<circle cx="${x}" cy="${y}" r="0.36" fill="${fill}" stroke="#333" stroke-width="0.04"/>`;
        if (t) s += `<text x="${x}" y="${y}" text-anchor="middle" dominant-baseline="central"` + ` font-size="0.42" font-weight="700" fill="${ink}">${t}</text>`;
    }
    return s + (extra || "") + "</svg>";
}

// A Take-Back-Toe pile: up to 12 chips drawn, its count at the tile's
// left, the tile's edges free for the values of moves across them.
function pile(g, p, a, d) {
    if (!a.counted || a.owner || a.kind) return false;
    const n = a.count;
    for (let k = 0; k < Math.min(n, 12); k++)
        d.obstacles.push(el("ellipse", { cx: p.x + 0.1, cy: p.y + 0.2 - k * 0.035, rx: 0.17, ry: 0.065, fill: k % 2 ? "#2a7f7a" : "#f5efe0", stroke: "#1c4b48", "stroke-width": 0.02, class: "piece" }, g));
    d.obstacles.push(text(g, p.x - 0.27, p.y, String(n), { class: "count", "font-size": d.font(0.26, 20), "font-weight": 700, fill: n ? "#222" : "#999" }));
    return true;
}

export const SKINS = {
    checkertoe: {
        cellFill: (n, c) => ((c.x + c.y) % 2 ? "#f0dcb4" : "#9c6b43"),
        // a checker: its player's colour with a ring inside
        piece(g, p, a, d) {
            if (!a.owner) return false;
            const fill = d.colourOf(a.owner);
            d.obstacles.push(disc(g, p.x, p.y, 0.38, fill, "#111", { class: "piece" }));
            disc(g, p.x, p.y, 0.26, "none", "rgba(255,255,255,0.35)", { "stroke-width": 0.04 });
            for (const tag of a.tags.filter((t) => t !== "dead"))
                el("circle", { cx: p.x, cy: p.y, r: 0.46, fill: "none", stroke: "#f2b705", "stroke-width": 0.07, "stroke-dasharray": "0.1 0.06", class: "tag tag-" + tag }, g);
            return true;
        },
        // float's layout: the rectangle the checkers span, dashed
        decorate(g, view) {
            const lay = view.geo.own.layout;
            if (!lay) return;
            const a = placeOf(view, lay[0][0]),
                b = placeOf(view, lay[0][1]);
            if (!a || !b) return;
            el("rect", { x: Math.min(a.x, b.x) - 0.5, y: Math.min(a.y, b.y) - 0.5, width: Math.abs(b.x - a.x) + 1, height: Math.abs(b.y - a.y) + 1, fill: "none", stroke: "#1d6fb8", "stroke-width": 0.08, "stroke-dasharray": "0.2 0.1" }, g);
        },
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
always fit in 5 columns and 5 rows: the 5 by 5 board forms where you play
(the dimmed squares are out of reach).
<i>Exchange</i>: once all are down, each player in turn may swap one of
their checkers with one of the opponent's, or pass; the second player may
not touch the two checkers just swapped (ringed).</p>`,
        score: "Score: tic-tac-toes made (while checkers are still going down, only lines of your own checkers).",
        options: {
            first: ["Who starts", "chance decides"],
            size: ["Board", { 5: "5 by 5", 6: "6 by 6 (every square filled)" }],
            float: ["Float: the 5 by 5 forms on an 8 by 8 board"],
            exchange: ["Exchange: two swap turns at the end"],
        },
    },
    takebacktoe: {
        cellFill: () => "#e9e2d2",
        piece: pile,
        // each row's owner (contents' zones), right of the board
        decorate(g, view, d) {
            const done = new Set();
            let maxx = -Infinity;
            for (const c of view.geo.cells.values()) maxx = Math.max(maxx, c.x);
            for (const [name, c] of view.geo.cells) {
                const p = (view.contents.at.get(name) || {}).zone || 0;
                if (done.has(c.y)) continue;
                done.add(c.y);
                d.obstacles.push(text(g, maxx + 0.6, -c.y, p ? "player " + p : "neutral", { class: "label", "text-anchor": "start", "font-size": d.font(0.26, 16) }));
            }
        },
        extent: (box) => Object.assign({}, box, { x1: box.x1 + 1.6 }),
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
    },
    takeitaway: {
        cellFill: (n, c) => ((c.x + c.y) % 2 ? "#efe6d2" : "#ddd0b3"),
        // the pieces are white, red and blue and belong to nobody: the
        // players' colours must be none of those
        colours: [
            ["#2e8b3e", "green"],
            ["#d9822b", "orange"],
            ["#7b3fa0", "purple"],
            ["#0f8b8d", "teal"],
        ],
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
            penalty: ["Penalty for the last player left", { 1: "1 × the board's value", 2: "2 × the board's value", 4: "4 × the board's value" }],
            plain: ["Plain game: 63 pieces, each worth 1"],
        },
    },
    abstractoe: {
        rules: `<p>The board is a figure cut into <b>regions</b> by two vertical and
two horizontal straight lines (black) and one bending line (violet).
Players take turns claiming a vacant region (hatched in gold) by clicking
it.</p>
<p>You score a point for every pair of your regions that <b>border</b>
each other (share an edge, not just a corner). When every region is
claimed, the highest score wins.</p>
${diagram(3, 1, [[0, 0, "#c0392b", "1"], [1, 0, "#c0392b", "2"], [2, 0, "#1f5fa8", "3"]])}
<p class="muted">Red holds two bordering regions, 1 and 2: one point.</p>
<p><b>Variants.</b> <i>Teams</i> (4 players): players 1 and 3 against 2
and 4; a team scores every bordering pair its players hold between them.
<i>Solo</i> (1 player): you place both colours in turn, red then blue,
and try to make red's score as high as you can. <i>Draw</i>: player 1
first draws the bending line, point by point along the lattice, from the
outline to the outline without touching itself or running along a
straight line.</p>`,
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
    },
    tiptoe: {
        cellFill: () => "#ecdcb4",
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
export const COMMON_OPTIONS = {
    seed: ["Seed (the same seed, the same game)", "random"],
    first: ["Who starts", "chance decides"],
    players: ["Players"],
};

// The skin of game NAME: its entry, or none (the page then draws and
// words everything from the protocol). A page address with ?skins=0
// turns them all off, to see any game as a game without one would look.
export function skinOf(name) {
    if (new URLSearchParams(location.search).get("skins") === "0") return {};
    return SKINS[name] || {};
}
