// The new-game dialog and the rules. The dialog is built from the engine:
// the games (list_games), each option a person may set and what newgame
// accepts with the options chosen so far (option_info, asked again after
// every change), and the seats of the game those options start
// (game_info NAME OPTIONS). The words for a person come from the game's
// skin where it has them, else from the option itself.

import { parseSpecs, parseGameInfo } from "./protocol.js";
import { COMMON_OPTIONS } from "./skins.js";
import { levelName, DEFAULT_LEVEL } from "./game.js";

const $ = (id) => document.getElementById(id);

function range(a, b) {
    const out = [];
    for (let i = a; i <= b; i++) out.push(i);
    return out;
}

export class NewGameDialog {
    // ask(line) -> {ok, text}; games: [{name, title, players}];
    // settings: list_settings by name; skinOf(name); seats(): the seats
    // of the game being played; start(line, seats, clock) -> the engine's
    // refusal or null.
    constructor(opts) {
        Object.assign(this, opts);
        this.specs = []; // the options of the game chosen, as last asked
        this.asked = 0;
        this.players = 2;
        this.fallback = new Map(); // list_options, for an engine without option_info
        const sel = $("game-select");
        for (const g of this.games) sel.add(new Option(g.title + " (" + g.name + ")", g.name));
        sel.addEventListener("change", () => this.build());
        $("options").addEventListener("change", () => this.reask());
        $("options").addEventListener("input", (e) => e.target.type !== "checkbox" && e.target.tagName !== "SELECT" && this.reask(300));
        $("clock-kind").addEventListener("change", () => this.clockFields());
        $("new-cancel").addEventListener("click", () => $("new-dialog").close());
        $("new-form").addEventListener("submit", (e) => {
            e.preventDefault();
            this.submit();
        });
        this.clockFields();
    }

    open(current) {
        $("new-error").textContent = "";
        if (current) $("game-select").value = current;
        this.build();
        $("new-dialog").showModal();
    }

    name() {
        return $("game-select").value;
    }

    // A new game chosen: its options afresh.
    build() {
        $("options").querySelectorAll("label").forEach((l) => l.remove());
        $("seats").querySelectorAll(".seat").forEach((l) => l.remove());
        this.specs = [];
        this.reask();
    }

    // Asks option_info with the options chosen so far (after WAIT ms of
    // quiet, while typing), then game_info for the seats.
    reask(wait) {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.ask_().catch((e) => ($("new-error").textContent = e.message)), wait || 0);
    }

    async ask_() {
        const n = ++this.asked;
        const name = this.name();
        const given = this.given();
        let a = await this.ask(["option_info", name].concat(given).join(" "));
        if (!a.ok && /^unknown command/.test(a.text)) {
            // an engine before option_info: list_options, asked once
            if (!this.fallback.has(name)) this.fallback.set(name, await this.ask("list_options " + name));
            a = this.fallback.get(name);
        }
        if (n !== this.asked) return; // a later change asked again
        $("new-error").textContent = a.ok ? "" : a.text;
        if (a.ok) this.apply(parseSpecs(a.text));
        const info = await this.ask(["game_info", name].concat(given).join(" "));
        if (n !== this.asked) return;
        if (!info.ok) {
            $("new-error").textContent = info.text;
            return;
        }
        this.players = parseGameInfo(info.text).players;
        this.buildSeats();
    }

    // The options as newgame words: those set away from their default.
    given() {
        const out = [];
        for (const input of $("options").querySelectorAll("[data-key]")) {
            const key = input.dataset.key;
            const v = input.type === "checkbox" ? (input.checked ? "1" : "0") : input.value.trim();
            if (v === "" || v === input.dataset.def) continue;
            out.push(key + "=" + v.replace(/\s+/g, ""));
        }
        return out;
    }

    // An option's words: [label, what an empty value means, {value: words}].
    words(spec) {
        const own = this.skinOf(this.name()).options || {};
        const w = own[spec.key] || COMMON_OPTIONS[spec.key] || [spec.key.charAt(0).toUpperCase() + spec.key.slice(1)];
        const out = { label: w[0], empty: null, values: {} };
        for (const x of w.slice(1)) {
            if (typeof x === "string") out.empty = x;
            else out.values = x;
        }
        return out;
    }

    // Fits the inputs to the specs, keeping what was typed or chosen.
    apply(specs) {
        const fs = $("options");
        const keep = new Set(specs.map((s) => s.key));
        fs.querySelectorAll("label[data-for]").forEach((l) => keep.has(l.dataset.for) || l.remove());
        for (const spec of specs) {
            let label = fs.querySelector('label[data-for="' + spec.key + '"]');
            if (!label) {
                label = this.input(spec);
                fs.appendChild(label);
            }
            this.fit(label, spec);
        }
        this.specs = specs;
    }

    input(spec) {
        const words = this.words(spec);
        const label = document.createElement("label");
        label.dataset.for = spec.key;
        label.append(words.label + " ");
        let input;
        const choice = spec.type === "enum" || (spec.type === "bool" && spec.def === null) || (spec.type === "int" && spec.def === null && spec.key !== "seed");
        if (spec.type === "bool" && !choice) {
            input = document.createElement("input");
            input.type = "checkbox";
            input.checked = (spec.value || spec.def) === "1";
            label.classList.add("check");
        } else if (choice) input = document.createElement("select");
        else {
            input = document.createElement("input");
            input.type = spec.type === "int" ? "number" : "text";
            // a string's default (a whole board) is its placeholder's
            input.value = spec.value || (spec.type === "int" ? spec.def || "" : "");
        }
        input.dataset.key = spec.key;
        input.id = "opt-" + spec.key;
        label.appendChild(input);
        const hint = document.createElement("span");
        hint.className = "hint";
        label.appendChild(hint);
        label.title = spec.key + "=";
        return label;
    }

    // What the engine accepts now: a select's values, a number's range, a
    // switch that cannot be turned on greyed with the reason.
    fit(label, spec) {
        const words = this.words(spec);
        const input = label.querySelector("[data-key]");
        const hint = label.querySelector(".hint");
        input.dataset.def = spec.def === null ? "" : spec.def;
        const say = (v) => words.values[v] || (spec.type === "bool" ? (v === "1" ? "yes" : "no") : spec.key === "first" ? "player " + v : v);
        let h = "";
        if (input.tagName === "SELECT") {
            const was = input.value;
            input.textContent = "";
            const empty = spec.def !== null ? say(spec.def) + " (default)" : words.empty || (spec.key === "first" ? "chance decides" : "the game's default");
            input.add(new Option(empty, ""));
            let vals = spec.values;
            if (!vals && spec.type === "int" && spec.min !== null) vals = range(+spec.min, +spec.max).map(String);
            if (!vals && spec.type === "bool") vals = ["1", "0"];
            for (const v of vals || []) if (v !== spec.def) input.add(new Option(say(v), v));
            input.value = [...input.options].some((o) => o.value === was) ? was : "";
        } else if (input.type === "checkbox") {
            const canOn = !spec.values || spec.values.includes("1");
            const canOff = !spec.values || spec.values.includes("0");
            input.disabled = (!canOn && !input.checked) || (!canOff && input.checked);
            if (!canOn) h = spec.requires.length ? "needs " + spec.requires.join(", ") : spec.excludes.length ? "not with " + spec.excludes.join(", ") : "not with these options";
        } else if (spec.type === "int") {
            if (spec.min !== null) input.min = spec.min;
            if (spec.max !== null) input.max = spec.max;
            if (spec.key === "seed") {
                input.placeholder = words.empty || "random";
                h = "a whole number; empty: a random game";
            } else if (spec.min !== null) h = "from " + spec.min + " to " + spec.max;
        } else {
            input.placeholder = words.empty || (spec.def ? "default " + spec.def : spec.example ? "e.g. " + spec.example : "");
            if (spec.pattern) input.dataset.pattern = spec.pattern;
        }
        hint.textContent = h;
        hint.hidden = !h;
    }

    // Fits the seat rows to the players of the game the options start,
    // keeping the rows there are (and what was chosen in them).
    buildSeats() {
        const fs = $("seats");
        const rows = fs.querySelectorAll(".seat");
        const n = Math.max(1, Math.min(this.players || 1, 8));
        rows.forEach((l, i) => i >= n && l.remove());
        const lv = this.settings.level || { min: "0", max: "2" };
        const mt = this.settings.movetime || { min: "1", max: "3600000", def: "1000" };
        const th = this.settings.threads || { min: "1", max: "1", def: "1" };
        const old = this.seats();
        for (let p = rows.length + 1; p <= n; p++) {
            const was = old[p - 1];
            const row = document.createElement("div");
            row.className = "seat";
            row.innerHTML = `<span class="who">player ${p}</span>
      <select data-seat="${p}" aria-label="player ${p} is played by"><option value="person">a person</option><option value="engine">the engine</option></select>
      <label>strength <select data-level="${p}"></select></label>
      <label>thinks <input type="number" data-movetime="${p}" min="${mt.min}" max="${mt.max}"> ms a move</label>
      <label>on <input type="number" data-threads="${p}" min="${th.min}" max="${th.max}"> threads</label>`;
            row.querySelector("[data-seat]").value = was ? was.kind : p === 1 ? "person" : "engine";
            const level = row.querySelector("[data-level]");
            for (const v of range(+lv.min, +lv.max)) level.add(new Option(levelName(v, +lv.max), String(v)));
            level.value = was ? was.level : Math.min(DEFAULT_LEVEL, +lv.max);
            row.querySelector("[data-movetime]").value = was ? was.movetime : mt.def;
            row.querySelector("[data-threads]").value = was ? was.threads : th.def;
            const kind = row.querySelector("[data-seat]");
            const engineOnly = () => row.querySelectorAll("label").forEach((l) => (l.hidden = kind.value !== "engine"));
            kind.addEventListener("change", engineOnly);
            engineOnly();
            fs.appendChild(row);
        }
    }

    // The clock's fields only where its kind has them.
    clockFields() {
        const kind = $("clock-kind").value;
        $("clock-main-label").hidden = kind === "none";
        $("clock-inc-label").hidden = kind !== "fischer";
        $("clock-none").hidden = kind !== "none";
    }

    async submit() {
        const line = ["newgame", this.name()].concat(this.given()).join(" ");
        const clock = { kind: $("clock-kind").value, main: +$("clock-main").value || 300, inc: +$("clock-inc").value || 0 };
        const seats = [];
        for (let p = 1; p <= $("seats").querySelectorAll(".seat").length; p++) {
            const q = (k) => document.querySelector(`[data-${k}="${p}"]`).value;
            seats.push({ kind: q("seat"), level: +q("level"), movetime: +q("movetime") || 1000, threads: +q("threads") || 1 });
        }
        const refused = await this.start(line, seats, clock);
        if (refused) $("new-error").textContent = refused;
        else $("new-dialog").close();
    }
}

// The rules of game NAME (its skin's words), over whatever is open.
export function openRules(name, title, skin) {
    $("rules-title").textContent = "How to play " + (title || name || "");
    $("rules-body").innerHTML =
        skin.rules ||
        "<p>The page has no description of this game. Click a highlighted place to move: the engine lists the legal moves, and its messages explain any other.</p>";
    $("rules-dialog").showModal();
}
