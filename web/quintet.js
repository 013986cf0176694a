// quintet.js: the engine in a Web Worker, for any page (docs/web.md).
//
//     import { QuintetEngine } from "./quintet.js";
//     const engine = new QuintetEngine();            // starts engine.js
//     const { ok, text } = await engine.send("newgame tiptoe size=5");
//     const reply = await engine.send("genmove");   // the worker thinks;
//                                                    // the page stays live
//     engine.close();
//
// The worker is the WebAssembly build of make web (engine.js and
// engine.wasm beside this file). This module speaks the protocol to it
// (protocol.md, "Framing"): it writes one line a command and matches the
// answers to the commands in order, so a page may send a command while
// another waits; `stop` sent while a genmove thinks ends the think
// (protocol.md, "Thinking while reading"). Nothing here knows a game.

// An answer the engine will never give: the worker died or was closed.
export class EngineGone extends Error {
    constructor(message) {
        super(message);
        this.dead = true;
    }
}

// The text of an answer: its first line without `=[id] ` or `?[id] `.
function strip(first) {
    return first.replace(/^[=?]\d*\s?/, "");
}

export class QuintetEngine {
    // url: the worker script (default: engine.js beside this module).
    constructor(url) {
        this.worker = new Worker(url || new URL("engine.js", import.meta.url));
        this.pending = []; // {resolve, reject, lines, stream}, in order
        this.buf = "";
        this.dead = null;
        this.onstderr = (line) => console.log(line); // the search's line
        this.worker.onmessage = (e) => this.message(e.data);
        this.worker.onerror = (e) => this.die("the engine failed: " + (e.message || "an error"));
    }

    message(m) {
        if (m.err !== undefined) this.onstderr(m.err);
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
    // ends it; between them, an analyze stream's info lines.
    line(line) {
        const p = this.pending[0];
        if (!p) return;
        if (p.lines === null) {
            p.lines = [line];
            if (p.stream) p.resolve({ ok: line[0] === "=", text: strip(line) });
            return;
        }
        if (line !== "") {
            if (p.stream) p.stream.onInfo(line);
            else p.lines.push(line);
            return;
        }
        this.pending.shift();
        if (p.stream) p.stream.end();
        else p.resolve({ ok: p.lines[0][0] === "=", text: [strip(p.lines[0])].concat(p.lines.slice(1)).join("\n") });
    }

    die(why) {
        if (this.dead) return;
        this.dead = why;
        for (const p of this.pending.splice(0)) {
            p.reject(new EngineGone(why));
            if (p.stream) p.stream.end();
        }
        this.worker.terminate();
    }

    // Sends one command line; resolves to {ok, text} (text without the
    // `=`/`?` and id), or rejects with EngineGone.
    send(line, stream) {
        if (this.dead) return Promise.reject(new EngineGone(this.dead));
        return new Promise((resolve, reject) => {
            this.pending.push({ resolve, reject, lines: null, stream });
            this.worker.postMessage(line.replace(/[\r\n]/g, " ") + "\n");
        });
    }

    // Several commands at once, answers in order; with stopOnError the
    // first failure ends the list (the rest are not sent).
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

    // analyze (protocol.md, "analyze"): onInfo(line) for every info line
    // until the next command sent ends the stream. Resolves to {ok, text,
    // done}, done settling when the stream has ended.
    async analyze(ms, maxmoves, onInfo) {
        let end;
        const done = new Promise((r) => (end = r));
        const first = await this.send("analyze " + ms + " maxmoves " + maxmoves, { onInfo, end });
        if (!first.ok) end();
        return { ok: first.ok, text: first.text, done };
    }

    close() {
        this.die("the engine was closed");
    }
}
