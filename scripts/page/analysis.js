// The engine's view of a position: analyze's stream on the position shown
// (the game's latest, on the game's engine while a person is to move; an
// earlier one, on the navigation's viewer engine), the evaluations seen
// so far (one per position, by its record), and a finished game's review.

import { parseInfo } from "./protocol.js";

const ANALYZE_MS = 250; // how often analyze reports: lively, yet cheap

export class Analysis {
    constructor(changed) {
        this.changed = changed; // the candidates or the stream changed
        this.on = false;
        this.gen = 0; // the running stream's number (0: none)
        this.streams = 0;
        this.engine = null; // the engine the stream runs on
        this.key = null; // the record of the position analysed
        this.cands = [];
        this.text = "";
        this.evals = new Map(); // record -> {player, value, proven}
        this.review = null; // {record, marks: [{ply, text}]}
        this.reviewing = false;
    }

    running() {
        return this.gen !== 0;
    }

    // Streams the analysis of VIEW (a snapshot) on ENGINE, unless it runs
    // there already; the candidates shown are for view.key only.
    async start(engine, view) {
        if (this.gen && this.key === view.key && this.engine === engine) return;
        await this.stop();
        const gen = ++this.streams;
        this.gen = gen;
        this.engine = engine;
        this.key = view.key;
        this.cands = [];
        this.text = "thinking...";
        this.changed();
        let j;
        try {
            // every legal move gets a value (analyze names 20 by default)
            j = await engine.analyze(ANALYZE_MS, Math.max(view.moves.list.length, 1), (line) => {
                if (this.gen !== gen) return;
                this.cands = parseInfo(line);
                this.text = "";
                const c = this.cands[0];
                if (c) this.evals.set(view.key, { player: view.status.player, value: c.value, proven: c.proven });
                this.changed();
            });
        } catch (e) {
            if (this.gen === gen) this.gen = 0;
            throw e;
        }
        if (this.gen !== gen) return;
        if (!j.ok) {
            this.gen = 0;
            this.text = j.text;
            this.changed();
            return;
        }
        await j.done;
        if (this.gen === gen) {
            this.gen = 0;
            this.changed();
        }
    }

    // Ends the stream (any command ends it; `stop` changes nothing).
    async stop() {
        const engine = this.engine;
        const was = this.gen;
        this.gen = 0;
        this.cands = [];
        this.text = "";
        this.key = null;
        if (was && engine) {
            try {
                await engine.send("stop");
            } catch (e) {
                // a dead engine has stopped
            }
        }
    }

    // The candidates for the position VIEW, if the stream is about it.
    candsFor(view) {
        return this.on && view && this.key === view.key ? this.cands : [];
    }

    // A new game: nothing seen yet.
    forget() {
        this.evals.clear();
        this.review = null;
    }

    // The review of the finished game HISTORY (reviewer: transport.js's):
    // each move's value before it fills the graph, and the moves that
    // changed the result are marked, with the better move.
    async reviewGame(reviewer, history) {
        const record = history.join("\n");
        this.reviewing = true;
        this.changed();
        let moves;
        try {
            moves = await reviewer(history);
        } finally {
            this.reviewing = false;
        }
        const marks = [];
        for (const m of moves) {
            const before = history.slice(0, m.ply).join("\n"); // the position the move was made in
            if (m.before !== null && m.before !== undefined) this.evals.set(before, { player: m.player, value: m.before, proven: m.proven_before });
            if (m.mistake) marks.push({ ply: m.ply, text: "a mistake" + (m.best ? ": " + m.best + " was better" : "") });
        }
        this.review = { record, marks };
        this.changed();
    }

    marksFor(history) {
        return this.review && this.review.record === history.join("\n") ? this.review.marks : [];
    }
}
