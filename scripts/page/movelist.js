// The move list (as lichess's): every line of the record after its
// newgame, with the player who made it, each a button that shows the
// position after it; the position shown is marked and kept in view. The
// list fills the room the side panel leaves it, in as many columns as fit.

import { swatch } from "./svg.js";

const $ = (id) => document.getElementById(id);

// history: the game's record; movers: who made each line (0: unknown);
// placed: whose pieces it placed where not the mover's (the solo puzzle's
// second side; 0 otherwise); marks: the review's mistakes [{ply, text}];
// index: the position shown; colourOf(side); onGo(ply).
export function renderMoveList(history, movers, placed, marks, index, colourOf, onGo) {
    const ol = $("move-list");
    ol.textContent = "";
    const byPly = new Map(marks.map((m) => [m.ply, m]));
    const item = (ply, label, who, side, cls) => {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.ply = ply;
        b.className = "ply " + (cls || "");
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = ply ? ply + "." : "";
        b.append(num);
        if (who) {
            const w = document.createElement("span");
            w.className = "who";
            w.append(swatch(colourOf(side || who), 12), "P" + who);
            b.append(w);
        }
        b.append(" " + label);
        b.title = (who ? "player " + who + ": " : "") + label + " (show the position after it)";
        const m = byPly.get(ply);
        if (m) {
            b.classList.add("mistake");
            b.title += "; " + m.text;
            const s = document.createElement("span");
            s.className = "mark";
            s.textContent = "?";
            b.append(s);
        }
        if (ply === index) {
            b.setAttribute("aria-current", "step");
            b.classList.add("current");
        }
        b.addEventListener("click", () => onGo(ply));
        li.append(b);
        ol.append(li);
        return b;
    };
    // the columns as wide as the longest move needs (up to a point)
    const longest = Math.max(4, ...history.slice(1).map((l) => l.replace(/^(play|roll) /, "").length));
    ol.style.setProperty("--move-ch", Math.min(longest, 18));
    item(0, "start", 0, 0, "start");
    history.slice(1).forEach((l, i) => {
        const roll = l.startsWith("roll ");
        item(i + 1, roll ? "roll " + l.slice(5) : l.replace(/^play /, ""), movers[i], placed[i], roll ? "roll" : "");
    });
    // the position shown in view, scrolling the list only
    const cur = ol.querySelector(".current");
    if (cur) {
        const top = cur.offsetTop - ol.offsetTop;
        if (top < ol.scrollTop) ol.scrollTop = top;
        else if (top + cur.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = top + cur.offsetHeight - ol.clientHeight;
    }
    $("nav-pos").textContent = index === history.length - 1 ? "move " + index + " (the game)" : "move " + index + " of " + (history.length - 1);
}

// The last move in words, who made it: beside the board.
export function lastMoveText(history, movers, index) {
    if (index < 1) return "";
    const line = history[index];
    const who = movers[index - 1] ? "player " + movers[index - 1] + " " : "";
    if (line.startsWith("roll ")) return "last: " + who + "rolled " + line.slice(5);
    return "last move: " + who + line.replace(/^play /, "");
}
