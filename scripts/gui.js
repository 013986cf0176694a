// The reference GUI's page. It knows how each game LOOKS, but
// no rule: the games, their options, players and teams, the board's shape
// and contents, the legal moves, what the player to move must do, the
// scores and what they are made of all come from the engine (list_games,
// list_options, game_info, geometry, position, moves, status, turn_info,
// score, scoring, history, analyze), through scripts/gui or, in the
// WebAssembly build (make web), from the engine in a Web Worker. An illegal
// click is sent to the engine anyway, so that the engine's own message
// explains it.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const ANALYZE_MS = 250; // how often analyze reports: lively, yet cheap
// Player colours, used by every game unless it has its own pieces.
const COLOURS = ["#c0392b", "#1f5fa8", "#2e8b3e", "#d9822b"];
// How the colours game_info names are drawn.
const COLOUR_WORDS = {
    white: "#fafafa",
    black: "#1e1e1e",
    red: "#c0392b",
    blue: "#1f5fa8",
    green: "#2e8b3e",
};
const PALE = ["#f4c4bd", "#bfd3ee", "#c3e3c8", "#f6d8b8"];

const S = {
    games: [], // {name, title, players}: game_info NAME with the defaults
    specs: {}, // game name -> [{key, type, def, min, max, values}]
    settings: {}, // setting name -> spec, from list_settings
    game: null,
    nplayers: 2,
    info: null, // game_info: {name, title, players, sides, teams, roll}
    turn: null, // turn_info: {phase, step, steps, player, side, also, out, prompt}
    units: [], // scoring: [{kind, player, points, pieces, colour, cells}]
    dialogPlayers: 2, // seats of the new-game dialog, from game_info
    seats: [], // {kind: "person" | "engine", level, movetime, threads}
    threads: 0, // the engine's `set threads` as last sent (0: not yet)
    clock: { kind: "none", main: 300, inc: 5 },
    left: [], // seconds left per player, with a clock
    turnStart: 0,
    geo: null,
    pos: {},
    status: null, // {kind: "play" | "roll" | "over", player}
    moves: [],
    score: [],
    history: [],
    prefix: [], // names clicked so far towards a move
    line: [], // lattice points clicked for a drawn line
    analysis: { on: false, gen: 0, cands: [], text: "" },
    epoch: 0, // bumped by new game, undo and load: stale loops stop
    thinking: false,
    driving: null, // the engine loop's promise while it runs
    acting: 0, // actions of the person under way
    recordDirty: false,
    movers: [], // who made each history line after the first (0: unknown)
    evals: [], // history length -> {player, value, proven}: analysis's best
    hurry: false, // Stop pressed: the engine's seats move at once until a person is to move
    unitPx: 40, // pixels per board unit at the last drawing
};

// ---------------------------------------------------------------- engine

// The page reaches its engine one of two ways, behind one interface:
//   T.open()                          a new engine for this tab
//   T.run([LINE ...], stopOnError)    -> [{ok, text} ...], in order
//   T.analyze(ms, most, onInfo)       -> {ok, text, done}: onInfo(line)
//                                        for each info line; done settles
//                                        when the stream ends (the next
//                                        command sent ends it)
//   T.close()
// ServerEngine speaks to scripts/gui over HTTP (the native engine);
// WorkerEngine runs the WebAssembly build (make web) in a Web Worker and
// speaks the protocol to it itself. make web marks the page it builds
// with <meta name="quintet-engine" content="worker">.

class ApiError extends Error {
    constructor(message, dead) {
        super(message);
        this.dead = dead;
    }
}

async function api(path, body) {
    let r;
    try {
        r = await fetch(path, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(body),
        });
    } catch (e) {
        throw new ApiError("the GUI server does not answer (was it stopped?)", true);
    }
    let j;
    try {
        j = await r.json();
    } catch (e) {
        throw new ApiError("the server's answer was not JSON (HTTP " + r.status + ")");
    }
    if (!r.ok) throw new ApiError(j.error || "HTTP " + r.status, !!j.dead);
    return j;
}

class ServerEngine {
    async open() {
        this.session = (await api("/api/new", {})).session;
        const session = this.session;
        // while the tab is open its engine is wanted: the server closes
        // one that goes unasked for longer (scripts/gui --idle)
        this.ping = setInterval(() => {
            if (this.session === session) api("/api/ping", { session }).catch(() => {});
        }, 15000);
        window.addEventListener("pagehide", () => {
            if (this.session !== session) return;
            fetch("/api/close", {
                method: "POST",
                keepalive: true,
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ session }),
            });
        });
    }

    async run(commands, stopOnError) {
        const j = await api("/api/run", {
            session: this.session,
            commands,
            stop_on_error: !!stopOnError,
        });
        return j.answers;
    }

    async analyze(ms, most, onInfo) {
        const j = await api("/api/analyze", { session: this.session, ms, maxmoves: most });
        if (!j.ok) return { ok: false, text: j.text, done: Promise.resolve() };
        const poll = async () => {
            let seq = j.seq;
            for (;;) {
                let r;
                try {
                    const q = "/api/analysis?session=" + encodeURIComponent(this.session) + "&after=" + seq;
                    r = await (await fetch(q)).json();
                } catch (e) {
                    return;
                }
                if (r.gen !== j.gen) return;
                seq = r.seq;
                if (r.line) onInfo(r.line);
                if (!r.running) return;
            }
        };
        return { ok: true, text: j.text, done: poll() };
    }

    // A finished game's review (scripts/gui's POST /api/review: a fresh
    // engine judges every move; quintet.review).
    async review(record) {
        return (await api("/api/review", { record, playouts: 1000 })).moves;
    }

    close() {
        if (this.session) api("/api/close", { session: this.session }).catch(() => {});
        this.session = null;
        clearInterval(this.ping);
    }
}

// The protocol spoken to the engine in a Web Worker: lines out, framed
// answers back (protocol.md, "Framing"), matched to commands in order.
class WorkerEngine {
    open() {
        this.worker = new Worker("engine.js");
        this.pending = []; // {resolve, analyze, onInfo, lines}
        this.buf = "";
        this.dead = null;
        this.worker.onmessage = (e) => this.message(e.data);
        this.worker.onerror = (e) => this.die("the engine failed: " + (e.message || "an error"));
        return Promise.resolve();
    }

    message(m) {
        if (m.err !== undefined) console.log(m.err); // the search line
        if (m.exit !== undefined) this.die("the engine exited (status " + m.exit + ")");
        if (m.out === undefined) return;
        this.buf += m.out;
        let nl;
        while ((nl = this.buf.indexOf("\n")) >= 0) {
            const line = this.buf.slice(0, nl);
            this.buf = this.buf.slice(nl + 1);
            this.line(line);
        }
    }

    // One line of output: the first of an answer starts it, an empty line
    // ends it; between them an analyze stream's info lines.
    line(line) {
        const p = this.pending[0];
        if (!p) return;
        if (p.lines === null) {
            p.lines = [line];
            if (p.analyze) p.resolve({ ok: line[0] === "=", text: line.replace(/^[=?]\S*\s?/, "") });
            return;
        }
        if (line !== "") {
            if (p.analyze) p.onInfo(line);
            else p.lines.push(line);
            return;
        }
        this.pending.shift();
        if (p.analyze) p.end();
        else {
            const first = p.lines[0];
            const text = [first.replace(/^[=?]\S*\s?/, "")].concat(p.lines.slice(1)).join("\n");
            p.resolve({ ok: first[0] === "=", text });
        }
    }

    die(why) {
        if (this.dead) return;
        this.dead = why;
        for (const p of this.pending.splice(0)) (p.reject || p.resolve)(new ApiError(why, true));
        this.worker.terminate();
    }

    send(line, extra) {
        if (this.dead) return Promise.reject(new ApiError(this.dead, true));
        return new Promise((resolve, reject) => {
            this.pending.push(Object.assign({ resolve, reject, lines: null }, extra));
            this.worker.postMessage(line.replace(/[\r\n]/g, " ") + "\n");
        });
    }

    async run(commands, stopOnError) {
        if (!stopOnError) return Promise.all(commands.map((c) => this.send(c)));
        const answers = [];
        for (const c of commands) {
            const a = await this.send(c);
            answers.push(a);
            if (!a.ok) break;
        }
        return answers;
    }

    async analyze(ms, most, onInfo) {
        let end;
        const done = new Promise((r) => (end = r));
        const first = await this.send("analyze " + ms + " maxmoves " + most, { analyze: true, onInfo, end });
        if (!first.ok) end();
        return { ok: first.ok, text: first.text, done };
    }

    close() {
        if (this.worker) this.worker.terminate();
        this.worker = null;
    }
}

const T = (() => {
    const m = document.querySelector('meta[name="quintet-engine"]');
    return m && m.content === "worker" ? new WorkerEngine() : new ServerEngine();
})();

async function run(commands, stopOnError) {
    return T.run(commands, stopOnError);
}

async function ask(command) {
    return (await run([command]))[0];
}

// ask() for commands that must succeed: a failure is the engine's message.
async function must(command) {
    const a = await ask(command);
    if (!a.ok) throw new ApiError(command.split(" ")[0] + ": " + a.text);
    return a.text;
}

// ---------------------------------------------------------------- parsing

// list_games: the first word of each line is a game's name (the rest is
// for people).
function gameNames(text) {
    return text
        .split("\n")
        .map((l) => l.trim().split(/\s+/)[0])
        .filter(Boolean);
}

// game_info: "key value" lines; player and side lines give each side's
// name, colour and mark; team lines the players who play as one.
function parseGameInfo(text) {
    const g = { name: "", title: "", players: 0, sides: [], teams: [], roll: null };
    for (const l of text.split("\n")) {
        const w = l.trim().split(/\s+/);
        if (w[0] === "game") g.name = w[1];
        else if (w[0] === "title") g.title = l.trim().slice(6);
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

// turn_info: what the player to move must do now.
function parseTurn(text) {
    const t = { phase: "", step: 0, steps: 0, player: 0, side: 0, also: [], out: [], prompt: "" };
    for (const l of text.split("\n")) {
        const w = l.trim().split(/\s+/);
        if (w[0] === "phase") {
            t.phase = w[1];
            t.step = +w[2] || 0;
            t.steps = +w[3] || 0;
        } else if (w[0] === "player") t.player = +w[1];
        else if (w[0] === "side") t.side = +w[1];
        else if (w[0] === "also") t.also.push(w[1]);
        else if (w[0] === "out") t.out = w.slice(1).map(Number);
        else if (w[0] === "prompt") t.prompt = l.trim().slice(7);
    }
    return t;
}

// scoring: "unit KIND player P points N [pieces K] [colour C] [cells ...]"
function parseUnits(text) {
    const out = [];
    for (const l of text.split("\n")) {
        const w = l.trim().split(/\s+/);
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

// "KEY type T [default D] [min A max B] [values V ...]" (list_options and
// list_settings share the form)
function parseSpecs(text) {
    return text
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => {
            const w = l.trim().split(/\s+/);
            const s = { key: w[0], type: w[2], def: null, min: null, max: null, values: [] };
            for (let i = 3; i < w.length; i++) {
                if (w[i] === "default") s.def = w[++i];
                else if (w[i] === "min") s.min = w[++i];
                else if (w[i] === "max") s.max = w[++i];
                else if (w[i] === "values") {
                    s.values = w.slice(i + 1);
                    break;
                }
            }
            return s;
        });
}

function parsePosition(text) {
    const pos = {};
    const w = text.trim().split(/\s+/);
    for (const kv of w.slice(1)) {
        const i = kv.indexOf("=");
        if (i > 0) pos[kv.slice(0, i)] = kv.slice(i + 1);
        else pos[kv] = "1";
    }
    return pos;
}

// geometry: the shared lines (cell, point, word, sep), then the game's own
// lines, kept by their first word (and all of them in order, for maps).
function parseGeometry(text) {
    const g = { cells: new Map(), points: new Map(), words: [], seps: [], own: {}, lines: [] };
    for (const l of text.split("\n")) {
        const w = l.trim().split(/\s+/);
        if (!w[0]) continue;
        if (w[0] === "cell") g.cells.set(w[1], { x: +w[2], y: +w[3] });
        else if (w[0] === "point") g.points.set(w[1], { x: +w[2], y: +w[3] });
        else if (w[0] === "word") g.words.push(w[1]);
        else if (w[0] === "sep") g.seps.push(w[1]);
        else {
            if (!(w[0] in g.own)) g.own[w[0]] = [];
            g.own[w[0]].push(w.slice(1));
        }
        g.lines.push(w);
    }
    return g;
}

function parseStatus(text) {
    const [kind, who] = text.trim().split(/\s+/);
    return { kind, player: who === "draw" ? 0 : +who };
}

// One analyze line: a group per root move, "info move M visits N value V
// [proven R] order K pv M1 M2 ...".
function parseInfo(line) {
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

// A move's names: the cells, points or words that the geometry's seps join.
function names(move) {
    if (!S.geo || !S.geo.seps.length) return [move];
    const re = new RegExp("[" + S.geo.seps.map((c) => "\\" + c).join("") + "]");
    return move.split(re);
}

function sepOf(move) {
    for (const ch of move) if (S.geo.seps.includes(ch)) return ch;
    return S.geo.seps[0] || "-";
}

// The cells in the order of a board= value: rows from the top down, each
// row from the left (the order checkertoe, takeitaway and tiptoe write).
function cellsTopDown() {
    const rows = new Map();
    for (const [name, c] of S.geo.cells) {
        const y = c.y.toFixed(3);
        if (!rows.has(y)) rows.set(y, []);
        rows.get(y).push({ name, x: c.x });
    }
    return [...rows.entries()]
        .sort((a, b) => b[0] - a[0])
        .map(([, r]) => r.sort((a, b) => a.x - b.x).map((c) => c.name));
}

// board=ROW/ROW (or 64 letters): cell name -> character
function boardCells(value) {
    const out = new Map();
    if (!value) return out;
    const rows = cellsTopDown();
    const chars = value.includes("/") ? value.split("/") : null;
    let flat = value.replace(/\//g, "");
    let k = 0;
    rows.forEach((row, i) => {
        row.forEach((name, j) => {
            out.set(name, chars ? (chars[i] || "")[j] || "." : flat[k] || ".");
            k++;
        });
    });
    return out;
}

// ---------------------------------------------------------------- state

async function refresh() {
    const a = await run([
        "status",
        "moves",
        "position",
        "geometry",
        "score",
        "history",
        "game_info",
        "turn_info",
        "scoring",
    ]);
    const before = { history: S.history, status: S.status };
    S.status = parseStatus(a[0].text);
    S.moves = a[1].text.trim() ? a[1].text.trim().split(" ") : [];
    S.pos = parsePosition(a[2].text);
    S.geo = parseGeometry(a[3].text);
    S.score = a[4].text.trim().split(/\s+/).map(Number);
    S.history = a[5].text.split("\n").filter((l) => l.trim());
    S.info = parseGameInfo(a[6].text);
    S.game = S.info.name;
    S.turn = parseTurn(a[7].text);
    S.units = parseUnits(a[8].text);
    trackMovers(before);
    if (S.review && S.review.record !== S.history.join("\n")) S.review = null;
    S.prefix = [];
    S.line = [];
    render();
}

// Who made each line of the history: a line added since the last refresh
// was made by whoever was to act then; an undo drops the last ones. A
// record loaded whole is replayed with a status before each line
// (moversOf), since turns skip players who dropped out and repeat for
// Tiptoe's set-up.
function trackMovers(before) {
    const n = S.history.length - 1;
    const old = before.history || [];
    const same = old.length && old[0] === S.history[0];
    if (same && n === old.length && before.status) S.movers.push(before.status.player);
    S.movers.length = Math.min(S.movers.length, Math.max(0, n));
    while (S.movers.length < n) S.movers.push(0);
    if (S.evals.length > S.history.length + 1) S.evals.length = S.history.length + 1;
}

// Runs a record's lines with a status before each move, so that the page
// knows who made each; stops at the first failure. Answers
// {answers: [the lines' answers], movers: [...]}.
async function runWithMovers(lines) {
    const cmds = [];
    for (const l of lines) {
        if (!/^newgame /.test(l)) cmds.push("status");
        cmds.push(l);
    }
    const a = await run(cmds, true);
    const answers = [];
    const movers = [];
    let who = 0;
    a.forEach((x, i) => {
        if (cmds[i] === "status") who = parseStatus(x.text).player;
        else {
            answers.push(x);
            if (!/^newgame /.test(cmds[i]) && x.ok) movers.push(who);
        }
    });
    // a failed status (no game yet) ends the list too
    const failed = a.findIndex((x) => !x.ok);
    if (failed >= 0 && cmds[failed] === "status") answers.push(a[failed]);
    return { answers, movers };
}

function seatOf(p) {
    return S.seats[p - 1] || { kind: "person", level: topLevel(), movetime: 1000, threads: 1 };
}

// The engine's strongest level, its default (list_settings).
function topLevel() {
    return +(S.settings.level || {}).max || 2;
}

function personToMove() {
    const st = S.status;
    return st && st.kind !== "over" && seatOf(st.player).kind === "person";
}

// Sets the seats to the game's player count (from game_info), keeping
// those there are.
function fitSeats(n) {
    S.nplayers = n;
    while (S.seats.length < n)
        S.seats.push({ kind: S.seats.length ? "engine" : "person", level: topLevel(), movetime: 1000, threads: 1 });
    S.seats.length = n;
    S.left = S.seats.map(() => S.clock.main);
    S.turnStart = performance.now();
}

// The engine plays while an engine seat is to move (or to roll); then the
// analysis starts if it is on and a person is to move.
function drive() {
    if (S.driving) return S.driving;
    const p = driveLoop().finally(() => {
        if (S.driving === p) S.driving = null;
        S.thinking = false;
        buttons();
    });
    S.driving = p;
    return p;
}

async function driveLoop() {
    const epoch = S.epoch;
    try {
        for (;;) {
            const st = S.status;
            if (!st || st.kind === "over" || seatOf(st.player).kind !== "engine") break;
            if (st.kind === "roll") {
                const r = await ask("roll");
                if (!r.ok) throw new ApiError("roll: " + r.text);
                chargeClock(st.player, false);
            } else {
                await engineMove(st.player);
            }
            if (epoch !== S.epoch) return;
            await refresh();
        }
    } catch (e) {
        report(e);
        return;
    } finally {
        if (epoch === S.epoch) S.hurry = false;
    }
    if (epoch === S.epoch) startAnalysis();
}

async function engineMove(p) {
    const seat = seatOf(p);
    const set = ["set level " + seat.level];
    // set threads drops the search tree: only when the count changes
    const threads = seat.threads || 1;
    if (threads !== S.threads) set.push("set threads " + threads);
    // after a Stop the engine's seats move at once until a person is to
    // move (Tiptoe's set-up gives the engine two placements in a row)
    if (S.hurry) set.push("set movetime 10");
    else if (S.clock.kind === "none") set.push("set movetime " + seat.movetime);
    else set.push("time_left " + p + " " + Math.max(0, clockLeft(p)).toFixed(1) + " 0");
    for (const a of await run(set)) if (!a.ok) throw new ApiError(a.text);
    S.threads = threads;
    S.thinking = true;
    buttons();
    message("player " + p + " (engine) is thinking...");
    const a = await ask("genmove");
    S.thinking = false;
    if (!a.ok) throw new ApiError("genmove: " + a.text);
    chargeClock(p, true);
    message("player " + p + " played " + a.text);
}

// Stops the engine's thinking and waits for its loop to end, so that an
// undo or a new game does not race a genmove.
async function quiesce() {
    S.epoch++;
    stopAnalysis();
    if (S.thinking) await ask("stop");
    if (S.driving) await S.driving;
}

// ---------------------------------------------------------------- clocks

function clockLeft(p) {
    let left = S.left[p - 1];
    const st = S.status;
    if (st && st.kind !== "over" && st.player === p)
        left -= (performance.now() - S.turnStart) / 1000;
    return left;
}

function chargeClock(p, moved) {
    if (S.clock.kind === "none") return;
    S.left[p - 1] = clockLeft(p);
    if (moved && S.clock.kind === "fischer") S.left[p - 1] += S.clock.inc;
    S.turnStart = performance.now();
}

function clockCommand(c) {
    if (c.kind === "absolute") return "kgs-time_settings absolute " + c.main;
    if (c.kind === "fischer") return "kgs-time_settings fischer " + c.main + " " + c.inc;
    return "kgs-time_settings none";
}

function fmtClock(s) {
    if (s <= 0) return "0:00 (time is up)";
    const m = Math.floor(s / 60);
    const sec = Math.floor(s % 60);
    return m + ":" + String(sec).padStart(2, "0");
}

setInterval(() => {
    if (S.clock.kind === "none" || !S.status) return;
    for (let p = 1; p <= S.nplayers; p++) {
        const el = document.querySelector('#players tr[data-player="' + p + '"] .clock');
        if (!el) continue;
        const left = clockLeft(p);
        el.textContent = fmtClock(left);
        el.classList.toggle("low", left < 10);
    }
}, 250);

// ---------------------------------------------------------------- actions

function message(text, isError) {
    const m = $("message");
    m.textContent = text || "";
    m.className = isError ? "error" : "";
}

function report(e) {
    if (e instanceof ApiError && e.dead) {
        $("dead-text").textContent = e.message.charAt(0).toUpperCase() + e.message.slice(1) + ".";
        $("dead").hidden = false;
        document.body.dataset.state = "dead";
    } else {
        message(e.message || String(e), true);
    }
}

// Runs an action, showing its failure; the page reads as busy meanwhile.
function guard(fn) {
    return async (...args) => {
        S.acting++;
        buttons();
        try {
            await fn(...args);
        } catch (e) {
            report(e);
        }
        S.acting--;
        buttons();
    };
}

async function play(move) {
    await quiesce();
    const p = S.status ? S.status.player : 0;
    const a = await ask("play " + move);
    if (!a.ok) {
        message(a.text, true);
        S.prefix = [];
        // a refused line stays drawn, to be mended rather than redrawn
        render();
        drive();
        return;
    }
    chargeClock(p, true);
    message("player " + p + " played " + move);
    await refresh();
    drive();
}

async function roll(face) {
    await quiesce();
    const p = S.status ? S.status.player : 0;
    const a = await ask(face === undefined ? "roll" : "roll " + face);
    if (!a.ok) {
        message(a.text, true);
        drive();
        return;
    }
    chargeClock(p, false);
    message("player " + p + " rolled " + a.text);
    await refresh();
    drive();
}

// Undo takes back moves until a person is to move again (so the engine's
// reply and the person's move go together); with no person seated, one.
async function undo() {
    await quiesce();
    const anyPerson = S.seats.some((s) => s.kind === "person");
    let undone = 0;
    for (;;) {
        const a = await ask("undo");
        if (!a.ok) {
            if (!undone) message(a.text, true);
            break;
        }
        undone++;
        const st = parseStatus(await must("status"));
        if (!anyPerson || seatOf(st.player).kind === "person") break;
    }
    if (undone) message("took back " + undone + (undone === 1 ? " step" : " steps"));
    await refresh();
    drive();
}

// The review of the finished game: each move's value before it fills the
// graph, and the moves that changed the result are marked there and in
// the move list, with the better move.
async function reviewGame() {
    const record = S.history.join("\n");
    $("review-note").textContent = "reviewing the game: the engine judges every move...";
    $("eval-box").hidden = false;
    S.reviewing = true;
    let moves;
    try {
        moves = await T.review(S.history);
    } finally {
        S.reviewing = false;
    }
    if (S.history.join("\n") !== record) return;
    const marks = [];
    for (const m of moves) {
        if (m.before !== null && m.before !== undefined)
            S.evals[m.ply] = { player: m.player, value: m.before, proven: m.proven_before };
        if (m.mistake)
            marks.push({
                n: m.ply,
                text: "a mistake" + (m.best ? ": " + m.best + " was better" : ""),
            });
    }
    S.review = { record, marks };
    $("review-note").textContent =
        marks.length === 0
            ? "Review: no move changed the result."
            : "Review: " +
              marks.length +
              (marks.length === 1 ? " mistake" : " mistakes") +
              " (ringed on the graph, marked ? in the move list).";
    render();
    // the first mistake in view in the move list
    const ol = $("move-list");
    const first = ol.querySelector(".mistake");
    if (first) ol.scrollTop = first.offsetTop - ol.offsetTop;
}

async function stop() {
    if (S.thinking) {
        // how long the engine took to stop (the end-to-end test reads it)
        const t0 = performance.now();
        S.hurry = true;
        await ask("stop");
        window.lastStopMs = performance.now() - t0;
    } else if (S.analysis.gen) {
        stopAnalysis();
        await ask("stop"); // any line ends the analyze stream
        render();
    }
}

// A click on a cell, point or region named NAME.
function clickName(name) {
    if (!S.status) return;
    if (S.status.kind !== "over" && !personToMove()) {
        message("it is the engine's turn: switch its seat to a person to play it", true);
        return;
    }
    // after the end every click goes to the engine, which says why not
    if (S.geo.points.has(name) && !S.geo.cells.has(name)) {
        // a second click on the last point takes it back
        if (S.line.length && S.line[S.line.length - 1] === name) S.line.pop();
        else S.line.push(name);
        render();
        return;
    }
    const next = continuations();
    if (S.prefix.length && name === S.prefix[S.prefix.length - 1]) {
        S.prefix.pop(); // a second click on the last name takes it back
        render();
        return;
    }
    const tried = S.prefix.concat([name]);
    if (next.has(name)) {
        S.prefix = tried;
        const cands = candidates();
        const exact = cands.filter((m) => names(m).length === tried.length);
        if (exact.length && cands.length === exact.length) return guard(play)(exact[0]);
        render();
        return;
    }
    // Not a legal continuation. Where every move joins two or more names, a
    // first click only starts one, so the engine can judge the whole move.
    const multi = S.moves.filter((m) => !S.geo.words.includes(m));
    if (!S.prefix.length && multi.length && multi.every((m) => names(m).length > 1)) {
        S.prefix = [name];
        render();
        message("no legal move starts at " + name + "; click where it should go for the reason");
        return;
    }
    const sep = S.moves.length ? sepOf(S.moves.find((m) => names(m).length > 1) || "") : "-";
    return guard(play)(tried.join(sep));
}

// The moves that start with the names clicked so far.
function candidates() {
    return S.moves.filter((m) => {
        const n = names(m);
        return n.length >= S.prefix.length && S.prefix.every((p, i) => n[i] === p);
    });
}

function continuations() {
    const k = S.prefix.length;
    const out = new Set();
    for (const m of candidates()) {
        const n = names(m);
        if (n.length > k && !S.geo.words.includes(m)) out.add(n[k]);
    }
    return out;
}

// ---------------------------------------------------------------- analysis

let analysisStreams = 0; // numbers each analyze stream: S.analysis.gen

async function startAnalysis() {
    if (!S.analysis.on || !S.status || S.status.kind !== "play" || !S.moves.length) {
        renderAnalysis();
        return;
    }
    if (!personToMove() || S.analysis.gen) return;
    const epoch = S.epoch;
    const gen = ++analysisStreams;
    S.analysis.gen = gen;
    let j;
    try {
        // every legal move gets a value (analyze names 20 by default)
        j = await T.analyze(ANALYZE_MS, Math.max(S.moves.length, 1), (line) => {
            if (S.analysis.gen !== gen) return;
            S.analysis.cands = parseInfo(line);
            S.analysis.text = "";
            renderAnalysis();
        });
    } catch (e) {
        if (S.analysis.gen === gen) S.analysis.gen = 0;
        report(e);
        return;
    }
    if (epoch !== S.epoch || S.analysis.gen !== gen) return;
    if (!j.ok) {
        S.analysis.gen = 0;
        S.analysis.text = j.text;
        renderAnalysis();
        return;
    }
    S.analysis.cands = [];
    S.analysis.text = "thinking...";
    buttons();
    await j.done;
    if (S.analysis.gen === gen) S.analysis.gen = 0;
    buttons();
}

function stopAnalysis() {
    S.analysis.gen = 0;
    S.analysis.cands = [];
    S.analysis.text = "";
}

// ---------------------------------------------------------------- drawing

function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
}

function text(parent, x, y, s, attrs) {
    const t = el(
        "text",
        Object.assign({ x, y, "text-anchor": "middle", "dominant-baseline": "central" }, attrs),
        parent,
    );
    t.textContent = s;
    return t;
}

// geometry's y grows upwards, SVG's downwards
const X = (x) => x;
const Y = (y) => -y;

function at(name) {
    return S.geo.cells.get(name) || S.geo.points.get(name);
}

function kindOfBoard() {
    if (S.geo.own.regions) return "regions";
    if (S.geo.own.shape && S.geo.own.shape[0][0] === "hex") return "hex";
    for (const c of S.geo.cells.values())
        if (!Number.isInteger(c.x) || !Number.isInteger(c.y)) return "dots";
    return "square";
}

function hexPath(c, r) {
    let d = "";
    for (let k = 0; k < 6; k++) {
        const a = (Math.PI / 3) * k + Math.PI / 6;
        d +=
            (k ? "L" : "M") +
            (X(c.x) + r * Math.cos(a)).toFixed(3) +
            " " +
            (Y(c.y) + r * Math.sin(a)).toFixed(3);
    }
    return d + "Z";
}

function render() {
    const svg = $("board");
    svg.textContent = "";
    if (!S.geo) return;
    const kind = kindOfBoard();
    const board = el("g", { class: "look" }, svg);
    const look = (GAMES[S.game] && GAMES[S.game].look) || lookGeneric;
    const box = look(board, kind) || bounds();
    svg.setAttribute("viewBox", [box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0].join(" "));
    // a small board (Take-Back-Toe's 4 by 3) is not blown up to the window
    svg.style.maxWidth = Math.round((box.x1 - box.x0) * 80) + "px";
    // texts are sized in board units: drawn again once the scale is known,
    // so that none is smaller than fontSize allows
    // (the drawing keeps its shape: the scale is the smaller of the two)
    const r = svg.getBoundingClientRect();
    const unitPx =
        r.width > 0 ? Math.min(r.width / (box.x1 - box.x0), r.height / (box.y1 - box.y0)) : S.unitPx;
    if (Math.abs(unitPx - S.unitPx) > 0.1 * S.unitPx) {
        S.unitPx = unitPx;
        return render();
    }
    drawLastMove(el("g", { class: "overlay", id: "last-move" }, svg));
    if (S.status && S.status.kind === "over") drawUnits(el("g", { class: "overlay units" }, svg));
    drawHits(el("g", { class: "hits" }, svg), kind);
    drawAnalysis(el("g", { class: "overlay", id: "analysis-layer" }, svg));
    renderSide();
    buttons();
}

// A board text's size in board units: SIZE, or more where that would be
// under 12 pixels on the screen.
function fontSize(size) {
    return Math.max(size, 12 / S.unitPx);
}

// The last move (history's last play line): its cells ringed, a chain or a
// drawn line traced through them. A move that names no place (pass, drop)
// is said in the status line instead (lastMoveText).
function drawLastMove(g) {
    const last = /^play (\S+)$/.exec(S.history[S.history.length - 1] || "");
    if (!last) return;
    const G = GAMES[S.game] || {};
    const pts = names(last[1])
        .map((n) => at(n) || (G.place && G.place(n)))
        .filter(Boolean);
    g.dataset.move = last[1];
    if (pts.length > 1)
        el(
            "polyline",
            {
                points: pts.map((p) => X(p.x) + "," + Y(p.y)).join(" "),
                stroke: "#f2b705",
                "stroke-width": 0.09,
                "stroke-linejoin": "round",
                fill: "none",
                opacity: 0.9,
                class: "last",
            },
            g,
        );
    const regions = kindOfBoard() === "regions";
    for (const p of pts) {
        disc(g, p, regions ? 0.55 : 0.47, "none", "#f2b705", { class: "last", "stroke-width": 0.08 });
    }
}

function lastMoveText() {
    const n = S.history.length - 1;
    if (n < 1) return "";
    const line = S.history[n];
    const who = S.movers[n - 1] ? "player " + S.movers[n - 1] + " " : "";
    if (line.startsWith("roll ")) return "last: " + who + "rolled " + line.slice(5);
    return "last move: " + who + line.replace(/^play /, "");
}

// The scoring units once the game is over (scoring): each cell of a unit
// ringed in its player's colour, a line's or a pair's joined by a band, so
// that a person sees which lines, pairs, stacks or pieces made the score.
function drawUnits(g) {
    for (const u of S.units) {
        const pts = u.cells.map((n) => at(n)).filter(Boolean);
        if (!pts.length) continue;
        const colour = sideColour(u.player);
        // lines and pairs are joined by a band; stacks, captures and
        // penalties (cells that need not touch) are only ringed
        const joined = u.kind === "line" || u.kind === "pair";
        const unit = el(
            "g",
            {
                class: "unit",
                "data-kind": u.kind,
                "data-player": u.player,
                "data-cells": u.cells.join(" "),
            },
            g,
        );
        const title = el("title", {}, unit);
        title.textContent =
            u.kind + " of player " + u.player + ": " + u.cells.join(" ") + " (" + u.points + ")";
        if (pts.length > 1 && joined)
            el(
                "polyline",
                {
                    points: pts.map((p) => X(p.x) + "," + Y(p.y)).join(" "),
                    stroke: "#fff",
                    "stroke-width": 0.2,
                    "stroke-linecap": "round",
                    "stroke-linejoin": "round",
                    fill: "none",
                    opacity: 0.7,
                },
                unit,
            );
        if (pts.length > 1 && joined)
            el(
                "polyline",
                {
                    points: pts.map((p) => X(p.x) + "," + Y(p.y)).join(" "),
                    stroke: colour,
                    "stroke-width": 0.11,
                    "stroke-linecap": "round",
                    "stroke-linejoin": "round",
                    fill: "none",
                    opacity: 0.8,
                },
                unit,
            );
        for (const p of pts)
            disc(unit, p, joined ? 0.16 : 0.42, "none", u.points < 0 ? "#b3261e" : colour, {
                "stroke-width": 0.06,
                opacity: 0.9,
            });
    }
}

// The board's extent in SVG units, with room for labels.
function bounds(pad) {
    pad = pad === undefined ? 1 : pad;
    let x0 = Infinity,
        x1 = -Infinity,
        y0 = Infinity,
        y1 = -Infinity;
    for (const c of [...S.geo.cells.values(), ...S.geo.points.values()]) {
        x0 = Math.min(x0, X(c.x));
        x1 = Math.max(x1, X(c.x));
        y0 = Math.min(y0, Y(c.y));
        y1 = Math.max(y1, Y(c.y));
    }
    return { x0: x0 - pad, x1: x1 + pad, y0: y0 - pad, y1: y1 + pad };
}

// Column letters below and row numbers to the left of a square board.
function drawLabels(g) {
    const cols = new Map();
    const rows = new Map();
    for (const [name, c] of S.geo.cells) {
        const m = /^([a-z]+)(\d+)$/.exec(name);
        if (!m) continue;
        cols.set(m[1], c.x);
        rows.set(m[2], c.y);
    }
    const ys = [...rows.values()];
    const xs = [...cols.values()];
    const ymin = Math.min(...ys);
    const xmin = Math.min(...xs);
    for (const [l, x] of cols) text(g, X(x), Y(ymin - 0.78), l, { class: "label" });
    for (const [n, y] of rows) text(g, X(xmin - 0.78), Y(y), n, { class: "label" });
}

function squares(g, fill) {
    for (const [name, c] of S.geo.cells) {
        el(
            "rect",
            {
                x: X(c.x) - 0.5,
                y: Y(c.y) - 0.5,
                width: 1,
                height: 1,
                fill: fill(name, c),
                stroke: "#8a7f6a",
                "stroke-width": 0.02,
            },
            g,
        );
    }
}

function disc(g, c, r, fill, stroke, extra) {
    return el(
        "circle",
        Object.assign(
            { cx: X(c.x), cy: Y(c.y), r, fill, stroke, "stroke-width": 0.05 },
            extra || {},
        ),
        g,
    );
}

function lookGeneric(g, kind) {
    for (const [name, c] of S.geo.cells) {
        if (kind === "hex")
            el(
                "path",
                { d: hexPath(c, 0.577), fill: "#efe6cf", stroke: "#8a7f6a", "stroke-width": 0.03 },
                g,
            );
        else disc(g, c, 0.45, "#efe6cf", "#8a7f6a");
        text(g, X(c.x), Y(c.y), name, { class: "label" });
    }
}

function arrow(g, a, b, colour, label) {
    const dx = b.x - a.x,
        dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len,
        uy = dy / len;
    const x1 = X(a.x + ux * 0.25),
        y1 = Y(a.y + uy * 0.25);
    const x2 = X(b.x - ux * 0.25),
        y2 = Y(b.y - uy * 0.25);
    el(
        "line",
        {
            x1,
            y1,
            x2,
            y2,
            stroke: colour,
            "stroke-width": 0.05,
            "stroke-linecap": "round",
            opacity: 0.7,
        },
        g,
    );
    const hx = -ux * 0.14,
        hy = uy * 0.14; // back along the arrow, in SVG's y
    el(
        "path",
        {
            d: `M${x2} ${y2} l${hx - uy * 0.09} ${hy - ux * 0.09} M${x2} ${y2} l${hx + uy * 0.09} ${hy + ux * 0.09}`,
            stroke: colour,
            "stroke-width": 0.05,
            fill: "none",
            opacity: 0.7,
        },
        g,
    );
    if (label)
        text(g, (x1 + x2) / 2 + 0.1, (y1 + y2) / 2 - 0.1, label, {
            "font-size": 0.22,
            fill: colour,
        });
}

// The clickable layer: one element per cell (regions: their cells), per
// lattice point in a draw turn; legal next names marked and tabbable.
function drawHits(g, kind) {
    const next = personToMove() ? continuations() : new Set();
    const hits = new Map();
    const add = (name, node) => {
        node.setAttribute(
            "class",
            "hit" +
                (next.has(name) ? " target" : "") +
                (S.prefix.includes(name) ? " selected" : ""),
        );
        node.dataset.name = name;
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", name + (next.has(name) ? " (legal)" : ""));
        node.setAttribute("tabindex", next.has(name) ? "0" : "-1");
        const c = at(name); // where a click surely lands on it (tests use it)
        node.dataset.x = X(c.x);
        node.dataset.y = Y(c.y);
        hits.set(name, node);
    };
    if (kind === "regions") {
        const own = S.geo.own;
        const [W, H] = own.lattice[0].map(Number);
        const i = S.geo.lines.findIndex((w) => w[0] === "regions");
        const paths = new Map();
        for (let r = 0; r < H; r++) {
            const row = S.geo.lines[i + 1 + r];
            const y = H - 1 - r;
            row.forEach((v, x) => {
                if (v === "0") return;
                paths.set(v, (paths.get(v) || "") + `M${x - 0.5} ${-y - 0.5}h1v1h-1Z`);
            });
        }
        for (const [name, d] of paths) add(name, el("path", { d }, g));
    } else {
        for (const [name, c] of S.geo.cells) {
            if (kind === "hex") add(name, el("path", { d: hexPath(c, 0.577) }, g));
            else if (kind === "square")
                add(name, el("rect", { x: X(c.x) - 0.5, y: Y(c.y) - 0.5, width: 1, height: 1 }, g));
            else add(name, el("circle", { cx: X(c.x), cy: Y(c.y), r: 0.45 }, g));
        }
    }
    for (const [name, c] of S.geo.points) {
        const p = el("circle", { cx: X(c.x), cy: Y(c.y), r: 0.22 }, g);
        add(name, p);
        p.classList.add("point");
        if (S.line.includes(name)) p.classList.add("on");
    }
    const marks = el("g", { class: "overlay" }, g);
    // legal places: a dot on a cell, a tint over a whole region
    const G = GAMES[S.game] || {};
    for (const name of next) {
        const c = S.geo.cells.get(name);
        // where the game puts it (Take-Back-Toe: beside the pile)
        const d = G.dot ? { x: c.x + G.dot.x, y: c.y + G.dot.y } : c;
        if (c && kind !== "regions")
            disc(marks, d, 0.12, "#f2b705", "#7a5b00", { class: "dot", "stroke-width": 0.03 });
        else if (c) hits.get(name).classList.add("region");
    }
    for (const name of S.prefix) {
        const c = at(name);
        if (c) disc(marks, c, 0.44, "none", "#1d6fb8", { class: "ring", "stroke-width": 0.09 });
    }
    for (const [name, node] of hits) {
        node.addEventListener("click", () => clickName(name));
        node.addEventListener("keydown", (e) => {
            if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                clickName(name);
            }
        });
    }
}

// A candidate's value for a person: the mover's chance to win, or in the
// solo puzzle the points mark 1 can expect.
function valueText(v) {
    return S.nplayers === 1 ? v.toFixed(1) : Math.round(v * 100) + "%";
}

function valueWords(c, p) {
    if (S.nplayers === 1)
        return c.proven ? c.proven + " points for sure" : valueText(c.value) + " points expected";
    const proven = { win: "a sure win", loss: "a sure loss", draw: "a sure draw" }[c.proven];
    return proven
        ? proven + " for player " + p
        : valueText(c.value) + " chance to win for player " + p;
}

function valueColour(v, best) {
    const t = S.nplayers === 1 ? (best > 0 ? v / best : 0) : v;
    return "hsl(" + Math.round(Math.max(0, Math.min(1, t)) * 120) + ",75%,32%)";
}

// Where a candidate's value goes: the game's own place (GAMES[].badge),
// else the lower part of its target (the last place it names), below the
// legal-move dot.
function badgeAt(n) {
    const G = GAMES[S.game] || {};
    if (G.badge) return G.badge(n);
    const p = at(n[n.length - 1]);
    return { x: p.x, y: p.y - 0.28 };
}

// Whether a text of node lies over a text of the board outside it.
function overlapsLabel(node) {
    const mine = [...node.querySelectorAll("text")].map((t) => t.getBoundingClientRect());
    for (const t of $("board").querySelectorAll("text")) {
        if (node.contains(t)) continue;
        const r = t.getBoundingClientRect();
        if (!r.width) continue;
        for (const a of mine) {
            const w = Math.min(a.right, r.right) - Math.max(a.left, r.left);
            const h = Math.min(a.bottom, r.bottom) - Math.max(a.top, r.top);
            if (w > 1 && h > 1) return true;
        }
    }
    return false;
}

// Each candidate's value on the board, the best line numbered on its cells.
function drawAnalysis(g) {
    const cands = S.analysis.on ? S.analysis.cands : [];
    if (!cands.length) return;
    const best = Math.max(...cands.map((c) => c.value));
    const mover = S.status ? S.status.player : 0;
    const seen = new Set();
    // Regions lie close together: there the best line's numbers join the
    // values' badges instead of sitting beside the region's number.
    const regions = kindOfBoard() === "regions";
    const pvAt = new Map();
    cands[0].pv.slice(0, 8).forEach((m, i) => {
        const n = names(m).filter((x) => at(x));
        if (n.length && !pvAt.has(n[n.length - 1])) pvAt.set(n[n.length - 1], i + 1);
    });
    const joined = new Set();
    cands.forEach((c, k) => {
        const n = names(c.move).filter((x) => at(x));
        if (!n.length) return;
        if (k === 0 && n.length > 1) {
            for (let i = 1; i < n.length; i++) arrow(g, at(n[i - 1]), at(n[i]), "#1d6fb8");
        }
        const p = badgeAt(n);
        const key = p.x.toFixed(2) + "," + p.y.toFixed(2);
        if (seen.has(key)) return; // a better move already shows here
        seen.add(key);
        const label = valueText(c.value) + (c.proven ? "!" : "");
        const fs = fontSize(p.size || 0.2);
        const w = fs * (label.length * 0.6 + 0.4);
        const h = fs * 1.3;
        const target = n[n.length - 1];
        const pvn = regions ? pvAt.get(target) : undefined;
        const extra = pvn ? h : 0; // room for the line's number
        const badge = el("g", { class: "badge" }, g);
        el(
            "rect",
            {
                x: X(p.x) - w / 2 - extra,
                y: Y(p.y) - h / 2,
                width: w + extra,
                height: h,
                rx: h / 4,
                fill: "rgba(255,255,255,0.92)",
                stroke: k === 0 ? "#1d6fb8" : "#999",
                "stroke-width": k === 0 ? 0.05 : 0.015,
            },
            badge,
        );
        if (pvn) {
            joined.add(target);
            const cx = X(p.x) - w / 2 - extra / 2;
            const fill = pvn % 2 ? "#1d6fb8" : "#fff";
            const ring = { stroke: "#1d6fb8", "stroke-width": 0.03 };
            el("circle", Object.assign({ cx, cy: Y(p.y), r: h * 0.42, class: "pv", fill }, ring), badge);
            text(badge, cx, Y(p.y), String(pvn), {
                "font-size": h * 0.6,
                fill: pvn % 2 ? "#fff" : "#1d6fb8",
                "font-weight": 700,
            });
        }
        const t = text(badge, X(p.x), Y(p.y), label, {
            class: "cand",
            "font-size": fs,
            fill: valueColour(c.value, best),
        });
        t.dataset.move = c.move;
        el("title", {}, badge).textContent = c.move + ": " + valueWords(c, mover);
        // a badge over another label (a neighbouring region's number, a
        // better move's badge) is left out: its value stays in the list
        if (overlapsLabel(badge)) {
            badge.remove();
            joined.delete(target);
        }
    });
    // the best line, move by move, numbered at its places' upper left
    const r = fontSize(0.15);
    cands[0].pv.slice(0, 8).forEach((m, i) => {
        const n = names(m).filter((x) => at(x));
        // a place the line comes back to keeps its first number
        if (!n.length || joined.has(n[n.length - 1])) return;
        if (pvAt.get(n[n.length - 1]) !== i + 1) return;
        const p = regions ? badgeAt(n) : at(n[n.length - 1]);
        const cx = X(p.x) - (regions ? 0 : 0.3),
            cy = Y(p.y) - (regions ? 0 : 0.3);
        el(
            "circle",
            {
                cx,
                cy,
                r,
                class: "pv",
                fill: i % 2 ? "#fff" : "#1d6fb8",
                stroke: "#1d6fb8",
                "stroke-width": 0.03,
            },
            g,
        );
        text(g, cx, cy, String(i + 1), {
            "font-size": r * 1.3,
            fill: i % 2 ? "#1d6fb8" : "#fff",
            "font-weight": 700,
        });
    });
}

// The players (or teams) a chance is split between, for the bar and the
// graph: two sides, or none where three or more play alone.
function twoSides() {
    if (S.nplayers === 2) return [[1], [2]];
    if (S.info && S.info.teams.length === 2) return S.info.teams;
    return null;
}

// An evaluation as the first side's chance (two sides), the mover's chance
// (more), or mark 1's points (solo).
function firstSideValue(e) {
    const sides = twoSides();
    if (!sides) return e.value;
    return sides[0].includes(e.player) ? e.value : 1 - e.value;
}

function renderAnalysis() {
    const box = $("analysis-box");
    box.hidden = !S.analysis.on;
    const ol = $("candidates");
    ol.textContent = "";
    const cands = S.analysis.on ? S.analysis.cands : [];
    const mover = S.status ? S.status.player : 0;
    let note = "";
    if (S.analysis.on) {
        if (S.analysis.text) note = S.analysis.text;
        else if (cands.length)
            note =
                (S.nplayers === 1
                    ? "Each move's value: the points mark 1 can expect after it"
                    : "Each move's value: player " + mover + "'s chance to win after it") +
                ", from the engine's search (! where proven). Numbers on the board: the best line." +
                (S.moves.length > cands.length
                    ? " It has valued " + cands.length + " of the " + S.moves.length + " moves so far."
                    : "");
        else if (!personToMove()) note = "analysis runs while a person is to move";
    }
    $("analysis-note").textContent = note;
    cands.slice(0, 8).forEach((c, k) => {
        const li = document.createElement("li");
        if (k === 0) li.className = "best";
        li.textContent =
            c.move +
            "  " +
            (c.proven ? "proven " + c.proven : valueText(c.value)) +
            "  " +
            c.visits +
            " visits";
        li.title = c.move + ": " + valueWords(c, mover);
        if (k === 0 && c.pv.length > 1) li.title += "; best line: " + c.pv.join(" ");
        ol.appendChild(li);
    });
    if (cands.length && S.status && S.status.kind === "play") {
        const c = cands[0];
        S.evals[S.history.length] = { player: mover, value: c.value, proven: c.proven };
    }
    renderEval();
    const old = $("analysis-layer");
    if (old && S.geo) {
        old.textContent = "";
        drawAnalysis(old);
    }
}

// The evaluation bar (the position now) and the graph of the evaluations
// over the game: each point the best value analysis found in that
// position, as the first side's chance (two sides), the mover's (more
// players) or mark 1's points (solo); proven values drawn as squares.
// Review marks (S.review) show as red rings on the moves they judge.
function renderEval() {
    if (!S.review && !S.reviewing) $("review-note").textContent = "";
    const known = [];
    S.evals.forEach((e, n) => e && n <= S.history.length && known.push([n, e]));
    const marks = S.review ? S.review.marks : [];
    $("eval-box").hidden = !known.length && !marks.length && !S.reviewing;
    if ($("eval-box").hidden) return;
    const sides = twoSides();
    const solo = S.nplayers === 1;
    const now = S.evals[S.history.length];
    const bar = $("eval-bar");
    bar.textContent = "";
    if (now && sides) {
        const v = firstSideValue(now);
        const a = document.createElement("span");
        a.style.width = Math.round(v * 100) + "%";
        a.style.background = sideColour(sides[0][0]);
        const b = document.createElement("span");
        b.style.width = 100 - Math.round(v * 100) + "%";
        b.style.background = sideColour(sides[1][0]);
        bar.append(a, b);
    }
    $("eval-text").textContent = now
        ? sides
            ? (sides[0].length > 1 ? "players " + sides[0].join(" and ") : "player " + sides[0][0]) +
              ": " +
              Math.round(firstSideValue(now) * 100) +
              "% chance to win" +
              (now.proven ? " (proven " + now.proven + " for player " + now.player + ")" : "")
            : solo
              ? "mark 1 can expect " + now.value.toFixed(1) + " points"
              : "player " + now.player + ": " + Math.round(now.value * 100) + "% chance to win"
        : S.status && S.status.kind === "over"
          ? "the game is over"
          : "no evaluation of this position yet (turn analysis on)";
    const svg = $("eval-graph");
    svg.textContent = "";
    const N = Math.max(S.history.length, 2);
    const top = solo ? Math.max(1, ...known.map(([, e]) => e.value)) : 1;
    // drawn in the graph's own pixels, so that dots stay round
    const W = Math.max(100, Math.round(svg.getBoundingClientRect().width) - 16),
        H = 60;
    const px = (n) => ((n - 1) / (N - 1)) * W;
    const py = (v) => H - (v / top) * H;
    // a margin for the rings of mistakes at the edges
    svg.setAttribute("viewBox", "-8 -8 " + (W + 16) + " " + (H + 16));
    svg.setAttribute("height", H + 16);
    const line = { fill: "none", stroke: "#cfc6b4", "stroke-width": 1 };
    el("rect", Object.assign({ x: 0, y: 0, width: W, height: H }, line, { fill: "#fff" }), svg);
    if (!solo) {
        const half = { x1: 0, y1: H / 2, x2: W, y2: H / 2, "stroke-dasharray": "3 3" };
        el("line", Object.assign(half, line), svg);
    }
    const yOf = (e) => py(sides ? firstSideValue(e) : e.value);
    const pts = known.map(([n, e]) => [px(n), yOf(e), n, e]);
    if (pts.length > 1) {
        const points = pts.map((p) => p[0] + "," + p[1]).join(" ");
        el("polyline", Object.assign({ points }, line, { stroke: "#555", "stroke-width": 1.5 }), svg);
    }
    for (const [x, y, n, e] of pts) {
        const colour = sides ? "#333" : sideColour(e.player);
        const node = e.proven
            ? el("rect", { x: x - 3.5, y: y - 3.5, width: 7, height: 7, fill: colour, class: "proven" }, svg)
            : el("circle", { cx: x, cy: y, r: 3, fill: colour }, svg);
        const v = solo
            ? e.value.toFixed(1) + " points"
            : Math.round(e.value * 100) + "% for player " + e.player;
        el("title", {}, node).textContent =
            "before move " + n + ": " + v + (e.proven ? " (proven " + e.proven + ")" : "");
    }
    // a mistake ringed where the position stood before it
    for (const m of marks) {
        const e = S.evals[m.n];
        const ring = { cx: px(m.n), cy: e ? yOf(e) : H / 2, r: 6, class: "mistake" };
        el("circle", Object.assign(ring, line, { stroke: "#b3261e", "stroke-width": 2 }), svg);
    }
    // where the game stands now
    const now_ = { x: px(S.history.length) - 1, y: 0, width: 2, height: H };
    el("rect", Object.assign(now_, { fill: "#1d6fb8", opacity: 0.5 }), svg);
}


// ---------------------------------------------------------------- side

function gameTitle() {
    return S.info ? S.info.title : S.game;
}

// Player p's side in game_info (name, colour, mark).
function sideOf(p) {
    return (S.info && S.info.sides[p - 1]) || { n: p, name: null, colour: null, mark: null };
}

// The players who play as one with p (game_info's team lines), p included.
function teamOf(p) {
    return (S.info && S.info.teams.find((t) => t.includes(p))) || [p];
}

// Who won with player p: p's team, where there are teams.
function winners(p) {
    const t = teamOf(p);
    return t.length > 1
        ? "players " + t.slice(0, -1).join(", ") + " and " + t[t.length - 1]
        : "player " + p;
}

// What the player to move must do, in the engine's words (turn_info's
// prompt); at the end, who won.
function statusText() {
    const st = S.status;
    if (!st) return "";
    if (st.kind === "over")
        return st.player ? "game over: " + winners(st.player) + " won" : "game over: a draw";
    const G = GAMES[S.game] || {};
    let s = S.turn && S.turn.prompt ? S.turn.prompt : "player " + st.player + " to move";
    if (G.prompt) s = G.prompt(s);
    return s + (seatOf(st.player).kind === "engine" ? " (the engine's seat)" : "");
}

// A player's colour: their pieces' (game_info), else the game's own
// choice (GAMES[].colours: none that its shared pieces have), else ours.
function sideColour(p) {
    const c = sideOf(p).colour;
    const own = (GAMES[S.game] && GAMES[S.game].colours) || COLOURS;
    return (c && (COLOUR_WORDS[c] || c)) || own[(p - 1) % own.length];
}

function seatSwatch(p) {
    const svg = el("svg", { viewBox: "-1 -1 2 2", width: 18, height: 18, "aria-hidden": "true" });
    disc(svg, { x: 0, y: 0 }, 0.8, sideColour(p), "#333", { "stroke-width": 0.15 });
    return svg;
}

// What player p's scoring units add up to, one phrase per kind: "3
// lines", "capture 33 white, 20 red", "penalty 2 pieces".
function unitsText(p) {
    const kinds = new Map();
    for (const u of S.units) {
        if (u.player !== p || u.kind === "win") continue;
        if (!kinds.has(u.kind)) kinds.set(u.kind, []);
        kinds.get(u.kind).push(u);
    }
    const parts = [];
    for (const [kind, us] of kinds) {
        // "captured 14 white = 14, 5 red = 10": pieces and what they scored
        const what = (u) =>
            u.pieces + " " + (u.colour || (u.pieces === 1 ? "piece" : "pieces")) + " = " + u.points;
        const pts = us.reduce((t, u) => t + u.points, 0);
        if (us.some((u) => u.pieces)) parts.push(kind + " " + us.map(what).join(", "));
        else parts.push(us.length + " " + kind + (us.length === 1 ? "" : "s") + " = " + pts);
    }
    return parts.join("; ");
}

function extraText(p) {
    const parts = [];
    const side = sideOf(p);
    if (side.name) parts.push(side.name.charAt(0).toUpperCase() + side.name.slice(1));
    if (side.mark) parts.push("mark " + side.mark);
    // the sides this player places besides their own (the solo puzzle)
    for (const o of S.info ? S.info.sides : [])
        if (o && o.n > S.info.players && o.playedBy === p && o.mark)
            parts.push("and mark " + o.mark);
    const team = teamOf(p).filter((q) => q !== p);
    if (team.length) parts.push("team with player " + team.join(", "));
    const units = unitsText(p);
    if (units) parts.push(units);
    if (S.turn && S.turn.out.includes(p)) parts.push("(left the game)");
    return parts.join("; ");
}

function renderSide() {
    $("title").textContent = S.game ? gameTitle() : "";
    $("title").title = S.history[0] || "";
    $("status").textContent = statusText();
    $("last-move-text").textContent = lastMoveText();
    document.body.dataset.status = S.status ? S.status.kind + " " + S.status.player : "";
    const t = $("players");
    t.textContent = "";
    for (let p = 1; p <= S.nplayers; p++) {
        const tr = t.insertRow();
        tr.dataset.player = p;
        if (S.status && S.status.kind !== "over" && S.status.player === p) tr.className = "mover";
        tr.insertCell().appendChild(seatSwatch(p));
        const name = tr.insertCell();
        name.textContent = "player " + p;
        const extra = extraText(p);
        if (extra) {
            const d = document.createElement("div");
            d.className = "extra";
            d.textContent = extra;
            name.appendChild(d);
        }
        const sel = document.createElement("select");
        sel.setAttribute("aria-label", "player " + p + " is played by");
        for (const k of ["person", "engine"])
            sel.add(
                new Option(
                    k === "person"
                        ? "a person"
                        : "the engine, " +
                          levelName(seatOf(p).level, topLevel()).replace(
                              / \(.*/,
                              "",
                          ),
                    k,
                ),
            );
        sel.value = seatOf(p).kind;
        sel.addEventListener("change", () => {
            S.seats[p - 1].kind = sel.value;
            render();
            drive();
        });
        tr.insertCell().appendChild(sel);
        const clock = tr.insertCell();
        clock.className = "clock";
        if (S.clock.kind !== "none") clock.textContent = fmtClock(clockLeft(p));
        const sc = tr.insertCell();
        sc.className = "score";
        sc.textContent = S.score[p - 1] === undefined ? "" : S.score[p - 1];
        sc.title = "score";
    }
    const st = S.status;
    $("result").textContent =
        st && st.kind === "over"
            ? (st.player ? "P" + winners(st.player).slice(1) + " won. " : "A draw. ") +
              "Final score: " +
              S.score.join(" : ")
            : "";
    // the scores in words: who has what (the numbers alone read as a
    // riddle with three players), and what the game counts
    $("score-note").textContent =
        (st && st.kind === "over" && S.nplayers > 2
            ? S.score.map((v, i) => "player " + (i + 1) + " " + v).join(", ") + ". "
            : "") + ((GAMES[S.game] && GAMES[S.game].score) || "");
    const ol = $("move-list");
    ol.textContent = "";
    const marks = new Map((S.review ? S.review.marks : []).map((m) => [m.n, m]));
    S.history.slice(1).forEach((l, i) => {
        const li = document.createElement("li");
        const who = S.movers[i];
        const whoEl = document.createElement("span");
        whoEl.className = "who";
        if (who) whoEl.append(seatSwatch(who), "P" + who);
        li.append(whoEl, " " + l.replace(/^play /, ""));
        li.title = (who ? "player " + who + ": " : "") + l;
        if (l.startsWith("roll")) li.className = "roll";
        const m = marks.get(i + 1);
        if (m) {
            li.classList.add("mistake");
            li.title += " (" + m.text + ")";
            const b = document.createElement("span");
            b.className = "mark";
            b.textContent = " ?" + (m.text ? " " + m.text : "");
            li.appendChild(b);
        }
        ol.appendChild(li);
    });
    ol.scrollTop = ol.scrollHeight;
    if (!S.recordDirty) $("record").value = S.history.join("\n");
    renderControls();
    renderAnalysis();
}

function renderControls() {
    const st = S.status;
    const mine = personToMove();
    const words = $("words");
    words.textContent = "";
    for (const w of S.geo ? S.geo.words : []) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = w;
        b.dataset.word = w;
        // a word is a move: it waits while a roll is due
        b.disabled = !mine || st.kind !== "play";
        if (S.moves.includes(w)) b.classList.add("legal");
        b.addEventListener(
            "click",
            guard(() => play(w)),
        );
        words.appendChild(b);
    }
    // the die of a game with dice (game_info's roll line), showing the
    // last roll while its move is due (history's last line)
    const roll = S.info && S.info.roll;
    $("dice").hidden = !roll;
    $("roll-btn").disabled = !(st && st.kind === "roll" && mine);
    $("face-btn").disabled = $("roll-btn").disabled;
    if (roll) {
        $("face").min = Math.min(...roll.faces);
        $("face").max = Math.max(...roll.faces);
    }
    const rolled = /^roll (\d+)$/.exec(S.history[S.history.length - 1] || "");
    drawDie(rolled ? +rolled[1] : 0);
    const drawing = mine && !S.moves.length && S.geo && S.geo.points.size > 0;
    $("line-tools").hidden = !drawing;
    $("line-text").textContent = S.line.join(S.geo && S.geo.seps[0] ? S.geo.seps[0] : "-");
    $("line-play").disabled = S.line.length < 2;
    const legal = S.moves.length;
    $("legal").textContent =
        st && st.kind === "play"
            ? legal +
              (legal === 1 ? " legal move" : " legal moves") +
              (S.prefix.length ? "; chosen so far: " + S.prefix.join(" ") : "")
            : "";
}

const PIPS = {
    1: [[0, 0]],
    2: [
        [-1, -1],
        [1, 1],
    ],
    3: [
        [-1, -1],
        [0, 0],
        [1, 1],
    ],
    4: [
        [-1, -1],
        [1, -1],
        [-1, 1],
        [1, 1],
    ],
    5: [
        [-1, -1],
        [1, -1],
        [0, 0],
        [-1, 1],
        [1, 1],
    ],
    6: [
        [-1, -1],
        [1, -1],
        [-1, 0],
        [1, 0],
        [-1, 1],
        [1, 1],
    ],
};

function drawDie(n) {
    const svg = $("die");
    svg.textContent = "";
    el(
        "rect",
        {
            x: -0.5,
            y: -0.5,
            width: 1,
            height: 1,
            rx: 0.15,
            fill: "#fff",
            stroke: "#333",
            "stroke-width": 0.05,
        },
        svg,
    );
    if (PIPS[n])
        for (const [x, y] of PIPS[n])
            el("circle", { cx: x * 0.27, cy: y * 0.27, r: 0.09, fill: "#222" }, svg);
    else text(svg, 0, 0, n ? String(n) : "?", { "font-size": 0.6 });
}

function buttons() {
    const st = S.status;
    $("stop-btn").disabled = !(S.thinking || S.analysis.gen);
    $("undo-btn").disabled = !S.history || S.history.length < 2;
    // a review needs the GUI server (the WebAssembly build has none)
    $("review-btn").hidden = !T.review || !st || st.kind !== "over";
    $("review-btn").disabled = !!S.review || S.acting > 0;
    document.body.dataset.state = !$("dead").hidden
        ? "dead"
        : S.thinking
          ? "thinking"
          : S.driving || S.acting
            ? "busy"
            : st
              ? st.kind === "over"
                  ? "over"
                  : personToMove()
                    ? "person"
                    : "busy"
              : "idle";
    document.body.dataset.analysis = S.analysis.gen ? "running" : "off";
}

// ---------------------------------------------------------------- new game

// An option's words for a person: [label, what an empty value means,
// {value: word}] from the game's table (GAMES[].options), else the
// common ones, else the key itself.
function optionWords(spec) {
    const name = $("game-select").value;
    const own = (GAMES[name] && GAMES[name].options) || {};
    const w = own[spec.key] || COMMON_OPTIONS[spec.key] || [spec.key];
    let label = w[0],
        empty = null,
        values = {};
    for (const x of w.slice(1)) {
        if (typeof x === "string") empty = x;
        else values = x;
    }
    return { label, empty, values };
}

// The hint beside an option: its range in words, never the engine's types.
function optionHint(spec) {
    if (spec.type === "int" && spec.min !== null) {
        if (spec.key === "seed") return "a whole number; empty: a random game";
        return "from " + spec.min + " to " + spec.max;
    }
    return "";
}

function optionInput(spec) {
    const words = optionWords(spec);
    const label = document.createElement("label");
    label.append(words.label + " ");
    let input;
    if (spec.type === "bool" && spec.def !== null) {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = spec.def === "1";
    } else if (
        spec.type === "enum" ||
        spec.type === "bool" ||
        (spec.key === "first" && spec.min !== null)
    ) {
        input = document.createElement("select");
        const say = (v) =>
            words.values[v] ||
            (spec.type === "bool" ? (v === "1" ? "yes" : "no") : spec.key === "first" ? "player " + v : v);
        input.add(
            new Option(
                spec.key === "first"
                    ? words.empty || "chance decides"
                    : spec.def === null
                      ? words.empty || "the game's default"
                      : say(spec.def),
                "",
            ),
        );
        let vals = spec.values;
        if (spec.type === "bool") vals = ["1", "0"];
        if (spec.key === "first") vals = range(+spec.min, +spec.max).map(String);
        for (const v of vals) if (v !== spec.def) input.add(new Option(say(v), v));
    } else {
        input = document.createElement("input");
        input.type = spec.type === "int" ? "number" : "text";
        if (spec.min !== null) input.min = spec.min;
        if (spec.max !== null) input.max = spec.max;
        if (spec.def !== null) input.value = spec.def;
        input.placeholder = spec.def === null ? words.empty || "from the seed" : "";
        if (spec.type === "string") input.type = "text";
    }
    input.dataset.key = spec.key;
    input.dataset.def = spec.def === null ? "" : spec.def;
    input.id = "opt-" + spec.key;
    label.appendChild(input);
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.textContent = optionHint(spec);
    if (hint.textContent) label.appendChild(hint);
    label.title = spec.key + "=";
    return label;
}

function range(a, b) {
    const out = [];
    for (let i = a; i <= b; i++) out.push(i);
    return out;
}

function buildOptions() {
    const name = $("game-select").value;
    const fs = $("options");
    fs.querySelectorAll("label").forEach((l) => l.remove());
    for (const spec of S.specs[name] || []) fs.appendChild(optionInput(spec));
    const g = S.games.find((x) => x.name === name);
    S.dialogPlayers = g ? g.players : 2;
    $("seats")
        .querySelectorAll(".seat")
        .forEach((l) => l.remove());
    buildSeats();
    dialogSeats();
}

function dialogPlayers() {
    return Math.max(1, Math.min(S.dialogPlayers || 1, 8));
}

// The seats of the game the dialog's options would start: game_info with
// the game's name and those options (players=, teams, ...); a set-up the
// engine refuses is said at once and keeps the seats.
let seatsAsked = 0;
async function dialogSeats() {
    let line;
    try {
        line = newgameLine();
    } catch (e) {
        $("new-error").textContent = e.message;
        return;
    }
    const n = ++seatsAsked;
    const a = await ask(line.replace(/^newgame /, "game_info "));
    if (n !== seatsAsked) return; // a later change asked again
    $("new-error").textContent = a.ok ? "" : a.text;
    if (!a.ok) return;
    S.dialogPlayers = parseGameInfo(a.text).players;
    buildSeats();
}

// Fits the dialog's seat rows to dialogPlayers(), keeping the rows there
// are (and what was chosen in them).
function buildSeats() {
    const fs = $("seats");
    const rows = fs.querySelectorAll(".seat");
    rows.forEach((l, i) => {
        if (i >= dialogPlayers()) l.remove();
    });
    const lv = S.settings.level || { min: "0", max: "2", def: "2" };
    const mt = S.settings.movetime || { min: "1", max: "3600000", def: "1000" };
    const th = S.settings.threads || { min: "1", max: "1", def: "1" };
    for (let p = rows.length + 1; p <= dialogPlayers(); p++) {
        const old = S.seats[p - 1];
        const row = document.createElement("div");
        row.className = "seat";
        row.innerHTML = `<span>player ${p}</span>
      <select data-seat="${p}" aria-label="player ${p} is played by"><option value="person">a person</option><option value="engine">the engine</option></select>
      <label>strength <select data-level="${p}"></select></label>
      <label>thinks <input type="number" data-movetime="${p}" min="${mt.min}" max="${mt.max}" size="6"> ms a move</label>
      <label>on <input type="number" data-threads="${p}" min="${th.min}" max="${th.max}" size="3"> threads</label>`;
        const kind = row.querySelector("[data-seat]");
        kind.value = old ? old.kind : p === 1 ? "person" : "engine";
        const level = row.querySelector("[data-level]");
        for (const v of range(+lv.min, +lv.max)) level.add(new Option(levelName(v, +lv.max), String(v)));
        level.value = old ? old.level : lv.def;
        row.querySelector("[data-movetime]").value = old ? old.movetime : mt.def;
        row.querySelector("[data-threads]").value = old ? old.threads : th.def;
        fs.appendChild(row);
    }
}

// The engine's levels (list_settings) in words: the top one is its full
// strength, those between search a little more at each step, each game's
// spaced evenly from greedy to full strength (protocol.md, "The computer
// player"; docs/strength.md, "Levels").
function levelName(v, max) {
    const words = ["random moves", "greedy", "beginner", "novice", "casual", "club player", "strong", "expert", "master"];
    const word = v === max ? "full strength" : words[v] || "level " + v;
    return word + " (level " + v + ")";
}

function openNewGame() {
    $("new-error").textContent = "";
    if (S.game) $("game-select").value = S.game;
    buildOptions();
    $("new-dialog").showModal();
}

function newgameLine() {
    const name = $("game-select").value;
    const parts = ["newgame", name];
    for (const input of $("options").querySelectorAll("[data-key]")) {
        const key = input.dataset.key;
        let v;
        if (input.type === "checkbox") v = input.checked ? "1" : "0";
        else v = input.value.trim();
        if (v === "" || v === input.dataset.def) continue;
        if (/\s/.test(v)) throw new ApiError(key + ": no spaces in a value");
        parts.push(key + "=" + v);
    }
    return parts.join(" ");
}

async function startNewGame(ev) {
    ev.preventDefault();
    const line = newgameLine();
    const clock = {
        kind: $("clock-kind").value,
        main: +$("clock-main").value || 300,
        inc: +$("clock-inc").value || 0,
    };
    const seats = [];
    for (let p = 1; p <= dialogPlayers(); p++) {
        seats.push({
            kind: document.querySelector(`[data-seat="${p}"]`).value,
            level: +document.querySelector(`[data-level="${p}"]`).value,
            movetime: +document.querySelector(`[data-movetime="${p}"]`).value || 1000,
            threads: +document.querySelector(`[data-threads="${p}"]`).value || 1,
        });
    }
    await quiesce();
    const a = await run([line, clockCommand(clock), "game_info"]);
    if (!a[0].ok) {
        $("new-error").textContent = a[0].text;
        return;
    }
    if (!a[1].ok) {
        $("new-error").textContent = a[1].text;
        return;
    }
    $("new-dialog").close();
    S.clock = clock;
    S.seats = seats;
    S.movers = [];
    S.evals = [];
    S.review = null;
    fitSeats(parseGameInfo(a[2].text).players);
    S.recordDirty = false;
    message("");
    await refresh();
    drive();
}

// ---------------------------------------------------------------- record

async function loadRecord() {
    const lines = $("record")
        .value.split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("#"));
    const bad = lines.findIndex((l) => !/^(newgame|play|roll)\s/.test(l + " "));
    if (!lines.length || !lines[0].startsWith("newgame ")) {
        $("record-note").textContent = "a record starts with a newgame line";
        return;
    }
    if (bad >= 0) {
        $("record-note").textContent =
            "line " + (bad + 1) + ": a record holds only newgame, play and roll lines";
        return;
    }
    await quiesce();
    const r = await runWithMovers(lines);
    const failed = r.answers.findIndex((x) => !x.ok);
    if (failed >= 0) {
        // a bad record changes nothing: the game there was is replayed
        // (its own record), and the pasted text stays to be mended
        if (failed > 0 && S.history.length) await runWithMovers(S.history);
        $("record-note").textContent =
            "line " + (failed + 1) + ": " + r.answers[failed].text + " (nothing loaded)";
        await refresh();
        drive();
        return;
    }
    $("record-note").textContent = "loaded " + lines.length + " lines";
    S.recordDirty = false;
    S.movers = r.movers;
    S.evals = [];
    S.review = null;
    fitSeats(parseGameInfo(await must("game_info")).players);
    await refresh();
    drive();
}

async function copyRecord() {
    const text = S.history.join("\n");
    const area = $("record");
    area.value = text;
    S.recordDirty = false;
    area.select();
    // execCommand works wherever the page has the focus; the clipboard API
    // may wait for a permission that never comes, so it gets a second.
    let done = false;
    try {
        done = document.execCommand("copy");
    } catch (e) {
        done = false;
    }
    if (!done && navigator.clipboard) {
        const timeout = new Promise((_, reject) => setTimeout(reject, 1000));
        done = await Promise.race([navigator.clipboard.writeText(text), timeout]).then(
            () => true,
            () => false,
        );
    }
    $("record-note").textContent = done ? "copied" : "selected: copy it with Ctrl+C";
}

// A new engine for this tab, and the record replayed into it.
async function restart() {
    const old = S.history.slice();
    T.close();
    $("dead").hidden = true;
    S.thinking = false;
    S.analysis.gen = 0;
    buttons();
    await connect();
    if (old.length) {
        await run([clockCommand(S.clock)].concat(old), true);
        await refresh();
        drive();
    }
}

// ---------------------------------------------------------------- start

async function connect() {
    await T.open();
    const a = await run(["list_games", "list_settings", "version"]);
    const names = gameNames(a[0].text);
    S.settings = {};
    for (const s of parseSpecs(a[1].text)) S.settings[s.key] = s;
    const o = await run(names.map((n) => "list_options " + n));
    names.forEach((n, i) => (S.specs[n] = o[i].ok ? parseSpecs(o[i].text) : []));
    // each game's title and players with its default options
    const info = await run(names.map((n) => "game_info " + n));
    S.games = names.map((n, i) => {
        const g = info[i].ok ? parseGameInfo(info[i].text) : { title: n, players: 2 };
        return { name: n, title: g.title, players: g.players };
    });
    const sel = $("game-select");
    sel.textContent = "";
    for (const g of S.games) sel.add(new Option(g.title + " (" + g.name + ")", g.name));
    $("title").textContent = "quintet " + a[2].text;
}

// The rules of the game on the board (or chosen in the new-game dialog),
// from GAMES[].rules.
function openRules(name) {
    const G = GAMES[name] || {};
    const g = S.games.find((x) => x.name === name);
    $("rules-title").textContent = "How to play " + (g ? g.title : name || "");
    $("rules-body").innerHTML =
        G.rules ||
        "<p>This game has no description in the page; the engine's messages explain each move.</p>";
    $("rules-dialog").showModal();
}

function wire() {
    $("new-btn").addEventListener("click", openNewGame);
    $("rules-btn").addEventListener("click", () => openRules(S.game || $("game-select").value));
    $("new-rules").addEventListener("click", () => {
        // over the new-game dialog, which stays open beneath
        openRules($("game-select").value);
    });
    $("rules-close").addEventListener("click", () => $("rules-dialog").close());
    $("new-cancel").addEventListener("click", () => $("new-dialog").close());
    $("new-form").addEventListener("submit", guard(startNewGame));
    $("game-select").addEventListener("change", buildOptions);
    $("options").addEventListener("input", guard(dialogSeats));
    $("undo-btn").addEventListener("click", guard(undo));
    $("stop-btn").addEventListener("click", guard(stop));
    $("roll-btn").addEventListener(
        "click",
        guard(() => roll()),
    );
    $("face-btn").addEventListener(
        "click",
        guard(() => roll($("face").value.trim() || "?")),
    );
    $("face").addEventListener("keydown", (e) => {
        if (e.key === "Enter") guard(() => roll($("face").value.trim() || "?"))();
    });
    $("line-play").addEventListener(
        "click",
        guard(() => play(S.line.join(S.geo.seps[0] || "-"))),
    );
    $("line-back").addEventListener("click", () => {
        S.line.pop();
        render();
    });
    $("line-clear").addEventListener("click", () => {
        S.line = [];
        render();
    });
    $("move-form").addEventListener("submit", (e) => {
        e.preventDefault();
        const m = $("move-input").value.trim().toLowerCase();
        if (!m) return;
        $("move-input").value = "";
        guard(play)(m);
    });
    $("analysis-toggle").addEventListener(
        "change",
        guard(async () => {
            S.analysis.on = $("analysis-toggle").checked;
            if (S.analysis.on) {
                renderAnalysis();
                await startAnalysis();
            } else {
                await stop();
                renderAnalysis();
            }
        }),
    );
    $("copy-btn").addEventListener("click", guard(copyRecord));
    $("review-btn").addEventListener("click", guard(reviewGame));
    $("load-btn").addEventListener("click", guard(loadRecord));
    $("record").addEventListener("input", () => (S.recordDirty = true));
    $("restart-btn").addEventListener("click", guard(restart));
    document.addEventListener("keydown", (e) => {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        if (/^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) || $("new-dialog").open) return;
        if ($("rules-dialog").open) return;
        const k = e.key;
        if (k === "n") openNewGame();
        else if (k === "h") $("rules-btn").click();
        else if (k === "u") guard(undo)();
        else if (k === "a") $("analysis-toggle").click();
        else if (k === "s" || k === "Escape") guard(stop)();
        else if (k === "r" && !$("roll-btn").disabled) guard(() => roll())();
        else if (k === "m") $("move-input").focus();
        else return;
        e.preventDefault();
    });
}

wire();
guard(async () => {
    await connect();
    document.body.dataset.state = "idle";
    openNewGame();
})();
