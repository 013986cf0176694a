// Stepping through the game: any earlier position shown without touching
// the game being played. The position after history line P is asked of a
// second engine of the tab's own (the viewer), which replays the record's
// first P lines from its newgame line (protocol.md, "history": fed to a
// fresh engine it rebuilds the same game) and answers the snapshot; the
// live engine never replays or undoes anything for the navigation, so a
// genmove thinking there is never disturbed and the game cannot be
// corrupted. Snapshots are kept by their record, so stepping back and
// forth asks the viewer once per position.

import { SNAPSHOT, readSnapshot } from "./game.js";

const KEEP = 600; // snapshots kept: a long Take-Back-Toe game has more

export class Navigator {
    // open(): a new engine for the viewer; changed(): the shown position
    // or its loading changed.
    constructor(open, changed) {
        this.open = open;
        this.changed = changed;
        this.ply = null; // the position shown: null for the game's latest
        this.cache = new Map(); // record -> snapshot
        this.viewer = null;
        this.viewerKey = null; // the record the viewer's game holds now
        this.asked = 0; // numbers the requests: only the latest is shown
        this.loading = false;
    }

    remember(view) {
        if (!view) return;
        this.cache.delete(view.key);
        this.cache.set(view.key, view);
        if (this.cache.size > KEEP) this.cache.delete(this.cache.keys().next().value);
    }

    live() {
        return this.ply === null;
    }

    // The position shown, of the game GAME (a Game): its latest snapshot,
    // or the earlier one the person stepped to (while it loads, the one
    // shown before).
    shown(game) {
        if (this.ply === null || !game.view) return game.view;
        return this.cache.get(recordTo(game.view.history, this.ply)) || this.last || game.view;
    }

    // The index of the position shown: 0 the start, n after n lines.
    index(game) {
        if (!game.view) return 0;
        return this.ply === null ? game.view.history.length - 1 : this.ply;
    }

    // Shows the position after history line PLY (the latest: the game).
    async goTo(game, ply) {
        if (!game.view) return;
        const n = game.view.history.length - 1;
        ply = Math.max(0, Math.min(n, ply));
        this.last = this.shown(game);
        this.ply = ply === n ? null : ply;
        const ask = ++this.asked;
        if (this.ply === null || this.cache.has(recordTo(game.view.history, ply))) {
            this.loading = false;
            this.changed();
            return;
        }
        this.loading = true;
        this.changed();
        try {
            const view = await this.fetch(game.view.history.slice(0, ply + 1));
            this.remember(view);
        } finally {
            if (ask === this.asked) {
                this.loading = false;
                this.changed();
            }
        }
    }

    step(game, by) {
        return this.goTo(game, this.index(game) + by);
    }

    // The viewer engine, holding the game of record LINES (for the
    // analysis of an earlier position too). Answers it.
    async viewerAt(lines) {
        const key = lines.join("\n");
        if (this.viewer && this.viewerKey === key) return this.viewer;
        await this.fetch(lines);
        return this.viewer;
    }

    async fetch(lines) {
        if (!this.viewer || this.viewer.dead) this.viewer = await this.open();
        this.viewerKey = null;
        let a;
        try {
            a = await this.viewer.run(lines.concat(SNAPSHOT), true);
        } catch (e) {
            this.viewer = null; // died: a new one next time
            throw e;
        }
        const bad = a.findIndex((x) => !x.ok);
        if (bad >= 0) throw new Error("the record's line " + (bad + 1) + " failed in the viewer: " + a[bad].text);
        this.viewerKey = lines.join("\n");
        return readSnapshot(a.slice(lines.length));
    }

    // A new game, or a record loaded: back to the game's latest position.
    reset() {
        this.ply = null;
        this.asked++;
        this.loading = false;
    }

    close() {
        if (this.viewer) this.viewer.close();
        this.viewer = null;
    }
}

// The record of the position after line PLY of HISTORY.
export function recordTo(history, ply) {
    return history.slice(0, ply + 1).join("\n");
}
