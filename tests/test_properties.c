/* test_properties.c: the random-simulation properties every game must have.
 *
 * For every game of game_table and each variant listed for it below, random
 * games are played through the engine (engine_line, as a frontend would) and,
 * in step, directly through struct game on a state of the test's own.  At
 * every step:
 *   - the engine and the direct state agree (status, moves, showboard);
 *   - every listed move formats to clean, distinct text that parse() reads
 *     back as the same move, and it can be played; where the game gives
 *     preview, it says what playing the move does, and where it gives
 *     copy, a copy into bytes that held anything plays the move as a
 *     whole copy does;
 *   - random text that parse() refuses leaves the state bytes unchanged, and
 *     `play TEXT` then fails with "illegal move" and changes nothing; text
 *     parse() accepts must name a listed move;
 *   - `play` (or `roll`) then `undo` restores showboard, moves, status, score;
 *   - at a roll: chance() lists exactly the game's die faces, equally likely,
 *     summing to 1; `roll N` refuses other faces; the engine's own rolls stay
 *     in the list and over a run come out near uniform;
 *   - at steps 1, 2, 4, 8, ... and at the end, `history` replayed into a fresh
 *     session gives the same answers, and replayed directly gives the same
 *     state bytes (the sampled steps keep the cost linear in the length);
 *   - `position` fed to a fresh engine (newgame NAME key=value ...) gives
 *     the same position, status, moves, score, showboard and geometry, and
 *     the same hint after the same `set seed`; at the sampled steps that
 *     twin then follows every later play and roll and must keep agreeing;
 *   - `geometry` starts with the lines every game shares (cell, point, word,
 *     sep), and every listed move is names of those joined by seps;
 *   - `turn_info` agrees with status and moves (phase over and roll exactly
 *     when status says so, the player to move, a step within its count,
 *     `also` a listed move), and `scoring`'s units, whose cells geometry
 *     names, sum by player to score; `game_info` has the players, teams
 *     and die of the variant;
 *   - the game ends within its documented number of steps (plays + rolls);
 *   - at the end, status and score agree: a winner has the strictly highest
 *     score, `over draw` means a tie for first.
 * A game with no entry below still runs, with its default options and a
 * loose bound.  PROPERTY_SCALE=F in the environment multiplies the number of
 * games (0.1 for a quick look, 10 for a long run). */
#include "test_util.h"
#include "../games/ai/ai.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

/* max_steps: the bound on plays + rolls from protocol.md; BOUND_CLAIMS instead
 * means "every step claims one of the places listed at the first state with
 * moves, so no more steps than that list is long (after the steps before
 * it)".  die: the faces a roll shows (0: the game never rolls). */
#define BOUND_CLAIMS 0
#define WINLOSS 1 /* no points: score is 1 for the winner, 0 otherwise */
#define TEAMS 2   /* 1 and 3 against 2 and 4: partners share the score */

struct variant {
	const char *game;
	const char *options; /* newgame options; "" for the defaults */
	int games;           /* random games (times PROPERTY_SCALE) */
	int max_steps;
	int die; /* faces 1..die, each 1/die */
	int flags;
};

static const struct variant variants[] = {
	/* 24 placements; the exchange adds at most one move per player; a
	 * 6x6 board has 36 squares. */
	{"checkertoe", "", 150, 24, 0, 0},
	{"checkertoe", "first=2", 30, 24, 0, 0},
	{"checkertoe", "exchange", 100, 26, 0, 0},
	{"checkertoe", "float", 100, 24, 0, 0},
	{"checkertoe", "float exchange", 40, 26, 0, 0},
	{"checkertoe", "size=6", 60, 36, 0, 0},
	{"checkertoe", "size=6 exchange", 30, 38, 0, 0},
	/* a turn is a roll and a move (or pass): 2 steps; maxturns caps the
	 * turns */
	{"takebacktoe", "", 6, 2000, 6, 0},
	{"takebacktoe", "maxturns=40", 80, 80, 6, 0},
	{"takebacktoe", "first=2 maxturns=12", 60, 24, 6, 0},
	/* from positions: a roll due, and a die showing (its move is the
	 * first step) */
	{"takebacktoe",
	 "board=0,5,0,3/4,6,5,7/5,0,3,2 turns=10 maxturns=60 last=b2-a2:4", 40,
	 100, 6, 0},
	{"takebacktoe",
	 "board=0,5,0,3/4,6,5,7/5,0,3,2 turns=10 maxturns=60 die=4 "
	 "last=b2-a2:4",
	 40, 99, 6, 0},
	/* every play captures a piece, except drops (one per player, the
	 * last one left never drops): pieces + players - 1 */
	{"takeitaway", "", 40, 65, 0, 0},
	{"takeitaway", "players=3", 25, 66, 0, 0},
	{"takeitaway", "players=4 open", 25, 67, 0, 0},
	{"takeitaway", "nodrop", 20, 64, 0, 0},
	{"takeitaway", "penalty=4 players=3", 15, 66, 0, 0},
	{"takeitaway", "plain", 20, 63, 0, 0},
	{"takeitaway", "plain nodrop=0", 20, 64, 0, 0},
	{"takeitaway", "plain nodrop=0 penalty=4", 10, 64, 0, 0},
	{"takeitaway", "open", 15, 65, 0, 0},
	/* one claim per region until none is vacant */
	{"abstractoe", "", 100, BOUND_CLAIMS, 0, 0},
	{"abstractoe", "players=3", 30, BOUND_CLAIMS, 0, 0},
	{"abstractoe", "players=4", 30, BOUND_CLAIMS, 0, 0},
	{"abstractoe", "players=1", 30, BOUND_CLAIMS, 0, 0},
	{"abstractoe", "draw=1", 50, BOUND_CLAIMS, 0, 0},
	{"abstractoe", "players=4 teams", 30, BOUND_CLAIMS, 0, TEAMS},
	{"abstractoe", "players=4 teams draw=1", 20, BOUND_CLAIMS, 0, TEAMS},
	{"abstractoe", "players=1 draw=1", 20, BOUND_CLAIMS, 0, 0},
	/* one piece per step, on an empty square */
	{"tiptoe", "", 80, 64, 0, WINLOSS},
	{"tiptoe", "size=4", 150, 16, 0, WINLOSS},
	{"tiptoe", "size=5 diagonal", 100, 25, 0, WINLOSS},
	{"tiptoe", "hex size=4", 100, 37, 0, WINLOSS},
	{"tiptoe", "hex", 20, 169, 0, WINLOSS},
	{"tiptoe", "size=12", 10, 144, 0, WINLOSS},
	{"tiptoe", "diagonal", 20, 64, 0, WINLOSS},
	{"tiptoe", "hex size=2", 60, 7, 0, WINLOSS},
	{"tiptoe", "size=26", 1, 676, 0, WINLOSS},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* For a game with no entry above. */
#define DEFAULT_GAMES 50
#define DEFAULT_BOUND 100000

/* ---- the runs: one per (game of the table, variant) ---- */

struct run {
	const struct game *g;
	struct variant v;
};

static struct run runs[256];
static int nruns;

static int listed(const struct game *g)
{
	for (size_t j = 0; j < NVARIANTS; j++)
		if (!strcmp(variants[j].game, g->name))
			return 1;
	return 0;
}

/* A game with no entry above: its defaults and each variant of its own
 * option table (test_util.h, each_variant), with a loose bound. */
static void add_run(const struct game *g, const char *opts)
{
	if (listed(g) || nruns == (int)(sizeof runs / sizeof runs[0]))
		return;
	char *kept = strdup(opts);
	if (!kept)
		abort();
	runs[nruns++] = (struct run){
		g, {g->name, kept, DEFAULT_GAMES, DEFAULT_BOUND, 0, 0}};
}

static void collect_runs(void)
{
	nruns = 0;
	for (int i = 0; game_table[i]; i++)
		for (size_t j = 0; j < NVARIANTS; j++)
			if (!strcmp(variants[j].game, game_table[i]->name) &&
			    nruns < (int)(sizeof runs / sizeof runs[0]))
				runs[nruns++] = (struct run){game_table[i],
							     variants[j]};
	each_variant(add_run);
}

/* ---- small helpers ---- */

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	ck_assert(p != NULL);
	memcpy(p, s, n);
	return p;
}

/* What the failure messages say about the game in progress, so that every
 * failure comes with the commands that reproduce it. */
struct ctx {
	const struct run *r;
	int game, step, level;
	struct session *s;
};
static struct ctx cx;

static void context_dump(void)
{
	if (!cx.s)
		return;
	const char *h = send_line(cx.s, "history");
	fprintf(stderr,
		"property test: %s [%s], game %d, step %d; reproduce with:\n%s",
		cx.r->g->name, cx.r->v.options, cx.game, cx.step, h);
}

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			context_dump();                                        \
			ck_abort_msg(__VA_ARGS__);                             \
		}                                                              \
	} while (0)

/* Like ok() (the command must succeed) but owns a copy of the answer's
 * text. */
static char *ask(struct session *s, const char *line)
{
	const char *r = send_line(s, line);
	size_t n = strlen(r);
	CHECK(r[0] == '=' && n >= 4 && r[1] == ' ', "'%s' failed: %s", line, r);
	char *p = malloc(n);
	ck_assert(p != NULL);
	memcpy(p, r + 2, n - 4);
	p[n - 4] = '\0';
	return p;
}

/* The command must succeed with an empty answer. */
static void ask_empty(struct session *s, const char *line, const char *what)
{
	char *a = ask(s, line);
	CHECK(!a[0], "%s: '%s' answered '%s'", what, line, a);
	free(a);
}

/* The framing of every answer: "=" or "?", a space, a body without empty
 * lines, the terminating empty line. */
static const char *send_checked(struct session *s, const char *line)
{
	const char *r = send_line(s, line);
	size_t n = strlen(r);
	CHECK((r[0] == '=' || r[0] == '?') && r[1] == ' ' && n >= 4 &&
		      !strcmp(r + n - 2, "\n\n") && !strstr(r, "\n\n\n") &&
		      strstr(r, "\n\n") == r + n - 2,
	      "badly framed answer to '%s': [%s]", line, r);
	return r;
}

/* The visible state through the protocol. */
struct snap {
	char *board, *moves, *status, *score;
};

static void snap_take(struct session *s, struct snap *p)
{
	p->board = ask(s, "showboard");
	p->moves = ask(s, "moves");
	p->status = ask(s, "status");
	p->score = ask(s, "score");
}

static void snap_free(struct snap *p)
{
	free(p->board), free(p->moves), free(p->status), free(p->score);
}

static void snap_same(const struct snap *a, const struct snap *b,
		      const char *what)
{
	CHECK(!strcmp(a->board, b->board), "%s: showboard differs:\n%s\n--\n%s",
	      what, a->board, b->board);
	CHECK(!strcmp(a->moves, b->moves), "%s: moves differ: [%s] [%s]", what,
	      a->moves, b->moves);
	CHECK(!strcmp(a->status, b->status), "%s: status differs: %s / %s",
	      what, a->status, b->status);
	CHECK(!strcmp(a->score, b->score), "%s: score differs: %s / %s", what,
	      a->score, b->score);
}

static char *show_text(const struct game *g, const void *st)
{
	struct text t;
	text_init(&t);
	g->show(st, &t);
	CHECK(t.s && t.len > 0 && t.s[0] != '\n' && t.s[t.len - 1] == '\n' &&
		      !strstr(t.s, "\n\n"),
	      "show() must give lines, none empty, each ending in a "
	      "newline:\n%s",
	      t.s ? t.s : "(nothing)");
	return t.s;
}

static const char *status_text(struct game_status st, char *buf)
{
	if (st.phase == GAME_OVER && st.player == 0)
		return strcpy(buf, "over draw");
	sprintf(buf, "%s %d",
		st.phase == GAME_PLAY   ? "play"
		: st.phase == GAME_ROLL ? "roll"
					: "over",
		st.player);
	return buf;
}

/* Formats mv, checking the text is clean: non-empty, lowercase, printable,
 * no blanks, no '#', NUL-terminated within MOVE_TEXT_MAX. */
static void format_checked(const struct game *g, const void *st,
			   const struct move *mv, char *buf)
{
	memset(buf, 0x7f, MOVE_TEXT_MAX);
	g->format(st, mv, buf);
	CHECK(memchr(buf, '\0', MOVE_TEXT_MAX) != NULL,
	      "format() wrote no NUL within MOVE_TEXT_MAX");
	CHECK(buf[0] != '\0', "format() wrote an empty move");
	for (const char *p = buf; *p; p++)
		CHECK(*p > ' ' && *p < 127 && *p != '#' &&
			      !(*p >= 'A' && *p <= 'Z'),
		      "format() wrote a bad byte 0x%02x in '%s'",
		      (unsigned char)*p, buf);
}

/* parse() with the contract checks: st untouched, err terminated. */
static int parse_checked(const struct game *g, const void *st, const char *text,
			 struct move *mv, char *err)
{
	size_t size = g->state_size;
	void *copy = malloc(size);
	ck_assert(copy != NULL);
	memcpy(copy, st, size);
	memset(err, 0x7f, GAME_ERR_MAX);
	memset(mv, 0, sizeof *mv);
	int r = g->parse(st, text, mv, err);
	CHECK(memcmp(copy, st, size) == 0, "parse('%s') changed the state",
	      text);
	CHECK(r == 0 || r == -1, "parse('%s') returned %d", text, r);
	if (r < 0)
		CHECK(memchr(err, '\0', GAME_ERR_MAX) != NULL,
		      "parse('%s') failed without a terminated message", text);
	free(copy);
	return r;
}

/* ---- position and geometry ---- */

/* The names a move may be made of, read from geometry's shared lines. */
struct names {
	char **v;
	int n;
	char seps[16];
};

static void names_free(struct names *nm)
{
	for (int i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
	nm->v = NULL;
	nm->n = 0;
}

/* Checks the shared lines at the top of geometry (in the order cell, point,
 * word, sep, each with its fields) and collects the names and separators. */
static void geometry_names(const char *geo, struct names *nm)
{
	static const char *const kinds[] = {"cell", "point", "word", "sep"};
	char *copy = xstrdup(geo), *save = NULL;
	int order = 0, cap = 0;
	nm->n = 0;
	nm->v = NULL;
	memset(nm->seps, 0, sizeof nm->seps);
	for (char *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char kind[16], name[MOVE_TEXT_MAX], rest[8];
		double x, y;
		int k = 0, fields = sscanf(line, "%15s %1023s", kind, name);
		while (k < 4 && (fields < 1 || strcmp(kind, kinds[k])))
			k++;
		if (k == 4)
			break; /* the game's own lines follow */
		CHECK(k >= order, "geometry: '%s' after the %s lines", line,
		      kinds[order]);
		order = k;
		CHECK(fields == 2, "geometry: '%s' has no name", line);
		if (k < 2)
			CHECK(sscanf(line, "%*s %*s %lf %lf %7s", &x, &y,
				     rest) == 2,
			      "geometry: '%s' is not '%s NAME X Y'", line,
			      kinds[k]);
		else
			CHECK(sscanf(line, "%*s %*s %7s", rest) < 1,
			      "geometry: '%s' has more than a name", line);
		if (k == 3) {
			CHECK(strlen(name) == 1 && strlen(nm->seps) < 15,
			      "geometry: bad '%s'", line);
			strcat(nm->seps, name);
			continue;
		}
		for (int i = 0; i < nm->n; i++)
			CHECK(strcmp(nm->v[i], name), "geometry names %s twice",
			      name);
		if (nm->n == cap) {
			cap = cap ? 2 * cap : 64;
			nm->v = realloc(nm->v, sizeof *nm->v * (size_t)cap);
			ck_assert(nm->v != NULL);
		}
		nm->v[nm->n++] = xstrdup(name);
	}
	free(copy);
}

/* Every move of the list (space-separated) is names of geometry joined by
 * its separators. */
static void moves_in_geometry(const char *moves, const struct names *nm)
{
	char *copy = xstrdup(moves), *save = NULL;
	char delim[24] = " ";
	strcat(delim, nm->seps);
	for (char *w = strtok_r(copy, delim, &save); w;
	     w = strtok_r(NULL, delim, &save)) {
		int found = 0;
		for (int i = 0; i < nm->n && !found; i++)
			found = !strcmp(nm->v[i], w);
		CHECK(found,
		      "a move names %s, which geometry does not list "
		      "(moves: %.200s)",
		      w, moves);
	}
	free(copy);
}

/* The twin: a session started from `position`, and its agreement with the
 * session it was taken from. */
static struct session *twin_from(struct session *s, const struct game *g)
{
	char *pos = ask(s, "position");
	CHECK(!strncmp(pos, g->name, strlen(g->name)) &&
		      pos[strlen(g->name)] == ' ' && !strchr(pos, '\n') &&
		      !strstr(pos, "seed="),
	      "position '%s' is not one line 'NAME key=value ...'", pos);
	for (const char *p = pos; *p; p++)
		CHECK((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			      strchr(" .,:/_-=", *p),
		      "position '%s' has the byte 0x%02x", pos,
		      (unsigned char)*p);
	struct session *t = quiet_session();
	char *line = malloc(strlen(pos) + 32);
	sprintf(line, "newgame %s seed=1", pos);
	const char *r = send_line(t, line);
	CHECK(r[0] == '=', "'%s' refused: %s", line, r);
	char *again = ask(t, "position");
	CHECK(!strcmp(pos, again), "position read back writes another:\n%s\n%s",
	      pos, again);
	free(again), free(line), free(pos);
	return t;
}

static void twin_same(struct session *s, struct session *t, const char *what)
{
	struct snap a, b;
	snap_take(s, &a);
	snap_take(t, &b);
	snap_same(&a, &b, what);
	snap_free(&a);
	snap_free(&b);
	char *ga = ask(s, "geometry"), *gb = ask(t, "geometry");
	CHECK(!strcmp(ga, gb), "%s: geometry differs:\n%s\n--\n%s", what, ga,
	      gb);
	char *pa = ask(s, "position"), *pb = ask(t, "position");
	CHECK(!strcmp(pa, pb), "%s: position differs:\n%s\n%s", what, pa, pb);
	char *ca = ask(s, "contents"), *cb = ask(t, "contents");
	CHECK(!strcmp(ca, cb), "%s: contents differs:\n%s\n--\n%s", what, ca,
	      cb);
	free(ga), free(gb), free(pa), free(pb), free(ca), free(cb);
}

/* At a state where a move is due: the same hint after the same seed (with
 * set playouts, the search depends on nothing else). */
static void twin_hint(struct session *s, struct session *t, struct rng *r)
{
	char line[64];
	snprintf(line, sizeof line, "set level %d", cx.level);
	free(ask(t, line));
	free(ask(t, "set playouts 8"));
	snprintf(line, sizeof line, "set seed %u", rng_below(r, 1000000));
	free(ask(s, line));
	free(ask(t, line));
	const char *lv = send_line(s, "hint");
	char *h1 = xstrdup(lv);
	const char *h2 = send_line(t, "hint");
	CHECK(!strcmp(h1, h2), "hint differs after position: %s / %s", h1, h2);
	free(h1);
}

/* The checks at one step: geometry's shared lines cover the moves, and a
 * fresh engine started from the position agrees.  Returns that twin when
 * it should follow the rest of the game, else frees it. */
static struct session *position_step(struct session *s, const struct game *g,
				     struct rng *r, int follow)
{
	char *geo = ask(s, "geometry"), *moves = ask(s, "moves");
	struct names nm;
	geometry_names(geo, &nm);
	moves_in_geometry(moves, &nm);
	names_free(&nm);
	free(geo), free(moves);
	struct session *t = twin_from(s, g);
	twin_same(s, t, "a fresh engine from position");
	char *st = ask(s, "status");
	if (!strncmp(st, "play", 4))
		twin_hint(s, t, r);
	free(st);
	if (!follow) {
		session_free(t);
		return NULL;
	}
	return t;
}

/* ---- random text ---- */

static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789-=.,:+";

static void random_text(struct rng *r, char **texts, int n, char *buf)
{
	int kind = (int)rng_below(r, n ? 6 : 3);
	int len;
	switch (kind) {
	case 0: /* a square name, on or off the board */
		sprintf(buf, "%c%u", 'a' + rng_below(r, 26), rng_below(r, 30));
		break;
	case 1: /* a few words the games use, and numbers */ {
		static const char *words[] = {
			"pass", "drop", "0",   "-1",  "a0", "a1-a1", "zz99",
			"99",   "1-2",  "a1-", "-a1", "",   "x",     "resign"};
		sprintf(buf, "%s%u", words[rng_below(r, 14)],
			rng_below(r, 3) ? 0 : rng_below(r, 70));
		if (buf[0] && rng_below(r, 2))
			buf[strlen(buf) - 1] = '\0';
		if (!buf[0])
			strcpy(buf, "q");
		break;
	}
	case 2: /* junk */
		len = 1 + (int)rng_below(r, 12);
		for (int i = 0; i < len; i++)
			buf[i] = alphabet[rng_below(r, sizeof alphabet - 1)];
		buf[len] = '\0';
		break;
	default: { /* a legal move, changed a little */
		strcpy(buf, texts[rng_below(r, (uint32_t)n)]);
		len = (int)strlen(buf);
		int at = (int)rng_below(r, (uint32_t)len);
		switch (rng_below(r, 5)) {
		case 0:
			buf[at] = alphabet[rng_below(r, sizeof alphabet - 1)];
			break;
		case 1:
			if (len > 1)
				memmove(buf + at, buf + at + 1,
					(size_t)(len - at));
			else
				buf[0] = 'z';
			break;
		case 2:
			if (len < 200) {
				memmove(buf + at + 1, buf + at,
					(size_t)(len - at + 1));
				buf[at] = alphabet[rng_below(
					r, sizeof alphabet - 1)];
			}
			break;
		case 3:
			if (len < 200)
				strcat(buf, rng_below(r, 2) ? "-a1" : "0");
			break;
		default:
			if (len < 200) {
				memcpy(buf + len, buf, (size_t)len);
				buf[2 * len] = '\0';
			}
		}
	}
	}
}

/* ---- history replay ---- */

/* Replays the engine's history into a fresh session (every line must
 * succeed and the answers must match) and directly into a fresh state
 * (the bytes must match own). */
static void replay_check(struct session *s, const struct game *g,
			 const void *own)
{
	char *hist = ask(s, "history");
	struct session *f = quiet_session();
	void *st = NULL;
	char err[GAME_ERR_MAX];
	int lineno = 0;
	char *save = NULL;
	for (char *line = strtok_r(hist, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *r = send_line(f, line);
		CHECK(r[0] == '=',
		      "history line '%s' fails in a fresh session: %s", line,
		      r);
		if (lineno++ == 0) {
			CHECK(!strncmp(line, "newgame ", 8),
			      "history starts '%s'", line);
			const char *p = strstr(line, " seed=");
			CHECK(p != NULL, "history's newgame has no seed: %s",
			      line);
			unsigned long long seed = strtoull(p + 6, NULL, 10);
			const char *opts = strchr(line + 8, ' ');
			st = game_new_state(g, opts ? opts + 1 : "", seed, err);
			CHECK(st != NULL, "history's '%s' refused directly: %s",
			      line, err);
		} else if (!strncmp(line, "roll ", 5)) {
			CHECK(st && g->status(st).phase == GAME_ROLL,
			      "'%s' without a roll due", line);
			g->roll(st, atoi(line + 5));
		} else {
			CHECK(st && !strncmp(line, "play ", 5),
			      "history line '%s'", line);
			struct move mv;
			CHECK(parse_checked(g, st, line + 5, &mv, err) == 0,
			      "history's '%s' refused directly: %s", line, err);
			g->play(st, &mv);
		}
	}
	CHECK(st != NULL, "empty history");
	CHECK(memcmp(st, own, g->state_size) == 0,
	      "history replayed directly gives other state bytes");
	struct snap a, b;
	snap_take(s, &a);
	snap_take(f, &b);
	snap_same(&a, &b, "history replayed in a fresh session");
	snap_free(&a);
	snap_free(&b);
	char *h2 = ask(f, "history");
	char *h1 = ask(s, "history");
	CHECK(!strcmp(h1, h2),
	      "the replayed game's history differs:\n%s\n--\n%s", h1, h2);
	free(h1), free(h2), free(hist), free(st);
	session_free(f);
}

/* ---- one random game ---- */

/* The play or roll line a step sent, for the twin to follow. */
static char last_line[MOVE_TEXT_MAX + 32];

static int listed_value(const int *values, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (values[i] == v)
			return 1;
	return 0;
}

struct tally {
	long faces[GAME_MAX_CHANCE + 1];
	int nfaces;
};

/* At a roll: chance() is exactly the die; the engine refuses other faces,
 * rolls within them; then a roll is made (engine's or the test's), checked
 * by undo, and applied to own. */
static void do_roll(struct session *s, const struct game *g, void *own,
		    struct rng *r, struct tally *t, int die)
{
	int values[GAME_MAX_CHANCE];
	double probs[GAME_MAX_CHANCE];
	CHECK(g->chance && g->roll, "a roll is due but %s has no chance()",
	      g->name);
	int n = g->chance(own, values, probs);
	CHECK(n >= 1 && n <= GAME_MAX_CHANCE, "chance() gave %d outcomes", n);
	double sum = 0;
	for (int i = 0; i < n; i++) {
		sum += probs[i];
		CHECK(fabs(probs[i] - 1.0 / n) < 1e-12,
		      "outcome %d has probability %g, not 1/%d", values[i],
		      probs[i], n);
		for (int j = 0; j < i; j++)
			CHECK(values[i] != values[j], "outcome %d listed twice",
			      values[i]);
	}
	CHECK(fabs(sum - 1.0) < 1e-9, "chance probabilities sum to %.17g", sum);
	if (die) {
		CHECK(n == die, "%d outcomes for a %d-sided die", n, die);
		for (int i = 0; i < n; i++)
			CHECK(values[i] == i + 1, "outcome %d of a die is %d",
			      i, values[i]);
	}
	ask_empty(s, "moves", "moves listed while a roll is due");
	struct snap before, after;
	snap_take(s, &before);
	CHECK(send_checked(s, "play a1")[0] == '?',
	      "play accepted while a roll is due");
	CHECK(send_checked(s, "genmove")[0] == '?',
	      "genmove accepted while a roll is due");
	char line[64];
	int bad;
	do
		bad = (int)rng_below(r, 100) - 10;
	while (listed_value(values, n, bad));
	snprintf(line, sizeof line, "roll %d", bad);
	CHECK(send_checked(s, line)[0] == '?', "'%s' accepted", line);
	snap_take(s, &after);
	snap_same(&before, &after, "failed commands at a roll");
	snap_free(&after);

	int value;
	if (rng_below(r, 2)) {
		const char *ans = send_checked(s, "roll");
		CHECK(ans[0] == '=', "roll failed: %s", ans);
		value = atoi(ans + 2);
		int in = 0;
		for (int i = 0; i < n; i++)
			if (values[i] == value)
				in = 1, t->faces[i]++;
		t->nfaces = n;
		CHECK(in, "the engine rolled %d, not a listed outcome", value);
	} else {
		value = values[rng_below(r, (uint32_t)n)];
		snprintf(line, sizeof line, "roll %d", value);
		char *ans = ask(s, line);
		CHECK(atoi(ans) == value, "'%s' answered %s", line, ans);
		free(ans);
	}
	ask_empty(s, "undo", "undo after roll");
	snap_take(s, &after);
	snap_same(&before, &after, "roll then undo");
	snap_free(&after);
	snap_free(&before);
	snprintf(line, sizeof line, "roll %d", value);
	free(ask(s, line));
	snprintf(last_line, sizeof last_line, "%s", line);
	g->roll(own, value);
}

/* preview() of mv from st, where it answers, says what playing it did
 * (after, the state it made): the same status, and the same evaluate()
 * values or score() points to the last bit. */
static void preview_check(const struct game *g, const void *st,
			  const struct move *mv, const void *after,
			  const char *text)
{
	struct game_status ps;
	double pv[GAME_MAX_PLAYERS], ev[GAME_MAX_PLAYERS];
	int pp[GAME_MAX_PLAYERS], sp[GAME_MAX_PLAYERS];
	if (!game_search(g)->preview ||
	    game_search(g)->preview(st, mv, &ps, pv, pp) < 0)
		return;
	struct game_status s = g->status(after);
	CHECK(ps.phase == s.phase && ps.player == s.player,
	      "preview of %s: status %d %d, play gives %d %d", text, ps.phase,
	      ps.player, s.phase, s.player);
	int n = g->players(after);
	if (s.phase == GAME_OVER) {
		g->score(after, sp);
		for (int p = 0; p < n; p++)
			CHECK(pp[p] == sp[p],
			      "preview of %s: player %d has %d points, play "
			      "gives %d",
			      text, p + 1, pp[p], sp[p]);
	} else {
		game_search(g)->evaluate(after, ev);
		for (int p = 0; p < n; p++)
			CHECK(memcmp(&pv[p], &ev[p], sizeof pv[p]) == 0,
			      "preview of %s: player %d valued %.17g, "
			      "evaluate gives %.17g",
			      text, p + 1, pv[p], ev[p]);
	}
}

/* copy() of st into buf, filled first with the byte fill, then mv played
 * there, answers as after (a whole copy of st with mv played): status,
 * key, moves, position, showboard, and evaluate() or score(). */
static void copy_check(const struct game *g, const void *st,
		       const struct move *mv, const void *after, void *buf,
		       unsigned char fill, const char *text)
{
	if (!g->copy)
		return;
	CHECK(g->key != NULL, "a game with copy must give key");
	memset(buf, fill, g->state_size);
	game_copy(g, buf, st);
	g->play(buf, mv);
	struct game_status a = g->status(after), b = g->status(buf);
	CHECK(a.phase == b.phase && a.player == b.player,
	      "copy, then %s: status %d %d, a whole copy gives %d %d", text,
	      b.phase, b.player, a.phase, a.player);
	CHECK(g->key(after) == g->key(buf), "copy, then %s: another key", text);
	struct move *la = malloc(sizeof *la * (size_t)g->max_moves);
	struct move *lb = malloc(sizeof *lb * (size_t)g->max_moves);
	int na = g->moves(after, la), nb = g->moves(buf, lb);
	CHECK(na == nb, "copy, then %s: %d moves, a whole copy %d", text, nb,
	      na);
	for (int i = 0; i < na; i++)
		CHECK(move_equal(&la[i], &lb[i]),
		      "copy, then %s: move %d differs", text, i);
	free(la);
	free(lb);
	struct text pa, pb;
	text_init(&pa);
	text_init(&pb);
	g->position(after, &pa);
	g->position(buf, &pb);
	CHECK(!strcmp(pa.s, pb.s),
	      "copy, then %s: position %s, a whole copy %s", text, pb.s, pa.s);
	text_free(&pa);
	text_free(&pb);
	char *sa = show_text(g, after), *sb = show_text(g, buf);
	CHECK(!strcmp(sa, sb), "copy, then %s: showboard\n%s\na whole copy\n%s",
	      text, sb, sa);
	free(sa);
	free(sb);
	if (a.phase == GAME_OVER) {
		int pa2[GAME_MAX_PLAYERS], pb2[GAME_MAX_PLAYERS];
		g->score(after, pa2);
		g->score(buf, pb2);
		CHECK(!memcmp(pa2, pb2,
			      sizeof(int) * (size_t)g->players(after)),
		      "copy, then %s: another score", text);
	} else if (game_search(g)->evaluate) {
		double va[GAME_MAX_PLAYERS], vb[GAME_MAX_PLAYERS];
		game_search(g)->evaluate(after, va);
		game_search(g)->evaluate(buf, vb);
		CHECK(!memcmp(va, vb,
			      sizeof(double) * (size_t)g->players(after)),
		      "copy, then %s: another evaluation", text);
	}
}

static void do_play(struct session *s, const struct game *g, void *own,
		    struct rng *r, struct move *list)
{
	char err[GAME_ERR_MAX];
	int n = g->moves(own, list);
	CHECK(n >= 0 && n <= g->max_moves, "moves() gave %d (max_moves %d)", n,
	      g->max_moves);
	/* every listed move: clean distinct text, read back as itself,
	 * playable */
	char **texts = calloc((size_t)n + 1, sizeof *texts);
	struct text joined;
	text_init(&joined);
	text_puts(&joined, "");
	void *copy = malloc(g->state_size), *spare = malloc(g->state_size);
	for (int i = 0; i < n; i++) {
		char buf[MOVE_TEXT_MAX];
		format_checked(g, own, &list[i], buf);
		texts[i] = xstrdup(buf);
		for (int j = 0; j < i; j++) {
			CHECK(!move_equal(&list[i], &list[j]),
			      "move %s listed twice", buf);
			CHECK(strcmp(texts[i], texts[j]),
			      "two moves written %s", buf);
		}
		struct move back;
		CHECK(parse_checked(g, own, buf, &back, err) == 0,
		      "listed move %s refused by parse: %s", buf, err);
		CHECK(move_equal(&back, &list[i]),
		      "parse(format(m)) != m for %s", buf);
		memcpy(copy, own, g->state_size);
		g->play(copy, &list[i]);
		struct game_status st = g->status(copy);
		CHECK(st.phase <= GAME_OVER && st.player >= 0 &&
			      st.player <= g->players(copy),
		      "after %s: status %d %d", buf, st.phase, st.player);
		preview_check(g, own, &list[i], copy, buf);
		/* (bytes that vary from move to move, none drawn from r,
		 * which picks the game's moves) */
		copy_check(g, own, &list[i], copy, spare,
			   (unsigned char)(0x5a + 37 * i), buf);
		text_printf(&joined, i ? " %s" : "%s", buf);
	}
	char *em = ask(s, "moves");
	CHECK(!strcmp(em, joined.s), "engine moves [%s], the game lists [%s]",
	      em, joined.s);
	free(em);
	/* the same list again: moves() is a function of the state */
	struct move *again = malloc(sizeof *again * (size_t)g->max_moves);
	CHECK(g->moves(own, again) == n, "moves() changed its count");
	for (int i = 0; i < n; i++)
		CHECK(move_equal(&again[i], &list[i]),
		      "moves() changed its order");
	free(again);

	struct snap before, after;
	snap_take(s, &before);

	/* random text: refused without a change, or read as a listed move */
	for (int k = 0; k < 4 && n > 0; k++) {
		char buf[2 * MOVE_TEXT_MAX + 8];
		random_text(r, texts, n, buf);
		int listed = 0;
		for (int i = 0; i < n; i++)
			listed |= !strcmp(texts[i], buf);
		if (listed)
			continue;
		struct move mv;
		if (parse_checked(g, own, buf, &mv, err) == 0) {
			int found = 0;
			for (int i = 0; i < n; i++)
				found |= move_equal(&mv, &list[i]);
			CHECK(found,
			      "parse accepts '%s', which names no listed move",
			      buf);
			continue;
		}
		if (k > 0)
			continue; /* one engine round per step keeps it fast */
		char line[sizeof buf + 8];
		snprintf(line, sizeof line, "play %s", buf);
		const char *ans = send_checked(s, line);
		CHECK(!strncmp(ans, "? illegal move", 14), "'%s' answered: %s",
		      line, ans);
		snap_take(s, &after);
		snap_same(&before, &after, "a refused play");
		snap_free(&after);
	}

	/* the move to play: listed, the game's random_move when nothing can be
	 * listed, or genmove's */
	struct move mv;
	char text[MOVE_TEXT_MAX], line[MOVE_TEXT_MAX + 16];
	int via_genmove = n > 0 && rng_below(r, 10) == 0;
	if (n > 0) {
		mv = list[rng_below(r, (uint32_t)n)];
	} else {
		CHECK(g->random_move != NULL,
		      "a play state with no listed moves needs random_move");
		CHECK(g->random_move(own, r, &mv) == 0,
		      "status says play, but no move is listed and random_move "
		      "has none");
		char t2[MOVE_TEXT_MAX];
		struct move back;
		format_checked(g, own, &mv, t2);
		CHECK(parse_checked(g, own, t2, &back, err) == 0 &&
			      move_equal(&back, &mv),
		      "random_move's %s does not read back: %s", t2, err);
	}
	if (via_genmove) {
		char *ans = ask(s, "genmove");
		snprintf(text, sizeof text, "%s", ans);
		free(ans);
		CHECK(parse_checked(g, own, text, &mv, err) == 0,
		      "genmove answered %s, which parse refuses: %s", text,
		      err);
		ask_empty(s, "undo", "undo after genmove");
	} else {
		format_checked(g, own, &mv, text);
	}
	/* play (sometimes in capitals, sometimes naming the player), undo,
	 * compare, play again */
	char upper[MOVE_TEXT_MAX];
	for (int i = 0;; i++) {
		upper[i] = (text[i] >= 'a' && text[i] <= 'z' && rng_below(r, 2))
				   ? (char)(text[i] - 32)
				   : text[i];
		if (!text[i])
			break;
	}
	if (rng_below(r, 4) == 0)
		snprintf(line, sizeof line, "play %d %s", g->status(own).player,
			 upper);
	else
		snprintf(line, sizeof line, "play %s", upper);
	free(ask(s, line));
	ask_empty(s, "undo", "undo after play");
	snap_take(s, &after);
	snap_same(&before, &after, "play then undo");
	snap_free(&after);
	snap_free(&before);
	free(ask(s, line));
	snprintf(last_line, sizeof last_line, "%s", line);
	g->play(own, &mv);

	for (int i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
	free(copy);
	free(spare);
	text_free(&joined);
}

static void final_checks(struct session *s, const struct game *g,
			 const void *own, const struct variant *v)
{
	struct game_status st = g->status(own);
	int np = g->players(own), pts[GAME_MAX_PLAYERS];
	g->score(own, pts);
	CHECK(st.player >= 0 && st.player <= np, "winner %d of %d players",
	      st.player, np);
	int top = pts[0], ntop = 0;
	for (int i = 1; i < np; i++)
		if (pts[i] > top)
			top = pts[i];
	for (int i = 0; i < np; i++)
		ntop += pts[i] == top;
	if (st.player)
		CHECK(pts[st.player - 1] == top &&
			      ntop == (v->flags & TEAMS ? 2 : 1),
		      "player %d won without the strictly highest score",
		      st.player);
	else
		CHECK(ntop > 1, "a draw, but one player has the highest score");
	if (v->flags & WINLOSS)
		for (int i = 0; i < np; i++)
			CHECK(pts[i] == (i + 1 == st.player),
			      "a game without points scores 1 for the winner "
			      "only");
	ask_empty(s, "moves", "moves listed after the end");
	CHECK(send_checked(s, "play a1")[0] == '?',
	      "play accepted after the end");
	CHECK(send_checked(s, "genmove")[0] == '?',
	      "genmove accepted after the end");
	CHECK(send_checked(s, "roll")[0] == '?', "roll accepted after the end");
}

/* ---- discovery: game_info, turn_info, scoring ---- */

/* game_info: `players N` agrees with players(), a `player P` line for
 * each in order, teams only in the TEAMS variants, and a `roll` line with
 * the die's faces, equally weighted, exactly in a game with a die. */
static void game_info_check(struct session *s, int np, const struct variant *v)
{
	char *info = ask(s, "game_info"), *save = NULL;
	int players = -1, seen = 0, teams = 0, roll = 0;
	for (char *l = strtok_r(info, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		int p, n;
		if (sscanf(l, "players %d", &players) == 1)
			continue;
		if (sscanf(l, "player %d%n", &p, &n) == 1) {
			CHECK(p == ++seen, "game_info: '%s' out of order", l);
			continue;
		}
		if (!strncmp(l, "team ", 5))
			teams++;
		if (!strncmp(l, "roll faces", 10)) {
			char want[128] = "roll faces";
			for (int f = 1; f <= v->die; f++)
				snprintf(want + strlen(want),
					 sizeof want - strlen(want), " %d", f);
			strcat(want, " weights");
			for (int f = 1; f <= v->die; f++)
				strcat(want, " 1");
			CHECK(!strcmp(l, want), "game_info: '%s', not '%s'", l,
			      want);
			roll = 1;
		}
	}
	CHECK(players == np && seen == np, "game_info: %d players, %d lines",
	      players, seen);
	CHECK(teams == (v->flags & TEAMS ? 2 : 0), "game_info: %d teams",
	      teams);
	CHECK(roll == (v->die > 0), "game_info: roll line %d, die %d", roll,
	      v->die);
	free(info);
}

/* turn_info agrees with status and moves: its phase is one of the list
 * protocol.md gives, `over` and `roll` exactly when status says so,
 * `player P` the player to move (none once over), a step within its
 * count, `pass` only where pass is the one move, `also W` a listed move,
 * and a prompt. */
static void turn_info_check(struct session *s, const struct game *g,
			    const void *own)
{
	static const char *const phases[] = {
		"place",    "setup", "claim", "remove", "jump", "move",
		"exchange", "draw",  "pass",  "roll",   "over", NULL};
	struct game_status st = g->status(own);
	char *t = ask(s, "turn_info"), *moves = ask(s, "moves"), *save = NULL;
	char phase[16] = "";
	int step = 0, steps = 0, player = 0, prompt = 0, free_turn = 0;
	for (char *l = strtok_r(t, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char word[32];
		if (!strncmp(l, "phase ", 6)) {
			CHECK(sscanf(l, "phase %15s %d %d", phase, &step,
				     &steps) != 2,
			      "turn_info: '%s'", l);
		} else if (sscanf(l, "player %d", &player) == 1) {
		} else if (sscanf(l, "also %31s", word) == 1) {
			char pat[40], list[MOVE_TEXT_MAX * 4];
			snprintf(pat, sizeof pat, " %s ", word);
			snprintf(list, sizeof list, " %s ", moves);
			CHECK(strstr(list, pat), "turn_info: also %s, moves %s",
			      word, moves);
		} else if (!strncmp(l, "prompt ", 7)) {
			prompt = strlen(l) > 7;
		} else if (!strcmp(l, "moves free")) {
			free_turn = 1;
		} else if (!strncmp(l, "out ", 4)) {
			for (char *w = l + 4; *w;
			     w += strcspn(w, " "), w += strspn(w, " "))
				CHECK(atoi(w) != st.player ||
					      st.phase == GAME_OVER,
				      "turn_info: the mover is %s", l);
		} else {
			CHECK(!strncmp(l, "side ", 5), "turn_info: '%s'", l);
		}
	}
	int known = 0;
	for (int i = 0; phases[i]; i++)
		known |= !strcmp(phase, phases[i]);
	CHECK(known, "turn_info: phase '%s'", phase);
	CHECK(!strcmp(phase, "over") == (st.phase == GAME_OVER),
	      "turn_info: phase %s, status phase %d", phase, st.phase);
	CHECK(!strcmp(phase, "roll") == (st.phase == GAME_ROLL),
	      "turn_info: phase %s, status phase %d", phase, st.phase);
	CHECK(player == (st.phase == GAME_OVER ? 0 : st.player),
	      "turn_info: player %d, status player %d", player, st.player);
	CHECK(!steps || (step >= 1 && step <= steps),
	      "turn_info: step %d of %d", step, steps);
	CHECK(strcmp(phase, "pass") || !strcmp(moves, "pass"),
	      "turn_info: phase pass, moves %s", moves);
	CHECK(prompt, "turn_info: no prompt");
	CHECK(free_turn == (st.phase == GAME_PLAY && !moves[0]),
	      "turn_info: moves free %d, moves '%s'", free_turn, moves);
	free(moves);
	free(t);
}

/* scoring: every line is `unit KIND player P points N ...`, its cells are
 * names geometry lists, and the units summed by player give score (in
 * teams each player scores its team's units, filed under the team's
 * lower-numbered player). */
static void scoring_check(struct session *s, const struct game *g,
			  const void *own, const struct variant *v)
{
	int np = g->players(own), pts[GAME_MAX_PLAYERS], sum[GAME_MAX_PLAYERS];
	g->score(own, pts);
	memset(sum, 0, sizeof sum);
	char *geo = ask(s, "geometry"), *u = ask(s, "scoring"), *save = NULL;
	struct names nm;
	geometry_names(geo, &nm);
	for (char *l = strtok_r(u, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char kind[16];
		int p, n, at = 0;
		CHECK(sscanf(l, "unit %15s player %d points %d%n", kind, &p, &n,
			     &at) == 3,
		      "scoring: '%s'", l);
		CHECK(p >= 1 && p <= np, "scoring: player %d of %d", p, np);
		sum[p - 1] += n;
		const char *cells = strstr(l, " cells ");
		if (cells)
			moves_in_geometry(cells + 7, &nm);
	}
	for (int i = 0; i < np; i++) {
		int team = v->flags & TEAMS ? i % 2 : i;
		CHECK(sum[team] == pts[i],
		      "scoring: units of player %d sum to %d, score %d", i + 1,
		      sum[team], pts[i]);
	}
	names_free(&nm);
	free(u);
	free(geo);
}

/* Whether word w is one of the space-separated words. */
static int word_in(const char *w, const char *words)
{
	size_t n = strlen(w);
	for (const char *p = words; p && *p; p += strspn(p, " ")) {
		size_t len = strcspn(p, " ");
		if (len == n && !strncmp(p, w, n))
			return 1;
		p += len;
	}
	return 0;
}

/* Reads "X Y X Y ..." (at least `least` pairs) after *p. */
static void points_check(const char *p, int least, const char *l)
{
	int pairs = 0;
	for (;;) {
		double x, y;
		int n = 0;
		if (sscanf(p, " %lf %lf%n", &x, &y, &n) != 2)
			break;
		p += n, pairs++;
	}
	CHECK(pairs >= least && !*p, "contents: '%s'", l);
}

/* contents: every line is one protocol.md lists; `at` names cells of
 * geometry in its order, each once, with an owner among the sides, a
 * kind and tags among the game's words, a count from 1; `hand` names each
 * side (where the game has hands), `store` a count from 1; `line` and
 * `area` are points, an area's name a cell.  It agrees with contents()
 * read directly: the cells that hold pieces, and the pieces in hand. */
static void contents_check(struct session *s, const struct game *g,
			   const void *own)
{
	struct game_cell *cells;
	int ncells = game_cells(g, own, &cells), next = 0, hands = 0;
	ck_assert(ncells > 0);
	struct game_sides sd = {.sides = g->players(own)};
	if (g->sides)
		g->sides(own, &sd);
	struct game_site *site = calloc((size_t)ncells, sizeof *site);
	struct game_contents c = {.site = site};
	g->contents(own, &c);
	int held = 0, listed = 0;
	for (int i = 0; i < ncells; i++) {
		CHECK(site[i].owner <= sd.sides, "contents(): owner %d",
		      site[i].owner);
		held += site[i].count > 0;
	}
	char *text = ask(s, "contents"), *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char key[16], name[32];
		int n = 0, side;
		CHECK(sscanf(l, "%15s %31s%n", key, name, &n) == 2,
		      "contents: '%s'", l);
		if (!strcmp(key, "at")) {
			int i = next;
			while (i < ncells && strcmp(cells[i].name, name))
				i++;
			CHECK(i < ncells,
			      "contents: %s is no cell of geometry, or out of "
			      "its order",
			      name);
			next = i + 1;
			int count = 1, any = 0;
			for (const char *p = l + n; *p;) {
				char k[16], v[64];
				int m = 0;
				CHECK(sscanf(p, " %15s %63s%n", k, v, &m) == 2,
				      "contents: '%s'", l);
				p += m;
				if (!strcmp(k, "owner"))
					CHECK(atoi(v) >= 1 &&
						      atoi(v) <= sd.sides,
					      "contents: '%s'", l);
				else if (!strcmp(k, "zone"))
					CHECK(atoi(v) >= 1 &&
						      atoi(v) <= sd.sides,
					      "contents: '%s'", l);
				else if (!strcmp(k, "kind"))
					CHECK(word_in(v, g->kinds),
					      "contents: '%s'", l);
				else if (!strcmp(k, "count"))
					CHECK((count = atoi(v)) >= 1,
					      "contents: '%s'", l);
				else if (!strcmp(k, "tag"))
					for (char *w = strtok(v, ","); w;
					     w = strtok(NULL, ","))
						CHECK(word_in(w, g->tags),
						      "contents: '%s'", l);
				else
					CHECK(0, "contents: '%s'", l);
				any |= strcmp(k, "count") != 0;
			}
			CHECK(any || strstr(l, " count "),
			      "contents: '%s' says nothing", l);
			CHECK(count == (site[i].count ? site[i].count : 1),
			      "contents: '%s', contents() %d", l,
			      site[i].count);
			listed += site[i].count > 0;
		} else if (!strcmp(key, "hand") || !strcmp(key, "store")) {
			side = atoi(name);
			CHECK(side >= 1 && side <= sd.sides, "contents: '%s'",
			      l);
			const char *cnt = strstr(l, " count ");
			CHECK(cnt && atoi(cnt + 7) >= (key[0] == 'h' ? 0 : 1),
			      "contents: '%s'", l);
			if (key[0] == 'h')
				hands++;
		} else if (!strcmp(key, "die")) {
			CHECK(atoi(name) >= 1 && c.die == atoi(name),
			      "contents: '%s'", l);
		} else if (!strcmp(key, "line")) {
			points_check(l + n, 2, l);
		} else if (!strcmp(key, "area")) {
			int found = 0;
			for (int i = 0; i < ncells && !found; i++)
				found = !strcmp(cells[i].name, name);
			CHECK(found, "contents: area of no cell: '%s'", l);
			points_check(l + n, 1, l);
		} else {
			CHECK(0, "contents: unknown line '%s'", l);
		}
	}
	CHECK(listed == held, "contents: %d cells hold pieces, %d listed", held,
	      listed);
	CHECK(!c.hands || hands >= sd.sides, "contents: %d hand lines", hands);
	free(text);
	free(site);
	free(cells);
}

/* The `at` line of cell name in a contents answer, into buf; "" when
 * the cell is not listed (empty). */
static void at_line(const char *contents, const char *name, char *buf,
		    size_t size)
{
	size_t n = strlen(name);
	buf[0] = '\0';
	for (const char *l = contents; l && *l;) {
		size_t len = strcspn(l, "\n");
		if (len >= n + 3 && !strncmp(l, "at ", 3) &&
		    !strncmp(l + 3, name, n) &&
		    (l[n + 3] == ' ' || l[n + 3] == '\n' || !l[n + 3])) {
			snprintf(buf, size, "%.*s", (int)len, l);
			return;
		}
		l += len;
		l += *l == '\n';
	}
}

/* A move that names one cell (a placement, a claim, a removal) changes
 * what contents says of that cell, and a piece it puts on an empty cell
 * is the mover's (or the side's it places for): the answer follows the
 * board. */
static void one_cell_changes(struct session *s, const struct game *g,
			     const void *own, const char *before, int mover)
{
	const char *mv = last_line + 5; /* "play MOVE" */
	struct game_cell *cells;
	int n = game_cells(g, own, &cells), named = 0;
	for (int i = 0; i < n && !named; i++)
		named = !strcmp(cells[i].name, mv);
	free(cells);
	if (!named)
		return;
	char *after = ask(s, "contents"), a[256], b[256];
	at_line(before, mv, b, sizeof b);
	at_line(after, mv, a, sizeof a);
	CHECK(strcmp(a, b), "play %s left contents' cell as it was: '%s'", mv,
	      a);
	if (!strstr(b, " owner ") && strstr(a, " owner ")) {
		const char *o = strstr(a, " owner ");
		CHECK(atoi(o + 7) == mover,
		      "play %s by %d put a piece of %d there: '%s'", mv, mover,
		      atoi(o + 7), a);
	}
	free(after);
}

static void play_one(const struct run *run, int game, struct tally *t,
		     int *skipped, long *steps)
{
	const struct game *g = run->g;
	const struct variant *v = &run->v;
	uint64_t seed =
		hash_str(hash_str(0xcbf29ce484222325ULL, g->name), v->options) +
		(uint64_t)game * 7919;
	seed &= 0x7fffffffffffULL;
	struct rng r;
	rng_seed(&r, seed ^ 0x9e3779b97f4a7c15ULL);
	struct session *s = quiet_session();
	cx = (struct ctx){run, game, 0, game % (AI_LEVEL_MAX + 1), NULL};
	char line[512], err[GAME_ERR_MAX];
	snprintf(line, sizeof line, "set seed %llu", (unsigned long long)seed);
	free(ask(s, line));
	/* genmove (a tenth of the moves) at every level, on a tiny budget */
	snprintf(line, sizeof line, "set level %d", cx.level);
	free(ask(s, line));
	free(ask(s, "set playouts 8"));
	snprintf(line, sizeof line, "newgame %s seed=%llu %s", g->name,
		 (unsigned long long)seed, v->options);
	const char *ans = send_line(s, line);
	if (ans[0] != '=') {
		/* a variant the game does not (yet) know */
		if (game == 0)
			fprintf(stderr, "property test: SKIP %s [%s]: %s",
				g->name, v->options, ans);
		*skipped = 1;
		session_free(s);
		return;
	}
	cx.s = s;
	void *own = game_new_state(g, v->options, seed, err);
	CHECK(own != NULL, "'%s' works in the engine, not directly: %s", line,
	      err);

	/* the set-up is a function of the options and the seed; describe()
	 * rebuilds it with any seed */
	void *twin = game_new_state(g, v->options, seed, err);
	CHECK(twin && !memcmp(twin, own, g->state_size),
	      "init is not deterministic");
	free(twin);
	struct text d;
	text_init(&d);
	g->describe(own, &d);
	CHECK(!d.len || (d.s[0] != ' ' && d.s[d.len - 1] != ' '),
	      "describe() wrote '%s'", d.s);
	twin = game_new_state(g, d.len ? d.s : "", seed ^ 0x5555, err);
	CHECK(twin && !memcmp(twin, own, g->state_size),
	      "init(describe() = '%s', another seed) gives another set-up %s",
	      d.len ? d.s : "", twin ? "" : err);
	free(twin);
	text_free(&d);

	char *first_board = show_text(g, own);
	char *hist0 = ask(s, "history");
	int np = g->players(own);
	game_info_check(s, np, v);
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	int step = 0, next_sample = 1, claims = -1;
	struct session *follower = NULL;
	for (;; step++) {
		cx.step = step;
		struct game_status st = g->status(own);
		char sbuf[32];
		char *es = ask(s, "status");
		CHECK(!strcmp(es, status_text(st, sbuf)),
		      "engine status %s, game %s", es, sbuf);
		free(es);
		CHECK(g->players(own) == np, "players() changed");
		CHECK(st.phase <= GAME_OVER && st.player >= 0 &&
			      st.player <= np,
		      "status %d %d", st.phase, st.player);
		char *board = show_text(g, own);
		char *ebd = ask(s, "showboard");
		/* the engine's showboard is a newline, then show() */
		CHECK(ebd[0] == '\n' &&
			      !strncmp(ebd + 1, board, strlen(board) - 1) &&
			      strlen(ebd + 1) == strlen(board) - 1,
		      "engine showboard differs from show():\n%s\n--\n%s", ebd,
		      board);
		free(ebd);
		free(board);
		if (follower)
			twin_same(s, follower, "a twin from position, later");
		if (step == next_sample) {
			replay_check(s, g, own);
			next_sample *= 2;
			if (follower)
				session_free(follower);
			follower = position_step(s, g, &r, 1);
		} else if (step % 7 == 3) {
			position_step(s, g, &r, 0);
		}
		turn_info_check(s, g, own);
		scoring_check(s, g, own, v);
		contents_check(s, g, own);
		if (v->flags & WINLOSS && st.phase != GAME_OVER) {
			int pts[GAME_MAX_PLAYERS];
			g->score(own, pts);
			for (int i = 0; i < np; i++)
				CHECK(pts[i] == 0, "a game without points "
						   "scores before the end");
		}
		if (st.phase == GAME_OVER)
			break;
		if (v->max_steps == BOUND_CLAIMS) {
			if (claims < 0 && st.phase == GAME_PLAY) {
				int n = g->moves(own, list);
				if (n > 0)
					claims = step + n;
			}
			CHECK(claims < 0 || step < claims,
			      "still going after %d steps, one claim each",
			      step);
		} else {
			CHECK(step < v->max_steps,
			      "still going after %d steps (the bound)", step);
		}
		CHECK(step < DEFAULT_BOUND, "still going after %d steps", step);
		if (st.phase == GAME_ROLL) {
			do_roll(s, g, own, &r, t, v->die);
		} else {
			char *before = ask(s, "contents");
			struct game_turn tn = {0};
			if (g->turn)
				g->turn(own, &tn);
			do_play(s, g, own, &r, list);
			one_cell_changes(s, g, own, before,
					 tn.side ? tn.side : st.player);
			free(before);
		}
		if (follower) {
			const char *a = send_line(follower, last_line);
			CHECK(a[0] == '=',
			      "the twin from position refuses "
			      "'%s': %s",
			      last_line, a);
		}
	}
	final_checks(s, g, own, v);
	replay_check(s, g, own);
	if (follower)
		session_free(follower);
	position_step(s, g, &r, 0);
	*steps += step;

	/* undo back to the start */
	for (int i = 0; i < step; i++)
		free(ask(s, "undo"));
	CHECK(send_checked(s, "undo")[0] == '?',
	      "undo past the start succeeded");
	char *h = ask(s, "history");
	CHECK(!strcmp(h, hist0),
	      "history after undoing everything:\n%s\n--\n%s", h, hist0);
	free(h);
	char *b = ask(s, "showboard");
	CHECK(!strncmp(b + 1, first_board, strlen(first_board) - 1),
	      "showboard after undoing everything");
	free(b);
	free(first_board);
	free(hist0);
	free(list);
	free(own);
	session_free(s);
	cx.s = NULL;
}

static double scale(void)
{
	const char *e = getenv("PROPERTY_SCALE");
	if (!e)
		return 1.0;
	char *end;
	double f = strtod(e, &end);
	return (*end || !(f > 0) || f > 1000) ? 1.0 : f;
}

START_TEST(test_random_games)
{
	ck_assert_int_lt(_i, nruns);
	const struct run *run = &runs[_i];
	int games = (int)ceil(run->v.games * scale());
	struct tally t = {{0}, 0};
	int skipped = 0;
	long steps = 0;
	clock_t t0 = clock();
	for (int i = 0; i < games && !skipped; i++)
		play_one(run, i, &t, &skipped, &steps);
	/* the engine's own rolls: near uniform over a run (deterministic: the
	 * seeds are fixed) */
	long total = 0;
	for (int i = 0; i < t.nfaces; i++)
		total += t.faces[i];
	if (total >= 60L * t.nfaces)
		for (int i = 0; i < t.nfaces; i++) {
			double e = (double)total / t.nfaces;
			ck_assert_msg(fabs(t.faces[i] - e) < 5 * sqrt(e) + 1,
				      "%s: face %d rolled %ld times of %ld",
				      run->g->name, i + 1, t.faces[i], total);
		}
	if (!skipped)
		fprintf(stderr,
			"property test: %s [%s]: %d games, %ld steps, %.2f s\n",
			run->g->name, run->v.options, games, steps,
			(double)(clock() - t0) / CLOCKS_PER_SEC);
}
END_TEST

START_TEST(test_table_sane)
{
	/* every game of the table has what the engine relies on */
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		ck_assert(g->name && g->title && g->summary);
		ck_assert(g->state_size > 0 && g->max_moves > 0);
		ck_assert(g->position && g->geometry && g->contents &&
			  g->options);
		ck_assert(!game_search(g)->preview || game_search(g)->evaluate);
		ck_assert(g->init && g->describe && g->players && g->status &&
			  g->moves && !g->chance == !g->roll && g->play &&
			  g->parse && g->format && g->score && g->show);
		ck_assert_ptr_eq(game_find(g->name), g);
		/* the name rule of game.h: a lowercase letter, then lowercase
		 * letters and digits */
		ck_assert_msg(g->name[0] >= 'a' && g->name[0] <= 'z',
			      "game name %s", g->name);
		for (const char *p = g->name; *p; p++)
			ck_assert_msg((*p >= 'a' && *p <= 'z') ||
					      (*p >= '0' && *p <= '9'),
				      "game name %s", g->name);
	}
}
END_TEST

/* list_options agrees with newgame: every listed option is read with its
 * default, and values outside a listed range are refused. */
START_TEST(test_options_listed)
{
	struct session *s = quiet_session();
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		char line[512];
		for (const struct game_option_spec *o = g->options; o && o->key;
		     o++) {
			if (o->def) {
				snprintf(line, sizeof line, "newgame %s %s=%s",
					 g->name, o->key, o->def);
				ok(s, line);
			}
			if (o->type == OPT_INT) {
				snprintf(line, sizeof line, "newgame %s %s=%ld",
					 g->name, o->key, o->max + 1);
				bad(s, line);
				if (o->min > 0) {
					snprintf(line, sizeof line,
						 "newgame %s %s=%ld", g->name,
						 o->key, o->min - 1);
					bad(s, line);
				}
			}
			if (o->type == OPT_ENUM) {
				snprintf(line, sizeof line,
					 "newgame %s %s=nosuchvalue", g->name,
					 o->key);
				bad(s, line);
			}
		}
		snprintf(line, sizeof line, "list_options %s", g->name);
		const char *lo = ok(s, line);
		ck_assert_msg(!strncmp(lo, "seed type int min 0 max ", 24),
			      "list_options %s: %s", g->name, lo);
	}
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("properties");
	TCase *tc = tcase_create("random games");
	/* a run of a few hundred games takes seconds, more under sanitizers */
	tcase_set_timeout(tc, 600);
	collect_runs();
	tcase_add_test(tc, test_table_sane);
	tcase_add_test(tc, test_options_listed);
	tcase_add_loop_test(tc, test_random_games, 0, nruns);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN()
