/* game.c: helpers shared by every game: options, legality, square names. */
#include "game.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int game_setup(const struct game *g, void *st, struct game_options *o,
	       uint64_t seed, char *err)
{
	memset(st, 0, g->state_size);
	err[0] = '\0';
	if (g->init(st, o, seed, err) < 0) {
		if (!err[0])
			snprintf(err, GAME_ERR_MAX, "bad options for %s",
				 g->name);
		return -1;
	}
	for (int i = 0; i < o->n; i++)
		if (!o->v[i].used) {
			char key[64];
			game_clean(o->v[i].key, key, sizeof key);
			snprintf(err, GAME_ERR_MAX, "unknown option %s for %s",
				 key, g->name);
			return -1;
		}
	return 0;
}

void *game_new_state(const struct game *g, const char *opts, uint64_t seed,
		     char *err)
{
	struct game_options o = {0};
	char *buf = strdup(opts);
	void *st = calloc(1, g->state_size);
	if (!buf || !st) {
		snprintf(err, GAME_ERR_MAX, "out of memory");
		goto fail;
	}
	char *save;
	for (char *p = strtok_r(buf, " ", &save); p;
	     p = strtok_r(NULL, " ", &save)) {
		if (o.n == GAME_MAX_OPTIONS) {
			snprintf(err, GAME_ERR_MAX, "too many options");
			goto fail;
		}
		char *eq = strchr(p, '=');
		if (eq)
			*eq = '\0';
		o.v[o.n++] = (struct game_option){p, eq ? eq + 1 : "",
						  !strcmp(p, "seed")};
	}
	if (game_setup(g, st, &o, seed, err) == 0) {
		free(buf);
		return st;
	}
fail:
	free(buf);
	free(st);
	return NULL;
}

int game_is_legal(const struct game *g, const void *st, const struct move *mv)
{
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	if (!list)
		return 0;
	int n = g->moves(st, list), found = 0;
	for (int i = 0; i < n && !found; i++)
		found = move_equal(&list[i], mv);
	free(list);
	return found;
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
