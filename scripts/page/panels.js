// The panels beside the board, each drawn from the position shown and
// the game: the status line and the tab's title, the players (seats,
// clocks, scores, what they hold), the controls under the board (words,
// the die, the move being built, typed moves), the analysis list and the
// evaluation bar. Functions of what they are given; the controller
// (main.js) owns the state and wires the callbacks.

import { el, text, swatch } from "./svg.js";
import { levelName } from "./game.js";

const $ = (id) => document.getElementById(id);

// ---- words about players

function sideOf(view, p) {
    return (view && view.info.sides[p - 1]) || { n: p, name: null, colour: null, mark: null, playedBy: p };
}

// The players who play as one with p (game_info's team lines), p included.
function teamOf(view, p) {
    return (view && view.info.teams.find((t) => t.includes(p))) || [p];
}

export function winners(view, p) {
    const t = teamOf(view, p);
    return t.length > 1 ? "players " + t.slice(0, -1).join(", ") + " and " + t[t.length - 1] : "player " + p;
}

// What the player to move must do, in the engine's words (turn_info's
// prompt, as the skin words it); at the end, who won.
export function statusText(view, ctx) {
    const st = view && view.status;
    if (!st) return "";
    if (st.kind === "over") return st.player ? "game over: " + winners(view, st.player) + " won" : "game over: a draw";
    let s = view.turn.prompt || "player " + st.player + " to move";
    if (ctx.skin.prompt) s = ctx.skin.prompt(s);
    // a side named by the letter showboard draws: by the colour the
    // board draws it in
    for (const side of view.info.sides) {
        const name = side && side.mark && ctx.colourName(side.n);
        if (name) s = s.split("mark " + side.mark).join(name);
    }
    if (!ctx.live) return "move " + ctx.index + " of " + ctx.last + ": " + s;
    return s + (ctx.game.seatOf(st.player).kind === "engine" ? " (the engine's seat)" : "");
}

// The tab's title: whose move it is, then the game.
export function tabTitle(view, ctx) {
    const st = view && view.status;
    if (!st) return "quintet";
    const game = view.info.title || view.info.name;
    let who;
    if (st.kind === "over") who = st.player ? winners(view, st.player) + " won" : "a draw";
    else {
        const engine = ctx.game.seatOf(st.player).kind === "engine";
        const persons = ctx.game.seats.filter((s) => s.kind === "person").length;
        const act = st.kind === "roll" ? "roll" : "move";
        if (engine) who = "player " + st.player + " (engine) to " + act;
        else if (persons === 1) who = "your " + act;
        else who = "player " + st.player + " to " + act;
        who = who.charAt(0).toUpperCase() + who.slice(1);
    }
    return who + " · " + game + " · quintet";
}

// What a side holds off the board (contents' hand and store lines).
function holdings(view, side) {
    const parts = [];
    const kinds = (list) => list.filter((h) => h.side === side);
    // what is left to place, while anything is
    const hand = kinds(view.contents.hand);
    if (hand.length && view.contents.hand.some((h) => h.count)) parts.push(hand.map((h) => h.count + (h.kind ? " " + h.kind : "")).join(", ") + " to place");
    const store = kinds(view.contents.store).filter((h) => h.count);
    if (store.length) parts.push("captured " + store.map((h) => h.count + " " + (h.kind || (h.count === 1 ? "piece" : "pieces"))).join(", "));
    return parts.join("; ");
}

// What player p's scoring units add up to, one phrase per kind.
function unitsText(view, p) {
    const kinds = new Map();
    for (const u of view.units) {
        if (u.player !== p || u.kind === "win") continue;
        (kinds.get(u.kind) || kinds.set(u.kind, []).get(u.kind)).push(u);
    }
    const parts = [];
    for (const [kind, us] of kinds) {
        const what = (u) => u.pieces + " " + (u.colour || (u.pieces === 1 ? "piece" : "pieces")) + " = " + u.points;
        const pts = us.reduce((t, u) => t + u.points, 0);
        if (us.some((u) => u.pieces)) parts.push(kind + " " + us.map(what).join(", "));
        else parts.push(us.length + " " + kind + (us.length === 1 ? "" : "s") + " = " + pts);
    }
    return parts.join("; ");
}

// The line under a player's number: their name in the rules, the sides
// they place besides their own (with the colour the board draws), their
// team, what they hold, what their score is made of.
function extra(view, p, ctx) {
    const node = document.createElement("div");
    node.className = "extra";
    const parts = [];
    const side = sideOf(view, p);
    if (side.name) parts.push(side.name.charAt(0).toUpperCase() + side.name.slice(1));
    const team = teamOf(view, p).filter((q) => q !== p);
    if (team.length) parts.push("team with player " + team.join(", "));
    const own = holdings(view, p);
    if (own && !(view.status.kind === "over" && unitsText(view, p))) parts.push(own);
    // at the end, what the score is made of (which says the captures too)
    const units = unitsText(view, p);
    if (units && (view.status.kind === "over" || !own)) parts.push(units);
    if (view.turn.out.includes(p)) parts.push("(left the game)");
    node.append(parts.join("; "));
    for (const o of view.info.sides) {
        if (!o || o.n <= view.info.players || o.playedBy !== p) continue;
        const also = document.createElement("div");
        also.append("also places ", swatch(ctx.colourOf(o.n), 12), " side " + o.n + "'s pieces");
        const h = holdings(view, o.n);
        if (h) also.append(" (" + h + ")");
        node.append(also);
    }
    return node.textContent ? node : null;
}

function fmtClock(s) {
    if (s <= 0) return "0:00 (time is up)";
    const m = Math.floor(s / 60);
    const sec = Math.floor(s % 60);
    return m + ":" + String(sec).padStart(2, "0");
}

// The seat select's words: "a person", "the engine, beginner".
function seatWords(game, p) {
    const lv = levelName(game.seatOf(p).level, game.topLevel()).replace(/ \(.*/, "");
    return ["a person", "the engine, " + lv];
}

export function renderPlayers(view, ctx) {
    const t = $("players");
    t.textContent = "";
    const game = ctx.game;
    for (let p = 1; p <= game.seats.length; p++) {
        const tr = t.insertRow();
        tr.dataset.player = p;
        if (view.status.kind !== "over" && view.status.player === p) tr.className = "mover";
        tr.insertCell().appendChild(swatch(ctx.colourOf(p), 18));
        const name = tr.insertCell();
        name.className = "name";
        name.append("player " + p);
        const x = extra(view, p, ctx);
        if (x) name.appendChild(x);
        const sel = document.createElement("select");
        sel.setAttribute("aria-label", "player " + p + " is played by");
        const [person, engine] = seatWords(game, p);
        sel.add(new Option(person, "person"));
        sel.add(new Option(engine, "engine"));
        sel.value = game.seatOf(p).kind;
        sel.addEventListener("change", () => ctx.onSeat(p, sel.value));
        tr.insertCell().appendChild(sel);
        if (game.clock.kind !== "none") {
            const clock = tr.insertCell();
            clock.className = "clock";
            clock.textContent = fmtClock(game.clockLeft(p));
        }
        const sc = tr.insertCell();
        sc.className = "score";
        sc.textContent = view.score[p - 1] === undefined ? "" : view.score[p - 1];
        sc.title = "score";
    }
    const st = view.status;
    $("result").textContent =
        st.kind === "over" ? (st.player ? "P" + winners(view, st.player).slice(1) + " won. " : "A draw. ") + "Final score: " + view.score.join(" : ") : "";
    // the scores in words with three players or more, and what they count
    $("score-note").textContent =
        (st.kind === "over" && game.seats.length > 2 ? view.score.map((v, i) => "player " + (i + 1) + " " + v).join(", ") + ". " : "") + (ctx.skin.score || "");
}

// The clocks, every quarter second.
export function tickClocks(game) {
    if (game.clock.kind === "none" || !game.view) return;
    for (let p = 1; p <= game.seats.length; p++) {
        const e = document.querySelector('#players tr[data-player="' + p + '"] .clock');
        if (!e) continue;
        const left = game.clockLeft(p);
        e.textContent = fmtClock(left);
        e.classList.toggle("low", left < 10);
    }
}

// ---- the controls under the board

const PIPS = {
    1: [[0, 0]],
    2: [[-1, -1], [1, 1]],
    3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

// The die: the face contents says it shows; blank while a roll is due.
function drawDie(n) {
    const svg = $("die");
    svg.textContent = "";
    el("rect", { x: -0.5, y: -0.5, width: 1, height: 1, rx: 0.15, fill: "#fff", stroke: "#333", "stroke-width": 0.05 }, svg);
    if (PIPS[n]) for (const [x, y] of PIPS[n]) el("circle", { cx: x * 0.27, cy: y * 0.27, r: 0.09, fill: "#222" }, svg);
    else if (n) text(svg, 0, 0, String(n), { "font-size": 0.6 });
    $("die").setAttribute("aria-label", n ? "the die shows " + n : "the die: not rolled yet");
}

// ctx: live (the game's latest position is shown), mine (a person acts
// there now), chosen (names clicked so far), building (the move is built
// freely: a drawn line, or a list cut short), joiner.
export function renderControls(view, ctx) {
    const st = view.status;
    const act = ctx.live && ctx.mine;
    const words = $("words");
    words.textContent = "";
    for (const w of view.geo.words) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = w;
        b.dataset.word = w;
        // a word is a move: it waits while a roll is due, and where the
        // list is whole, a word it leaves out (and turn_info's `also`
        // does not name) is no move now
        const legal = view.moves.list.includes(w) || view.turn.also.includes(w);
        b.disabled = !act || st.kind !== "play" || (!ctx.building && !legal);
        if (legal) b.classList.add("legal");
        b.addEventListener("click", () => ctx.onWord(w));
        words.appendChild(b);
    }
    const roll = view.info.roll;
    $("dice").hidden = !roll || st.kind === "over";
    $("roll-btn").disabled = !(st.kind === "roll" && act);
    $("face-btn").disabled = $("roll-btn").disabled;
    $("face").disabled = $("roll-btn").disabled;
    if (roll) {
        $("face").min = Math.min(...roll.faces);
        $("face").max = Math.max(...roll.faces);
        drawDie(view.contents.die || 0);
        $("die-note").textContent = st.kind === "roll" ? (act ? "roll the die:" : "a roll is due") : view.contents.die ? "rolled " + view.contents.die : "";
    }
    $("builder").hidden = !act || !(ctx.chosen.length || ctx.building);
    $("builder-text").textContent = ctx.chosen.join(ctx.joiner) || "(click the places in turn)";
    $("builder-label").textContent = ctx.building ? (view.turn.free ? "Your line:" : "Your move:") : "Chosen so far:";
    $("builder-play").hidden = !ctx.building;
    $("builder-play").disabled = ctx.chosen.length < 1;
    $("builder-back").disabled = !ctx.chosen.length;
    $("builder-clear").disabled = !ctx.chosen.length;
    $("move-input").disabled = !act;
    $("move-form").querySelector("button").disabled = !act;
    const legal = view.moves.list.length;
    $("legal").textContent =
        st.kind === "play" && ctx.live
            ? view.turn.free
                ? "a free move: play judges it"
                : legal + (view.moves.truncated ? " or more" : "") + (legal === 1 ? " legal move" : " legal moves")
            : "";
}

// ---- analysis and evaluation

// A value for a person: the mover's chance to win in percent, or in the
// solo puzzle the points side 1 can expect; ! where the solver proved
// it. On the board without the % sign (the list beside it says it), so
// that a value fits between four pieces on a phone.
export function valueText(c, solo, bare) {
    return (solo ? c.value.toFixed(1) : Math.round(c.value * 100) + (bare ? "" : "%")) + (c.proven ? "!" : "");
}

export function valueWords(c, p, solo) {
    if (solo) return c.proven ? c.proven + " points for side 1 for sure" : c.value.toFixed(1) + " points expected for side 1";
    const proven = { win: "a sure win", loss: "a sure loss", draw: "a sure draw" }[c.proven];
    return proven ? proven + " for player " + p : Math.round(c.value * 100) + "% chance to win for player " + p;
}

export function valueColour(v, best, solo) {
    const t = solo ? (best > 0 ? v / best : 0) : v;
    return "hsl(" + Math.round(Math.max(0, Math.min(1, t)) * 120) + ",75%,30%)";
}

// The list of candidates beside the board; hidden with nothing to say.
export function renderCandidates(view, ctx) {
    const an = ctx.analysis;
    const box = $("analysis-box");
    const cands = an.candsFor(view);
    const solo = view.info.players === 1;
    const mover = view.status.player;
    let note = "";
    if (an.on) {
        if (view.status.kind === "roll") note = "The analysis starts once the die is rolled.";
        else if (view.status.kind === "over") note = "";
        else if (view.turn.free) note = "This move is drawn freely: the engine cannot list it to analyse.";
        else if (an.key === view.key && an.text) note = an.text;
        else if (cands.length)
            note =
                (solo ? "The points side 1 can expect after each move" : "Player " + mover + "'s chance to win after each move, in %") +
                " (! proven); on the board the best in blue, then the line expected: 2, 3, ..." +
                (view.moves.list.length > cands.length ? " Valued " + cands.length + " of " + view.moves.list.length + " moves so far." : "");
        else if (ctx.live && !ctx.game.personToMove()) note = "The analysis runs while a person is to move.";
    }
    box.hidden = !an.on || !note;
    $("analysis-note").textContent = note;
    const ol = $("candidates");
    ol.textContent = "";
    cands.slice(0, 5).forEach((c, k) => {
        const li = document.createElement("li");
        if (k === 0) li.className = "best";
        li.textContent = c.move + "  " + (c.proven ? "proven " + c.proven : valueText(c, solo)) + "  " + c.visits + " visits";
        li.title = c.move + ": " + valueWords(c, mover, solo);
        if (k === 0 && c.pv.length > 1) li.title += "; best line: " + c.pv.join(" ");
        ol.appendChild(li);
    });
}

// The players (or teams) a chance is split between, for the bar and the
// graph: two sides, or none where three or more play alone.
export function twoSides(view) {
    if (view.info.players === 2) return [[1], [2]];
    if (view.info.teams.length === 2) return view.info.teams;
    return null;
}

// An evaluation as the first side's chance (two sides), the mover's
// chance (more), or mark 1's points (solo).
export function firstSideValue(view, e) {
    const sides = twoSides(view);
    if (!sides) return e.value;
    return sides[0].includes(e.player) ? e.value : 1 - e.value;
}

export function renderEvalBar(view, ctx) {
    const e = ctx.analysis.evals.get(view.key);
    const sides = twoSides(view);
    const bar = $("eval-bar");
    bar.textContent = "";
    if (e && sides) {
        const v = Math.round(firstSideValue(view, e) * 100);
        const a = document.createElement("span");
        a.style.width = v + "%";
        a.style.background = ctx.colourOf(sides[0][0]);
        const b = document.createElement("span");
        b.style.width = 100 - v + "%";
        b.style.background = ctx.colourOf(sides[1][0]);
        bar.append(a, b);
    }
    const who = (s) => (s.length > 1 ? "players " + s.join(" and ") : "player " + s[0]);
    $("eval-text").textContent = e
        ? sides
            ? who(sides[0]) + ": " + Math.round(firstSideValue(view, e) * 100) + "% chance to win" + (e.proven ? " (proven " + e.proven + " for player " + e.player + ")" : "")
            : view.info.players === 1
              ? "side 1 can expect " + e.value.toFixed(1) + " points"
              : "player " + e.player + ": " + Math.round(e.value * 100) + "% chance to win"
        : view.status.kind === "over"
          ? "the game is over"
          : "no evaluation of this position yet";
}
