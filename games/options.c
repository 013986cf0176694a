/* options.c: what newgame accepts, for a new-game dialog (the
 * `option_info` command, protocol.md "Discovery"): each option's domain
 * with the other options as chosen, found by asking the game's own init,
 * its default, and what its table says it requires and excludes.  Asking
 * init keeps the answer true by construction: a game states its rules
 * once, in init, and the dialog can offer only what newgame accepts. */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A range wider than this is not tried value by value: its ends are found
 * by bisection, taking what init accepts for an interval (Take-Back-Toe's
 * maxturns, 1 to 1,000,000). */
#define SCAN_MAX 64

struct trial {
	const struct game *g;
	const struct game_options *chosen;
	void *st; /* state_size bytes of scratch */
};

/* Whether init accepts the chosen options with `key` left out (value
 * NULL) or set to value; seed 1 (or seed, for the default's test). */
static int accepts_seed(const struct trial *t, const char *key,
			const char *value, uint64_t seed)
{
	struct game_options o = {0};
	char err[GAME_ERR_MAX];
	for (int i = 0; i < t->chosen->n; i++) {
		const struct game_option *v = &t->chosen->v[i];
		if (strcmp(v->key, "seed") && strcmp(v->key, key))
			o.v[o.n++] = (struct game_option){v->key, v->value, 0};
	}
	if (value) {
		if (o.n == GAME_MAX_OPTIONS)
			return 0;
		o.v[o.n++] = (struct game_option){key, value, 0};
	}
	return game_setup(t->g, t->st, &o, seed, err) == 0;
}

static int accepts(const struct trial *t, const char *key, const char *value)
{
	return accepts_seed(t, key, value, 1);
}

static int accepts_int(const struct trial *t, const char *key, long v)
{
	char buf[24];
	snprintf(buf, sizeof buf, "%ld", v);
	return accepts(t, key, buf);
}

/* The value of key= in the describe() of the game the chosen options
 * (key left out) start with seed `seed`, into buf; "" when it has none or
 * the options are refused. */
static void described(const struct trial *t, const char *key, uint64_t seed,
		      char *buf, size_t size)
{
	buf[0] = '\0';
	if (!accepts_seed(t, key, NULL, seed))
		return;
	struct text d;
	text_init(&d);
	t->g->describe(t->st, &d);
	size_t klen = strlen(key);
	for (const char *p = d.s; p && *p;) {
		size_t len = strcspn(p, " ");
		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, size, "%.*s", (int)(len - klen - 1),
				 p + klen + 1);
			break;
		}
		p += len;
		p += strspn(p, " ");
	}
	text_free(&d);
}

/* The default of option o with the other options as chosen: what the
 * game writes for it when it is left out, if two seeds agree (else
 * chance decides: none); the table's default when the game writes none. */
static const char *default_of(const struct trial *t,
			      const struct game_option_spec *o, char *buf,
			      size_t size)
{
	char other[128];
	described(t, o->key, 1, buf, size);
	if (!buf[0])
		return o->def;
	described(t, o->key, 2, other, sizeof other);
	return strcmp(buf, other) ? NULL : buf;
}

/* An int option's values with the others as chosen: " min A max B" for an
 * interval, " values ..." (which the caller writes last) otherwise. */
static void int_domain(const struct trial *t, const struct game_option_spec *o,
		       const char *def, struct text *out)
{
	long lo = o->min, hi = o->max;
	if (hi - lo > SCAN_MAX) {
		/* bisect each end from a value it accepts */
		long mid = def ? strtol(def, NULL, 10) : lo;
		if (!accepts_int(t, o->key, mid))
			mid = accepts_int(t, o->key, lo) ? lo : hi;
		if (!accepts_int(t, o->key, mid)) {
			text_puts(out, " values");
			return;
		}
		long a = lo, b = mid; /* lowest accepted in [a, b] */
		while (a < b) {
			long m = a + (b - a) / 2;
			if (accepts_int(t, o->key, m))
				b = m;
			else
				a = m + 1;
		}
		long lowest = a;
		a = mid, b = hi; /* highest accepted in [a, b] */
		while (a < b) {
			long m = b - (b - a) / 2;
			if (accepts_int(t, o->key, m))
				a = m;
			else
				b = m - 1;
		}
		text_printf(out, " min %ld max %ld", lowest, a);
		return;
	}
	char ok[SCAN_MAX + 1];
	long first = -1, last = -1, holes = 0;
	for (long v = lo; v <= hi; v++) {
		ok[v - lo] = (char)accepts_int(t, o->key, v);
		if (!ok[v - lo])
			continue;
		if (first < 0)
			first = v;
		else if (!ok[v - 1 - lo])
			holes = 1;
		last = v;
	}
	if (first >= 0 && !holes) {
		text_printf(out, " min %ld max %ld", first, last);
		return;
	}
	text_puts(out, " values");
	for (long v = lo; v <= hi; v++)
		if (ok[v - lo])
			text_printf(out, " %ld", v);
}

/* The values of an enum or on/off option init accepts with the others as
 * chosen: " values ...". */
static void word_domain(const struct trial *t, const struct game_option_spec *o,
			struct text *out)
{
	const char *words = o->type == OPT_BOOL ? "0 1" : o->values;
	text_puts(out, " values");
	for (const char *p = words; p && *p;) {
		char w[32];
		size_t len = strcspn(p, " ");
		snprintf(w, sizeof w, "%.*s", (int)len, p);
		if (len && accepts(t, o->key, w))
			text_printf(out, " %s", w);
		p += len;
		p += strspn(p, " ");
	}
}

/* The chosen value of key, as written ("1" for a bare on/off word), or
 * NULL. */
static const char *chosen_value(const struct game_options *c, const char *key,
				enum opt_type type)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].key, key))
			return type == OPT_BOOL && !c->v[i].value[0]
				       ? "1"
				       : c->v[i].value;
	return NULL;
}

int game_option_info(const struct game *g, const struct game_options *chosen,
		     struct text *out)
{
	static const char *const types[] = {"int", "bool", "enum", "string"};
	struct trial t = {g, chosen, malloc(g->state_size)};
	if (!t.st)
		return -1;
	const char *seed = chosen_value(chosen, "seed", OPT_INT);
	text_printf(out, "seed type int");
	if (seed)
		text_printf(out, " value %s", seed);
	text_printf(out, " min 0 max %lld", (long long)INT64_MAX);
	for (const struct game_option_spec *o = g->options; o && o->key; o++) {
		char buf[128];
		const char *def = default_of(&t, o, buf, sizeof buf);
		const char *v = chosen_value(chosen, o->key, o->type);
		struct text dom;
		text_init(&dom);
		text_printf(out, "\n%s type %s", o->key, types[o->type]);
		if (v)
			text_printf(out, " value %s", v);
		if (def)
			text_printf(out, " default %s", def);
		if (o->type == OPT_INT)
			int_domain(&t, o, def, &dom);
		if (dom.len && strncmp(dom.s, " values", 7)) {
			text_puts(out, dom.s);
			text_clear(&dom);
		}
		if (o->requires)
			text_printf(out, " requires %s", o->requires);
		if (o->excludes)
			text_printf(out, " excludes %s", o->excludes);
		if (o->pattern)
			text_printf(out, " pattern %s", o->pattern);
		if (o->example)
			text_printf(out, " example %s", o->example);
		if (o->type == OPT_BOOL || o->type == OPT_ENUM)
			word_domain(&t, o, out);
		if (dom.len)
			text_puts(out, dom.s);
		text_free(&dom);
	}
	free(t.st);
	return 0;
}
