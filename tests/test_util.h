/* test_util.h: helpers shared by the Check unit tests.
 *
 * Each tests/test_*.c is its own program: it defines `static Suite
 * *suite(void)` and ends with TEST_MAIN().  The helpers drive the engine in
 * memory through engine_line, exactly as a frontend would through the pipe. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine.h"
#include "../games/game.h"
#include "../games/util/rng.h"

/* Sends one line; returns the whole framed response ("= c3\n\n"), valid
 * until the next call. */
static inline const char *send_line(struct session *s, const char *line)
{
	static struct text out;
	if (!out.s)
		text_init(&out);
	text_clear(&out);
	engine_line(s, line, strlen(line), 0, &out);
	return out.s;
}

/* Sends one line and returns the response text without "= " and the final
 * empty line; fails the test when the command fails.  Valid until the next
 * call. */
static inline const char *ok(struct session *s, const char *line)
{
	static char buf[1 << 16];
	const char *r = send_line(s, line);
	ck_assert_msg(r[0] == '=', "'%s' failed: %s", line, r);
	const char *body = strchr(r, ' ') + 1;
	size_t n = strlen(body);
	ck_assert(n >= 2 && n - 2 < sizeof buf);
	memcpy(buf, body, n - 2);
	buf[n - 2] = '\0';
	return buf;
}

/* Sends one line that must fail; returns the message (valid until the next
 * call). */
static inline const char *bad(struct session *s, const char *line)
{
	static char buf[1 << 12];
	const char *r = send_line(s, line);
	ck_assert_msg(r[0] == '?', "'%s' should fail, got: %s", line, r);
	snprintf(buf, sizeof buf, "%s", strchr(r, ' ') + 1);
	return buf;
}

/* Copies a response into a buffer of its own (the helpers' buffers are
 * reused by the next call); the test fails when it does not fit.  Use
 * KEEP(buf, ok(s, "showboard")) with a char array buf. */
static inline void keep(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	ck_assert_msg(n < size, "response of %zu bytes does not fit", n);
	memcpy(dst, src, n + 1);
}
#define KEEP(buf, str) keep(buf, sizeof buf, str)

/* snprintf that fails the test rather than cut a line short. */
__attribute__((format(printf, 3, 4))) static inline void
fit(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	ck_assert_msg(n >= 0 && (size_t)n < size, "%s: too long", buf);
}

/* Sends "play M" for every move of xs and os (space-separated) alternately,
 * xs first: two players' moves written as two lists. */
static inline void play_both(struct session *s, const char *xs, const char *os)
{
	char a[512], b[512], cmd[32];
	snprintf(a, sizeof a, "%s", xs);
	snprintf(b, sizeof b, "%s", os);
	char *pa, *pb, *x = strtok_r(a, " ", &pa), *o = strtok_r(b, " ", &pb);
	while (x || o) {
		if (x) {
			snprintf(cmd, sizeof cmd, "play %s", x);
			ok(s, cmd);
			x = strtok_r(NULL, " ", &pa);
		}
		if (o) {
			snprintf(cmd, sizeof cmd, "play %s", o);
			ok(s, cmd);
			o = strtok_r(NULL, " ", &pb);
		}
	}
}

/* A quiet session (no search log on stderr). */
static inline struct session *quiet_session(void)
{
	struct session *s = session_new();
	session_set_log(s, NULL);
	return s;
}

/* Sets up a game state directly through struct game (no engine). */
static inline void *new_state(const struct game *g, const char *opts,
			      uint64_t seed)
{
	char err[GAME_ERR_MAX];
	void *st = game_new_state(g, opts, seed, err);
	ck_assert_msg(st != NULL, "init %s: %s", opts, err);
	return st;
}

/* Plays the move written as text (must be legal) on st. */
static inline void play_text(const struct game *g, void *st, const char *text)
{
	struct move mv = {{0}}; /* -O3 cannot see that ck_assert stops */
	char err[GAME_ERR_MAX] = "";
	ck_assert_msg(g->parse(st, text, &mv, err) == 0, "%s: %s", text, err);
	g->play(st, &mv);
}

/* Plays uniformly random moves on st (seeded by seed) until the game stops
 * for good or a roll is due, or `most` moves; keeps each position before
 * a move in trail (state_size bytes each; room for `most`) and returns
 * how many.  list: room for max_moves moves. */
static inline int random_trail(const struct game *g, void *st, uint64_t seed,
			       int most, unsigned char *trail,
			       struct move *list)
{
	size_t ss = g->state_size;
	struct rng r;
	rng_seed(&r, seed);
	int len = 0;
	while (len < most && g->status(st).phase == GAME_PLAY) {
		memcpy(trail + ss * (size_t)len++, st, ss);
		int n = g->moves(st, list);
		ck_assert_int_gt(n, 0);
		g->play(st, &list[rng_below(&r, (uint32_t)n)]);
	}
	return len;
}

/* Plays the moves of `line`, written as text and separated by spaces. */
static inline void play_line(const struct game *g, void *st, const char *line)
{
	char buf[4096], *save;
	ck_assert((size_t)snprintf(buf, sizeof buf, "%s", line) < sizeof buf);
	for (char *m = strtok_r(buf, " ", &save); m;
	     m = strtok_r(NULL, " ", &save))
		play_text(g, st, m);
}

/* Whether g sets up from opts (written as in newgame). */
static inline int takes_options(const struct game *g, const char *opts)
{
	char err[GAME_ERR_MAX];
	void *st = game_new_state(g, opts, 1, err);
	free(st);
	return st != NULL;
}

/* Calls fn(g, opts) for every game of the table with its defaults ("")
 * and with each variant its own option table names, one option set away
 * from its default at a time where the game takes it alone: each on/off
 * option on, each value of an enum, the smallest value of an int other
 * than its default (the cheap end of a board size).  No game is named:
 * a game added to the table is covered with its variants. */
typedef void variant_fn(const struct game *g, const char *opts);

static inline void each_variant(variant_fn *fn)
{
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		fn(g, ""); /* (which must take its defaults) */
		for (const struct game_option_spec *o = g->options; o && o->key;
		     o++) {
			char opts[128];
			if (o->type == OPT_BOOL) {
				snprintf(opts, sizeof opts, "%s", o->key);
				if (takes_options(g, opts))
					fn(g, opts);
			} else if (o->type == OPT_ENUM) {
				char vals[128];
				snprintf(vals, sizeof vals, "%s", o->values);
				for (char *sv = NULL,
					  *w = strtok_r(vals, " ", &sv);
				     w; w = strtok_r(NULL, " ", &sv)) {
					snprintf(opts, sizeof opts, "%s=%s",
						 o->key, w);
					if ((!o->def || strcmp(w, o->def)) &&
					    takes_options(g, opts))
						fn(g, opts);
				}
			} else if (o->type == OPT_INT) {
				for (long v = o->min; v <= o->max; v++) {
					if (o->def && v == atol(o->def))
						continue;
					snprintf(opts, sizeof opts, "%s=%ld",
						 o->key, v);
					if (takes_options(g, opts)) {
						fn(g, opts);
						break;
					}
				}
			}
		}
	}
}

#define TEST_MAIN()                                                            \
	int main(void)                                                         \
	{                                                                      \
		SRunner *sr = srunner_create(suite());                         \
		srunner_run_all(sr, CK_NORMAL);                                \
		int failed = srunner_ntests_failed(sr);                        \
		srunner_free(sr);                                              \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;                   \
	}

#endif
