/* solver.c: the exact solver (games/ai/solve.c) from the command line.
 *
 *   solver value GAME "OPTIONS" [MOVE ...]
 *       plays the moves from the set-up and prints the value of every legal
 *       move there, margin included, with the nodes and seconds it took
 *   solver deep [-d PLIES] GAME "OPTIONS" [MOVE ...]
 *       the result (win, draw or loss) of that position for its mover, for
 *       searches of hours: the first PLIES plies (default 2) are walked
 *       here, one line of progress for each position settled there, and
 *       a move that wins ends the walk of its position (positions that
 *       share a key, mirror images under a game's key(), are solved once)
 *
 * Options: -m MB (the table, default 1024), -q (no progress on stderr).
 * Values are the mover's: "win +1" is a win by one point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../games/ai/search.h"

static int quiet;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "solver: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

/* Writes v (a two-player value) as "win +1", "draw", "loss -3". */
static void value_text(int v, char *buf, size_t size)
{
	int r = solve_result(v), m = v - r * SOLVE_RESULT;
	const char *word = r > 0 ? "win" : r < 0 ? "loss" : "draw";
	if (m)
		snprintf(buf, size, "%s %+d", word, m);
	else
		snprintf(buf, size, "%s", word);
}

static void bound_text(const struct game *g, const void *st,
		       struct solve_bound b, char *buf, size_t size)
{
	if (g->players(st) != 2 || b.lo == b.hi) {
		if (g->players(st) == 2)
			value_text(b.lo, buf, size);
		else
			snprintf(buf, size, "%d", b.lo);
	} else if (b.hi < SOLVE_INF) {
		char t[32];
		value_text(b.hi, t, sizeof t);
		snprintf(buf, size, "at most %s", t);
	} else {
		snprintf(buf, size, "unknown");
	}
}

/* The state after the set-up given by opts and the moves. */
static void *start(const struct game *g, const char *opts, char **moves,
		   int nmoves)
{
	char err[GAME_ERR_MAX];
	void *st = game_new_state(g, opts, 1, err);
	if (!st)
		die("%s", err);
	for (int i = 0; i < nmoves; i++) {
		struct move mv;
		if (g->status(st).phase != GAME_PLAY ||
		    g->parse(st, moves[i], &mv, err) < 0)
			die("cannot play %s", moves[i]);
		g->play(st, &mv);
	}
	return st;
}

static int cmd_value(const struct game *g, const char *opts, char **moves,
		     int nmoves)
{
	void *st = start(g, opts, moves, nmoves);
	if (g->status(st).phase != GAME_PLAY)
		die("%s", "the game is not at a move");
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	struct solve_bound *b = malloc(sizeof *b * (size_t)g->max_moves);
	if (!list || !b)
		die("%s", "out of memory");
	int n = g->moves(st, list);
	struct solve_job job = {.want = SOLVE_MARGIN};
	double t0 = ai_now_ms();
	if (!solve_moves(g, st, list, n, &job, b))
		die("%s", "not solved (chance, or moves that cannot be listed)");
	double ms = ai_now_ms() - t0;
	for (int i = 0; i < n; i++) {
		char mv[MOVE_TEXT_MAX], v[64];
		g->format(st, &list[i], mv);
		bound_text(g, st, b[i], v, sizeof v);
		printf("%s %s\n", mv, v);
	}
	if (!quiet)
		fprintf(stderr, "%ld nodes, %.2f s\n", job.nodes, ms / 1000);
	free(list);
	free(b);
	free(st);
	return 0;
}

static double t_start;

/* deep's walk: the result of st for its mover, the first plies plies
 * here, the rest by solve_position.  line holds the moves that led here. */
static int deep(const struct game *g, const void *st, int plies, char *line,
		size_t len)
{
	struct solve_job job = {.want = SOLVE_WDL};
	struct solve_bound b;
	if (plies == 0) {
		if (!solve_position(g, st, &job, &b))
			die("%s", "not solved (chance, or moves that cannot be "
				  "listed)");
		int r = solve_result(b.lo == -SOLVE_INF ? b.hi : b.lo);
		printf("%-24s %-4s %12ld nodes %8.0f s\n", line,
		       r > 0 ? "win" : r < 0 ? "loss" : "draw", job.nodes,
		       (ai_now_ms() - t_start) / 1000);
		fflush(stdout);
		return r;
	}
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	uint64_t *seen = malloc(sizeof *seen * (size_t)g->max_moves);
	void *child = malloc(g->state_size);
	if (!list || !seen || !child)
		die("%s", "out of memory");
	int n = g->moves(st, list), me = g->status(st).player, best = -2;
	int nseen = 0;
	for (int i = 0; i < n && best < 1; i++) {
		memcpy(child, st, g->state_size);
		g->play(child, &list[i]);
		uint64_t k = solve_key(g, child);
		int dup = 0;
		for (int j = 0; j < nseen && !dup; j++)
			dup = seen[j] == k;
		if (dup)
			continue;
		seen[nseen++] = k;
		char mv[MOVE_TEXT_MAX];
		g->format(st, &list[i], mv);
		snprintf(line + len, 1024 - len, "%s%s", len ? " " : "", mv);
		struct game_status cs = g->status(child);
		int r;
		if (cs.phase == GAME_OVER)
			r = cs.player == me ? 1 : cs.player ? -1 : 0;
		else if (cs.phase != GAME_PLAY)
			die("%s", "chance: not solved");
		else if (cs.player == me)
			r = deep(g, child, plies - 1, line, strlen(line));
		else
			r = -deep(g, child, plies - 1, line, strlen(line));
		line[len] = '\0';
		if (r > best)
			best = r;
	}
	if (n == 0)
		die("%s", "a position with no move to list");
	printf("%-24s %-4s (for player %d)   %8.0f s\n", len ? line : "start",
	       best > 0 ? "win" : best < 0 ? "loss" : "draw", me,
	       (ai_now_ms() - t_start) / 1000);
	fflush(stdout);
	free(list);
	free(seen);
	free(child);
	return best;
}

static int cmd_deep(const struct game *g, int plies, const char *opts,
		    char **moves, int nmoves)
{
	void *st = start(g, opts, moves, nmoves);
	if (g->status(st).phase != GAME_PLAY)
		die("%s", "the game is not at a move");
	char line[1024] = "";
	t_start = ai_now_ms();
	deep(g, st, plies, line, 0);
	free(st);
	return 0;
}

int main(int argc, char **argv)
{
	long mb = 1024;
	int plies = 2;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "-m") && i + 1 < argc)
			mb = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-d") && i + 1 < argc)
			plies = (int)strtol(argv[++i], NULL, 10);
		else
			die("unknown flag %s", argv[i]);
	}
	if (argc - i < 3)
		die("%s", "usage: solver [-m MB] [-d PLIES] [-q] value|deep "
			  "GAME \"OPTIONS\" [MOVE ...]");
	solve_set_memory((size_t)mb << 20);
	const struct game *g = game_find(argv[i + 1]);
	if (!g)
		die("no game %s", argv[i + 1]);
	if (!strcmp(argv[i], "value"))
		return cmd_value(g, argv[i + 2], argv + i + 3, argc - i - 3);
	if (!strcmp(argv[i], "deep"))
		return cmd_deep(g, plies, argv[i + 2], argv + i + 3,
				argc - i - 3);
	die("unknown command %s", argv[i]);
	return 2;
}
