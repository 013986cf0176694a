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
 *   solver [-w] judge GAME
 *       reads lines "OPTIONS | MOVE ... | CHOSEN" and answers each with
 *       "BEST CHOSEN": the exact value of the position for its mover and
 *       that of the chosen move (what scripts/bench-strength asks); with
 *       -w only the results, as SOLVE_RESULT times 1, 0 or -1; with -n
 *       NODES, "? ?" for a position it could not settle in that many
 *       nodes a solve
 *   solver book FILE GAME "OPTIONS" PLIES [GAME "OPTIONS" PLIES ...]
 *       writes the opening book to FILE (games/ai/book_data.c): every
 *       position within PLIES plies of each set-up (mirror images once,
 *       where the game's key() folds them), with a best move and its
 *       exact value; PLIES written as 4/wdl looks at results only and
 *       leaves lost positions out (for a game whose points only tell who
 *       won, where proving that no bigger margin exists would double the
 *       work); written as 5/follow it keeps only the positions where one
 *       player has played nothing but the book's moves (all a program
 *       playing by the book meets), and writes lines for that player;
 *       written as 7/first it does the same for the player who moves
 *       first alone.  A position is written once: a later walk that meets
 *       it again follows the line already written.
 *
 * Options: -m MB (the table, default 1024), -q (no progress on stderr),
 * -r (book: a position whose line, word for word, the book compiled into
 * this program holds keeps that line's move and value, unsolved: a deeper
 * book then solves only the positions it adds), -R FILE (book: the same
 * for the lines of FILE, a book this command wrote or the FILE.tmp it
 * leaves when cut short, as it writes each line once solved: a walk of
 * hours goes on where it stopped; may be repeated).
 * Values are the mover's: "win +1" is a win by one point. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../games/ai/book.h"
#include "../../games/ai/solve.h"
#include "../../games/ai/timeman.h"

/* The solver's context (solve.h, struct solve_ctx) used here:
 * one for the whole program, as a player would keep. */
static struct solve_ctx *tctx(void)
{
	static struct solve_ctx *c;
	if (!c && !(c = solve_ctx_new()))
		abort();
	return c;
}

static int quiet;

static _Noreturn void die(const char *fmt, const char *arg)
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
	if (!solve_moves(tctx(), g, st, list, n, &job, b))
		die("%s",
		    "not solved (chance, or moves that cannot be listed)");
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
		if (!solve_position(tctx(), g, st, &job, &b))
			die("%s", "not solved (chance, or moves that cannot be "
				  "listed)");
		int r = solve_result(b.lo == -SOLVE_INF ? b.hi : b.lo);
		printf("%-24s %-4s %12ld nodes %8.0f s\n", line,
		       r > 0   ? "win"
		       : r < 0 ? "loss"
			       : "draw",
		       job.nodes, (ai_now_ms() - t_start) / 1000);
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
	       best > 0   ? "win"
	       : best < 0 ? "loss"
			  : "draw",
	       me, (ai_now_ms() - t_start) / 1000);
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

static enum solve_want judge_want = SOLVE_MARGIN;
static long judge_nodes; /* -n: the nodes a judgement may take; 0: any */
#define UNJUDGED INT_MIN

/* The value of st for the player me (the mover of st's parent): exact, or
 * with -w the result times SOLVE_RESULT; UNJUDGED when -n's budget ran
 * out first. */
static int judge_value(const struct game *g, const void *st, int me)
{
	struct game_status cs = g->status(st);
	int v;
	if (cs.phase == GAME_OVER) {
		int pts[GAME_MAX_PLAYERS] = {0};
		g->score(st, pts);
		int r = cs.player == me ? 1 : cs.player ? -1 : 0;
		v = r * SOLVE_RESULT + pts[me - 1] - pts[2 - me];
	} else {
		struct solve_job job = {.want = judge_want,
					.node_limit = judge_nodes};
		struct solve_bound b;
		if (!solve_position(tctx(), g, st, &job, &b)) {
			if (judge_nodes)
				return UNJUDGED;
			die("%s", "not solved");
		}
		v = b.lo > -SOLVE_INF ? b.lo : b.hi;
		if (cs.player != me)
			v = -v;
	}
	return judge_want == SOLVE_WDL ? SOLVE_RESULT * solve_result(v) : v;
}

static int cmd_judge(const struct game *g)
{
	char line[65536];
	while (fgets(line, sizeof line, stdin)) {
		char *opts = line, *moves = strchr(line, '|');
		char *chosen = moves ? strchr(moves + 1, '|') : NULL;
		if (!chosen)
			die("%s", "judge reads OPTIONS | MOVE ... | CHOSEN");
		*moves++ = *chosen++ = '\0';
		while (*chosen == ' ')
			chosen++;
		chosen[strcspn(chosen, " \r\n")] = '\0';
		char *words[1024];
		int nw = 0;
		for (char *w = strtok(moves, " \n"); w && nw < 1024;
		     w = strtok(NULL, " \n"))
			words[nw++] = w;
		void *st = start(g, opts, words, nw);
		void *c = malloc(g->state_size);
		struct move mv;
		char err[GAME_ERR_MAX];
		if (g->players(st) != 2)
			die("%s", "judge: two-player games only");
		if (!c || g->status(st).phase != GAME_PLAY ||
		    g->parse(st, chosen, &mv, err) < 0)
			die("cannot judge %s", chosen);
		int me = g->status(st).player;
		int best = judge_value(g, st, g->status(st).player), got;
		memcpy(c, st, g->state_size);
		g->play(c, &mv);
		if (best == UNJUDGED ||
		    (got = judge_value(g, c, me)) == UNJUDGED)
			printf("? ?\n");
		else
			printf("%d %d\n", best, got);
		fflush(stdout);
		free(c);
		free(st);
	}
	return 0;
}

/* ---- the book ---- */

/* A position waiting in the book's walk: its line from the set-up, and
 * the players (a bit each) whose every move on the line was the book's. */
struct pos {
	char *line;
	unsigned char *st;
	unsigned follow;
};

/* A map from keys to a number: open addressing, key 0 is empty (keys are
 * made odd). */
struct keymap {
	uint64_t *k;
	long *v;
	size_t mask, n;
};

static void keymap_init(struct keymap *km, size_t slots)
{
	*km = (struct keymap){calloc(slots, 8), calloc(slots, sizeof(long)),
			      slots - 1, 0};
	if (!km->k || !km->v)
		die("%s", "out of memory");
}

/* Files key with v unless it is there; returns the number filed with it
 * before, or -1 when it was new. */
static long keymap_add(struct keymap *km, uint64_t key, long v)
{
	key |= 1;
	if (2 * (km->n + 1) > km->mask + 1) {
		struct keymap big;
		keymap_init(&big, 2 * (km->mask + 1));
		for (size_t i = 0; i <= km->mask; i++)
			if (km->k[i])
				keymap_add(&big, km->k[i], km->v[i]);
		free(km->k);
		free(km->v);
		*km = big;
	}
	size_t i = key & km->mask;
	for (; km->k[i]; i = (i + 1) & km->mask)
		if (km->k[i] == key)
			return km->v[i];
	km->k[i] = key;
	km->v[i] = v;
	km->n++;
	return -1;
}

/* The number filed with key, or 0 when it is not there. */
static long keymap_get(const struct keymap *km, uint64_t key)
{
	key |= 1;
	for (size_t i = key & km->mask; km->k[i]; i = (i + 1) & km->mask)
		if (km->k[i] == key)
			return km->v[i];
	return 0;
}

static int reuse; /* -r */

/* The lines read with -R, reused as -r reuses the compiled-in ones (each
 * -R adds its file's lines). */
static struct book_line *read_lines;
static int nread, read_room;

/* The text of the quoted string at *p (after blanks), copied; *p moves
 * past it.  NULL when *p holds no quoted string. */
static char *quoted(const char **p)
{
	const char *s = *p + strspn(*p, " \t\n,");
	if (*s != '"')
		return NULL;
	size_t n = strcspn(s + 1, "\"");
	if (s[1 + n] != '"')
		return NULL;
	char *t = strndup(s + 1, n);
	if (!t)
		die("%s", "out of memory");
	*p = s + n + 2;
	return t;
}

/* Copies a field of a book line into its array (book.h), which must hold
 * it. */
static void book_copy(char *to, size_t size, const char *from)
{
	if (strlen(from) >= size)
		die("book field too long for book.h: %s", from);
	memcpy(to, from, strlen(from) + 1);
}

/* -R: reads the book lines of a file solver book wrote (FILE, or the
 * FILE.tmp of a walk cut short: each line goes out as soon as it is
 * solved), wherever clang-format broke them. */
static void read_book(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		die("cannot read %s", path);
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap);
	for (size_t n; text && (n = fread(text + len, 1, cap - len - 1, f));) {
		len += n;
		if (len + 1 == cap)
			text = realloc(text, cap *= 2);
	}
	if (!text)
		die("%s", "out of memory");
	text[len] = '\0';
	fclose(f);
	for (const char *p = text; (p = strstr(p, "{\"")) != NULL;) {
		char *w[4] = {NULL, NULL, NULL, NULL}, *end;
		int value = 0, exact = -1, k = 0;
		for (p++; k < 4 && (w[k] = quoted(&p)) != NULL;)
			k++;
		if (k == 4) {
			p += strspn(p, " \t\n,");
			value = (int)strtol(p, &end, 10);
			const char *q = end + strspn(end, " \t\n,");
			if (end != p)
				exact = (int)strtol(q, &end, 10);
			if (end == q || end[strspn(end, " \t\n")] != '}')
				exact = -1;
			p = end;
		}
		if (exact < 0 || !*w[0]) { /* a line cut short, no line, or the
					    * empty line that ends the list */
			for (k = 0; k < 4; k++)
				free(w[k]);
			continue;
		}
		if (nread == read_room) {
			read_room = read_room ? 2 * read_room : 256;
			read_lines =
				realloc(read_lines,
					sizeof *read_lines * (size_t)read_room);
			if (!read_lines)
				die("%s", "out of memory");
		}
		struct book_line l = {.value = value, .exact = exact};
		book_copy(l.game, sizeof l.game, w[0]);
		book_copy(l.setup, sizeof l.setup, w[1]);
		book_copy(l.moves, sizeof l.moves, w[2]);
		book_copy(l.best, sizeof l.best, w[3]);
		for (k = 0; k < 4; k++)
			free(w[k]);
		read_lines[nread++] = l;
	}
	free(text);
}

/* The line of lines[0..n) for this set-up and these moves, word for
 * word, or NULL. */
static const struct book_line *find_line(const struct book_line *lines, int n,
					 const struct game *g,
					 const char *setup, const char *moves)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(lines[i].game, g->name) &&
		    !strcmp(lines[i].setup, setup) &&
		    !strcmp(lines[i].moves, moves))
			return &lines[i];
	return NULL;
}

/* The line for this set-up and these moves that -r (the book compiled
 * into this program) or -R (the files read) offers, or NULL. */
static const struct book_line *reused_line(const struct game *g,
					   const char *setup, const char *moves)
{
	const struct book_line *l =
		reuse ? find_line(book_lines, book_size, g, setup, moves)
		      : NULL;
	return l ? l : find_line(read_lines, nread, g, setup, moves);
}

/* One line of book_data.c (book.h, struct book_line). */
static void write_line(FILE *out, const struct game *g, const char *setup,
		       const char *moves, const char *best, int value,
		       int exact)
{
	struct book_line l;
	book_copy(l.game, sizeof l.game, g->name);
	book_copy(l.setup, sizeof l.setup, setup);
	book_copy(l.moves, sizeof l.moves, moves);
	book_copy(l.best, sizeof l.best, best);
	fprintf(out, "\t{\"%s\", \"%s\", \"%s\", \"%s\", %d, %d},\n", l.game,
		l.setup, l.moves, l.best, value, exact);
	fflush(out); /* a walk cut short keeps its lines for -R */
}

/* Solves one position for the book and writes its line: the position's
 * value, then a move that keeps it (the one the table remembers first).
 * With wdl, a lost position is left out: any move is as good.  With -r or
 * -R a line of the same kind for the position is copied instead.  Returns
 * the index of that move in g->moves() order, or -1 when it wrote no
 * line. */
static int book_position(const struct game *g, const char *setup,
			 const struct pos *p, int wdl, FILE *out)
{
	const struct book_line *l = reused_line(g, setup, p->line);
	if (l && l->exact == !wdl) {
		struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
		struct move mv;
		char err[GAME_ERR_MAX];
		if (!list || g->parse(p->st, l->best, &mv, err) < 0)
			die("cannot play the book's %s", l->best);
		int n = g->moves(p->st, list), bi = -1;
		for (int i = 0; i < n && bi < 0; i++)
			if (move_equal(&list[i], &mv))
				bi = i;
		free(list);
		if (bi < 0)
			die("cannot play the book's %s", l->best);
		write_line(out, g, setup, p->line, l->best, l->value, l->exact);
		return bi;
	}
	judge_want = wdl ? SOLVE_WDL : SOLVE_MARGIN;
	int me = g->status(p->st).player, v = judge_value(g, p->st, me);
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	unsigned char *c = malloc(g->state_size);
	if (!list || !c)
		die("%s", "out of memory");
	int n = g->moves(p->st, list),
	    hint = solve_hint(&tctx()->table, g, p->st), bi = -1;
	if (n <= 1 || (wdl && v < 0)) {
		free(list);
		free(c);
		return -1;
	}
	for (int k = -1; k < n && bi < 0; k++) {
		int i = k < 0 ? hint : k;
		if (i < 0 || i >= n || (k >= 0 && i == hint))
			continue;
		memcpy(c, p->st, g->state_size);
		g->play(c, &list[i]);
		if (judge_value(g, c, me) == v)
			bi = i;
	}
	if (bi < 0)
		die("%s", "no move keeps the position's value");
	char mv[MOVE_TEXT_MAX];
	g->format(p->st, &list[bi], mv);
	write_line(out, g, setup, p->line, mv, v, !wdl);
	free(list);
	free(c);
	return bi;
}

/* The position after p's line and the move list[k], with its line. */
static struct pos book_child(const struct game *g, const struct pos *p,
			     const struct move *list, int k)
{
	char mv[MOVE_TEXT_MAX];
	unsigned char *c = malloc(g->state_size);
	if (!c)
		die("%s", "out of memory");
	memcpy(c, p->st, g->state_size);
	g->play(c, &list[k]);
	g->format(p->st, &list[k], mv);
	size_t len = strlen(p->line) + strlen(mv) + 2;
	char *line = malloc(len);
	if (!line)
		die("%s", "out of memory");
	snprintf(line, len, "%s%s%s", p->line, *p->line ? " " : "", mv);
	return (struct pos){line, c, p->follow};
}

/* The positions written so far, from any set-up: each key to the key of
 * the position its line's move leads to. */
static struct keymap filed;

/* The book's walk over one set-up, level by level, each position (up to
 * the key) once: every position within plies plies, or with follow only
 * those where one player has played nothing but the book's moves, and of
 * those only the ones where that player is to move get a line (all a
 * program that plays by the book can meet, in far fewer positions); with
 * first_only that player is the one who moves first. */
static long book_setup(const struct game *g, const char *setup, int plies,
		       int wdl, int follow, int first_only, FILE *out)
{
	struct pos *level = malloc(sizeof *level), *next = NULL;
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	if (!level || !list)
		die("%s", "out of memory");
	level[0] = (struct pos){strdup(""), start(g, setup, NULL, 0), 0};
	for (int p = 1; p <= g->players(level[0].st); p++)
		level[0].follow |= 1u << p; /* nobody has left the book */
	if (first_only)
		level[0].follow = 1u << g->status(level[0].st).player;
	long nlevel = 1, written = 0, done = 0;
	for (int d = 0; d < plies && nlevel; d++) {
		struct keymap seen; /* the next level's keys, to its index */
		keymap_init(&seen, 1024);
		long nnext = 0, cap = 0;
		for (long i = 0; i < nlevel; i++) {
			struct pos *p = &level[i];
			unsigned mover = 1u << g->status(p->st).player;
			/* the key after the line's move (this walk's or an
			 * earlier one's); 0: no line */
			uint64_t here = solve_key(g, p->st);
			uint64_t best_key = (uint64_t)keymap_get(&filed, here);
			if ((p->follow & mover) && !best_key) {
				int best = book_position(g, setup, p, wdl, out);
				if (best >= 0) {
					g->moves(p->st, list);
					struct pos b =
						book_child(g, p, list, best);
					best_key = solve_key(g, b.st);
					keymap_add(&filed, here,
						   (long)best_key);
					free(b.line);
					free(b.st);
					written++;
				}
			}
			if (!quiet && (++done % 50 == 0 || i == nlevel - 1))
				fprintf(stderr,
					"book: %s %s: ply %d, %ld of %ld; %ld "
					"lines, %.0f s\n",
					g->name, setup, d, i + 1, nlevel,
					written,
					(ai_now_ms() - t_start) / 1000);
			int n = d + 1 < plies ? g->moves(p->st, list) : 0;
			for (int k = 0; k < n; k++) {
				struct pos c = book_child(g, p, list, k);
				uint64_t key = solve_key(g, c.st);
				/* a position with no line (one move, or lost
				 * under wdl) leaves the mover on the book */
				if (follow && best_key && key != best_key)
					c.follow &= ~mover;
				long at = -1;
				if (g->status(c.st).phase == GAME_PLAY &&
				    c.follow &&
				    (at = keymap_add(&seen, key, nnext)) >= 0)
					next[at].follow |= c.follow;
				if (at >= 0 || !c.follow ||
				    g->status(c.st).phase != GAME_PLAY) {
					free(c.line);
					free(c.st);
					continue;
				}
				if (nnext == cap) {
					cap = cap ? 2 * cap : 64;
					next = realloc(next,
						       sizeof *next *
							       (size_t)cap);
					if (!next)
						die("%s", "out of memory");
				}
				next[nnext++] = c;
			}
			free(p->line);
			free(p->st);
		}
		free(seen.k);
		free(seen.v);
		free(level);
		level = next;
		nlevel = nnext;
		next = NULL;
	}
	for (long i = 0; i < nlevel; i++) {
		free(level[i].line);
		free(level[i].st);
	}
	free(level);
	free(list);
	return written;
}

static int cmd_book(const char *path, char **spec, int nspec)
{
	if (nspec <= 0 || nspec % 3)
		die("%s", "book FILE wants GAME \"OPTIONS\" PLIES, once or "
			  "more");
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *out = fopen(tmp, "w");
	if (!out)
		die("cannot write %s", tmp);
	fprintf(out,
		"/* book_data.c: the opening book, written by `make book` "
		"(see\n * scripts/tools/solver.c): do not edit.  Each line: "
		"the game, its\n * set-up, the moves to a position, the best "
		"move there, its value for\n * the mover (solve.h: "
		"SOLVE_RESULT times the result, plus the margin)\n * and "
		"whether that is exact.  Made by solver book with these "
		"set-ups\n * and plies, one a line:");
	for (int i = 0; i < nspec; i += 3)
		fprintf(out, "%s\n * %s %s %s", i ? "," : "", spec[i],
			spec[i + 1], spec[i + 2]);
	fprintf(out, " */\n#include \"book.h\"\n\n"
		     "const struct book_line book_lines[] = {\n");
	t_start = ai_now_ms();
	keymap_init(&filed, 1024);
	long total = 0;
	for (int i = 0; i < nspec; i += 3) {
		const struct game *g = game_find(spec[i]);
		if (!g)
			die("no game %s", spec[i]);
		char *end;
		int plies = (int)strtol(spec[i + 2], &end, 10);
		int first = !strcmp(end, "/first");
		total += book_setup(g, spec[i + 1], plies, !strcmp(end, "/wdl"),
				    first || !strcmp(end, "/follow"), first,
				    out);
		solve_clear(tctx()); /* the next set-up shares nothing */
	}
	fprintf(out,
		"\t{\"\", \"\", \"\", \"\", 0, 0},\n};\n\n"
		"const int book_size = %ld;\n",
		total);
	if (fclose(out) != 0 || rename(tmp, path) != 0)
		die("cannot write %s", path);
	if (!quiet)
		fprintf(stderr, "book: %ld lines in %.0f s\n", total,
			(ai_now_ms() - t_start) / 1000);
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
		else if (!strcmp(argv[i], "-r"))
			reuse = 1;
		else if (!strcmp(argv[i], "-R") && i + 1 < argc)
			read_book(argv[++i]);
		else if (!strcmp(argv[i], "-w"))
			judge_want = SOLVE_WDL;
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			judge_nodes = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-d") && i + 1 < argc)
			plies = (int)strtol(argv[++i], NULL, 10);
		else
			die("unknown flag %s", argv[i]);
	}
	if (argc - i < 2 || (argc - i < 3 && strcmp(argv[i], "judge")))
		die("%s", "usage: solver [-m MB] [-d PLIES] [-w] [-n NODES] "
			  "[-q] [-r] [-R FILE] value|deep "
			  "GAME \"OPTIONS\" [MOVE ...], solver judge GAME, or "
			  "solver book FILE GAME \"OPTIONS\" PLIES ...");
	solve_set_memory(tctx(), (size_t)mb << 20);
	if (!strcmp(argv[i], "book"))
		return cmd_book(argv[i + 1], argv + i + 2, argc - i - 2);
	const struct game *g = game_find(argv[i + 1]);
	if (!g)
		die("no game %s", argv[i + 1]);
	if (!strcmp(argv[i], "judge"))
		return cmd_judge(g);
	if (!strcmp(argv[i], "value"))
		return cmd_value(g, argv[i + 2], argv + i + 3, argc - i - 3);
	if (!strcmp(argv[i], "deep"))
		return cmd_deep(g, plies, argv[i + 2], argv + i + 3,
				argc - i - 3);
	die("unknown command %s", argv[i]);
	return 2;
}
