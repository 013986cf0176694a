/* game.c: helpers shared by every game: options, legality, square names. */
#include "game.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int game_fail(char *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, GAME_ERR_MAX, fmt, ap);
	va_end(ap);
	return -1;
}

static struct game_option *find(struct game_options *o, const char *key)
{
	for (int i = 0; i < o->n; i++)
		if (strcmp(o->v[i].key, key) == 0) {
			o->v[i].used = 1;
			return &o->v[i];
		}
	return NULL;
}

int opt_int(struct game_options *o, const char *key, long min, long max,
	    long *out, char *err)
{
	struct game_option *p = find(o, key);
	if (!p)
		return 0;
	const char *s = p->value;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < min || v > max) {
		snprintf(err, GAME_ERR_MAX,
			 "%s must be a number from %ld to %ld", key, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int opt_flag(struct game_options *o, const char *key, int *out, char *err)
{
	struct game_option *p = find(o, key);
	if (!p)
		return 0;
	if (!*p->value || strcmp(p->value, "1") == 0)
		*out = 1;
	else if (strcmp(p->value, "0") == 0)
		*out = 0;
	else {
		snprintf(err, GAME_ERR_MAX,
			 "%s is on/off: write %s, %s=1 or %s=0", key, key, key,
			 key);
		return -1;
	}
	return 0;
}

const char *opt_str(struct game_options *o, const char *key)
{
	struct game_option *p = find(o, key);
	return p ? p->value : NULL;
}

/* Refuses an option the game does not read, saying what it does read. */
static int unknown_option(const struct game *g, const void *st, const char *key,
			  char *err)
{
	char k[64], known[160] = "";
	game_clean(key, k, sizeof k);
	if (!strcmp(key, "players"))
		return game_fail(err,
				 "%s is a game for %d players: it has no "
				 "players option",
				 g->name, g->players(st));
	if (!strcmp(key, "first"))
		return game_fail(err,
				 "%s has no first= option: its rules fix who "
				 "starts (player %d)",
				 g->name, g->status(st).player);
	size_t n = 0;
	for (const struct game_option_spec *o = g->options;
	     o && o->key && n < sizeof known; o++)
		n += (size_t)snprintf(known + n, sizeof known - n, " %s",
				      o->key);
	return game_fail(err, "unknown option %s for %s (its options:%s seed)",
			 k, g->name, known);
}

int game_setup(const struct game *g, void *st, struct game_options *o,
	       uint64_t seed, char *err)
{
	memset(st, 0, g->state_size);
	err[0] = '\0';
	if (g->init(st, o, seed, err) < 0) {
		if (!err[0])
			game_fail(err, "bad options for %s", g->name);
		return -1;
	}
	for (int i = 0; i < o->n; i++)
		if (!o->v[i].used)
			return unknown_option(g, st, o->v[i].key, err);
	return 0;
}

int game_options_read(char **words, int n, struct game_options *o, char *err)
{
	o->n = 0;
	for (int i = 0; i < n; i++) {
		char c[64], *key = words[i], *eq = strchr(key, '=');
		game_clean(key, c, sizeof c);
		/* "first = 1" and "first= 1": the person put spaces around = */
		if (key == eq || (eq && !eq[1] && i + 1 < n) ||
		    (i + 1 < n && words[i + 1][0] == '='))
			return game_fail(err,
					 "bad option %s: write key=value with "
					 "no spaces around =",
					 c);
		if (eq)
			*eq = '\0';
		if (strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
		    strlen(key))
			return game_fail(err,
					 "bad option %s: write key=value or a "
					 "bare key (letters, digits and _)",
					 c);
		for (int j = 0; j < o->n; j++)
			if (!strcmp(o->v[j].key, key))
				return game_fail(err, "option %s given twice",
						 key);
		if (o->n == GAME_MAX_OPTIONS)
			return game_fail(err, "too many options (at most %d)",
					 GAME_MAX_OPTIONS);
		o->v[o->n++] = (struct game_option){key, eq ? eq + 1 : "", 0};
	}
	return 0;
}

int game_chance_pick(const struct game *g, const void *st, struct rng *r)
{
	int values[GAME_MAX_CHANCE];
	double probs[GAME_MAX_CHANCE];
	int n = g->chance(st, values, probs);
	if (n <= 0)
		return 0;
	double u = rng_unit(r);
	for (int i = 0; i < n - 1; i++) {
		if (u < probs[i])
			return values[i];
		u -= probs[i];
	}
	return values[n - 1];
}

void *game_new_state(const struct game *g, const char *opts, uint64_t seed,
		     char *err)
{
	struct game_options o = {0};
	char *buf = strdup(opts), *words[GAME_MAX_OPTIONS + 1], *save;
	void *st = calloc(1, g->state_size);
	int n = 0;
	if (!buf || !st) {
		game_fail(err, "out of memory");
		goto fail;
	}
	for (char *p = strtok_r(buf, " ", &save); p;
	     p = strtok_r(NULL, " ", &save))
		if (n <= GAME_MAX_OPTIONS)
			words[n++] = p;
	if (game_options_read(words, n, &o, err) < 0)
		goto fail;
	for (int i = 0; i < o.n; i++)
		o.v[i].used = !strcmp(o.v[i].key, "seed");
	if (game_setup(g, st, &o, seed, err) == 0) {
		free(buf);
		return st;
	}
fail:
	free(buf);
	free(st);
	return NULL;
}

void game_clean(const char *s, char *buf, size_t size)
{
	size_t n = 0;
	for (; *s && n + 4 < size; s++)
		buf[n++] = (*s > ' ' && *s < 127) ? *s : '?';
	if (*s)
		buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
	buf[n] = '\0';
}

void square_name(int x, int y, char *buf)
{
	sprintf(buf, "%c%d", 'a' + x, y + 1);
}

void square_cells(int cols, int rows, struct text *out)
{
	char name[16];
	for (int y = 0; y < rows; y++)
		for (int x = 0; x < cols; x++) {
			square_name(x, y, name);
			text_printf(out, "cell %s %d %d\n", name, x, y);
		}
}

int square_read(const char **s, int *x, int *y)
{
	const char *p = *s;
	if (*p < 'a' || *p > 'z' || p[1] < '1' || p[1] > '9')
		return -1;
	int col = *p++ - 'a', row = 0;
	/* at most two digits: no board is taller than 26 rows */
	for (int i = 0; i < 2 && *p >= '0' && *p <= '9'; i++)
		row = row * 10 + (*p++ - '0');
	if (*p >= '0' && *p <= '9')
		return -1;
	*x = col;
	*y = row - 1;
	*s = p;
	return 0;
}

const struct game_search game_search_defaults = {0};
