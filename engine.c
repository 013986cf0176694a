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
 * cannot change the game. */
#include "engine.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "games/ai/ai.h"
#include "games/game.h"

#define MAX_ARGS 40            /* tokens after the command name */
#define ID_LIMIT 2147483648ULL /* ids are below 2^31 */

struct session {
	const struct game *game; /* NULL before the first newgame */
	unsigned char *states;   /* nstates copies of game->state_size bytes */
	size_t nstates, cap;
	struct text hist;   /* the commands that made states 1..n-1 */
	size_t *hist_off;   /* where each of those starts in hist */
	uint64_t seed;      /* the game's seed, as history writes it */
	struct move *moves; /* scratch list of game->max_moves moves */
	struct rng rng;     /* the engine's own choices: AI, roll */
	int rng_fixed;      /* `set seed` was given: newgame keeps rng */
	int from_position;  /* newgame gave a position: history writes it */
	struct ai_settings ai;
	FILE *log;
};

/* ---- settings: `set NAME VALUE` and `list_settings` ---- */

struct setting {
	const char *name;
	/* def < 0: none (the seed comes from the clock) */
	long long def, min, max;
};

static const struct setting settings[] = {
	{"movetime", 1000, 1, 3600000}, /* ms genmove may think */
	{"playouts", 0, 0, 1000000000}, /* a fixed budget; 0 uses movetime */
	{"level", AI_LEVEL_MAX, 0,
	 AI_LEVEL_MAX},             /* 0 random, 1 greedy, 2+ search */
	{"seed", -1, 0, INT64_MAX}, /* the engine's own random choices */
};
#define NSETTINGS (sizeof settings / sizeof settings[0])

/* ---- small helpers ---- */

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("engine: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

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

static void reseed(struct session *s)
{
	if (!s->rng_fixed)
		rng_seed(&s->rng, s->seed ^ 0x656e67696e65ULL);
}

/* ---- command handlers ----
 *
 * Each handler gets the arguments after the command name (their count
 * already checked against the table, and a game already there when the
 * table says the command needs one) and writes either the response text or
 * the error message into out, returning 0 or -1. */

struct command;
static const struct command *find_command(const char *name);

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

/* Reads a player argument: a number, or b/w (black/white) for players 1/2
 * of a two-player game, as GTP clients send colours. */
static int read_player(struct session *s, const char *arg, int *player,
		       struct text *out)
{
	int n = s->game->players(top(s));
	long long v;
	if (read_number(arg, 1, n, &v) == 0) {
		*player = (int)v;
		return 0;
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
	const char *marks = s->game->marks, *m;
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
		if (read_player(s, argv[0], &who, out) < 0)
			return -1;
		if (who != st.player)
			return fail(out,
				    "it is player %d's turn, not player %d's",
				    st.player, who);
	}
	return 0;
}

static int cmd_protocol_version(struct session *s, int argc, char **argv,
				struct text *out)
{
	(void)s, (void)argc, (void)argv;
	text_puts(out, "2");
	return 0;
}

static int cmd_name(struct session *s, int argc, char **argv, struct text *out)
{
	(void)s, (void)argc, (void)argv;
	text_puts(out, ENGINE_NAME);
	return 0;
}

static int cmd_version(struct session *s, int argc, char **argv,
		       struct text *out)
{
	(void)s, (void)argc, (void)argv;
	text_puts(out, ENGINE_VERSION);
	return 0;
}

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

static int cmd_quit(struct session *s, int argc, char **argv, struct text *out)
{
	(void)s, (void)argc, (void)argv, (void)out;
	return 0;
}

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

/* newgame NAME [key=value ...]: reads the options, lets the game check them,
 * and only then replaces the current game. */
static int cmd_newgame(struct session *s, int argc, char **argv,
		       struct text *out)
{
	const struct game *g = game_find(argv[0]);
	char c[64];
	if (!g) {
		game_clean(argv[0], c, sizeof c);
		return fail(out, "unknown game %s (list_games lists them)", c);
	}
	struct game_options opt = {0};
	char err[GAME_ERR_MAX];
	if (game_options_read(argv + 1, argc - 1, &opt, err) < 0)
		return fail(out, "%s", err);
	uint64_t seed = 0;
	int have_seed = 0;
	for (int i = 0; i < opt.n; i++) {
		if (strcmp(opt.v[i].key, "seed"))
			continue;
		long long v;
		if (read_number(opt.v[i].value, 0, INT64_MAX, &v) < 0)
			return fail(out, "seed must be a number from 0 to %lld",
				    (long long)INT64_MAX);
		seed = (uint64_t)v;
		have_seed = 1;
		opt.v[i].used = 1;
	}
	if (!have_seed) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		struct rng r;
		rng_seed(&r, (uint64_t)ts.tv_nsec ^
				     ((uint64_t)ts.tv_sec << 20) ^
				     (uint64_t)getpid());
		seed = rng_next(&r) >> 1; /* fits the seed= range */
	}

	unsigned char *st = malloc(g->state_size);
	if (!st)
		return fail(out, "out of memory");
	if (game_setup(g, st, &opt, seed, err) < 0) {
		free(st);
		return fail(out, "%s", err);
	}

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
	s->from_position = g->position && g->options && from_position(g, &opt);
	reseed(s);
	return 0;
}

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

static int choose(struct session *s, struct move *mv, struct text *out)
{
	if (ai_choose(s->game, top(s), &s->ai, &s->rng, mv, s->log) < 0)
		return fail(out, "no move to play");
	return 0;
}

static int cmd_genmove(struct session *s, int argc, char **argv,
		       struct text *out)
{
	struct move mv;
	if (need_turn(s, argc, argv, out) < 0 || choose(s, &mv, out) < 0)
		return -1;
	commit_move(s, &mv, out);
	return 0;
}

/* hint searches on a copy of the engine's generator, so that the genmove
 * that follows (with set playouts) plays the very move hint named. */
static int cmd_hint(struct session *s, int argc, char **argv, struct text *out)
{
	struct move mv;
	struct rng saved = s->rng;
	int ret = need_turn(s, argc, argv, out) < 0 ? -1 : choose(s, &mv, out);
	s->rng = saved;
	if (ret < 0)
		return -1;
	char buf[MOVE_TEXT_MAX];
	s->game->format(top(s), &mv, buf);
	text_puts(out, buf);
	return 0;
}

static int cmd_roll(struct session *s, int argc, char **argv, struct text *out)
{
	struct game_status st = s->game->status(top(s));
	if (st.phase != GAME_ROLL)
		return fail(out, "no roll is due%s",
			    st.phase == GAME_OVER ? ": the game is over" : "");
	int values[GAME_MAX_CHANCE];
	double probs[GAME_MAX_CHANCE];
	int n = s->game->chance(top(s), values, probs), value = values[0];
	if (argc == 0) {
		value = game_chance_pick(s->game, top(s), &s->rng);
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

static int cmd_undo(struct session *s, int argc, char **argv, struct text *out)
{
	(void)argc, (void)argv;
	if (s->nstates == 1)
		return fail(out, "nothing to undo");
	s->nstates--;
	s->hist.len = s->hist_off[s->nstates];
	s->hist.s[s->hist.len] = '\0';
	return 0;
}

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

static int cmd_showboard(struct session *s, int argc, char **argv,
			 struct text *out)
{
	(void)argc, (void)argv;
	text_putc(out, '\n');
	s->game->show(top(s), out);
	return 0;
}

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

static int cmd_geometry(struct session *s, int argc, char **argv,
			struct text *out)
{
	(void)argc, (void)argv;
	if (!s->game->geometry)
		return fail(out, "%s has no geometry yet", s->game->name);
	text_putc(out, '\n');
	s->game->geometry(top(s), out);
	return 0;
}

/* position: the current state as one line that newgame restores. */
static int cmd_position(struct session *s, int argc, char **argv,
			struct text *out)
{
	(void)argc, (void)argv;
	if (!s->game->position)
		return fail(out, "%s has no position yet", s->game->name);
	text_printf(out, "%s ", s->game->name);
	s->game->position(top(s), out);
	return 0;
}

/* list_options NAME: the newgame options of game NAME, one a line, in the
 * form of list_settings.  Fails for an unknown game. */
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

static int cmd_set(struct session *s, int argc, char **argv, struct text *out)
{
	(void)argc;
	char c[40];
	for (size_t i = 0; i < NSETTINGS; i++) {
		const struct setting *t = &settings[i];
		if (strcmp(t->name, argv[0]))
			continue;
		long long v;
		if (read_number(argv[1], t->min, t->max, &v) < 0)
			return fail(out,
				    "%s must be a number from %lld to %lld",
				    t->name, t->min, t->max);
		if (!strcmp(t->name, "movetime"))
			s->ai.movetime = (long)v;
		else if (!strcmp(t->name, "playouts"))
			s->ai.playouts = (long)v;
		else if (!strcmp(t->name, "level"))
			s->ai.level = (int)v;
		else {
			rng_seed(&s->rng, (uint64_t)v);
			s->rng_fixed = 1;
		}
		return 0;
	}
	game_clean(argv[0], c, sizeof c);
	return fail(out, "unknown setting %s (list_settings lists them)", c);
}

static int cmd_list_settings(struct session *s, int argc, char **argv,
			     struct text *out)
{
	(void)s, (void)argc, (void)argv;
	for (size_t i = 0; i < NSETTINGS; i++) {
		const struct setting *t = &settings[i];
		text_printf(out, "%s%s type int", i ? "\n" : "", t->name);
		if (t->def >= 0)
			text_printf(out, " default %lld", t->def);
		text_printf(out, " min %lld max %lld", t->min, t->max);
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
	{"newgame", cmd_newgame, 1, MAX_ARGS, 0, "NAME [key=value ...]",
	 "start a new game"},
	{"status", cmd_status, 0, 0, 1, "",
	 "play P, roll P, over P or over draw"},
	{"moves", cmd_moves, 0, 0, 1, "", "the legal moves"},
	{"play", cmd_play, 1, 2, 1, "[PLAYER] MOVE", "play a move"},
	{"genmove", cmd_genmove, 0, 1, 1, "[PLAYER]", "the engine moves"},
	{"hint", cmd_hint, 0, 1, 1, "[PLAYER]", "the move genmove would play"},
	{"roll", cmd_roll, 0, 1, 1, "[N]", "roll the die, or take the roll N"},
	{"undo", cmd_undo, 0, 0, 1, "",
	 "take back the last play, genmove or roll"},
	{"score", cmd_score, 0, 0, 1, "", "each player's points"},
	{"showboard", cmd_showboard, 0, 0, 1, "", "draw the board"},
	{"history", cmd_history, 0, 0, 1, "",
	 "the game as commands that rebuild it"},
	{"geometry", cmd_geometry, 0, 0, 1, "", "the board's shape, for GUIs"},
	{"position", cmd_position, 0, 0, 1, "",
	 "the state as one line that newgame restores"},
	{"list_options", cmd_list_options, 1, 1, 0, "NAME",
	 "the newgame options of a game, with ranges"},
	{"set", cmd_set, 2, 2, 0, "NAME VALUE", "change a setting"},
	{"list_settings", cmd_list_settings, 0, 0, 0, "",
	 "the settings, with ranges"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int cmd_list_commands(struct session *s, int argc, char **argv,
			     struct text *out)
{
	(void)s, (void)argc, (void)argv;
	for (size_t i = 0; i < NCOMMANDS; i++)
		text_printf(out, "%s%s", i ? "\n" : "", commands[i].name);
	return 0;
}

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

/* ---- framing ---- */

static void settings_reset(struct session *s)
{
	s->ai = (struct ai_settings){0};
	for (size_t i = 0; i < NSETTINGS; i++) {
		if (!strcmp(settings[i].name, "movetime"))
			s->ai.movetime = (long)settings[i].def;
		if (!strcmp(settings[i].name, "level"))
			s->ai.level = (int)settings[i].def;
	}
}

struct session *session_new(void)
{
	struct session *s = calloc(1, sizeof *s);
	if (!s) {
		fputs("engine: out of memory\n", stderr);
		exit(1);
	}
	text_init(&s->hist);
	settings_reset(s);
	s->log = stderr;
	rng_seed(&s->rng, (uint64_t)time(NULL) ^ (uint64_t)getpid());
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

int engine_line(struct session *s, const char *raw, size_t len, int too_long,
		struct text *out)
{
	/* Drop control bytes (HT becomes a separator), cut the comment. */
	char *line = malloc(len + 1);
	if (!line)
		return 0;
	size_t n = 0;
	for (size_t i = 0; i < len && raw[i] != '#'; i++) {
		unsigned char c = (unsigned char)raw[i];
		if (c == '\t')
			line[n++] = ' ';
		else if (c >= 32 && c != 127)
			line[n++] = (char)c;
	}
	line[n] = '\0';

	char *argv[MAX_ARGS + 2];
	int argc = 0, extra = 0;
	for (char *p = line; *p;) {
		if (*p == ' ') {
			*p++ = '\0';
			continue;
		}
		if (argc < MAX_ARGS + 2)
			argv[argc++] = p;
		else
			extra = 1;
		while (*p && *p != ' ')
			p++;
	}
	if (argc == 0) {
		free(line);
		return 0; /* empty and comment-only lines get no response */
	}

	char id[16] = "";
	int first = 0;
	if (argv[0][0] >= '0' && argv[0][0] <= '9') {
		long long v;
		if (read_number(argv[0], 0, (long long)ID_LIMIT - 1, &v) < 0) {
			text_puts(
				out,
				"? invalid id: ids are numbers below 2^31\n\n");
			free(line);
			return 0;
		}
		snprintf(id, sizeof id, "%lld", v);
		first = 1;
	}

	struct text body;
	text_init(&body);
	int ok = -1, quit = 0;
	const struct command *c = NULL;
	if (too_long) {
		fail(&body, "line too long (at most %d bytes)",
		     LINE_MAX_BYTES - 1);
	} else if (first == argc) {
		fail(&body, "missing command after the id");
	} else if (!(c = find_command(argv[first]))) {
		unknown_command(argv[first], &body);
	} else {
		int nargs = argc - first - 1;
		if (extra || nargs < c->min_args || nargs > c->max_args) {
			fail(&body, "wrong number of arguments; usage: %s%s%s",
			     c->name, *c->usage ? " " : "", c->usage);
		} else if (c->game && !s->game) {
			fail(&body, "no game yet: start one with newgame NAME "
				    "(list_games lists them)");
		} else {
			/* move text and names are read case-insensitively */
			for (int i = first + 1; i < argc; i++)
				for (char *p = argv[i]; *p; p++)
					if (*p >= 'A' && *p <= 'Z')
						*p = (char)(*p - 'A' + 'a');
			ok = c->handler(s, nargs, argv + first + 1, &body);
			quit = ok == 0 && c->handler == cmd_quit;
		}
	}
	text_printf(out, "%c%s ", ok == 0 ? '=' : '?', id);
	put_body(out, body.s, body.len);
	text_puts(out, "\n\n");
	text_free(&body);
	free(line);
	return quit;
}

static int write_all(int fd, struct text *t)
{
	size_t off = 0;
	while (off < t->len) {
		ssize_t w = write(fd, t->s + off, t->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	text_clear(t);
	return 0;
}

int engine_run(struct session *s, int in_fd, int out_fd)
{
	static char in[1 << 16];
	char *line = malloc(LINE_MAX_BYTES);
	struct text out;
	text_init(&out);
	size_t n = 0, pos = 0, len = 0;
	int too_long = 0, quit = 0, ret = 0;
	if (!line)
		return -1;
	while (!quit) {
		if (pos == n) {
			/* about to wait for input: everything answered goes out
			 */
			if (write_all(out_fd, &out) < 0) {
				ret = -1;
				break;
			}
			ssize_t r = read(in_fd, in, sizeof in);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				/* end of input acts as quit; a last line
				 * without
				 * '\n' still counts */
				if (len || too_long)
					engine_line(s, line, len, too_long,
						    &out);
				break;
			}
			n = (size_t)r;
			pos = 0;
		}
		char c = in[pos++];
		if (c == '\n') {
			quit = engine_line(s, line, len, too_long, &out);
			len = 0;
			too_long = 0;
			if (out.len > (1 << 16) &&
			    write_all(out_fd, &out) < 0) {
				ret = -1;
				break;
			}
		} else if ((unsigned char)c >= 32 || c == '\t') {
			/* control bytes are dropped here too, so that they
			 * do not count towards the length bound */
			if (len < LINE_MAX_BYTES - 1)
				line[len++] = c;
			else
				too_long = 1;
		}
	}
	if (ret == 0 && write_all(out_fd, &out) < 0)
		ret = -1;
	text_free(&out);
	free(line);
	return ret;
}
