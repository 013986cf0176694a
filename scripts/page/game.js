// The game being played: its engine, what the engine says of the position
// now (a snapshot), the seats (a person or the engine, per player), the
// clocks, and the loop that lets the engine's seats move. The page's
// other parts read a Game and call its actions; only this file changes
// it. It knows no rule: every fact comes from the engine (protocol.md,
// "Discovery").

import { ApiError } from "./transport.js";
import { parseStatus, parseMoves, parseContents, parseGeometry, parseGameInfo, parseTurn, parseUnits } from "./protocol.js";

// What the page asks for every position it shows (this game's, or an
// earlier one's in the navigation), in this order.
export const SNAPSHOT = ["status", "moves", "contents", "geometry", "score", "history", "game_info", "turn_info", "scoring"];

// A snapshot from the answers to SNAPSHOT.
export function readSnapshot(a) {
    for (let i = 0; i < a.length; i++) if (!a[i].ok) throw new ApiError(SNAPSHOT[i] + ": " + a[i].text);
    const history = a[5].text.split("\n").filter((l) => l.trim());
    return {
        status: parseStatus(a[0].text),
        moves: parseMoves(a[1].text),
        contents: parseContents(a[2].text),
        geo: parseGeometry(a[3].text),
        score: a[4].text.trim().split(/\s+/).map(Number),
        history,
        key: history.join("\n"),
        info: parseGameInfo(a[6].text),
        turn: parseTurn(a[7].text),
        units: parseUnits(a[8].text),
    };
}

// The levels the engine seats may play at (list_settings' level): the
// default seat is the beginner (level 2), which a newcomer beats at
// times; the top level is the engine's full strength.
export const DEFAULT_LEVEL = 2;
const WORDS = ["random moves", "greedy", "beginner", "novice", "casual", "club player", "strong", "expert", "master"];

// A level in words (protocol.md, "The computer player").
export function levelName(v, max) {
    const word = v === max ? "full strength" : WORDS[v] || "level " + v;
    return word + " (level " + v + ")";
}

function clockCommand(c) {
    if (c.kind === "absolute") return "kgs-time_settings absolute " + c.main;
    if (c.kind === "fischer") return "kgs-time_settings fischer " + c.main + " " + c.inc;
    return "kgs-time_settings none";
}

export class Game {
    // engine: a transport (transport.js); hooks: changed() after every
    // new snapshot or state, message(text, isError), idle() when the
    // engine's seats are done and a person is to act.
    constructor(engine, settings, hooks) {
        this.engine = engine;
        this.settings = settings; // list_settings by name
        this.hooks = hooks;
        this.view = null; // the latest snapshot
        this.movers = []; // who made each history line after the first (0: unknown)
        this.placed = []; // whose pieces each line placed (turn_info's side; 0: the mover's)
        this.seats = []; // {kind: "person" | "engine", level, movetime, threads}
        this.clock = { kind: "none", main: 300, inc: 5 };
        this.left = []; // seconds left per player, with a clock
        this.turnStart = 0;
        this.threads = 0; // `set threads` as last sent (0: not yet)
        this.epoch = 0; // bumped by new game, undo and load: stale loops stop
        this.thinking = false;
        this.driving = null; // the engine loop's promise while it runs
        this.hurry = false; // Stop pressed: engine seats move at once until a person is to move
    }

    topLevel() {
        return +(this.settings.level || {}).max || 2;
    }

    defaultSeat(p) {
        const level = Math.min(DEFAULT_LEVEL, this.topLevel());
        return { kind: p === 1 ? "person" : "engine", level, movetime: 1000, threads: 1 };
    }

    seatOf(p) {
        return this.seats[p - 1] || this.defaultSeat(p);
    }

    nplayers() {
        return this.view ? this.view.info.players : this.seats.length;
    }

    personToMove() {
        const st = this.view && this.view.status;
        return !!st && st.kind !== "over" && this.seatOf(st.player).kind === "person";
    }

    async run(commands, stopOnError) {
        return this.engine.run(commands, stopOnError);
    }

    async ask(command) {
        return (await this.run([command]))[0];
    }

    async refresh() {
        const before = this.view;
        this.view = readSnapshot(await this.run(SNAPSHOT));
        this.trackMovers(before);
        this.hooks.changed();
        return this.view;
    }

    // Who made each line of the history: a line added since the last
    // snapshot was made by whoever was to act then; an undo drops the
    // last ones. A loaded record is replayed with a status before each
    // line (load), since turns skip players who dropped out and repeat
    // in a set-up.
    trackMovers(before) {
        const h = this.view.history;
        const n = h.length - 1;
        const old = before ? before.history : [];
        if (old.length && old[0] === h[0] && n === old.length && before.status) {
            this.movers.push(before.status.player);
            this.placed.push(before.turn.side);
        }
        for (const list of [this.movers, this.placed]) {
            list.length = Math.min(list.length, Math.max(0, n));
            while (list.length < n) list.push(0);
        }
    }

    // ---- the engine's seats

    // The engine plays while an engine seat is to move (or to roll).
    drive() {
        if (this.driving) return this.driving;
        const p = this.driveLoop().finally(() => {
            if (this.driving === p) this.driving = null;
            this.thinking = false;
            this.hooks.changed();
        });
        this.driving = p;
        return p;
    }

    async driveLoop() {
        const epoch = this.epoch;
        try {
            for (;;) {
                const st = this.view && this.view.status;
                if (!st || st.kind === "over" || this.seatOf(st.player).kind !== "engine") break;
                if (st.kind === "roll") {
                    const r = await this.ask("roll");
                    if (!r.ok) throw new ApiError("roll: " + r.text);
                    this.chargeClock(st.player, false);
                } else await this.engineMove(st.player);
                if (epoch !== this.epoch) return;
                await this.refresh();
            }
        } catch (e) {
            this.hooks.message(e);
            return;
        } finally {
            if (epoch === this.epoch) this.hurry = false;
        }
        if (epoch === this.epoch) this.hooks.idle();
    }

    async engineMove(p) {
        const seat = this.seatOf(p);
        const set = ["set level " + seat.level];
        // set threads drops the search tree: only when the count changes
        const threads = seat.threads || 1;
        if (threads !== this.threads) set.push("set threads " + threads);
        // after a Stop the engine's seats move at once until a person is
        // to move (Tiptoe's set-up gives the engine two placements in a row)
        if (this.hurry) set.push("set movetime 10");
        else if (this.clock.kind === "none") set.push("set movetime " + seat.movetime);
        else set.push("time_left " + p + " " + Math.max(0, this.clockLeft(p)).toFixed(1) + " 0");
        for (const a of await this.run(set)) if (!a.ok) throw new ApiError(a.text);
        this.threads = threads;
        this.thinking = true;
        this.hooks.message("player " + p + " (the engine) is thinking...");
        this.hooks.changed();
        const a = await this.ask("genmove");
        this.thinking = false;
        if (!a.ok) throw new ApiError("genmove: " + a.text);
        this.chargeClock(p, true);
        this.hooks.message("player " + p + " played " + a.text);
    }

    // Stops the engine's thinking and waits for its loop to end, so that
    // an undo or a new game does not race a genmove.
    async quiesce(stopAnalysis) {
        this.epoch++;
        if (stopAnalysis) await stopAnalysis();
        if (this.thinking) await this.ask("stop");
        if (this.driving) await this.driving;
    }

    // Stop: the engine's think ends at once (it plays what it found).
    // Answers the milliseconds the stop took, or null with no think.
    async stopThinking() {
        if (!this.thinking) return null;
        const t0 = performance.now();
        this.hurry = true;
        await this.ask("stop");
        return performance.now() - t0;
    }

    // ---- clocks

    clockLeft(p) {
        let left = this.left[p - 1];
        const st = this.view && this.view.status;
        if (st && st.kind !== "over" && st.player === p) left -= (performance.now() - this.turnStart) / 1000;
        return left;
    }

    chargeClock(p, moved) {
        if (this.clock.kind === "none") return;
        this.left[p - 1] = this.clockLeft(p);
        if (moved && this.clock.kind === "fischer") this.left[p - 1] += this.clock.inc;
        this.turnStart = performance.now();
    }

    fitSeats(n) {
        while (this.seats.length < n) this.seats.push(this.defaultSeat(this.seats.length + 1));
        this.seats.length = n;
        this.left = this.seats.map(() => this.clock.main);
        this.turnStart = performance.now();
    }

    // ---- a person's actions; each answers the engine's refusal, if any

    async newGame(line, seats, clock) {
        const a = await this.run([line, clockCommand(clock), "game_info"]);
        if (!a[0].ok) return a[0].text;
        if (!a[1].ok) return a[1].text;
        this.clock = clock;
        this.seats = seats;
        this.movers = [];
        this.placed = [];
        this.view = null;
        this.fitSeats(parseGameInfo(a[2].text).players);
        await this.refresh();
        return null;
    }

    async play(move) {
        const p = this.view ? this.view.status.player : 0;
        const a = await this.ask("play " + move);
        if (!a.ok) return a.text;
        this.chargeClock(p, true);
        this.hooks.message("player " + p + " played " + move);
        await this.refresh();
        return null;
    }

    async roll(face) {
        const p = this.view ? this.view.status.player : 0;
        const a = await this.ask(face === undefined ? "roll" : "roll " + face);
        if (!a.ok) return a.text;
        this.chargeClock(p, false);
        this.hooks.message("player " + p + " rolled " + a.text);
        await this.refresh();
        return null;
    }

    // Undo takes back moves until a person is to move again (so the
    // engine's reply and the person's move go together); with no person
    // seated, one. Answers how many steps went.
    async undo() {
        const anyPerson = this.seats.some((s) => s.kind === "person");
        let undone = 0;
        for (;;) {
            const a = await this.ask("undo");
            if (!a.ok) {
                if (!undone) this.hooks.message(new ApiError(a.text));
                break;
            }
            undone++;
            const st = parseStatus((await this.ask("status")).text);
            if (!anyPerson || this.seatOf(st.player).kind === "person") break;
        }
        if (undone) this.hooks.message("took back " + undone + (undone === 1 ? " step" : " steps"));
        await this.refresh();
        return undone;
    }

    // The game taken back to the position after history line PLY (the
    // navigation's "Play from here").
    async undoTo(ply) {
        const n = this.view.history.length - 1 - ply;
        if (n <= 0) return;
        const a = await this.run(Array(n).fill("undo"), true);
        const failed = a.find((x) => !x.ok);
        if (failed) this.hooks.message(new ApiError(failed.text));
        else this.hooks.message("the game goes on from move " + ply + ": " + n + (n === 1 ? " step" : " steps") + " taken back");
        await this.refresh();
    }

    // Runs a record's lines with a turn_info before each move, so that
    // the page knows who made each (and whose pieces it placed); stops at
    // the first failure. Answers {answers: [the lines' answers], movers,
    // placed}.
    async replay(lines) {
        const cmds = [];
        for (const l of lines) {
            if (!/^newgame /.test(l)) cmds.push("turn_info");
            cmds.push(l);
        }
        const a = await this.run(cmds, true);
        const answers = [];
        const movers = [];
        const placed = [];
        let turn = null;
        a.forEach((x, i) => {
            if (cmds[i] === "turn_info") {
                if (x.ok) turn = parseTurn(x.text);
                else answers.push(x); // no game yet: the list ends too
            } else {
                answers.push(x);
                if (!/^newgame /.test(cmds[i]) && x.ok) {
                    movers.push(turn ? turn.player : 0);
                    placed.push(turn ? turn.side : 0);
                }
            }
        });
        return { answers, movers, placed };
    }

    // A record loaded in place of the game; a bad one changes nothing
    // (the game there was is replayed). Answers null, or the failing
    // line's number and the engine's reason.
    async load(lines) {
        const r = await this.replay(lines);
        const failed = r.answers.findIndex((x) => !x.ok);
        if (failed >= 0) {
            if (this.view) await this.replay(this.view.history);
            await this.refresh();
            return { line: failed + 1, text: r.answers[failed].text };
        }
        this.movers = r.movers;
        this.placed = r.placed;
        this.view = null;
        this.fitSeats(parseGameInfo((await this.ask("game_info")).text).players);
        await this.refresh();
        return null;
    }

    // A new engine (the old one died) with the game's record replayed.
    async restart(engine) {
        const old = this.view ? this.view.history.slice() : [];
        this.engine = engine;
        this.thinking = false;
        this.threads = 0;
        if (old.length) {
            await this.run([clockCommand(this.clock)].concat(old), true);
            await this.refresh();
        }
    }
}
