/* engine.c: the protocol loop and its table of commands.
 *
 * The framing is GTP version 2's (see protocol.md): `[id] name [args]` in,
 * `=[id] text` or `?[id] message` out, each response ending in an empty
 * line.  This file knows no game: it sees the current game only through
 * struct game (games/game.h) and asks games/ai/ai.h for computer moves.
 *
 * A session keeps the game as a stack of flat state copies, one per `play`,
 * `genmove` or `roll`, beside the text of each of those commands.  Undo is a
 * pop; history prints the texts.  A failed command pushes nothing, so it
 * cannot change the game.
 *
 * While the computer thinks, the engine keeps reading its input (a poll of
 * the input between search steps, through the reader below): a `stop`
 * waiting as the next line ends the thinking, and any line ends an
 * `analyze` stream.  Every other line waits its turn, so answers keep the
 * order of the input. */
#include "engine.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "games/ai/ai.h"
#include "games/game.h"

#define MAX_ARGS 40            /* tokens after the command name */
#define ID_LIMIT 2147483648ULL /* ids are below 2^31 */

/* Out of memory is fatal everywhere in the engine: a frontend is better
 * served by an engine that exits (status 1, a line on stderr) than by one
 * that answers half of what it was asked. */
static void out_of_memory(void)
{
	fputs("engine: out of memory\n", stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

/* ---- input: lines, read ahead while the engine thinks ----
 *
 * Bytes are read into `raw` and cut into lines in `line` (control bytes
 * dropped as they come, so they do not count towards the length bound);
 * complete lines wait in `queue` until the loop takes them.  While
 * thinking, the reader only reads ahead until one line is queued: all it
 * must know then is what the next line is. */
struct reader {
	const struct engine_io *io;
	char raw[1 << 16];
	size_t pos, n; /* raw[pos..n) not yet cut into lines */
	char *line;    /* the line being gathered */
	size_t len;
	int too_long;
	struct text queue; /* lines: a flag byte ('0', or '1' too long), the
			    * bytes, '\n' */
	size_t qpos;       /* where the next queued line starts */
	int eof;
};

/* Cuts raw bytes into lines until one line is complete or raw is used up.
 * Returns 1 when a line was queued. */
static int reader_cut(struct reader *r)
{
	while (r->pos < r->n) {
		char c = r->raw[r->pos++];
		if (c == '\n') {
			text_putc(&r->queue, r->too_long ? '1' : '0');
			text_put(&r->queue, r->line, r->len);
			text_putc(&r->queue, '\n');
			r->len = 0;
			r->too_long = 0;
			return 1;
		}
		if ((unsigned char)c < 32 && c != '\t')
			continue;
		if (r->len < LINE_MAX_BYTES - 1)
			r->line[r->len++] = c;
		else
			r->too_long = 1;
	}
	return 0;
}

/* At end of input a last line without '\n' still counts. */
static void reader_end(struct reader *r)
{
	r->eof = 1;
	if (r->len || r->too_long) {
		r->raw[0] = '\n';
		r->pos = 0;
		r->n = 1;
		reader_cut(r);
	}
}

/* Reads more input: waits for it when `wait`, else only takes what is
 * there already.  Returns -1 on end of input, 0 when nothing came, 1 when
 * bytes came. */
static int reader_fill(struct reader *r, int wait)
{
	if (r->eof)
		return -1;
	long got = r->io->read(r->io->ctx, r->raw, sizeof r->raw, wait);
	if (got == 0)
		return 0;
	if (got < 0) {
		reader_end(r);
		return -1;
	}
	r->pos = 0;
	r->n = (size_t)got;
	return 1;
}

/* The next queued line, or NULL; with `take` it leaves the queue. */
static const char *reader_peek(struct reader *r, size_t *len, int *too_long,
			       int take)
{
	if (r->qpos == r->queue.len) {
		text_clear(&r->queue);
		r->qpos = 0;
		if (!reader_cut(r))
			return NULL;
	}
	const char *p = r->queue.s + r->qpos;
	const char *nl = memchr(p, '\n', r->queue.len - r->qpos);
	*too_long = p[0] == '1';
	*len = (size_t)(nl - p) - 1;
	if (take)
		r->qpos = (size_t)(nl - r->queue.s) + 1;
	return p + 1;
}

/* While thinking: reads ahead without waiting until a line is queued.
 * Returns 1 when a line is waiting, or the input has ended. */
static int reader_line_waiting(struct reader *r)
{
	size_t len;
	int too_long;
	while (!reader_peek(r, &len, &too_long, 0))
		if (reader_fill(r, 0) <= 0)
			return r->eof;
	return 1;
}

/* Whether the waiting line is `[id] stop` (and nothing else). */
static int reader_stop_waiting(struct reader *r)
{
	size_t len;
	int too_long;
	if (!reader_line_waiting(r))
		return 0;
	const char *p = reader_peek(r, &len, &too_long, 0);
	if (!p || too_long)
		return 0;
	const char *end = p + len, *hash = memchr(p, '#', len);
	if (hash)
		end = hash;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	const char *id = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++; /* an id; engine_line judges it later */
	if (p > id && p < end && *p != ' ' && *p != '\t')
		return 0;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 4 || memcmp(p, "stop", 4))
		return 0;
	for (p += 4; p < end; p++)
		if (*p != ' ' && *p != '\t' && *p != 127)
			return 0;
	return 1;
}

/* ---- settings: `set NAME VALUE` and `list_settings` ---- */

struct settings {
	long long movetime, playouts, level, seed, hash, threads, ponder,
		verbose, overhead;
};

struct session;

struct setting {
	const char *name;
	const char *type;        /* as list_settings writes it: int or bool */
	long long def, min, max; /* def < 0: none (the seed: from newgame) */
	size_t field;            /* offsetof(struct settings, ...) */
	void (*changed)(struct session *s);
};

static void seed_changed(struct session *s);
static void search_changed(struct session *s);
static void hash_changed(struct session *s);
static void threads_changed(struct session *s);

#define FIELD(f) offsetof(struct settings, f)
static const struct setting settings[] = {
	/* milliseconds genmove may think, without a clock */
	{"movetime", "int", 1000, 1, 3600000, FIELD(movetime), NULL},
	/* a fixed budget of playouts; 0: the clock decides */
	{"playouts", "int", 0, 0, 1000000000, FIELD(playouts), search_changed},
	/* 0 random, 1 greedy, 2 to 8 for people to beat, 9 full strength */
	{"level", "int", AI_LEVEL_MAX, 0, AI_LEVEL_MAX, FIELD(level),
	 search_changed},
	/* seeds the engine's own random choices (search and roll) */
	{"seed", "int", -1, 0, INT64_MAX, FIELD(seed), seed_changed},
	/* megabytes the search may hold */
	{"hash", "int", 64, 1, 65536, FIELD(hash), hash_changed},
	/* threads a search runs on (protocol.md, "Settings") */
	{"threads", "int", 1, 1, AI_THREADS_MAX, FIELD(threads),
	 threads_changed},
	/* think on after genmove while waiting for input */
	{"ponder", "bool", 0, 0, 1, FIELD(ponder), NULL},
	/* the search line on standard error */
	{"verbose", "bool", 1, 0, 1, FIELD(verbose), NULL},
	/* milliseconds of each move kept for the frontend, under a clock */
	{"overhead", "int", 50, 0, 60000, FIELD(overhead), NULL},
};
#define NSETTINGS (sizeof settings / sizeof settings[0])

static long long *setting_value(struct settings *v, const struct setting *t)
{
	return (long long *)((char *)v + t->field);
}

/* ---- clocks: time_settings, kgs-time_settings, time_left ---- */

/* The time control, and each player's account of it.  Until a time_left
 * arrives the engine keeps the accounts itself: the settings, less its own
 * measured thinking, plus increments and new overtime periods. */
struct clock {
	int on;
	struct ai_clock set;                        /* as set: a full account */
	struct ai_clock left[GAME_MAX_PLAYERS + 1]; /* by player */
};

/* After player p's own move of `ms` milliseconds, as the engine measured
 * it from reading the command to answering (timeman.c keeps the account). */
static void clock_spend(struct clock *c, int p, double ms, double overhead)
{
	ai_clock_spend(&c->left[p], &c->set, ms, overhead);
}

static void clock_restart(struct clock *c)
{
	for (int p = 0; p <= GAME_MAX_PLAYERS; p++)
		c->left[p] = c->set;
}

/* ---- the session ---- */

struct session {
	const struct game *game; /* NULL before the first newgame */
	unsigned char *states;   /* nstates copies of game->state_size bytes */
	size_t nstates, cap;
	struct text hist;   /* the commands that made states 1..n-1 */
	size_t *hist_off;   /* where each of those starts in hist */
	uint64_t seed;      /* the game's seed, as history writes it */
	int from_position;  /* newgame gave a position: history writes it */
	struct move *moves; /* scratch list of game->max_moves moves */
	/* Two random streams, so that rolls never depend on how long or how
	 * often the engine thought: `roll` draws from one, and every search
	 * takes exactly one draw from the other. */
	struct rng roll_rng, search_rng;
	int rng_fixed; /* `set seed` was given: newgame seeds from it */
	struct settings set;
	struct clock clock;
	struct ai *ai;
	FILE *log;
	/* the command being answered */
	char id[16];     /* its id, "" for none */
	double start_ms; /* when it was read */
	/* where answers go (engine_run); in memory: in == NULL, io NULL */
	struct reader *in;
	struct text *out;
	const struct engine_io *io;
	int out_failed;
	int ponder_due; /* the last command was genmove: ponder (set ponder 1)
			 * before waiting for input */
};

static void *state_at(struct session *s, size_t i)
{
	return s->states + i * s->game->state_size;
}

static void *top(struct session *s)
{
	return state_at(s, s->nstates - 1);
}

/* Pushes a copy of the current state for a command that changes it, and
 * records the command's text for history.  Returns the new top state. */
static void *push(struct session *s, const char *cmd)
{
	size_t size = s->game->state_size;
	if (s->nstates == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->states = xrealloc(s->states, s->cap * size);
		s->hist_off =
			xrealloc(s->hist_off, s->cap * sizeof *s->hist_off);
	}
	memcpy(state_at(s, s->nstates), top(s), size);
	s->hist_off[s->nstates] = s->hist.len;
	text_puts(&s->hist, cmd);
	text_putc(&s->hist, '\n');
	s->nstates++;
	return top(s);
}

/* Seeds both streams (newgame): from `set seed`'s value when one was
 * given, so that the same commands after it give the same answers however
 * many games came before; else from the game's seed. */
static void reseed(struct session *s)
{
	if (s->rng_fixed) {
		uint64_t v = (uint64_t)s->set.seed;
		rng_seed(&s->roll_rng, v);
		rng_seed(&s->search_rng, v ^ 0x7365617263684dULL);
		return;
	}
	rng_seed(&s->roll_rng, s->seed ^ 0x656e67696e65ULL);
	rng_seed(&s->search_rng, s->seed ^ 0x7365617263684dULL);
}

static void seed_changed(struct session *s)
{
	s->rng_fixed = 1;
	reseed(s);
	ai_forget(s->ai);
}

static void search_changed(struct session *s)
{
	ai_forget(s->ai);
}

static void hash_changed(struct session *s)
{
	ai_set_hash(s->ai, (long)s->set.hash);
}

static void threads_changed(struct session *s)
{
	ai_set_threads(s->ai, (int)s->set.threads);
}

/* Writes what is answered so far (engine_run only). */
static void flush_out(struct session *s)
{
	if (!s->io || !s->out || s->out_failed)
		return;
	size_t off = 0;
	while (off < s->out->len) {
		long w = s->io->write(s->io->ctx, s->out->s + off,
				      s->out->len - off);
		if (w <= 0) {
			s->out_failed = 1;
			break;
		}
		off += (size_t)w;
	}
	text_clear(s->out);
}

/* ---- small helpers for the handlers ---- */

/* Reads a whole decimal number in [min, max].  No sign, no blanks, no
 * trailing text: strtoll alone would accept " 12x". */
static int read_number(const char *s, long long min, long long max,
		       long long *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno == ERANGE || v > (unsigned long long)max ||
	    (long long)v < min)
		return -1;
	*out = (long long)v;
	return 0;
}

/* Reads seconds, with decimals ("2", "0.05"), into milliseconds in
 * [0, 10^9].  A negative time is refused as any other bad value: a clock
 * that ran out has 0 left. */
static int read_seconds(const char *s, double *ms)
{
	double v = 0, scale = 1;
	int digits = 0, dot = 0;
	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = 1;
		} else if (*s >= '0' && *s <= '9' && digits < 15) {
			digits++;
			if (dot)
				scale /= 10, v += (*s - '0') * scale;
			else
				v = v * 10 + (*s - '0');
		} else {
			return -1;
		}
	}
	if (!digits || v > 1e6)
		return -1;
	*ms = v * 1000;
	return 0;
}

static int fail(struct text *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct text *out, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	text_puts(out, buf);
	return -1;
}

/* Reads a player argument: a number; the name or colour game_info gives
 * a player (Tiptoe's white is player 1, checkertoe's black player 2); or
 * else b/w (black/white) for players 1/2 of a two-player game, as GTP
 * clients send colours.  `n` players. */
static int read_player(struct session *s, int n, const char *arg, int *player,
		       struct text *out)
{
	long long v;
	if (read_number(arg, 1, n, &v) == 0) {
		*player = (int)v;
		return 0;
	}
	if (s->game) {
		struct game_sides sd = {.sides = n};
		if (s->game->sides)
			s->game->sides(top(s), &sd);
		for (int p = 0; p < n; p++)
			if ((sd.name[p] && !strcmp(arg, sd.name[p])) ||
			    (sd.colour[p] && !strcmp(arg, sd.colour[p]))) {
				*player = p + 1;
				return 0;
			}
	}
	if (n == 2 && (!strcmp(arg, "b") || !strcmp(arg, "black"))) {
		*player = 1;
		return 0;
	}
	if (n == 2 && (!strcmp(arg, "w") || !strcmp(arg, "white"))) {
		*player = 2;
		return 0;
	}
	char c[40];
	game_clean(arg, c, sizeof c);
	const char *marks = s->game ? s->game->marks : NULL, *m;
	char up = arg[0] >= 'a' && arg[0] <= 'z' ? (char)(arg[0] - 32) : arg[0];
	if (marks && up && !arg[1] && (m = strchr(marks, up)) && m - marks < n)
		return fail(out,
			    "no player %s: the board's %c is player %d; write "
			    "%d%s",
			    c, *m, (int)(m - marks) + 1, (int)(m - marks) + 1,
			    n == 2 ? (m == marks ? " (or b)" : " (or w)") : "");
	if (n == 1)
		return fail(out, "no player %s: the only player is 1", c);
	return fail(out, "no player %s: players are 1 %s %d%s", c,
		    n == 2 ? "and" : "to", n, n == 2 ? " (or b and w)" : "");
}

/* The game must wait for a move (of `who`, when given). */
static int need_turn(struct session *s, int argc, char **argv, struct text *out)
{
	struct game_status st = s->game->status(top(s));
	if (st.phase == GAME_OVER)
		return fail(out, "the game is over");
	if (st.phase == GAME_ROLL)
		return fail(out,
			    "player %d must roll first (roll, or roll N for a "
			    "die you threw)",
			    st.player);
	if (argc > 0) {
		int who = 0;
		if (read_player(s, s->game->players(top(s)), argv[0], &who,
				out) < 0)
			return -1;
		if (who != st.player)
			return fail(out,
				    "it is player %d's turn, not player %d's",
				    st.player, who);
	}
	return 0;
}

/* The `stop` callback of a genmove or hint: a waiting `stop` line. */
static int stop_requested(void *ctx)
{
	struct session *s = ctx;
	return s->in && reader_stop_waiting(s->in);
}

/* The `stop` callback of analyze: any waiting line, or the end of input
 * (in memory, with no input to watch, at once). */
static int line_waiting(void *ctx)
{
	struct session *s = ctx;
	return !s->in || reader_line_waiting(s->in);
}

/* The `stop` callback of pondering: any input at all, a byte or the end. */
static int input_waiting(void *ctx)
{
	struct reader *r = ((struct session *)ctx)->in;
	if (r->pos < r->n || r->qpos < r->queue.len || r->eof)
		return 1;
	return reader_fill(r, 0) != 0;
}

/* What a search of the current position may do.  Each search takes one
 * draw of the search stream; `peek` draws from a copy, so that hint and
 * analyze leave the stream as it was. */
static void search_setup(struct session *s, struct ai_search *how,
			 struct ai_clock *clock, int peek)
{
	struct rng copy = s->search_rng;
	*how = (struct ai_search){0};
	how->level = (int)s->set.level;
	how->playouts = (long)s->set.playouts;
	how->movetime_ms = (double)s->set.movetime;
	how->overhead_ms = (double)s->set.overhead;
	how->start_ms = s->start_ms;
	how->seed = rng_next(peek ? &copy : &s->search_rng);
	how->stop = stop_requested;
	how->ctx = s;
	if (s->clock.on) {
		*clock = s->clock.left[s->game->status(top(s)).player];
		how->clock = clock;
	}
}

/* ---- command handlers ----
 *
 * Each handler gets the arguments after the command name (their count
 * already checked against the table, a game already there when the table
 * says the command needs one, and every argument lowercased) and writes
 * either the response text or the error message into out, returning 0 or
 * -1.  A handler that wrote its whole answer itself (analyze's stream)
 * returns 1. */

struct command;
static const struct command *find_command(const char *name);

/* protocol_version: "2". */
static int cmd_protocol_version(struct session *s, int argc, char **argv,
				struct text *out)
{
	(void)s, (void)argc, (void)argv;
	text_puts(out, "2");
	return 0;
}

/* name: the engine's name. */
static int cmd_name(struct session *s, int argc, char **argv, struct text *out)
{
	(void)s, (void)argc, (void)argv;
	text_puts(out, ENGINE_NAME);
	return 0;
}

/* version: the engine's version. */
static int cmd_version(struct session *s, int argc, char **argv,
		       struct text *out)
{
	(void)s, (void)argc, (void)argv;
	text_puts(out, ENGINE_VERSION);
	return 0;
}

/* known_command NAME: "true" or "false". */
static int cmd_known_command(struct session *s, int argc, char **argv,
			     struct text *out)
{
	(void)s, (void)argc;
	text_puts(out, find_command(argv[0]) ? "true" : "false");
	return 0;
}

static int cmd_list_commands(struct session *s, int argc, char **argv,
			     struct text *out);
static int cmd_help(struct session *s, int argc, char **argv, struct text *out);

/* quit: an empty answer; the loop then ends. */
static int cmd_quit(struct session *s, int argc, char **argv, struct text *out)
{
	(void)s, (void)argc, (void)argv, (void)out;
	return 0;
}

/* list_games: one line per game, "NAME TITLE: SUMMARY". */
static int cmd_list_games(struct session *s, int argc, char **argv,
			  struct text *out)
{
	(void)s, (void)argc, (void)argv;
	for (int i = 0; game_table[i]; i++)
		text_printf(out, "%s%s %s: %s", i ? "\n" : "",
			    game_table[i]->name, game_table[i]->title,
			    game_table[i]->summary);
	return 0;
}

/* list_options NAME: the newgame options of game NAME, one a line, in the
 * form of list_settings.  Fails: an unknown game. */
static int cmd_list_options(struct session *s, int argc, char **argv,
			    struct text *out)
{
	(void)s, (void)argc;
	const struct game *g = game_find(argv[0]);
	if (!g) {
		char c[64];
		game_clean(argv[0], c, sizeof c);
		return fail(out, "unknown game %s (list_games lists them)", c);
	}
	static const char *const types[] = {"int", "bool", "enum", "string"};
	text_printf(out, "seed type int min 0 max %lld", (long long)INT64_MAX);
	for (const struct game_option_spec *o = g->options; o && o->key; o++) {
		text_printf(out, "\n%s type %s", o->key, types[o->type]);
		if (o->def)
			text_printf(out, " default %s", o->def);
		if (o->type == OPT_INT)
			text_printf(out, " min %ld max %ld", o->min, o->max);
		if (o->type == OPT_ENUM)
			text_printf(out, " values %s", o->values);
	}
	return 0;
}

/* Whether a newgame read a key that only `position` writes: history must
 * then write the position it started from, not the set-up options. */
static int from_position(const struct game *g, const struct game_options *o)
{
	for (int i = 0; i < o->n; i++) {
		const struct game_option_spec *spec = g->options;
		while (spec && spec->key && strcmp(spec->key, o->v[i].key))
			spec++;
		if (strcmp(o->v[i].key, "seed") && (!spec || !spec->key))
			return 1;
	}
	return 0;
}

/* The seed= of a newgame (marked used), or one from the clock. */
static int newgame_seed(struct game_options *opt, uint64_t *seed,
			struct text *out)
{
	for (int i = 0; i < opt->n; i++) {
		if (strcmp(opt->v[i].key, "seed"))
			continue;
		long long v;
		if (read_number(opt->v[i].value, 0, INT64_MAX, &v) < 0)
			return fail(out, "seed must be a number from 0 to %lld",
				    (long long)INT64_MAX);
		opt->v[i].used = 1;
		*seed = (uint64_t)v;
		return 0;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct rng r;
	rng_seed(&r, (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
			     (uint64_t)getpid());
	*seed = rng_next(&r) >> 1; /* fits the seed= range */
	return 0;
}

/* newgame NAME [key=value ...]: starts a new game of NAME from its options
 * or from a position.  Fails: unknown game, bad or unknown option, values
 * the game refuses; the current game is kept.  Restarts the clock
 * accounts and drops the search tree. */
/* The state `newgame NAME key=value ...` (argv, argc words) starts, in
 * memory the caller frees, with its game, options and seed; NULL after
 * writing the reason to out (unknown game, bad options, a set-up the game
 * refuses). */
static unsigned char *setup(int argc, char **argv, const struct game **g,
			    struct game_options *opt, uint64_t *seed,
			    struct text *out)
{
	char err[GAME_ERR_MAX];
	*g = game_find(argv[0]);
	if (!*g) {
		char c[64];
		game_clean(argv[0], c, sizeof c);
		fail(out, "unknown game %s (list_games lists them)", c);
		return NULL;
	}
	*opt = (struct game_options){0};
	*seed = 0;
	if (game_options_read(argv + 1, argc - 1, opt, err) < 0) {
		fail(out, "%s", err);
		return NULL;
	}
	if (newgame_seed(opt, seed, out) < 0)
		return NULL;
	unsigned char *st = xrealloc(NULL, (*g)->state_size);
	if (game_setup(*g, st, opt, *seed, err) < 0) {
		free(st);
		fail(out, "%s", err);
		return NULL;
	}
	return st;
}

static int cmd_newgame(struct session *s, int argc, char **argv,
		       struct text *out)
{
	const struct game *g;
	struct game_options opt;
	uint64_t seed;
	unsigned char *st = setup(argc, argv, &g, &opt, &seed, out);
	if (!st)
		return -1;
	s->game = g;
	s->nstates = 1;
	s->cap = 64;
	s->states = xrealloc(s->states, s->cap * g->state_size);
	s->hist_off = xrealloc(s->hist_off, s->cap * sizeof *s->hist_off);
	memcpy(s->states, st, g->state_size);
	free(st);
	s->moves = xrealloc(s->moves, sizeof *s->moves * (size_t)g->max_moves);
	text_clear(&s->hist);
	s->seed = seed;
	s->from_position = from_position(g, &opt);
	reseed(s);
	clock_restart(&s->clock);
	ai_forget(s->ai);
	return 0;
}

/* status: "play P", "roll P", "over P" or "over draw". */
static int cmd_status(struct session *s, int argc, char **argv,
		      struct text *out)
{
	(void)argc, (void)argv;
	struct game_status st = s->game->status(top(s));
	if (st.phase == GAME_OVER && st.player == 0)
		text_puts(out, "over draw");
	else
		text_printf(out, "%s %d",
			    st.phase == GAME_PLAY   ? "play"
			    : st.phase == GAME_ROLL ? "roll"
						    : "over",
			    st.player);
	return 0;
}

/* moves: the legal moves, space-separated, in the game's fixed order; a
 * list cut short at the game's max_moves ends with "...". */
static int cmd_moves(struct session *s, int argc, char **argv, struct text *out)
{
	(void)argc, (void)argv;
	const void *st = top(s);
	int n = s->game->moves(st, s->moves);
	char buf[MOVE_TEXT_MAX];
	for (int i = 0; i < n; i++) {
		s->game->format(st, &s->moves[i], buf);
		if (i)
			text_putc(out, ' ');
		text_puts(out, buf);
	}
	if (s->game->moves_cut && s->game->moves_cut(st))
		text_puts(out, n ? " ..." : "...");
	return 0;
}

/* Plays mv on a pushed copy and records it as `play TEXT`. */
static void commit_move(struct session *s, const struct move *mv,
			struct text *out)
{
	char buf[MOVE_TEXT_MAX + 8] = "play ";
	s->game->format(top(s), mv, buf + 5);
	s->game->play(push(s, buf), mv);
	if (out)
		text_puts(out, buf + 5);
}

/* play [P] MOVE: plays MOVE for the player to move.  Fails: a roll is due,
 * the game is over, P is not the player to move, or "illegal move: ..." */
static int cmd_play(struct session *s, int argc, char **argv, struct text *out)
{
	if (need_turn(s, argc - 1, argv, out) < 0)
		return -1;
	const char *text = argv[argc - 1];
	struct move mv;
	char err[GAME_ERR_MAX] = "";
	if (s->game->parse(top(s), text, &mv, err) < 0) {
		if (!err[0]) {
			char c[64];
			game_clean(text, c, sizeof c);
			snprintf(err, sizeof err, "%s", c);
		}
		return fail(out, "illegal move: %s", err);
	}
	commit_move(s, &mv, NULL);
	return 0;
}

/* ---- the search's results as text ----
 *
 * The computer player answers with typed results (games/ai/ai.h, struct
 * ai_result); these write them as the protocol and the log show them. */

/* A proof's word ("win"...). */
static const char *proof_word(enum ai_proof p)
{
	return p == AI_PROVEN_WIN    ? "win"
	       : p == AI_PROVEN_LOSS ? "loss"
				     : "draw";
}

/* Candidate c's line from st, each move after a space, `moves` of them at
 * most; with rolls, the chance outcomes after each as "(roll N)", else
 * the line stops before the first. */
static void line_text(const struct game *g, const void *st,
		      const struct ai_candidate *c, int moves, int rolls,
		      struct text *out)
{
	unsigned char *pos = malloc(g->state_size);
	if (!pos)
		return;
	memcpy(pos, st, g->state_size);
	char buf[MOVE_TEXT_MAX];
	int played = 0;
	for (int i = 0; i < c->steps; i++) {
		const struct ai_step *step = &c->line[i];
		if (step->roll) {
			if (!rolls)
				break;
			text_printf(out, " (roll %d)", step->outcome);
			g->roll(pos, step->outcome);
			continue;
		}
		if (played++ == moves)
			break;
		g->format(pos, &step->mv, buf);
		text_printf(out, " %s", buf);
		g->play(pos, &step->mv);
	}
	free(pos);
}

void engine_search_line(const struct game *g, const void *st,
			const struct ai_result *res, double ms,
			struct text *out)
{
	char buf[MOVE_TEXT_MAX];
	if (res->source == AI_QUIET)
		return;
	if (res->source != AI_SEARCH) {
		g->format(st, &res->mv, buf);
		if (res->source == AI_BOOK)
			text_printf(out, "ai: %s from the book (value %d)", buf,
				    res->book_value);
		else
			text_printf(out, "ai: level %d plays %s (%s)",
				    res->level, buf,
				    res->source == AI_RANDOM ? "random"
							     : "greedy");
		return;
	}
	const struct ai_candidate *c = &res->pick;
	g->format(st, &c->mv, buf);
	text_printf(out,
		    "ai: %s after %ld playouts in %.0f ms (%.0f/s), %lu nodes",
		    buf, res->playouts, ms,
		    ms > 0 ? res->playouts / ms * 1000 : 0.0, res->nodes);
	if (res->kept)
		text_printf(out, " (%lu visits kept)", res->kept);
	if (res->flexible)
		text_printf(out, "; clock %.0f-%.0f ms", res->soft_ms,
			    res->hard_ms);
	if (res->stopped)
		text_puts(out, "; stopped");
	if (res->settled != AI_OPEN)
		text_printf(out, "; %s",
			    res->settled == AI_ONLY_MOVE  ? "only move"
			    : res->settled == AI_PROVEN   ? "proven"
			    : res->settled == AI_ONE_LEFT ? "one move left"
							  : "solved");
	if (res->solved)
		text_printf(out, "; solved (%ld nodes)", res->solver_nodes);
	if (c->proof == AI_PROVEN_POINTS)
		text_printf(out, "; proven %d", (int)c->value);
	else if (c->proof != AI_UNPROVEN)
		text_printf(out, "; proven %s", proof_word(c->proof));
	if (c->judged) {
		if (c->scale == AI_SCALE_POINTS)
			text_printf(out, "; expected score %.2f", c->mean);
		else
			text_printf(out, "; value %.3f", c->mean);
		text_puts(out, "; line");
		line_text(g, st, c, 8, 1, out);
	}
}

void engine_info_line(const struct game *g, const void *st,
		      const struct ai_result *res, struct text *out)
{
	char buf[MOVE_TEXT_MAX];
	for (int i = 0; i < res->n; i++) {
		const struct ai_candidate *c = &res->cand[i];
		g->format(st, &c->mv, buf);
		text_printf(out, "%sinfo move %s visits %lu value %.4f",
			    i ? " " : "", buf, c->visits, c->value);
		if (c->scale == AI_SCALE_POINTS)
			text_puts(out, " scale points");
		if (c->proof == AI_PROVEN_POINTS)
			text_printf(out, " proven %d", (int)c->value);
		else if (c->proof != AI_UNPROVEN)
			text_printf(out, " proven %s", proof_word(c->proof));
		text_printf(out, " order %d pv", i);
		line_text(g, st, c, 16, 0, out);
	}
}

/* Lets the computer choose a move, and writes the search line to the log
 * (set verbose); `peek` leaves the search stream as it was (hint). */
static int choose(struct session *s, struct move *mv, int peek,
		  struct text *out)
{
	struct ai_search how;
	struct ai_clock clock;
	struct ai_result res;
	search_setup(s, &how, &clock, peek);
	flush_out(s); /* the answers so far should not wait for the search */
	if (ai_choose(s->ai, s->game, top(s), &how, mv, &res) < 0)
		return fail(out, "no move to play");
	if (s->set.verbose && s->log && res.source != AI_QUIET) {
		struct text line;
		text_init(&line);
		engine_search_line(s->game, top(s), &res,
				   ai_now_ms() - s->start_ms, &line);
		fprintf(s->log, "%s\n", line.s);
		text_free(&line);
	}
	return 0;
}

/* genmove [P]: chooses a move, plays it and answers with it.  Fails as
 * play does.  Under a clock the time it took is taken off P's account. */
static int cmd_genmove(struct session *s, int argc, char **argv,
		       struct text *out)
{
	struct move mv;
	if (need_turn(s, argc, argv, out) < 0)
		return -1;
	int player = s->game->status(top(s)).player;
	if (choose(s, &mv, 0, out) < 0)
		return -1;
	commit_move(s, &mv, out);
	if (s->clock.on)
		clock_spend(&s->clock, player, ai_now_ms() - s->start_ms,
			    (double)s->set.overhead);
	s->ponder_due = 1;
	return 0;
}

/* hint [P]: the move genmove would choose, not played (with set playouts,
 * exactly the move the next genmove plays).  Fails as genmove does. */
static int cmd_hint(struct session *s, int argc, char **argv, struct text *out)
{
	struct move mv;
	if (need_turn(s, argc, argv, out) < 0 || choose(s, &mv, 1, out) < 0)
		return -1;
	char buf[MOVE_TEXT_MAX];
	s->game->format(top(s), &mv, buf);
	text_puts(out, buf);
	return 0;
}

/* Writes one analysis line, flushed at once. */
static void analyze_info(void *ctx, const struct ai_result *res)
{
	struct session *s = ctx;
	if (!s->out)
		return;
	engine_info_line(s->game, top(s), res, s->out);
	text_putc(s->out, '\n');
	flush_out(s);
}

/* analyze [MS] | analyze P MS: answers "=[id] " at once, then every MS
 * milliseconds (10 to 60000, default 1000) one line of candidates, until
 * the next input line (or the end of input); then the empty line that ends
 * the answer.  Changes nothing a later command sees.  Fails as genmove
 * does, and when the moves cannot be listed. */
static int cmd_analyze(struct session *s, int argc, char **argv,
		       struct text *out)
{
	long long ms = 1000, most = AI_INFO_MOVES;
	if (argc >= 2 && !strcmp(argv[argc - 2], "maxmoves")) {
		if (read_number(argv[argc - 1], 1, 100000, &most) < 0)
			return fail(out, "maxmoves: a number of moves from 1");
		argc -= 2;
	}
	if (argc > 2)
		return fail(out, "wrong number of arguments; usage: analyze "
				 "[[PLAYER] MS] [maxmoves N]");
	const char *arg = argc ? argv[argc - 1] : NULL;
	if (need_turn(s, argc == 2, argv, out) < 0)
		return -1;
	if (arg && read_number(arg, 10, 60000, &ms) < 0)
		return fail(out, "the interval must be a number of "
				 "milliseconds from 10 to 60000");
	if (s->game->moves(top(s), s->moves) == 0)
		return fail(out, "nothing to analyze: the moves of this turn "
				 "cannot be listed");
	struct ai_search how;
	struct ai_clock clock;
	search_setup(s, &how, &clock, 1);
	how.stop = line_waiting;
	how.info = analyze_info;
	how.info_moves = (int)most;
	if (s->out) {
		text_printf(s->out, "=%s \n", s->id);
		flush_out(s);
	}
	ai_analyze(s->ai, s->game, top(s), &how, (double)ms);
	if (s->out)
		text_putc(s->out, '\n');
	return 1;
}

/* stop: an empty answer.  (A stop read while genmove or hint thinks has
 * already ended that search; with nothing to stop it does nothing.) */
static int cmd_stop(struct session *s, int argc, char **argv, struct text *out)
{
	(void)s, (void)argc, (void)argv, (void)out;
	return 0;
}

/* roll [N]: when a roll is due, rolls the die from the roll stream, or
 * takes the face N a person threw, and answers with it.  Fails: no roll is
 * due, N is not a face of the die. */
static int cmd_roll(struct session *s, int argc, char **argv, struct text *out)
{
	struct game_status st = s->game->status(top(s));
	if (st.phase != GAME_ROLL)
		return fail(out, "no roll is due%s",
			    st.phase == GAME_OVER ? ": the game is over" : "");
	int values[GAME_MAX_CHANCE];
	double probs[GAME_MAX_CHANCE];
	int n = s->game->chance(top(s), values, probs), value;
	if (argc == 0) {
		value = game_chance_pick(s->game, top(s), &s->roll_rng);
	} else {
		long long v = -1;
		int ok = 0;
		if (read_number(argv[0], 0, INT32_MAX, &v) == 0)
			for (int i = 0; i < n; i++)
				ok |= values[i] == v;
		if (!ok) {
			char c[40];
			game_clean(argv[0], c, sizeof c);
			return fail(out, "%s is not a possible roll (%d to %d)",
				    c, values[0], values[n - 1]);
		}
		value = (int)v;
	}
	char buf[32];
	snprintf(buf, sizeof buf, "roll %d", value);
	s->game->roll(push(s, buf), value);
	text_printf(out, "%d", value);
	return 0;
}

/* undo: takes back the last play, genmove or roll (not the random
 * streams).  Fails: nothing to undo.  Drops the search tree. */
static int cmd_undo(struct session *s, int argc, char **argv, struct text *out)
{
	(void)argc, (void)argv;
	if (s->nstates == 1)
		return fail(out, "nothing to undo");
	s->nstates--;
	s->hist.len = s->hist_off[s->nstates];
	s->hist.s[s->hist.len] = '\0';
	ai_forget(s->ai);
	return 0;
}

/* score: each player's points now, space-separated. */
static int cmd_score(struct session *s, int argc, char **argv, struct text *out)
{
	(void)argc, (void)argv;
	int pts[GAME_MAX_PLAYERS];
	int n = s->game->players(top(s));
	s->game->score(top(s), pts);
	for (int i = 0; i < n; i++)
		text_printf(out, i ? " %d" : "%d", pts[i]);
	return 0;
}

/* showboard: the board for a person, on the lines after "= ". */
static int cmd_showboard(struct session *s, int argc, char **argv,
			 struct text *out)
{
	(void)argc, (void)argv;
	text_putc(out, '\n');
	s->game->show(top(s), out);
	return 0;
}

/* history: the game as commands that rebuild it: a newgame line with every
 * option (or the position it started from) and the seed, then every roll
 * and play. */
static int cmd_history(struct session *s, int argc, char **argv,
		       struct text *out)
{
	(void)argc, (void)argv;
	text_printf(out, "\nnewgame %s seed=%llu", s->game->name,
		    (unsigned long long)s->seed);
	struct text opts;
	text_init(&opts);
	if (s->from_position)
		s->game->position(s->states, &opts);
	else
		s->game->describe(s->states, &opts);
	if (opts.len)
		text_printf(out, " %s", opts.s);
	text_free(&opts);
	text_putc(out, '\n');
	text_put(out, s->hist.s, s->hist.len);
	return 0;
}

/* geometry: the board's shape for a GUI, on the lines after "= ". */
static int cmd_geometry(struct session *s, int argc, char **argv,
			struct text *out)
{
	(void)argc, (void)argv;
	text_putc(out, '\n');
	s->game->geometry(top(s), out);
	return 0;
}

/* position: the state as one line, "NAME key=value ...", that newgame
 * restores exactly. */
static int cmd_position(struct session *s, int argc, char **argv,
			struct text *out)
{
	(void)argc, (void)argv;
	text_printf(out, "%s ", s->game->name);
	s->game->position(top(s), out);
	return 0;
}

/* Writes integer weights proportional to probs (n of them): the smallest
 * common denominator up to a million, so a fair die writes all 1s. */
static void write_weights(const double *probs, int n, struct text *out)
{
	long d = 1;
	for (; d < 1000000; d++) {
		int whole = 1;
		for (int i = 0; i < n && whole; i++) {
			double w = probs[i] * (double)d;
			double off = w - (double)(long)(w + 0.5);
			whole = off < 1e-6 && off > -1e-6;
		}
		if (whole)
			break;
	}
	for (int i = 0; i < n; i++)
		text_printf(out, " %ld", (long)(probs[i] * (double)d + 0.5));
}

/* The answer of game_info for game g in state st. */
static void game_info(const struct game *g, const void *st, struct text *out)
{
	int n = g->players(st);
	struct game_sides sd = {.sides = n};
	if (g->sides)
		g->sides(st, &sd);
	text_printf(out, "game %s\ntitle %s\nplayers %d", g->name, g->title, n);
	for (int p = 1; p <= sd.sides; p++) {
		text_printf(out, "\n%s %d", p <= n ? "player" : "side", p);
		if (sd.name[p - 1])
			text_printf(out, " name %s", sd.name[p - 1]);
		if (sd.colour[p - 1])
			text_printf(out, " colour %s", sd.colour[p - 1]);
		if (g->marks && (size_t)p <= strlen(g->marks))
			text_printf(out, " mark %c", g->marks[p - 1]);
		if (p > n)
			text_puts(out, " played_by 1");
	}
	for (int t = 1; t <= n; t++) {
		int members = 0;
		for (int p = 1; p <= n; p++)
			members += sd.team[p - 1] == t;
		if (members < 2)
			continue;
		text_puts(out, "\nteam");
		for (int p = 1; p <= n; p++)
			if (sd.team[p - 1] == t)
				text_printf(out, " %d", p);
	}
	if (g->chance) {
		int values[GAME_MAX_CHANCE];
		double probs[GAME_MAX_CHANCE];
		int k = g->chance(st, values, probs);
		text_puts(out, "\nroll faces");
		for (int i = 0; i < k; i++)
			text_printf(out, " %d", values[i]);
		text_puts(out, " weights");
		write_weights(probs, k, out);
	}
}

/* game_info [NAME [key=value ...]]: the current game's (or, with a name,
 * the game newgame NAME ... would start) players, their names, colours
 * and marks, the teams and the faces of its die, as `key value` lines.
 * Fails: no game yet and no name; as newgame for a name and options; the
 * current game is kept either way. */
static int cmd_game_info(struct session *s, int argc, char **argv,
			 struct text *out)
{
	if (argc == 0) {
		if (!s->game)
			return fail(out, "no game yet: start one with newgame "
					 "NAME, or write game_info NAME");
		game_info(s->game, top(s), out);
		return 0;
	}
	const struct game *g;
	struct game_options opt;
	uint64_t seed;
	unsigned char *st = setup(argc, argv, &g, &opt, &seed, out);
	if (!st)
		return -1;
	game_info(g, st, out);
	free(st);
	return 0;
}

/* option_info NAME [key=value ...]: for the game newgame NAME ... would
 * start, each option's domain with the others as given, its default, its
 * value if given, what it requires and excludes, and the pattern and an
 * example of a string option.  Fails as newgame does; the current game is
 * kept. */
static int cmd_option_info(struct session *s, int argc, char **argv,
			   struct text *out)
{
	(void)s;
	const struct game *g;
	struct game_options opt;
	uint64_t seed;
	unsigned char *st = setup(argc, argv, &g, &opt, &seed, out);
	if (!st)
		return -1;
	free(st);
	if (game_option_info(g, &opt, out) < 0)
		out_of_memory();
	return 0;
}

/* turn_info: what the player to move must do now, as `phase WORD [K N]`,
 * `player P` (not once the game is over), `side S`, `also WORD`, `out P
 * ...` (players who left the game) and `moves free` (moves lists nothing:
 * play judges a free-form move) where they apply, and a `prompt`
 * sentence for a person. */
static int cmd_turn_info(struct session *s, int argc, char **argv,
			 struct text *out)
{
	(void)argc, (void)argv;
	const void *st = top(s);
	struct game_status gs = s->game->status(st);
	struct game_turn t = {0};
	if (s->game->turn)
		s->game->turn(st, &t);
	else {
		t.phase = gs.phase == GAME_PLAY   ? "move"
			  : gs.phase == GAME_ROLL ? "roll"
						  : "over";
		if (gs.phase == GAME_OVER)
			snprintf(t.prompt, sizeof t.prompt, "game over");
		else
			snprintf(t.prompt, sizeof t.prompt, "player %d to %s",
				 gs.player, t.phase);
	}
	text_printf(out, "phase %s", t.phase);
	if (t.steps)
		text_printf(out, " %d %d", t.step, t.steps);
	if (gs.phase != GAME_OVER)
		text_printf(out, "\nplayer %d", gs.player);
	if (t.side)
		text_printf(out, "\nside %d", t.side);
	if (t.also)
		text_printf(out, "\nalso %s", t.also);
	if (t.out) {
		text_puts(out, "\nout");
		for (int p = 1; p <= GAME_MAX_PLAYERS; p++)
			if (t.out >> (p - 1) & 1)
				text_printf(out, " %d", p);
	}
	/* a turn whose moves cannot be listed: play judges what is written */
	if (gs.phase == GAME_PLAY && s->game->moves(st, s->moves) == 0)
		text_puts(out, "\nmoves free");
	text_printf(out, "\nprompt %s", t.prompt);
	return 0;
}

/* contents: what stands on the board now, as `key value` lines: `at`
 * each occupied or tagged cell, `hand` and `store` each side's pieces,
 * `die` the face that shows, then the game's `line` and `area` lines. */
static int cmd_contents(struct session *s, int argc, char **argv,
			struct text *out)
{
	(void)argc, (void)argv;
	if (game_write_contents(s->game, top(s), out) < 0)
		out_of_memory();
	return 0;
}

/* scoring: the units the score is made of now, one a line:
 * `unit KIND player P points N [pieces K] [colour C] [cells ...]`;
 * empty when there are none. */
static int cmd_scoring(struct session *s, int argc, char **argv,
		       struct text *out)
{
	(void)argc, (void)argv;
	if (!s->game->units)
		return 0;
	size_t start = out->len;
	s->game->units(top(s), out);
	if (out->len > start && out->s[out->len - 1] == '\n')
		out->s[--out->len] = '\0';
	return 0;
}

/* set NAME VALUE: changes a setting.  Fails: unknown setting, a value
 * that is not a number in its range. */
static int cmd_set(struct session *s, int argc, char **argv, struct text *out)
{
	(void)argc;
	for (size_t i = 0; i < NSETTINGS; i++) {
		const struct setting *t = &settings[i];
		if (strcmp(t->name, argv[0]))
			continue;
		long long v;
		if (read_number(argv[1], t->min, t->max, &v) < 0)
			return fail(
				out, "%s must be %s from %lld to %lld", t->name,
				strcmp(t->type, "bool") ? "a number" : "0 or 1",
				t->min, t->max);
		*setting_value(&s->set, t) = v;
		if (t->changed)
			t->changed(s);
		return 0;
	}
	char c[40];
	game_clean(argv[0], c, sizeof c);
	return fail(out, "unknown setting %s (list_settings lists them)", c);
}

/* list_settings: "NAME type int|bool [default D] min A max B", one a
 * line. */
static int cmd_list_settings(struct session *s, int argc, char **argv,
			     struct text *out)
{
	(void)s, (void)argc, (void)argv;
	for (size_t i = 0; i < NSETTINGS; i++) {
		const struct setting *t = &settings[i];
		text_printf(out, "%s%s type %s", i ? "\n" : "", t->name,
			    t->type);
		if (t->def >= 0)
			text_printf(out, " default %lld", t->def);
		text_printf(out, " min %lld max %lld", t->min, t->max);
	}
	return 0;
}

/* Sets the clock (time_settings, kgs-time_settings): accounts restart. */
static int clock_set(struct session *s, enum ai_clock_kind kind, double main_ms,
		     double inc_ms, double period_ms, long long count)
{
	struct clock *c = &s->clock;
	c->on = 1;
	c->set = (struct ai_clock){kind, main_ms, inc_ms, period_ms, 0, 0};
	if (kind == AI_CLOCK_CANADIAN)
		c->set.stones = (int)count;
	if (kind == AI_CLOCK_BYOYOMI)
		c->set.periods = (int)count;
	clock_restart(c);
	ai_forget(s->ai);
	return 0;
}

/* time_settings MAIN BYO STONES: GTP's Canadian byo-yomi, in seconds.  BYO
 * 0 is absolute time; BYO > 0 with STONES 0 means no limit (movetime
 * rules again).  Fails: values that are not numbers. */
static int cmd_time_settings(struct session *s, int argc, char **argv,
			     struct text *out)
{
	(void)argc;
	double main_ms, byo_ms;
	long long stones;
	if (read_seconds(argv[0], &main_ms) < 0 ||
	    read_seconds(argv[1], &byo_ms) < 0 ||
	    read_number(argv[2], 0, 1000000, &stones) < 0)
		return fail(out,
			    "write time_settings MAIN BYO STONES: seconds, "
			    "seconds, a number of moves");
	if (byo_ms > 0 && stones == 0) {
		s->clock.on = 0;
		return 0;
	}
	if (byo_ms == 0)
		return clock_set(s, AI_CLOCK_ABSOLUTE, main_ms, 0, 0, 0);
	return clock_set(s, AI_CLOCK_CANADIAN, main_ms, 0, byo_ms, stones);
}

/* kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS |
 * canadian MAIN BYO STONES | fischer MAIN INCREMENT (seconds).  Fails: an
 * unknown kind or bad values. */
static int cmd_kgs_time_settings(struct session *s, int argc, char **argv,
				 struct text *out)
{
	static const struct {
		const char *name;
		int args; /* after the kind */
	} kinds[] = {{"none", 0},
		     {"absolute", 1},
		     {"byoyomi", 3},
		     {"canadian", 3},
		     {"fischer", 2}};
	int k = 0;
	while (k < 5 && strcmp(kinds[k].name, argv[0]))
		k++;
	if (k == 5 || argc - 1 != kinds[k].args)
		return fail(out, "write kgs-time_settings none | absolute MAIN "
				 "| byoyomi MAIN PERIOD PERIODS | canadian "
				 "MAIN BYO STONES | fischer MAIN INCREMENT");
	double v[2] = {0, 0};
	long long count = 0;
	for (int i = 0; i < argc - 1 && i < 2; i++)
		if (read_seconds(argv[1 + i], &v[i]) < 0)
			return fail(out,
				    "%s: times are seconds, such as 30 or "
				    "0.5",
				    kinds[k].name);
	if (argc == 4 && read_number(argv[3], 1, 1000000, &count) < 0)
		return fail(out, "%s: the last value is a count from 1",
			    argv[0]);
	switch (k) {
	case 0:
		s->clock.on = 0;
		return 0;
	case 1:
		return clock_set(s, AI_CLOCK_ABSOLUTE, v[0], 0, 0, 0);
	case 2:
		return clock_set(s, AI_CLOCK_BYOYOMI, v[0], 0, v[1], count);
	case 3:
		return clock_set(s, AI_CLOCK_CANADIAN, v[0], 0, v[1], count);
	default:
		return clock_set(s, AI_CLOCK_FISCHER, v[0], v[1], 0, 0);
	}
}

/* time_left P SECONDS STONES: the time player P has left, as GTP says:
 * STONES 0 is main time; otherwise SECONDS are for STONES moves (Canadian)
 * or the time of the current period with STONES periods left (KGS's
 * byo-yomi).  P may be any player.  Fails: bad values, no such player. */
static int cmd_time_left(struct session *s, int argc, char **argv,
			 struct text *out)
{
	(void)argc;
	int n = s->game ? s->game->players(top(s)) : GAME_MAX_PLAYERS, p;
	double ms;
	long long stones;
	/* before a game (the clock commands need none) b and w still name
	 * players 1 and 2 */
	if (!s->game && (!strcmp(argv[0], "b") || !strcmp(argv[0], "black")))
		p = 1;
	else if (!s->game &&
		 (!strcmp(argv[0], "w") || !strcmp(argv[0], "white")))
		p = 2;
	else if (read_player(s, n, argv[0], &p, out) < 0)
		return -1;
	if (argv[1][0] == '-')
		return fail(out,
			    "time_left: seconds cannot be negative (%s): "
			    "a clock that ran out has 0 left",
			    argv[1]);
	if (read_seconds(argv[1], &ms) < 0 ||
	    read_number(argv[2], 0, 1000000, &stones) < 0)
		return fail(out, "write time_left PLAYER SECONDS STONES");
	struct ai_clock *a = &s->clock.left[p];
	if (stones == 0) {
		a->main_ms = ms;
	} else if (s->clock.set.kind == AI_CLOCK_BYOYOMI) {
		a->main_ms = 0;
		a->period_ms = ms;
		a->periods = (int)stones;
	} else {
		a->main_ms = 0;
		a->period_ms = ms;
		a->stones = (int)stones;
	}
	return 0;
}

/* ---- the command table ---- */

typedef int handler_fn(struct session *, int, char **, struct text *);

struct command {
	const char *name;
	handler_fn *handler;
	int min_args, max_args;
	int game; /* 1: reads or changes the game, fails before newgame */
	const char *usage; /* arguments, for help and arity errors */
	const char *about;
};

static const struct command commands[] = {
	{"protocol_version", cmd_protocol_version, 0, 0, 0, "",
	 "protocol version: 2"},
	{"name", cmd_name, 0, 0, 0, "", "the engine's name"},
	{"version", cmd_version, 0, 0, 0, "", "the engine's version"},
	{"known_command", cmd_known_command, 1, 1, 0, "NAME", "true or false"},
	{"list_commands", cmd_list_commands, 0, 0, 0, "",
	 "every command, one a line"},
	{"help", cmd_help, 0, 0, 0, "", "every command with its arguments"},
	{"quit", cmd_quit, 0, 0, 0, "", "answer, then exit"},
	{"list_games", cmd_list_games, 0, 0, 0, "", "the games, one a line"},
	{"list_options", cmd_list_options, 1, 1, 0, "NAME",
	 "the newgame options of a game, with ranges"},
	{"newgame", cmd_newgame, 1, MAX_ARGS, 0, "NAME [key=value ...]",
	 "start a new game"},
	{"status", cmd_status, 0, 0, 1, "",
	 "play P, roll P, over P or over draw"},
	{"moves", cmd_moves, 0, 0, 1, "", "the legal moves"},
	{"play", cmd_play, 1, 2, 1, "[PLAYER] MOVE", "play a move"},
	{"genmove", cmd_genmove, 0, 1, 1, "[PLAYER]", "the engine moves"},
	{"hint", cmd_hint, 0, 1, 1, "[PLAYER]", "the move genmove would play"},
	{"analyze", cmd_analyze, 0, 4, 1, "[[PLAYER] MS] [maxmoves N]",
	 "a stream of the search's candidates until the next line"},
	{"stop", cmd_stop, 0, 0, 0, "", "end genmove's or hint's thinking"},
	{"roll", cmd_roll, 0, 1, 1, "[N]", "roll the die, or take the roll N"},
	{"undo", cmd_undo, 0, 0, 1, "",
	 "take back the last play, genmove or roll"},
	{"score", cmd_score, 0, 0, 1, "", "each player's points"},
	{"showboard", cmd_showboard, 0, 0, 1, "", "draw the board"},
	{"history", cmd_history, 0, 0, 1, "",
	 "the game as commands that rebuild it"},
	{"position", cmd_position, 0, 0, 1, "",
	 "the state as one line that newgame restores"},
	{"geometry", cmd_geometry, 0, 0, 1, "", "the board's shape, for GUIs"},
	{"game_info", cmd_game_info, 0, MAX_ARGS, 0, "[NAME [key=value ...]]",
	 "the players, their names and colours, teams and dice"},
	{"option_info", cmd_option_info, 1, MAX_ARGS, 0, "NAME [key=value ...]",
	 "each option's values, default and needs, for a new-game dialog"},
	{"turn_info", cmd_turn_info, 0, 0, 1, "",
	 "what the player to move must do now"},
	{"contents", cmd_contents, 0, 0, 1, "",
	 "what stands on the board, for GUIs"},
	{"scoring", cmd_scoring, 0, 0, 1, "",
	 "the lines, pairs, stacks and captures the score is made of"},
	{"set", cmd_set, 2, 2, 0, "NAME VALUE", "change a setting"},
	{"list_settings", cmd_list_settings, 0, 0, 0, "",
	 "the settings, with ranges"},
	{"time_settings", cmd_time_settings, 3, 3, 0, "MAIN BYO STONES",
	 "a clock: main time, then BYO seconds per STONES moves"},
	{"kgs-time_settings", cmd_kgs_time_settings, 1, 4, 0,
	 "none|absolute|byoyomi|canadian|fischer ...",
	 "a clock, as KGS sets it"},
	{"time_left", cmd_time_left, 3, 3, 0, "PLAYER SECONDS STONES",
	 "the time a player has left"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* list_commands: every command name, one a line. */
static int cmd_list_commands(struct session *s, int argc, char **argv,
			     struct text *out)
{
	(void)s, (void)argc, (void)argv;
	for (size_t i = 0; i < NCOMMANDS; i++)
		text_printf(out, "%s%s", i ? "\n" : "", commands[i].name);
	return 0;
}

/* help: every command with its arguments and what it does. */
static int cmd_help(struct session *s, int argc, char **argv, struct text *out)
{
	(void)s, (void)argc, (void)argv;
	for (size_t i = 0; i < NCOMMANDS; i++) {
		const struct command *c = &commands[i];
		text_printf(out, "%s%s%s%s - %s", i ? "\n" : "", c->name,
			    *c->usage ? " " : "", c->usage, c->about);
	}
	return 0;
}

/* ---- one line: clean, split, id, dispatch, frame ---- */

struct session *session_new(void)
{
	struct session *s = xrealloc(NULL, sizeof *s);
	memset(s, 0, sizeof *s);
	text_init(&s->hist);
	for (size_t i = 0; i < NSETTINGS; i++)
		*setting_value(&s->set, &settings[i]) = settings[i].def;
	s->ai = ai_new();
	if (!s->ai)
		out_of_memory();
	ai_set_hash(s->ai, (long)s->set.hash);
	s->log = stderr;
	uint64_t t = (uint64_t)time(NULL) ^ (uint64_t)getpid();
	rng_seed(&s->roll_rng, t);
	rng_seed(&s->search_rng, t ^ 0x7365617263684dULL);
	return s;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	free(s->states);
	free(s->hist_off);
	free(s->moves);
	text_free(&s->hist);
	ai_free(s->ai);
	free(s);
}

void session_set_log(struct session *s, FILE *log)
{
	s->log = log;
}

/* Writes the response body: no empty line may appear inside it, it must
 * not end in a newline (the framing adds the terminator), and it holds
 * printable ASCII only, whatever bytes a message quoted from bad input. */
static void put_body(struct text *out, const char *body, size_t len)
{
	while (len && body[len - 1] == '\n')
		len--;
	for (size_t i = 0; i < len; i++) {
		char c = body[i];
		if (c == '\n' && i + 1 < len && body[i + 1] == '\n')
			continue;
		if ((c < ' ' || c > '~') && c != '\n')
			c = '?';
		text_putc(out, c);
	}
}

/* Refuses a command name, pointing at the right one when only its case is
 * wrong (command names are lowercase, as in GTP). */
static void unknown_command(const char *name, struct text *out)
{
	char c[40], low[40];
	game_clean(name, c, sizeof c);
	size_t i = 0;
	for (; name[i] && i + 1 < sizeof low; i++)
		low[i] = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] + 32)
							  : name[i];
	low[i] = '\0';
	if (!name[i] && strcmp(low, name) && find_command(low))
		fail(out,
		     "unknown command %s: command names are lowercase, "
		     "write %s",
		     c, low);
	else
		fail(out, "unknown command %s (help lists them)", c);
}

/* Drops control bytes (a tab becomes a separator) and cuts the comment;
 * returns a malloc'd copy. */
static char *clean_line(const char *raw, size_t len)
{
	char *line = xrealloc(NULL, len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len && raw[i] != '#'; i++) {
		unsigned char c = (unsigned char)raw[i];
		if (c == '\t')
			line[n++] = ' ';
		else if (c >= 32 && c != 127)
			line[n++] = (char)c;
	}
	line[n] = '\0';
	return line;
}

/* Splits line in place at spaces; returns the token count (at most max,
 * *extra set when there were more). */
static int split(char *line, char **argv, int max, int *extra)
{
	int argc = 0;
	*extra = 0;
	for (char *p = line; *p;) {
		if (*p == ' ') {
			*p++ = '\0';
			continue;
		}
		if (argc < max)
			argv[argc++] = p;
		else
			*extra = 1;
		while (*p && *p != ' ')
			p++;
	}
	return argc;
}

/* Runs the command named argv[0] with the rest as its arguments; writes
 * its answer or message into body.  Returns the handler's result, or -1. */
static int dispatch(struct session *s, int argc, char **argv, int extra,
		    struct text *body)
{
	const struct command *c = find_command(argv[0]);
	if (!c) {
		unknown_command(argv[0], body);
		return -1;
	}
	int nargs = argc - 1;
	if (extra || nargs < c->min_args || nargs > c->max_args)
		return fail(body, "wrong number of arguments; usage: %s%s%s",
			    c->name, *c->usage ? " " : "", c->usage);
	if (c->game && !s->game)
		return fail(body, "no game yet: start one with newgame NAME "
				  "(list_games lists them)");
	/* move text and names are read case-insensitively */
	for (int i = 1; i < argc; i++)
		for (char *p = argv[i]; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
	return c->handler(s, nargs, argv + 1, body);
}

int engine_line(struct session *s, const char *raw, size_t len, int too_long,
		struct text *out)
{
	s->start_ms = ai_now_ms();
	s->ponder_due = 0;
	char *line = clean_line(raw, len);
	char *argv[MAX_ARGS + 2];
	int extra, argc = split(line, argv, MAX_ARGS + 2, &extra);
	if (argc == 0) {
		free(line);
		return 0; /* empty and comment-only lines get no response */
	}
	int first = 0;
	s->id[0] = '\0';
	if (argv[0][0] >= '0' && argv[0][0] <= '9') {
		long long v;
		if (read_number(argv[0], 0, (long long)ID_LIMIT - 1, &v) < 0) {
			text_puts(out, "? invalid id: ids are numbers below "
				       "2^31\n\n");
			free(line);
			return 0;
		}
		snprintf(s->id, sizeof s->id, "%lld", v);
		first = 1;
	}
	struct text body;
	text_init(&body);
	struct text *saved = s->out;
	if (!s->out)
		s->out = out; /* in memory: analyze writes here */
	int ok;
	if (too_long)
		ok = fail(&body, "line too long (at most %d bytes)",
			  LINE_MAX_BYTES - 1);
	else if (first == argc)
		ok = fail(&body, "missing command after the id");
	else
		ok = dispatch(s, argc - first, argv + first, extra, &body);
	s->out = saved;
	int quit = ok == 0 && !too_long && first < argc &&
		   !strcmp(argv[first], "quit");
	if (ok == 1) {
		/* the handler wrote its answer; the empty line ended it */
	} else {
		text_printf(out, "%c%s ", ok == 0 ? '=' : '?', s->id);
		put_body(out, body.s, body.len);
		text_puts(out, "\n\n");
	}
	text_free(&body);
	free(line);
	return quit;
}

/* After the engine's own genmove, with no input waiting: thinks on for the
 * next clock-bound genmove until any input comes (set ponder 1). */
static void ponder(struct session *s)
{
	if (!s->set.ponder || !s->game || input_waiting(s))
		return;
	struct ai_search how;
	struct ai_clock clock;
	search_setup(s, &how, &clock, 1);
	how.stop = input_waiting;
	ai_ponder(s->ai, s->game, top(s), &how);
}

/* engine_run's input and output: file descriptors. */
struct fds {
	int in, out;
};

static long fd_read(void *ctx, char *buf, size_t n, int wait)
{
	struct fds *f = ctx;
	if (!wait) {
		struct pollfd p = {f->in, POLLIN, 0};
		if (poll(&p, 1, 0) <= 0)
			return 0;
	}
	for (;;) {
		ssize_t got = read(f->in, buf, n);
		if (got < 0 && errno == EINTR)
			continue;
		return got > 0 ? (long)got : -1;
	}
}

static long fd_write(void *ctx, const char *buf, size_t n)
{
	struct fds *f = ctx;
	for (;;) {
		ssize_t w = write(f->out, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		return w > 0 ? (long)w : -1;
	}
}

int engine_run(struct session *s, int in_fd, int out_fd)
{
	struct fds f = {in_fd, out_fd};
	const struct engine_io io = {&f, fd_read, fd_write};
	return engine_run_io(s, &io);
}

int engine_run_io(struct session *s, const struct engine_io *io)
{
	struct reader *r = xrealloc(NULL, sizeof *r);
	memset(r, 0, sizeof *r);
	r->io = io;
	r->line = xrealloc(NULL, LINE_MAX_BYTES);
	text_init(&r->queue);
	struct text out;
	text_init(&out);
	s->in = r;
	s->out = &out;
	s->io = io;
	s->out_failed = 0;
	int quit = 0;
	while (!quit && !s->out_failed) {
		size_t len;
		int too_long;
		const char *line = reader_peek(r, &len, &too_long, 1);
		if (!line) {
			/* about to wait for input: everything answered goes
			 * out first */
			flush_out(s);
			if (s->out_failed)
				break;
			if (s->ponder_due) {
				s->ponder_due = 0;
				ponder(s);
				continue;
			}
			if (reader_fill(r, 1) < 0 &&
			    !reader_peek(r, &len, &too_long, 0))
				break; /* end of input acts as quit */
			continue;
		}
		quit = engine_line(s, line, len, too_long, &out);
		if (out.len > (1 << 16))
			flush_out(s);
	}
	flush_out(s);
	int failed = s->out_failed;
	s->in = NULL;
	s->out = NULL;
	s->io = NULL;
	text_free(&out);
	text_free(&r->queue);
	free(r->line);
	free(r);
	return failed ? -1 : quit ? 1 : 0;
}
