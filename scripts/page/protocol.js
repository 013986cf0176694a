// The engine's answers read into plain objects (protocol.md). Every
// reader here is a pure function of the answer's text; a line whose first
// word it does not know is skipped, as "Discovery" asks, so that a later
// engine may add keys.

// Splits "key value" answers into lines of words.
function lines(text) {
    return text
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) => ({ line: l, w: l.split(/\s+/) }));
}

// list_games: the first word of each line is a game's name (the rest is
// for people).
export function gameNames(text) {
    return lines(text).map((l) => l.w[0]);
}

// game_info ("Discovery"): player and side lines give each side's name,
// colour and mark; team lines the players who play as one; roll the die.
export function parseGameInfo(text) {
    const g = { name: "", title: "", players: 0, sides: [], teams: [], roll: null };
    for (const { line, w } of lines(text)) {
        if (w[0] === "game") g.name = w[1];
        else if (w[0] === "title") g.title = line.slice(6);
        else if (w[0] === "players") g.players = +w[1];
        else if (w[0] === "player" || w[0] === "side") {
            const side = { n: +w[1], name: null, colour: null, mark: null, playedBy: +w[1] };
            for (let i = 2; i + 1 < w.length; i += 2) {
                if (w[i] === "name") side.name = w[i + 1];
                else if (w[i] === "colour") side.colour = w[i + 1];
                else if (w[i] === "mark") side.mark = w[i + 1];
                else if (w[i] === "played_by") side.playedBy = +w[i + 1];
            }
            g.sides[side.n - 1] = side;
        } else if (w[0] === "team") g.teams.push(w.slice(1).map(Number));
        else if (w[0] === "roll" && w[1] === "faces") {
            const k = w.indexOf("weights");
            const faces = w.slice(2, k < 0 ? w.length : k).map(Number);
            const weights = k < 0 ? faces.map(() => 1) : w.slice(k + 1).map(Number);
            g.roll = { faces, weights };
        }
    }
    return g;
}

// turn_info: what the player to move must do now; `moves free` where the
// move cannot be listed and play judges it (a drawn line).
export function parseTurn(text) {
    const t = { phase: "", step: 0, steps: 0, player: 0, side: 0, also: [], out: [], prompt: "", free: false };
    for (const { line, w } of lines(text)) {
        if (w[0] === "phase") {
            t.phase = w[1];
            t.step = +w[2] || 0;
            t.steps = +w[3] || 0;
        } else if (w[0] === "player") t.player = +w[1];
        else if (w[0] === "side") t.side = +w[1];
        else if (w[0] === "also") t.also.push(w[1]);
        else if (w[0] === "out") t.out = w.slice(1).map(Number);
        else if (w[0] === "moves" && w[1] === "free") t.free = true;
        else if (w[0] === "prompt") t.prompt = line.slice(7);
    }
    return t;
}

// scoring: "unit KIND player P points N [pieces K] [colour C] [cells ...]"
export function parseUnits(text) {
    const out = [];
    for (const { w } of lines(text)) {
        if (w[0] !== "unit") continue;
        const u = { kind: w[1], player: 0, points: 0, pieces: 0, colour: null, cells: [] };
        for (let i = 2; i < w.length; i++) {
            if (w[i] === "player") u.player = +w[++i];
            else if (w[i] === "points") u.points = +w[++i];
            else if (w[i] === "pieces") u.pieces = +w[++i];
            else if (w[i] === "colour") u.colour = w[++i];
            else if (w[i] === "cells") {
                u.cells = w.slice(i + 1);
                break;
            }
        }
        out.push(u);
    }
    return out;
}

// "KEY type T [default D] [min A max B] [values V ...]": list_options,
// list_settings and option_info share the form; option_info adds value,
// requires, excludes, pattern and example (protocol.md, "option_info").
export function parseSpecs(text) {
    return lines(text).map(({ w }) => {
        const s = {
            key: w[0],
            type: w[2],
            def: null,
            min: null,
            max: null,
            values: null,
            value: null,
            requires: [],
            excludes: [],
            pattern: null,
            example: null,
        };
        const single = { default: "def", min: "min", max: "max", value: "value", pattern: "pattern", example: "example" };
        for (let i = 3; i < w.length; i++) {
            if (w[i] in single) s[single[w[i]]] = w[++i];
            else if (w[i] === "requires") s.requires.push(w[++i]);
            else if (w[i] === "excludes") s.excludes.push(w[++i]);
            else if (w[i] === "values") {
                // the values run to the next key this reader knows
                const vals = [];
                while (i + 1 < w.length && !(w[i + 1] in single) && !/^(requires|excludes|values)$/.test(w[i + 1]))
                    vals.push(w[++i]);
                s.values = vals;
            }
        }
        return s;
    });
}

// geometry: the shared lines (cell, point, word, sep), then the game's own
// lines, kept by their first word and all in order.
export function parseGeometry(text) {
    const g = { cells: new Map(), points: new Map(), words: [], seps: [], own: {}, lines: [] };
    for (const { w } of lines(text)) {
        if (w[0] === "cell") g.cells.set(w[1], { x: +w[2], y: +w[3] });
        else if (w[0] === "point") g.points.set(w[1], { x: +w[2], y: +w[3] });
        else if (w[0] === "word") g.words.push(w[1]);
        else if (w[0] === "sep") g.seps.push(w[1]);
        else (g.own[w[0]] = g.own[w[0]] || []).push(w.slice(1));
        g.lines.push(w);
    }
    return g;
}

// contents (protocol.md, "contents"): what stands on the board now.
//   at: cell name -> {owner, kind, count, counted, zone, tags}
//   hand, store: [{side, kind, count}]; die: the face shown, or null
//   lines: [{kind, pts: [{x, y}]}]; areas: name -> [{x, y}] unit squares
export function parseContents(text) {
    const c = { at: new Map(), hand: [], store: [], die: null, lines: [], areas: new Map() };
    const pts = (nums) => {
        const out = [];
        for (let i = 0; i + 1 < nums.length; i += 2) out.push({ x: +nums[i], y: +nums[i + 1] });
        return out;
    };
    for (const { w } of lines(text)) {
        if (w[0] === "at") {
            const a = { owner: 0, kind: null, count: 1, counted: false, zone: 0, tags: [] };
            for (let i = 2; i + 1 < w.length; i += 2) {
                if (w[i] === "owner") a.owner = +w[i + 1];
                else if (w[i] === "kind") a.kind = w[i + 1];
                else if (w[i] === "count") {
                    a.count = +w[i + 1];
                    a.counted = true;
                } else if (w[i] === "zone") a.zone = +w[i + 1];
                else if (w[i] === "tag") a.tags = w[i + 1].split(",");
            }
            c.at.set(w[1], a);
        } else if (w[0] === "hand" || w[0] === "store") {
            const h = { side: +w[1], kind: null, count: 0 };
            for (let i = 2; i + 1 < w.length; i += 2) {
                if (w[i] === "kind") h.kind = w[i + 1];
                else if (w[i] === "count") h.count = +w[i + 1];
            }
            c[w[0]].push(h);
        } else if (w[0] === "die") c.die = +w[1];
        else if (w[0] === "line") c.lines.push({ kind: w[1], pts: pts(w.slice(2)) });
        else if (w[0] === "area") c.areas.set(w[1], pts(w.slice(2)));
    }
    return c;
}

// status: {kind: "play" | "roll" | "over", player} (0: a draw)
export function parseStatus(text) {
    const [kind, who] = text.trim().split(/\s+/);
    return { kind, player: who === "draw" ? 0 : +who };
}

// moves: the list, and whether the engine cut it short (a last `...`,
// which is no move: play still judges any move).
export function parseMoves(text) {
    const list = text.trim() ? text.trim().split(/\s+/) : [];
    const truncated = list[list.length - 1] === "...";
    if (truncated) list.pop();
    return { list, truncated };
}

// One analyze line: a group per root move, "info move M visits N value V
// [proven R] order K pv M1 M2 ...".
export function parseInfo(line) {
    return line
        .split(/\binfo\s+/)
        .filter((g) => g.trim())
        .map((g) => {
            const w = g.trim().split(/\s+/);
            const c = { move: "", visits: 0, value: 0, proven: null, order: 0, pv: [] };
            for (let i = 0; i < w.length; i++) {
                if (w[i] === "move") c.move = w[++i];
                else if (w[i] === "visits") c.visits = +w[++i];
                else if (w[i] === "value") c.value = +w[++i];
                else if (w[i] === "proven") c.proven = w[++i];
                else if (w[i] === "order") c.order = +w[++i];
                else if (w[i] === "pv") {
                    c.pv = w.slice(i + 1);
                    break;
                }
            }
            return c;
        })
        .filter((c) => c.move);
}

// A move's names: the cells, points or words that geometry's seps join.
export function moveNames(geo, move) {
    if (!geo || !geo.seps.length) return [move];
    const re = new RegExp("[" + geo.seps.map((c) => "\\" + c).join("") + "]");
    return move.split(re);
}

// The separator a game joins names with (its first listed move that has
// one, else geometry's first sep).
export function joiner(geo, moves) {
    for (const m of moves) for (const ch of m) if (geo.seps.includes(ch)) return ch;
    return geo.seps[0] || "-";
}
