// How the page reaches an engine: one interface, two back-ends.
//   send(LINE)                     -> {ok, text}
//   run([LINE ...], stopOnError)   -> [{ok, text} ...], in order
//   analyze(ms, most, onInfo)      -> {ok, text, done}: onInfo(line) for
//                                     each info line; done settles when
//                                     the stream ends (the next command
//                                     sent ends it)
//   close()
// ServerEngine speaks to scripts/gui over HTTP (the native engine, one
// per session); the WebAssembly build (make web marks its page with
// <meta name="quintet-engine" content="worker">) runs the engine in a Web
// Worker through web/quintet.js, the module other pages use too.
// A failure that means the engine is gone carries `dead: true`.

export class ApiError extends Error {
    constructor(message, dead) {
        super(message);
        this.dead = !!dead;
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

const PING_MS = 15000; // scripts/gui's PING_EVERY

class ServerEngine {
    async open() {
        this.session = (await api("/api/new", {})).session;
        const session = this.session;
        // while the tab is open its engine is wanted: the server closes
        // one that goes unasked for longer (scripts/gui --idle), and one
        // whose tab's watch below has hung up (the tab vanished)
        this.ping = setInterval(() => {
            if (this.session === session) api("/api/ping", { session }).catch(() => {});
        }, PING_MS);
        this.watch(session);
        this.onHide = () => {
            if (this.session !== session) return;
            fetch("/api/close", {
                method: "POST",
                keepalive: true,
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ session }),
            }).catch(() => {});
        };
        window.addEventListener("pagehide", this.onHide);
        return this;
    }

    // A request the server holds open while the tab lives: when the tab
    // closes, crashes or is killed, the connection ends and the server
    // ends the engine (scripts/gui, "watch"). Renewed as it returns.
    async watch(session) {
        while (this.session === session) {
            try {
                const r = await fetch("/api/watch?session=" + encodeURIComponent(session));
                if (r.status === 404) return;
            } catch (e) {
                await new Promise((ok) => setTimeout(ok, 2000));
            }
        }
    }

    async send(line) {
        return (await this.run([line]))[0];
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

    close() {
        if (this.session) api("/api/close", { session: this.session }).catch(() => {});
        this.session = null;
        clearInterval(this.ping);
        window.removeEventListener("pagehide", this.onHide);
    }
}

// A finished game's review (scripts/gui's POST /api/review: a fresh
// engine judges every move; quintet.review). Only the server has it.
async function review(record) {
    return (await api("/api/review", { record, playouts: 1000 })).moves;
}

export function inWorker() {
    const m = document.querySelector('meta[name="quintet-engine"]');
    return !!(m && m.content === "worker");
}

// A new engine for this tab (or for looking at earlier positions).
export async function openEngine() {
    if (!inWorker()) return new ServerEngine().open();
    const { QuintetEngine } = await import("../quintet.js");
    return new QuintetEngine();
}

// The review, where the back-end has one (null in the worker build).
export const reviewer = () => (inWorker() ? null : review);
