/* contents.c: the board as any frontend reads it: the cells of a game's
 * geometry, and its contents written as the `contents` command answers
 * (protocol.md, "Discovery").  The game fills struct game_contents; the
 * words here are the same for every game. */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int game_cells(const struct game *g, const void *st, struct game_cell **cells)
{
	struct text geo;
	text_init(&geo);
	g->geometry(st, &geo);
	int n = 0, cap = 0;
	struct game_cell *v = NULL;
	for (const char *line = geo.s; line && *line;) {
		const char *end = strchr(line, '\n');
		struct game_cell c;
		if (sscanf(line, "cell %15s %lf %lf", c.name, &c.x, &c.y) ==
		    3) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				struct game_cell *w =
					realloc(v, sizeof *v * (size_t)cap);
				if (!w) {
					free(v);
					text_free(&geo);
					return -1;
				}
				v = w;
			}
			v[n++] = c;
		}
		line = end ? end + 1 : NULL;
	}
	text_free(&geo);
	*cells = v;
	return n;
}

/* Word k of a space-separated list, into buf (size bytes); "" when the
 * list is shorter. */
static void word_of(const char *words, int k, char *buf, size_t size)
{
	buf[0] = '\0';
	for (const char *p = words; p && *p;) {
		p += strspn(p, " ");
		size_t len = strcspn(p, " ");
		if (!len)
			break;
		if (k-- == 0) {
			snprintf(buf, size, "%.*s", (int)len, p);
			return;
		}
		p += len;
	}
}

/* " kind K" where the game names its kinds. */
static void put_kind(const struct game *g, int kind, struct text *out)
{
	char w[32];
	word_of(g->kinds, kind, w, sizeof w);
	if (w[0])
		text_printf(out, " kind %s", w);
}

int game_write_contents(const struct game *g, const void *st, struct text *out)
{
	struct game_cell *cells;
	int n = game_cells(g, st, &cells);
	if (n < 0)
		return -1;
	struct game_site *site = calloc((size_t)n + 1, sizeof *site);
	if (!site) {
		free(cells);
		return -1;
	}
	struct game_contents c = {.site = site};
	g->contents(st, &c);
	size_t start = out->len;
	for (int i = 0; i < n; i++) {
		const struct game_site *s = &site[i];
		if (!s->count && !s->tags && !s->zone)
			continue;
		text_printf(out, "at %s", cells[i].name);
		if (s->count && s->owner)
			text_printf(out, " owner %d", s->owner);
		if (s->count)
			put_kind(g, s->kind, out);
		if (s->count && (s->count != 1 || c.stacks))
			text_printf(out, " count %d", s->count);
		if (s->zone)
			text_printf(out, " zone %d", s->zone);
		for (int b = 0, first = 1; b < 8; b++) {
			char w[32];
			if (!(s->tags >> b & 1))
				continue;
			word_of(g->tags, b, w, sizeof w);
			text_printf(out, "%s%s", first ? " tag " : ",", w);
			first = 0;
		}
		text_putc(out, '\n');
	}
	struct game_sides sd = {.sides = g->players(st)};
	if (g->sides)
		g->sides(st, &sd);
	int kinds = 0;
	for (char w[32]; word_of(g->kinds, kinds, w, sizeof w), w[0];)
		kinds++;
	if (kinds == 0)
		kinds = 1;
	for (int p = 0; c.hands && p < sd.sides; p++)
		for (int k = 0; k < kinds; k++) {
			text_printf(out, "hand %d", p + 1);
			put_kind(g, k, out);
			text_printf(out, " count %d\n", c.hand[p][k]);
		}
	for (int p = 0; p < sd.sides; p++)
		for (int k = 0; k < kinds; k++) {
			if (!c.store[p][k])
				continue;
			text_printf(out, "store %d", p + 1);
			put_kind(g, k, out);
			text_printf(out, " count %d\n", c.store[p][k]);
		}
	if (c.die)
		text_printf(out, "die %d\n", c.die);
	if (g->drawing)
		g->drawing(st, out);
	if (out->len > start && out->s[out->len - 1] == '\n')
		out->s[--out->len] = '\0';
	free(site);
	free(cells);
	return 0;
}
