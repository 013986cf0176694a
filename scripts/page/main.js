// The page's controller (as Sabaki's): it owns the game (game.js), the
// navigation (navigation.js), the analysis (analysis.js) and the move
// being clicked together, turns a person's clicks and keys into their
// actions, and draws everything again after each change. The other
// modules own their part and are given what they draw; none reaches
// into another's state.

import { openEngine, reviewer, inWorker } from "./transport.js";
import { gameNames, parseSpecs, parseGameInfo, moveNames, joiner } from "./protocol.js";
import { Game } from "./game.js";
import { Navigator } from "./navigation.js";
import { Analysis } from "./analysis.js";
import { drawBoard } from "./board.js";
import { drawBadges } from "./badges.js";
import { skinOf } from "./skins.js";
import { NewGameDialog, openRules } from "./dialog.js";
import { renderMoveList, lastMoveText } from "./movelist.js";
import { drawGraph } from "./graph.js";
import * as P from "./panels.js";
import { COLOUR_WORDS, PLAYER_COLOURS } from "./svg.js";

const $ = (id) => document.getElementById(id);

class Controller {
    constructor() {
        this.chosen = []; // names clicked so far towards a move
        this.acting = 0; // a person's actions under way
        this.games = [];
        this.analysis = new Analysis(() => this.render());
        this.nav = new Navigator(openEngine, () => this.render());
        this.drawing = false; // a drawing is due at the next frame
        this.omitted = [];
    }

    // ---- start

    async boot() {
        const engine = await openEngine();
        const a = await engine.run(["list_games", "list_settings", "version"]);
        const names = gameNames(a[0].text);
        const settings = {};
        for (const s of parseSpecs(a[1].text)) settings[s.key] = s;
        const info = await engine.run(names.map((n) => "game_info " + n));
        this.games = names.map((n, i) => {
            const g = info[i].ok ? parseGameInfo(info[i].text) : { title: n, players: 2 };
            return { name: n, title: g.title || n, players: g.players };
        });
        this.game = new Game(engine, settings, {
            changed: () => this.render(),
            message: (m) => this.message(m),
            idle: () => this.render(),
        });
        this.dialog = new NewGameDialog({
            ask: (line) => this.game.ask(line),
            games: this.games,
            settings,
            skinOf,
            seats: () => this.game.seats,
            start: (line, seats, clock) => this.act(() => this.newGame(line, seats, clock)),
        });
        $("title").textContent = "quintet " + a[2].text;
        document.body.dataset.state = "idle";
        this.dialog.open();
    }

    // ---- what is shown

    shown() {
        return this.nav.shown(this.game);
    }

    live() {
        return this.nav.live();
    }

    skin() {
        const v = this.game && this.game.view;
        return skinOf(v ? v.info.name : "");
    }

    // A side's colour: its pieces' (game_info), else the skin's palette
    // (Take It Away's players must differ from its pieces), else ours.
    colourOf(view, side) {
        const s = view && view.info.sides[side - 1];
        const own = this.skin().colours || PLAYER_COLOURS;
        return (s && s.colour && (COLOUR_WORDS[s.colour] || s.colour)) || own[(side - 1) % own.length][0];
    }

    // The name of a side's colour where the page chose it (else null).
    colourName(view, side) {
        const s = view && view.info.sides[side - 1];
        if (s && s.colour) return null;
        const own = this.skin().colours || PLAYER_COLOURS;
        return own[(side - 1) % own.length][1];
    }

    // A kind's colour (pieces of nobody): its colour word, else one of a
    // neutral set, the same for the same word.
    kindColour(kind) {
        if (COLOUR_WORDS[kind]) return COLOUR_WORDS[kind];
        const neutral = ["#e8e0cc", "#9a8f7a", "#5c5447", "#c9b98f"];
        let h = 0;
        for (const ch of kind || "") h = (h * 31 + ch.charCodeAt(0)) >>> 0;
        return neutral[h % neutral.length];
    }

    // The move is built freely: a turn whose moves cannot be listed (a
    // drawn line), or a list the engine cut short.
    building(view) {
        return view.turn.free || view.moves.truncated;
    }

    // The moves that start with the names clicked so far.
    candidates(view) {
        return view.moves.list.filter((m) => {
            const n = moveNames(view.geo, m);
            return n.length >= this.chosen.length && this.chosen.every((p, i) => n[i] === p);
        });
    }

    // The names a click may add now.
    targets(view, mine) {
        if (!mine || view.status.kind !== "play") return new Set();
        if (view.turn.free) return new Set(view.geo.points.keys());
        const k = this.chosen.length;
        const out = new Set();
        for (const m of this.candidates(view)) {
            const n = moveNames(view.geo, m);
            if (n.length > k && !view.geo.words.includes(m)) out.add(n[k]);
        }
        return out;
    }

    // Draws everything again, once for all the changes of a moment (an
    // engine's move changes the page three times in a few milliseconds).
    render() {
        if (this.drawing) return;
        this.drawing = true;
        const draw = () => {
            this.drawing = false;
            this.draw();
        };
        if (document.hidden) setTimeout(draw, 50);
        else requestAnimationFrame(draw);
    }

    draw() {
        if (!this.game || !this.game.view) return;
        const game = this.game;
        const view = this.shown();
        const live = this.live();
        const skin = this.skin();
        const mine = live && game.personToMove() && !this.nav.loading;
        const colourOf = (s) => this.colourOf(view, s);
        const index = this.nav.index(game);
        const last = game.view.history.length - 1;
        const ctx = { game, live, mine, skin, colourOf, index, last, analysis: this.analysis, omitted: this.omitted };
        ctx.colourName = (s) => this.colourName(view, s);
        ctx.chosen = live ? this.chosen : [];
        ctx.building = live && this.building(view);
        ctx.joiner = joiner(view.geo, view.moves.list);
        ctx.onSeat = (p, kind) =>
            this.act(async () => {
                await this.quiesce();
                game.seats[p - 1].kind = kind;
                game.drive();
            });
        ctx.onWord = (w) => this.act(() => this.play(w));
        // the panels first: the board takes the height they leave
        $("title").textContent = game.view.info.title || game.view.info.name;
        $("title").title = game.view.history[0];
        $("status").textContent = P.statusText(view, ctx);
        document.title = P.tabTitle(game.view, ctx);
        $("last-move-text").textContent = lastMoveText(game.view.history, game.movers, index);
        P.renderControls(view, ctx);
        P.renderPlayers(view, ctx);
        this.renderNav(ctx);
        const wrap = $("board-wrap");
        const below = $("controls").getBoundingClientRect().bottom - $("nav-bar").getBoundingClientRect().top + 16;
        const top = wrap.getBoundingClientRect().top + window.scrollY;
        const availH = Math.max(220, window.innerHeight - top - below - 12);
        const targets = this.targets(view, mine);
        const d = drawBoard($("board"), view, {
            skin,
            colourOf,
            kindColour: (k) => this.kindColour(k),
            availW: wrap.clientWidth,
            availH,
            targets,
            chosen: ctx.chosen,
            pickPoints: mine && view.turn.free && view.geo.points.size > 0,
            showUnits: view.status.kind === "over",
            onPick: (name) => this.pick(name),
        });
        const cands = this.analysis.candsFor(view);
        const best = Math.max(0, ...cands.map((c) => c.value));
        const solo = view.info.players === 1;
        this.omitted = drawBadges(
            d,
            cands,
            ctx.chosen,
            (c) => P.valueText(c, solo, true),
            (c) => P.valueColour(c.value, best, solo),
            (c) => c.move + ": " + P.valueWords(c, view.status.player, solo),
        );
        ctx.omitted = this.omitted;
        P.renderCandidates(view, ctx);
        this.renderEval(view, ctx);
        renderMoveList(game.view.history, game.movers, game.placed, this.analysis.marksFor(game.view.history), index, colourOf, (ply) => this.goTo(ply));
        if (!this.recordDirty) $("record").value = game.view.history.join("\n");
        this.buttons();
        this.steer(view, live);
        // the window size drawn for (the end-to-end test waits for it)
        document.body.dataset.drawnFor = innerWidth + "x" + innerHeight;
    }

    renderNav(ctx) {
        const n = ctx.last;
        $("nav-first").disabled = ctx.index === 0;
        $("nav-back").disabled = ctx.index === 0;
        $("nav-forward").disabled = ctx.live;
        $("nav-last").disabled = ctx.live;
        $("nav-play").hidden = ctx.live;
        $("nav-play").textContent = "Play on from move " + ctx.index;
        document.body.dataset.view = ctx.live ? "live" : "earlier";
        document.body.dataset.ply = ctx.index;
        document.body.dataset.plies = n;
    }

    renderEval(view, ctx) {
        const an = this.analysis;
        const marks = an.marksFor(this.game.view.history);
        const box = $("eval-box");
        // the evaluation goes with the analysis (or this game's review)
        const reviewed = an.review && an.review.record === this.game.view.key;
        box.hidden = !(an.on || an.reviewing || reviewed);
        if (box.hidden) return;
        P.renderEvalBar(view, ctx);
        drawGraph($("eval-graph"), this.game.view, an.evals, marks, ctx.index, ctx.colourOf, (ply) => this.goTo(ply));
        $("review-note").textContent = an.reviewing
            ? "reviewing the game: the engine judges every move..."
            : reviewed
              ? marks.length
                  ? "Review: " + marks.length + (marks.length === 1 ? " mistake" : " mistakes") + " (ringed on the graph, marked ? in the move list)."
                  : "Review: no move changed the result."
              : "";
    }

    // Starts, moves or ends the analysis to follow the position shown:
    // on the game's engine while a person is to move there, on the
    // viewer's for an earlier position.
    steer(view, live) {
        const an = this.analysis;
        const game = this.game;
        const can = an.on && view.status.kind === "play" && !view.turn.free && view.moves.list.length > 0 && !this.nav.loading;
        let want = null;
        if (can && live && game.personToMove() && !game.driving && !this.acting) want = "live";
        else if (can && !live) want = "viewer";
        if (!want) {
            if (an.running() && (!an.on || an.key !== view.key || live)) an.stop().then(() => this.buttons());
            return;
        }
        if (an.running() && an.key === view.key) return;
        const go = async () => {
            const engine = want === "live" ? game.engine : await this.nav.viewerAt(view.history);
            if (this.shown() !== view) return;
            await an.start(engine, view);
        };
        go().catch((e) => this.message(e));
    }

    buttons() {
        const game = this.game;
        const st = game && game.view && game.view.status;
        $("stop-btn").disabled = !(game && (game.thinking || this.analysis.running()));
        $("undo-btn").disabled = !st || game.view.history.length < 2 || !this.live();
        const review = reviewer();
        $("review-btn").hidden = !review || !st || st.kind !== "over";
        const an = this.analysis;
        $("review-btn").disabled = an.reviewing || !!(an.review && an.review.record === game.view.key) || this.acting > 0;
        document.body.dataset.state = !$("dead").hidden
            ? "dead"
            : game.thinking
              ? "thinking"
              : game.driving || this.acting || this.nav.loading
                ? "busy"
                : st
                  ? st.kind === "over"
                      ? "over"
                      : game.personToMove()
                        ? "person"
                        : "busy"
                  : "idle";
        document.body.dataset.status = st ? st.kind + " " + st.player : "";
        document.body.dataset.analysis = this.analysis.running() ? "running" : "off";
    }

    // ---- messages

    message(m, isError) {
        if (m instanceof Error) {
            if (m.dead) {
                $("dead-text").textContent = m.message.charAt(0).toUpperCase() + m.message.slice(1) + ".";
                $("dead").hidden = false;
                document.body.dataset.state = "dead";
                return;
            }
            m = m.message;
            isError = true;
        }
        // the engine's words name its own commands; the page has none
        const games = this.games.map((g) => g.name).join(", ");
        const text = (m || "").replace("(list_games lists them)", "(this page plays " + games + ")");
        $("message").textContent = text;
        $("message").className = isError ? "error" : "";
    }

    // Runs an action after those before it (one at a time, so that a
    // click never races the answer to the last), showing its failure;
    // the page reads as busy meanwhile.
    act(fn) {
        this.acting++;
        this.buttons();
        const run = async () => {
            let out;
            try {
                out = await fn();
            } catch (e) {
                this.message(e);
            }
            this.acting--;
            this.render();
            return out;
        };
        this.queue = (this.queue || Promise.resolve()).then(run);
        return this.queue;
    }

    // ---- actions

    async quiesce() {
        await this.game.quiesce(() => this.analysis.stop());
    }

    async newGame(line, seats, clock) {
        await this.quiesce();
        const refused = await this.game.newGame(line, seats, clock);
        if (refused) return refused;
        this.afterNewGame();
        this.game.drive();
        return null;
    }

    afterNewGame() {
        this.chosen = [];
        this.recordDirty = false;
        this.analysis.forget();
        this.nav.reset();
        $("record-note").textContent = "";
        this.message("");
    }

    async play(move) {
        await this.quiesce();
        const refused = await this.game.play(move);
        if (refused) {
            this.message(refused, true);
            // a line being drawn stays, to be mended rather than redrawn
            if (!this.building(this.game.view)) this.chosen = [];
        } else {
            this.chosen = [];
            $("record-note").textContent = "";
        }
        this.nav.remember(this.game.view);
        this.game.drive();
    }

    async roll(face) {
        await this.quiesce();
        const refused = await this.game.roll(face);
        if (refused) this.message(refused, true);
        this.game.drive();
    }

    async undo() {
        if (!this.live()) return;
        await this.quiesce();
        this.chosen = [];
        await this.game.undo();
        this.game.drive();
    }

    async stop() {
        const ms = await this.game.stopThinking();
        if (ms !== null) {
            // how long the engine took to stop (the end-to-end test reads it)
            document.body.dataset.stopMs = Math.round(ms);
            return;
        }
        if (this.analysis.running()) {
            this.analysis.on = false;
            $("analysis-toggle").checked = false;
            await this.analysis.stop();
        }
    }

    // A click on the place NAME.
    pick(name) {
        const game = this.game;
        const view = this.shown();
        if (!this.live()) {
            this.message("This is move " + this.nav.index(game) + ", not the game's position: → or End goes back to the game, and \"Play on\" goes on from here.", true);
            return;
        }
        const st = view.status;
        // after the end (or on a roll) the engine says why not
        if (st.kind === "over") return this.act(() => this.play(name));
        if (!game.personToMove()) return this.message("It is the engine's turn: switch its seat to a person to play it.", true);
        // a second click on the last name takes it back
        if (this.chosen.length && name === this.chosen[this.chosen.length - 1]) {
            this.chosen.pop();
            return this.render();
        }
        // a move built freely (a drawn line, past a list cut short) takes
        // any place; "Play it" sends it
        if (view.turn.free || (this.building(view) && !this.targets(view, true).has(name))) {
            this.chosen.push(name);
            return this.render();
        }
        const tried = this.chosen.concat([name]);
        if (this.targets(view, true).has(name)) {
            this.chosen = tried;
            const cands = this.candidates(view);
            const exact = cands.filter((m) => moveNames(view.geo, m).length === tried.length);
            if (exact.length && cands.length === exact.length) return this.act(() => this.play(exact[0]));
            return this.render();
        }
        // Not a legal continuation. Where every move joins two or more
        // names, a first click only starts one, so that the engine can
        // judge the whole move; Clear (or Esc) takes it back.
        const multi = view.moves.list.filter((m) => !view.geo.words.includes(m));
        if (!this.chosen.length && multi.length && multi.every((m) => moveNames(view.geo, m).length > 1)) {
            this.chosen = [name];
            this.render();
            return this.message("No legal move starts at " + name + ": click where it should go to hear why, or Clear.");
        }
        return this.act(() => this.play(tried.join(joiner(view.geo, view.moves.list))));
    }

    goTo(ply) {
        this.nav.goTo(this.game, ply).catch((e) => this.message(e));
    }

    async playFromHere() {
        const ply = this.nav.index(this.game);
        await this.quiesce();
        this.chosen = [];
        this.nav.reset();
        await this.game.undoTo(ply);
        this.game.drive();
    }

    async loadRecord() {
        const lines = $("record")
            .value.split("\n")
            .map((l) => l.trim())
            .filter((l) => l && !l.startsWith("#"));
        $("record-note").textContent = "";
        if (!lines.length || !lines[0].startsWith("newgame ")) return this.message("The record must start with a newgame line.", true);
        const bad = lines.findIndex((l) => !/^(newgame|play|roll)\s/.test(l + " "));
        if (bad >= 0) return this.message("Record line " + (bad + 1) + ": a record holds only newgame, play and roll lines.", true);
        await this.quiesce();
        const failed = await this.game.load(lines);
        if (failed) {
            this.message("Record line " + failed.line + ": " + failed.text + " (nothing loaded)", true);
        } else {
            this.afterNewGame();
            $("record-note").textContent = "loaded " + lines.length + (lines.length === 1 ? " line" : " lines");
        }
        this.game.drive();
    }

    async copyRecord() {
        const text = this.game.view.history.join("\n");
        const area = $("record");
        area.value = text;
        this.recordDirty = false;
        area.select();
        // execCommand works wherever the page has the focus; the clipboard
        // API may wait for a permission that never comes: a second at most
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

    async restart() {
        $("dead").hidden = true;
        this.buttons();
        this.analysis.gen = 0;
        this.nav.close();
        this.game.engine.close();
        await this.game.restart(await openEngine());
        this.game.drive();
    }

    // ---- wiring

    wire() {
        const act = (fn) => () => this.act(fn);
        $("new-btn").addEventListener("click", () => this.dialog.open(this.game.view && this.game.view.info.name));
        $("rules-btn").addEventListener("click", () => this.rules());
        $("new-rules").addEventListener("click", () => this.rules($("game-select").value));
        $("rules-close").addEventListener("click", () => $("rules-dialog").close());
        $("undo-btn").addEventListener("click", act(() => this.undo()));
        $("stop-btn").addEventListener("click", act(() => this.stop()));
        $("roll-btn").addEventListener("click", act(() => this.roll()));
        const face = act(() => this.roll($("face").value.trim() || "?"));
        $("face-btn").addEventListener("click", face);
        $("face").addEventListener("keydown", (e) => e.key === "Enter" && face());
        $("builder-play").addEventListener("click", act(() => this.play(this.chosen.join(joiner(this.game.view.geo, this.game.view.moves.list)))));
        $("builder-back").addEventListener("click", () => (this.chosen.pop(), this.render()));
        $("builder-clear").addEventListener("click", () => this.clearChosen());
        $("move-form").addEventListener("submit", (e) => {
            e.preventDefault();
            const m = $("move-input").value.trim().toLowerCase();
            if (!m) return;
            $("move-input").value = "";
            this.act(() => this.play(m));
        });
        $("analysis-toggle").addEventListener("change", () => {
            this.analysis.on = $("analysis-toggle").checked;
            if (!this.analysis.on) this.analysis.stop().then(() => this.render());
            else this.render();
        });
        $("nav-first").addEventListener("click", () => this.goTo(0));
        $("nav-back").addEventListener("click", () => this.nav.step(this.game, -1).catch((e) => this.message(e)));
        $("nav-forward").addEventListener("click", () => this.nav.step(this.game, 1).catch((e) => this.message(e)));
        $("nav-last").addEventListener("click", () => this.goTo(Infinity));
        $("nav-play").addEventListener("click", act(() => this.playFromHere()));
        $("copy-btn").addEventListener("click", act(() => this.copyRecord()));
        $("review-btn").addEventListener("click", act(() => this.analysis.reviewGame(reviewer(), this.game.view.history)));
        $("load-btn").addEventListener("click", act(() => this.loadRecord()));
        $("record").addEventListener("input", () => (this.recordDirty = true));
        $("restart-btn").addEventListener("click", act(() => this.restart()));
        document.addEventListener("keydown", (e) => this.key(e));
        let resize = 0;
        window.addEventListener("resize", () => {
            clearTimeout(resize);
            resize = setTimeout(() => this.render(), 100);
        });
        setInterval(() => this.game && P.tickClocks(this.game), 250);
    }

    clearChosen() {
        this.chosen = [];
        this.message("");
        this.render();
    }

    rules(name) {
        const n = name || (this.game && this.game.view ? this.game.view.info.name : $("game-select").value);
        const g = this.games.find((x) => x.name === n);
        openRules(n, g && g.title, skinOf(n));
    }

    key(e) {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        // keys typed into a field are the field's (a checkbox takes none)
        const t = e.target;
        if (/^(TEXTAREA|SELECT)$/.test(t.tagName) || (t.tagName === "INPUT" && t.type !== "checkbox")) return;
        if ($("new-dialog").open || $("rules-dialog").open || !this.game) return;
        const k = e.key;
        const step = (by) => this.nav.step(this.game, by).catch((err) => this.message(err));
        if (k === "n") this.dialog.open(this.game.view && this.game.view.info.name);
        else if (k === "h") this.rules();
        else if (k === "u") this.act(() => this.undo());
        else if (k === "a") $("analysis-toggle").click();
        else if (k === "Escape" && this.chosen.length) this.clearChosen();
        else if (k === "s" || k === "Escape") this.act(() => this.stop());
        else if (k === "r" && !$("roll-btn").disabled) this.act(() => this.roll());
        else if (k === "m") $("move-input").focus();
        else if (k === "ArrowLeft") step(-1);
        else if (k === "ArrowRight") step(1);
        else if (k === "Home" || k === "ArrowUp") this.goTo(0);
        else if (k === "End" || k === "ArrowDown") this.goTo(Infinity);
        else return;
        e.preventDefault();
    }
}

const app = new Controller();
app.wire();
app.boot().catch((e) => app.message(e));
// the end-to-end test reaches the page's engine here (to end a worker
// as a crash would); nothing in the page reads it
window.quintetPage = app;
if (inWorker()) document.documentElement.dataset.engine = "worker";
