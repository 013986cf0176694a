/* abstractoe.c: Abs-Trac-Toe.
 *
 * An irregular figure is cut by two vertical and two horizontal straight
 * lines into a 3x3 grid of sections, then by one bending line into regions.
 * Players claim vacant regions in turn; each pair of one player's regions
 * that share a border of positive length scores that player a point.
 *
 * Everything lies on a lattice of W x H unit cells (W, H at most 24).  The
 * figure is a set of cells whose boundary is the outline; the straight lines
 * run along lattice lines; the bending line is a path along lattice edges
 * from lattice point to lattice point.  A region is a connected set of cells
 * of the figure, cells being linked across an edge that no line and no
 * outline covers.  Two regions share a border when a lattice edge separates
 * a cell of one from a cell of the other, so touching at a corner never
 * counts.
 *
 * Lattice points (vertices) are named like squares: column letter from `a`
 * (x = 0) and row number from 1 (y = 0), so a cell and its lower-left
 * corner share a name.  A drawn line is written as its corner points,
 * `b4-h4-h9-m9`.
 *
 * A move is encoded as one 256-bit number (struct move, bit i of word i/64):
 * bit 0 is the kind.  A claim (kind 0) has the region in bits 1-7.  A line
 * (kind 1) has its start vertex y * (W + 1) + x in bits 1-10, its length in
 * unit steps in bits 11-17 and each step's direction in two bits from bit 18
 * on, which leaves room for ABT_MAX_STEPS = (256 - 18) / 2 steps.
 *
 * The lattice geometry (checking, reading and drawing figures and lines)
 * is in abstractoe_board.c; this file holds the game around it. */
#include "abstractoe_board.h"
#include "util/bits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW ABT_MAXW
#define MAXH ABT_MAXH
#define MAX_STEPS ABT_MAX_STEPS
#define MAX_REGIONS ABT_MAX_REGIONS
#define MAX_PAIRS (3 * MAX_REGIONS) /* a planar graph: edges < 3 V */

static const char MARK[GAME_MAX_PLAYERS] = {'X', 'O', '#', '@'};

/* The board as its region map and each region's neighbours, so that a
 * claim and a score need no geometry; the figure is the map's nonzero
 * cells.  A claim touches only its region's bit, owner and neighbours:
 * the vacant regions are a bit set (a random claim is the k-th set bit)
 * and the points are counted as pairs are completed. */
struct state {
	uint64_t vacant[2]; /* bit r - 1: region r is vacant */
	uint64_t board;     /* the board's hash, for key() */
	/* Counts per side packed in 16-bit lanes, side i in bits 16i to
	 * 16i + 15: lane[o] is 1 in the lane of owner o's side (0 for o = 0,
	 * vacant), so that adding lane[owner] over a region's neighbours
	 * counts them by side in one sum. */
	uint64_t lane[GAME_MAX_PLAYERS + 1];
	uint64_t pts;  /* each side's points */
	uint64_t open; /* each side's pairs with one region vacant */
	uint8_t w, h;
	uint8_t vx[2], hy[2];
	uint8_t players;  /* 1..4; 1 is the solo puzzle */
	uint8_t draw;     /* the game began with player 1 drawing the line */
	uint8_t drawn;    /* the bending line is on the board */
	uint8_t nregions; /* regions now: the 9 sections until the line */
	uint8_t claims;   /* regions claimed so far */
	uint8_t teams;    /* 4 players, 1 and 3 against 2 and 4 */
	/* player (mark) o plays for side (o - 1) & side_mask: 1 in teams, so
	 * that 1 and 3 (2 and 4) share a side, else 3, a side each */
	uint8_t side_mask;
	uint8_t turn;     /* the player (solo: mark) who claims next */
	struct move line; /* the bending line as a line move (zero before) */
	uint8_t cell[MAXW * MAXH]; /* region of cell y * MAXW + x, 0 outside */
	uint8_t owner[MAX_REGIONS + 1]; /* player (solo: mark) or 0 */
	/* region r borders nb[nb_at[r]] .. nb[nb_at[r + 1] - 1], increasing */
	uint16_t nb_at[MAX_REGIONS + 2];
	uint8_t nb[2 * MAX_PAIRS];
};

/* ---- move bits ---- */

static uint64_t get_bits(const struct move *m, int pos, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++, pos++)
		v |= ((m->w[pos / 64] >> (pos % 64)) & 1) << i;
	return v;
}

static void put_bits(struct move *m, int pos, int n, uint64_t v)
{
	for (int i = 0; i < n; i++, pos++)
		if ((v >> i) & 1)
			m->w[pos / 64] |= (uint64_t)1 << (pos % 64);
}

static struct move claim_move(int region)
{
	return (struct move){{(uint64_t)region << 1}};
}

static int is_line_move(const struct move *m)
{
	return (int)(m->w[0] & 1);
}

static struct move walk_encode(const struct abt_walk *wk, int w)
{
	struct move m = {{0}};
	put_bits(&m, 0, 1, 1);
	put_bits(&m, 1, 10, (uint64_t)(wk->y0 * (w + 1) + wk->x0));
	put_bits(&m, 11, 7, (uint64_t)wk->n);
	for (int i = 0; i < wk->n; i++)
		put_bits(&m, 18 + 2 * i, 2, wk->dir[i]);
	return m;
}

static void walk_decode(const struct move *m, int w, struct abt_walk *wk)
{
	int v = (int)get_bits(m, 1, 10);
	wk->x0 = v % (w + 1);
	wk->y0 = v / (w + 1);
	wk->n = (int)get_bits(m, 11, 7);
	if (wk->n > MAX_STEPS)
		wk->n = MAX_STEPS;
	for (int i = 0; i < wk->n; i++)
		wk->dir[i] = (uint8_t)get_bits(m, 18 + 2 * i, 2);
}

static void geo_of(const struct state *s, struct abt_geo *g)
{
	memset(g, 0, sizeof *g);
	g->w = s->w, g->h = s->h;
	for (int i = 0; i < 2; i++)
		g->vx[i] = s->vx[i], g->hy[i] = s->hy[i];
	for (int i = 0; i < MAXW * MAXH; i++)
		g->in[i] = s->cell[i] != 0;
}

/* The splitmix64 finaliser: a well-mixed 64-bit value of x. */
static uint64_t mix(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The key of the board with nothing claimed: everything but the claims
 * that decides how the game goes on (FNV-1a over it, then mixed). */
static uint64_t board_key(const struct state *s)
{
	const uint8_t head[] = {s->w,     s->h,     s->vx[0],   s->vx[1],
				s->hy[0], s->hy[1], s->players, s->draw,
				s->drawn, s->teams, s->nregions};
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < sizeof head; i++)
		h = (h ^ head[i]) * 0x100000001b3ULL;
	for (int i = 0; i < MAXW * MAXH; i++)
		h = (h ^ s->cell[i]) * 0x100000001b3ULL;
	return mix(h);
}

/* Side i's count in the packed counts v. */
static int lane_of(uint64_t v, int side)
{
	return (int)(v >> (16 * side) & 0xffff);
}

/* The player (solo: the mark) who makes the next claim, by the count
 * of claims and the turn order. */
static int claimer(const struct state *s)
{
	if (s->players == 1)
		return s->claims % 2 + 1;
	return (s->claims + s->draw) % s->players + 1;
}

/* The player (solo: mark) who claims after p. */
static int after(const struct state *s, int p)
{
	return p == (s->players == 1 ? 2 : s->players) ? 1 : p + 1;
}

/* The open pairs and points of every side after player (mark) p claims
 * the vacant region r: each neighbour claimed was an open pair of its
 * side, now scored (p's side) or lost (another side); each vacant one
 * opens a pair for p's side.  In the packed lanes no count goes below
 * zero, so the sums are exact. */
static inline void claim_sums(const struct state *s, int r, int p,
			      uint64_t *open, uint64_t *pts)
{
	int me = (p - 1) & s->side_mask;
	int deg = s->nb_at[r + 1] - s->nb_at[r];
	uint64_t closed = 0;
	for (int i = s->nb_at[r]; i < s->nb_at[r + 1]; i++)
		closed += s->lane[s->owner[s->nb[i]]];
	/* the lanes' sum: the neighbours claimed */
	int owned = (int)((closed * 0x0001000100010001ULL) >> 48);
	*open = s->open + ((uint64_t)(deg - owned) << (16 * me)) - closed;
	*pts = s->pts + (closed & ((uint64_t)0xffff << (16 * me)));
}

/* Player (mark) p claims the vacant region r. */
static inline void claim(struct state *s, int r, int p)
{
	uint64_t open, pts;
	claim_sums(s, r, p, &open, &pts);
	s->open = open;
	s->pts = pts;
	s->owner[r] = (uint8_t)p;
	s->vacant[(r - 1) >> 6] &= ~((uint64_t)1 << ((r - 1) & 63));
	s->claims++;
}

/* Writes the board into s: the geometry, the regions the straight lines
 * and the walk (NULL: none yet) make, their adjacency.  The caller checked
 * the geometry and the walk. */
static void build(struct state *s, const struct abt_geo *g,
		  const struct abt_walk *wk)
{
	int size[MAX_REGIONS + 1];
	s->w = (uint8_t)g->w, s->h = (uint8_t)g->h;
	for (int i = 0; i < 2; i++)
		s->vx[i] = (uint8_t)g->vx[i], s->hy[i] = (uint8_t)g->hy[i];
	int n = abt_regions(g, wk, s->cell, size);
	s->nregions = (uint8_t)(n < 0 ? 0 : n);
	s->drawn = wk != NULL;
	memset(&s->line, 0, sizeof s->line);
	if (wk)
		s->line = walk_encode(wk, g->w);
	/* neighbours, sorted: mark them in a matrix, then read it in order */
	uint64_t adj[MAX_REGIONS + 1][(MAX_REGIONS + 64) / 64] = {{0}};
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++) {
			int a = s->cell[y * MAXW + x];
			if (!a)
				continue;
			int b1 = x + 1 < g->w ? s->cell[y * MAXW + x + 1] : 0;
			int b2 = y + 1 < g->h ? s->cell[(y + 1) * MAXW + x] : 0;
			int nb[2] = {b1, b2};
			for (int k = 0; k < 2; k++) {
				int b = nb[k];
				if (b && b != a) {
					adj[a][b / 64] |= (uint64_t)1
							  << (b % 64);
					adj[b][a / 64] |= (uint64_t)1
							  << (a % 64);
				}
			}
		}
	memset(s->nb_at, 0, sizeof s->nb_at);
	memset(s->nb, 0, sizeof s->nb);
	int n_nb = 0;
	for (int a = 1; a <= s->nregions; a++) {
		s->nb_at[a] = (uint16_t)n_nb;
		for (int b = 1; b <= s->nregions; b++)
			if ((adj[a][b / 64] >> (b % 64) & 1) &&
			    n_nb < 2 * MAX_PAIRS)
				s->nb[n_nb++] = (uint8_t)b;
	}
	s->nb_at[s->nregions + 1] = (uint16_t)n_nb;
	/* nobody has claimed anything yet */
	memset(s->owner, 0, sizeof s->owner);
	s->pts = s->open = 0;
	s->claims = 0;
	s->turn = (uint8_t)claimer(s);
	for (int o = 1; o <= GAME_MAX_PLAYERS; o++)
		s->lane[o] = (uint64_t)1 << (16 * ((o - 1) & s->side_mask));
	s->vacant[0] = s->vacant[1] = 0;
	for (int r = 1; r <= s->nregions; r++)
		s->vacant[(r - 1) / 64] |= (uint64_t)1 << ((r - 1) % 64);
	s->board = board_key(s);
}

/* ---- the game ---- */

/* The newgame options a person sets (list_options); `claims`, which only
 * `position` writes, makes a newgame a position. */
static const struct game_option_spec ab_options[] = {
	{.key = "players", .type = OPT_INT, .def = "2", .min = 1, .max = 4},
	{.key = "teams", .type = OPT_BOOL, .def = "0", .requires = "players=4"},
	{.key = "draw", .type = OPT_BOOL, .def = "0", .excludes = "line"},
	{.key = "outline",
	 .type = OPT_STRING,
	 .requires = "vlines,hlines",
	 .pattern = "[0-9.x]+(/[0-9.x]+)*",
	 .example = "12x/12x/12x/12x/12x/12x/12x/12x/12x/12x/12x/12x"},
	{.key = "vlines",
	 .type = OPT_STRING,
	 .requires = "outline,hlines",
	 .pattern = "[a-y],[a-y]",
	 .example = "e,i"},
	{.key = "hlines",
	 .type = OPT_STRING,
	 .requires = "outline,vlines",
	 .pattern = "[0-9]+,[0-9]+",
	 .example = "5,9"},
	{.key = "line",
	 .type = OPT_STRING,
	 .requires = "outline,vlines,hlines",
	 .excludes = "draw",
	 .pattern = "[a-y][0-9]+(-[a-y][0-9]+)+",
	 .example = "c1-c11-k11-k1"},
	{0},
};

/* The options of a newgame, read and checked against each other. */
struct setup {
	long players;
	int teams, draw;
	const char *outline, *vlines, *hlines, *line, *claims;
};

static int read_setup(struct game_options *opt, struct setup *u, char *err)
{
	*u = (struct setup){2, 0, 0, NULL, NULL, NULL, NULL, NULL};
	if (opt_str(opt, "first"))
		return game_fail(err,
				 "abstractoe has no first=: player 1 always "
				 "claims first (with draw=1, player 1 draws "
				 "the line and player 2 claims first)");
	if (opt_int(opt, "players", 1, 4, &u->players, err) < 0 ||
	    opt_flag(opt, "teams", &u->teams, err) < 0 ||
	    opt_flag(opt, "draw", &u->draw, err) < 0)
		return -1;
	u->outline = opt_str(opt, "outline");
	u->vlines = opt_str(opt, "vlines");
	u->hlines = opt_str(opt, "hlines");
	u->line = opt_str(opt, "line");
	u->claims = opt_str(opt, "claims");
	if (u->teams && u->players != 4)
		return game_fail(err,
				 "teams needs players=4 (players 1 and 3 "
				 "against 2 and 4), not players=%ld",
				 u->players);
	if (!u->outline != !u->vlines || !u->outline != !u->hlines)
		return game_fail(err,
				 "outline=, vlines= and hlines= go together");
	/* a position is the whole state: nothing left to the seed; player 1
	 * may have drawn the line already */
	if (u->claims && (!u->outline || (!u->line && !u->draw)))
		return game_fail(err, "a position (claims=) needs outline=, "
				      "vlines=, hlines= and line= (or draw=1 "
				      "before the line is drawn)");
	if (u->line && !u->outline)
		return game_fail(err, "line= needs the figure it is drawn on: "
				      "outline=, vlines= and hlines=");
	if (u->draw && u->line && !u->claims)
		return game_fail(err, "draw=1 and line= cannot be combined: "
				      "with draw=1 player 1 draws the line");
	return 0;
}

/* The figure and its straight lines: from the options, or random. */
static int read_figure(const struct setup *u, struct rng *r, struct abt_geo *g,
		       char *err)
{
	if (!u->outline) {
		abt_random_figure(g, r);
		return 0;
	}
	char e2[GAME_ERR_MAX];
	memset(g, 0, sizeof *g);
	if (abt_read_outline(u->outline, g, err) < 0 ||
	    abt_read_lines(u->vlines, 1, g->w, g->vx, err) < 0 ||
	    abt_read_lines(u->hlines, 0, g->h, g->hy, err) < 0)
		return -1;
	if (abt_check_figure(g, 1, e2) < 0)
		return game_fail(err, "outline: %.200s", e2);
	return 0;
}

/* How many regions mark p (1..) holds after n claims in turn. */
static int turn_share(const struct state *s, int n, int p)
{
	if (s->players == 1)
		return p == 1 ? (n + 1) / 2 : n / 2;
	int first = s->draw % s->players; /* index of the first claimer */
	return n / s->players +
	       ((p - 1 - first + s->players) % s->players < n % s->players);
}

/* claims=: the owner of each region in order, `.` when vacant.  Whose turn
 * it is follows from the count, so the counts must be those of turns taken
 * in order. */
static int read_claims(struct state *s, const char *text, char *err)
{
	int marks = s->players == 1 ? 2 : s->players, have[GAME_MAX_PLAYERS];
	size_t len = strlen(text);
	if (len != s->nregions)
		return game_fail(err,
				 "claims: the board has %d regions: write %d "
				 "characters, not %zu",
				 s->nregions, s->nregions, len);
	memset(have, 0, sizeof have);
	for (int r = 1; r <= s->nregions; r++) {
		char c = text[r - 1];
		if (c != '.' && (c < '1' || c > '0' + marks))
			return game_fail(err,
					 "claims: write . for a vacant region "
					 "or its owner, 1 to %d",
					 marks);
		if (c != '.')
			have[c - '1']++, claim(s, r, c - '0');
	}
	if (!s->drawn && s->claims)
		return game_fail(err, "claims: no region is claimed before "
				      "player 1 draws the line");
	for (int p = 1; p <= marks; p++) {
		int want = turn_share(s, s->claims, p);
		if (have[p - 1] != want)
			return game_fail(err,
					 "claims: %s %d holds %d region%s, but "
					 "after %d claim%s in turn it holds %d",
					 s->players == 1 ? "mark" : "player", p,
					 have[p - 1],
					 have[p - 1] == 1 ? "" : "s", s->claims,
					 s->claims == 1 ? "" : "s", want);
	}
	s->turn = (uint8_t)claimer(s);
	return 0;
}

static int ab_init(void *st, struct game_options *opt, uint64_t seed, char *err)
{
	struct state *s = st;
	struct setup u;
	struct abt_geo g;
	struct abt_walk wk;
	struct rng r;
	rng_seed(&r, seed);
	if (read_setup(opt, &u, err) < 0 || read_figure(&u, &r, &g, err) < 0)
		return -1;
	s->players = (uint8_t)u.players;
	s->teams = (uint8_t)u.teams;
	s->side_mask = u.teams ? 1 : 3;
	s->draw = (uint8_t)u.draw;
	if (u.line) {
		char e2[GAME_ERR_MAX];
		int k;
		if (abt_read_walk(&g, u.line, &wk, e2) < 0 ||
		    abt_check_walk(&g, &wk, &k, e2) < 0)
			return game_fail(err, "line: %.200s", e2);
	} else if (!u.draw) {
		/* 12 to 25 regions: 2 to 15 crossings */
		int kmin = 2 + (int)rng_below(&r, 10);
		abt_random_line(&g, &r, kmin, kmin + 4, &wk);
	}
	build(s, &g, u.draw && !u.line ? NULL : &wk);
	return u.claims ? read_claims(s, u.claims, err) : 0;
}

/* The set-up, every option explicit: players, teams, the figure, the
 * straight lines, draw, and the bending line unless player 1 is to draw
 * it in play (both once player 1 has drawn it). */
static void write_setup(const struct state *s, int drawn_too, struct text *out)
{
	text_printf(out, "players=%d teams=%d outline=", s->players, s->teams);
	struct abt_geo g;
	geo_of(s, &g);
	abt_write_outline(&g, out);
	text_printf(out, " vlines=%c,%c hlines=%d,%d", 'a' + s->vx[0],
		    'a' + s->vx[1], s->hy[0] + 1, s->hy[1] + 1);
	text_printf(out, " draw=%d", s->draw);
	if (s->drawn && (!s->draw || drawn_too)) {
		struct abt_walk wk;
		char buf[MOVE_TEXT_MAX];
		walk_decode(&s->line, s->w, &wk);
		abt_write_walk(&wk, buf, sizeof buf);
		text_printf(out, " line=%s", buf);
	}
}

static void ab_describe(const void *st, struct text *out)
{
	write_setup(st, 0, out);
}

static void ab_position(const void *st, struct text *out)
{
	const struct state *s = st;
	write_setup(s, 1, out);
	text_puts(out, " claims=");
	for (int r = 1; r <= s->nregions; r++)
		text_putc(out, s->owner[r] ? (char)('0' + s->owner[r]) : '.');
}

static int ab_players(const void *st)
{
	const struct state *s = st;
	return s->players;
}

/* The sides that score: the players, the two marks of the solo puzzle, or
 * the two teams (players 1 and 3, 2 and 4). */
static int sides(const struct state *s)
{
	return s->players == 1 || s->teams ? 2 : s->players;
}

/* The side (from 0) of the player or mark o (1..). */
static int side_of(const struct state *s, int o)
{
	return (o - 1) & s->side_mask;
}

/* Points of each side, from the packed lanes, into pts[GAME_MAX_PLAYERS]. */
static void points(uint64_t lanes, int *pts)
{
	for (int i = 0; i < GAME_MAX_PLAYERS; i++)
		pts[i] = lane_of(lanes, i);
}

/* The status of a finished game whose sides have these points. */
static struct game_status final_status(const struct state *s, uint64_t lanes)
{
	if (s->players == 1)
		return (struct game_status){GAME_OVER, 1};
	/* a team is named by its lower-numbered player: side + 1 */
	int pts[GAME_MAX_PLAYERS], best = 0, nbest = 0, n = sides(s);
	points(lanes, pts);
	for (int i = 0; i < n; i++)
		if (pts[i] > pts[best])
			best = i;
	for (int i = 0; i < n; i++)
		nbest += pts[i] == pts[best];
	return (struct game_status){GAME_OVER, nbest == 1 ? best + 1 : 0};
}

static struct game_status ab_status(const void *st)
{
	const struct state *s = st;
	if (!s->drawn)
		return (struct game_status){GAME_PLAY, 1};
	if (s->claims < s->nregions)
		return (struct game_status){GAME_PLAY,
					    s->players == 1 ? 1 : s->turn};
	return final_status(s, s->pts);
}

static int ab_moves(const void *st, struct move *out)
{
	const struct state *s = st;
	int n = 0;
	if (!s->drawn)
		return 0;
	for (int w = 0; w < 2; w++)
		for (uint64_t m = s->vacant[w]; m; m &= m - 1)
			out[n++] = claim_move(64 * w + bit_first(m) + 1);
	return n;
}

static void ab_play(void *st, const struct move *mv)
{
	struct state *s = st;
	if (is_line_move(mv)) {
		struct abt_geo g;
		struct abt_walk wk;
		geo_of(s, &g);
		walk_decode(mv, s->w, &wk);
		build(s, &g, &wk);
		return;
	}
	int r = (int)(mv->w[0] >> 1);
	if (r >= 1 && r <= s->nregions && !s->owner[r]) {
		claim(s, r, s->turn);
		s->turn = (uint8_t)after(s, s->turn);
	}
}

static int ab_parse(const void *st, const char *text, struct move *mv,
		    char *err)
{
	const struct state *s = st;
	int digits = text[0] >= '0' && text[0] <= '9';
	if (!s->drawn) {
		struct abt_geo g;
		struct abt_walk wk;
		int k;
		if (digits)
			return game_fail(
				err, "player 1 must first draw the line, as "
				     "lattice points such as b1-b5-f5");
		geo_of(s, &g);
		if (abt_read_walk(&g, text, &wk, err) < 0 ||
		    abt_check_walk(&g, &wk, &k, err) < 0)
			return -1;
		*mv = walk_encode(&wk, s->w);
		return 0;
	}
	int r = 0;
	const char *p = text;
	while (*p >= '0' && *p <= '9' && r <= MAX_REGIONS)
		r = r * 10 + (*p++ - '0');
	if (!digits || *p || text[0] == '0' || r > s->nregions) {
		if (!digits && strchr(text, '-'))
			return game_fail(err, "the line is already drawn");
		return game_fail(err, "a move is a region number from 1 to %d",
				 s->nregions);
	}
	if (s->owner[r])
		return game_fail(err, "region %d is already claimed", r);
	*mv = claim_move(r);
	return 0;
}

static void ab_format(const void *st, const struct move *mv, char *buf)
{
	const struct state *s = st;
	if (is_line_move(mv)) {
		struct abt_walk wk;
		walk_decode(mv, s->w, &wk);
		abt_write_walk(&wk, buf, MOVE_TEXT_MAX);
	} else {
		snprintf(buf, MOVE_TEXT_MAX, "%d", (int)(mv->w[0] >> 1));
	}
}

/* Each player's points, from the packed lanes of the sides. */
static void player_points(const struct state *s, uint64_t lanes, int *pts)
{
	int all[GAME_MAX_PLAYERS];
	points(lanes, all);
	for (int i = 0; i < s->players; i++)
		pts[i] = all[side_of(s, i + 1)];
}

static void ab_score(const void *st, int *pts)
{
	const struct state *s = st;
	player_points(s, s->pts, pts);
}

/* ---- for frontends (protocol.md, "Discovery") ---- */

/* The solo puzzle's one player places two marks, so it has two sides; in
 * teams, 1 and 3 play against 2 and 4. */
static void ab_sides(const void *st, struct game_sides *out)
{
	const struct state *s = st;
	*out = (struct game_sides){.sides = s->players == 1 ? 2 : s->players};
	if (s->teams)
		for (int p = 1; p <= s->players; p++)
			out->team[p - 1] = side_of(s, p) + 1;
}

static void ab_turn(const void *st, struct game_turn *out)
{
	const struct state *s = st;
	struct game_status g = ab_status(s);
	if (g.phase == GAME_OVER) {
		int pts[GAME_MAX_PLAYERS];
		ab_score(s, pts);
		out->phase = "over";
		if (s->players == 1)
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: mark %c scores %d", MARK[0],
				 pts[0]);
		else if (g.player && s->teams)
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: players %d and %d win with %d "
				 "points",
				 g.player, g.player + 2, pts[g.player - 1]);
		else if (g.player)
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: player %d wins with %d points",
				 g.player, pts[g.player - 1]);
		else
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: a draw");
		return;
	}
	if (!s->drawn) {
		out->phase = "draw";
		snprintf(out->prompt, sizeof out->prompt,
			 "player 1: draw the bending line from the outline to "
			 "the outline, as lattice points joined by -");
		return;
	}
	out->phase = "claim";
	out->step = s->claims + 1;
	out->steps = s->nregions;
	if (s->players == 1) {
		out->side = s->turn == 1 ? 0 : s->turn;
		snprintf(out->prompt, sizeof out->prompt,
			 "player 1: claim a vacant region for mark %c (claim "
			 "%d of %d)",
			 MARK[s->turn - 1], out->step, out->steps);
		return;
	}
	snprintf(out->prompt, sizeof out->prompt,
		 "player %d: claim a vacant region (claim %d of %d)", g.player,
		 out->step, out->steps);
}

/* Every pair of bordering regions of one side, by its lower region: the
 * side's lower-numbered player owns it (the team's, in teams); the solo
 * puzzle's mark 2 scores nothing. */
static void ab_units(const void *st, struct text *out)
{
	const struct state *s = st;
	for (int r = 1; r <= s->nregions; r++) {
		if (!s->owner[r])
			continue;
		int side = side_of(s, s->owner[r]);
		if (s->players == 1 && side)
			continue;
		for (int i = s->nb_at[r]; i < s->nb_at[r + 1]; i++) {
			int q = s->nb[i];
			if (q > r && s->owner[q] &&
			    side_of(s, s->owner[q]) == side)
				text_printf(out,
					    "unit pair player %d points 1 "
					    "cells %d %d\n",
					    side + 1, r, q);
		}
	}
}

/* The cell of each region nearest its centre of mass, where showboard
 * writes its number. */
static void label_cells(const struct state *s, int *at)
{
	long sx[MAX_REGIONS + 1] = {0}, sy[MAX_REGIONS + 1] = {0};
	long n[MAX_REGIONS + 1] = {0}, best[MAX_REGIONS + 1];
	for (int y = 0; y < s->h; y++)
		for (int x = 0; x < s->w; x++) {
			int r = s->cell[y * MAXW + x];
			sx[r] += x, sy[r] += y, n[r]++;
		}
	for (int r = 1; r <= s->nregions; r++)
		best[r] = -1, at[r] = -1;
	for (int y = s->h - 1; y >= 0; y--)
		for (int x = 0; x < s->w; x++) {
			int r = s->cell[y * MAXW + x];
			if (!r)
				continue;
			/* squared distance times n^2, in whole numbers */
			long dx = x * n[r] - sx[r], dy = y * n[r] - sy[r];
			long d = dx * dx + dy * dy;
			if (best[r] < 0 || d < best[r])
				best[r] = d, at[r] = y * MAXW + x;
		}
}

static int region_at(const struct state *s, int x, int y)
{
	if (x < 0 || y < 0 || x >= s->w || y >= s->h)
		return 0;
	return s->cell[y * MAXW + x];
}

/* The character at lattice point (x, y) of the map: '+' where borders
 * meet or turn, else the owner's mark inside a claimed region. */
static char point_char(const struct state *s, int x, int y)
{
	int a = region_at(s, x - 1, y - 1), b = region_at(s, x, y - 1);
	int c = region_at(s, x - 1, y), d = region_at(s, x, y);
	if (a != b || c != d || a != c || b != d)
		return '+';
	return a && s->owner[a] ? MARK[s->owner[a] - 1] : ' ';
}

/* A piece of border where wall is set, else the mark of region r's owner
 * (a blank when r is vacant or outside the figure). */
static char fill(const struct state *s, int r, char border, int wall)
{
	if (wall)
		return border;
	return r && s->owner[r] ? MARK[s->owner[r] - 1] : ' ';
}

/* One text row of the map into row (3 * w + 1 bytes): even lines are the
 * lattice row line / 2 (points and horizontal edges), odd lines the cells
 * of row line / 2 (vertical edges and the cells, with each region's number
 * at its label cell). */
static void map_row(const struct state *s, const int *at, int line, char *row)
{
	int y = line / 2;
	for (int x = 0; x <= s->w; x++) {
		if (line % 2 == 0) {
			row[3 * x] = point_char(s, x, y);
			if (x == s->w)
				break;
			int b = region_at(s, x, y - 1), d = region_at(s, x, y);
			row[3 * x + 1] = row[3 * x + 2] =
				fill(s, b, '-', b != d);
			continue;
		}
		int a = region_at(s, x - 1, y), b = region_at(s, x, y);
		row[3 * x] = fill(s, a, '|', a != b);
		if (x == s->w)
			break;
		if (b && at[b] == y * MAXW + x) {
			char num[8];
			snprintf(num, sizeof num, "%2d", b);
			row[3 * x + 1] = num[0], row[3 * x + 2] = num[1];
		} else {
			row[3 * x + 1] = row[3 * x + 2] = fill(s, b, ' ', 0);
		}
	}
}

/* The lattice drawing: the figure's rows only, lattice rows numbered on the
 * left and columns lettered underneath. */
static void show_map(const struct state *s, struct text *out)
{
	int at[MAX_REGIONS + 1];
	char row[3 * MAXW + 2];
	label_cells(s, at);
	int top = 0, bottom = s->h;
	for (int y = 0; y < s->h; y++)
		for (int x = 0; x < s->w; x++)
			if (s->cell[y * MAXW + x]) {
				if (y + 1 > top)
					top = y + 1;
				if (y < bottom)
					bottom = y;
			}
	for (int line = 2 * top; line >= 2 * bottom; line--) {
		int width = 3 * s->w + 1;
		memset(row, ' ', (size_t)width);
		map_row(s, at, line, row);
		if (line % 2 == 0)
			text_printf(out, "%2d ", line / 2 + 1);
		else
			text_puts(out, "   ");
		while (width > 1 && row[width - 1] == ' ')
			width--;
		row[width] = '\0';
		text_printf(out, "%s\n", row);
	}
	text_puts(out, "   ");
	for (int x = 0; x <= s->w; x++)
		text_printf(out, x ? "  %c" : "%c", 'a' + x);
	text_putc(out, '\n');
}

/* Below the map: each player's (solo: mark's) points and regions, and who
 * is to move or how the game ended. */
static void show_legend(const struct state *s, struct text *out)
{
	int pts[GAME_MAX_PLAYERS];
	points(s->pts, pts);
	int nmarks = s->players == 1 ? 2 : s->players;
	for (int p = 1; p <= nmarks; p++) {
		text_printf(out, "%c %s %d", MARK[p - 1],
			    s->players == 1 ? "mark" : "player", p);
		if (s->teams)
			text_printf(out, " (with player %d): %d team points",
				    (p + 1) % 4 + 1, pts[side_of(s, p)]);
		else
			text_printf(out, ": %d points", pts[p - 1]);
		text_puts(out, ", regions");
		int any = 0;
		for (int r = 1; r <= s->nregions; r++)
			if (s->owner[r] == p)
				text_printf(out, " %d", r), any = 1;
		text_puts(out, any ? "\n" : " none\n");
	}
	struct game_status g = ab_status(s);
	if (!s->drawn)
		text_puts(out, "player 1 to draw the line\n");
	else if (g.phase == GAME_PLAY && s->players == 1)
		text_printf(out, "%d regions vacant; mark %d (%c) to place\n",
			    s->nregions - s->claims, s->turn,
			    MARK[s->turn - 1]);
	else if (g.phase == GAME_PLAY)
		text_printf(out, "%d regions vacant; player %d (%c) to claim\n",
			    s->nregions - s->claims, g.player,
			    MARK[g.player - 1]);
	else if (s->players == 1)
		text_printf(out, "puzzle over: mark 1 scores %d\n", pts[0]);
	else if (g.player && s->teams)
		text_printf(out, "game over: players %d and %d win\n", g.player,
			    g.player + 2);
	else if (g.player)
		text_printf(out, "game over: player %d wins\n", g.player);
	else
		text_puts(out, "game over: draw\n");
}

static void ab_show(const void *st, struct text *out)
{
	show_map(st, out);
	show_legend(st, out);
}

/* The lines every game shares: each region as a cell at the centre of its
 * label cell (where showboard writes its number); before the line is
 * drawn, the lattice points a line may name (those on the outline or
 * inside the figure: a line outside it is never legal), lattice point
 * (x, y) being the lower-left corner of cell (x, y), and the `-` that
 * joins them. */
static void shared_geometry(const struct state *s, struct text *out)
{
	int at[MAX_REGIONS + 1];
	label_cells(s, at);
	for (int r = 1; r <= s->nregions; r++)
		text_printf(out, "cell %d %d %d\n", r, at[r] % MAXW,
			    at[r] / MAXW);
	if (s->drawn)
		return;
	for (int y = s->h; y >= 0; y--)
		for (int x = 0; x <= s->w; x++) {
			int in = region_at(s, x - 1, y - 1) ||
				 region_at(s, x, y - 1) ||
				 region_at(s, x - 1, y) || region_at(s, x, y);
			char name[8];
			square_name(x, y, name);
			if (in)
				text_printf(out, "point %s %g %g\n", name,
					    x - 0.5, y - 0.5);
		}
	text_puts(out, "sep -\n");
}

static void ab_geometry(const void *st, struct text *out)
{
	const struct state *s = st;
	shared_geometry(s, out);
	text_printf(out, "lattice %d %d\n", s->w, s->h);
	text_printf(out, "vlines %d %d\nhlines %d %d\n", s->vx[0], s->vx[1],
		    s->hy[0], s->hy[1]);
	text_puts(out, "line");
	if (!s->drawn) {
		text_puts(out, " none");
	} else {
		struct abt_walk wk;
		walk_decode(&s->line, s->w, &wk);
		int x = wk.x0, y = wk.y0;
		text_printf(out, " %d %d", x, y);
		for (int i = 0; i < wk.n; i++) {
			x += ABT_DX[wk.dir[i]], y += ABT_DY[wk.dir[i]];
			if (i == wk.n - 1 || wk.dir[i + 1] != wk.dir[i])
				text_printf(out, " %d %d", x, y);
		}
	}
	text_printf(out, "\nregions %d\n", s->nregions);
	for (int y = s->h - 1; y >= 0; y--) {
		for (int x = 0; x < s->w; x++)
			text_printf(out, x ? " %d" : "%d",
				    s->cell[y * MAXW + x]);
		text_putc(out, '\n');
	}
	text_puts(out, "adjacent");
	for (int a = 1; a <= s->nregions; a++)
		for (int i = s->nb_at[a]; i < s->nb_at[a + 1]; i++)
			if (s->nb[i] > a)
				text_printf(out, " %d-%d", a, s->nb[i]);
	text_puts(out, "\nowners");
	for (int r = 1; r <= s->nregions; r++)
		text_printf(out, " %d", s->owner[r]);
	text_putc(out, '\n');
}

/* Each claimed region's owner (solo: its mark's side). */
static void ab_contents(const void *st, struct game_contents *out)
{
	const struct state *s = st;
	for (int r = 1; r <= s->nregions; r++)
		if (s->owner[r]) {
			out->site[r - 1].owner = s->owner[r];
			out->site[r - 1].count = 1;
		}
}

/* A point of the lattice in geometry's coordinates: vertex (x, y) is the
 * corner between unit cells, half a unit off their centres. */
static void vertex(int x, int y, struct text *out)
{
	text_printf(out, " %g %g", x - 0.5, y - 0.5);
}

/* The lines that cut the board, the bending line once drawn, and the unit
 * cells of each region, for a frontend that knows no lattice. */
static void ab_drawing(const void *st, struct text *out)
{
	const struct state *s = st;
	for (int k = 0; k < 2; k++) {
		/* a straight line runs where cells lie on both sides of it */
		int x = s->vx[k], lo = s->h, hi = -1;
		for (int y = 0; y < s->h; y++)
			if (region_at(s, x - 1, y) && region_at(s, x, y))
				lo = y < lo ? y : lo, hi = y;
		text_puts(out, "line cut");
		vertex(x, lo, out);
		vertex(x, hi + 1, out);
		text_putc(out, '\n');
	}
	for (int k = 0; k < 2; k++) {
		int y = s->hy[k], lo = s->w, hi = -1;
		for (int x = 0; x < s->w; x++)
			if (region_at(s, x, y - 1) && region_at(s, x, y))
				lo = x < lo ? x : lo, hi = x;
		text_puts(out, "line cut");
		vertex(lo, y, out);
		vertex(hi + 1, y, out);
		text_putc(out, '\n');
	}
	if (s->drawn) {
		struct abt_walk wk;
		walk_decode(&s->line, s->w, &wk);
		int x = wk.x0, y = wk.y0;
		text_puts(out, "line drawn");
		vertex(x, y, out);
		for (int i = 0; i < wk.n; i++) {
			x += ABT_DX[wk.dir[i]], y += ABT_DY[wk.dir[i]];
			if (i == wk.n - 1 || wk.dir[i + 1] != wk.dir[i])
				vertex(x, y, out);
		}
		text_putc(out, '\n');
	}
	for (int r = 1; r <= s->nregions; r++) {
		text_printf(out, "area %d", r);
		for (int y = 0; y < s->h; y++)
			for (int x = 0; x < s->w; x++)
				if (s->cell[y * MAXW + x] == r)
					text_printf(out, " %d %d", x, y);
		text_putc(out, '\n');
	}
}

/* The k-th vacant region (from 0) in increasing order. */
static inline int kth_vacant(const struct state *s, int k)
{
	int low = bit_count(s->vacant[0]);
	if (k < low)
		return bit_select(s->vacant[0], k) + 1;
	return bit_select(s->vacant[1], k - low) + 65;
}

static BITS_HOT int ab_random_move(const void *st, struct rng *r,
				   struct move *mv)
{
	const struct state *s = st;
	if (!s->drawn) {
		struct abt_geo g;
		struct abt_walk wk;
		geo_of(s, &g);
		int kmin = (int)rng_below(r, 8);
		abt_random_line(&g, r, kmin, kmin + 6, &wk);
		*mv = walk_encode(&wk, s->w);
		return 0;
	}
	int vacant = s->nregions - s->claims;
	if (vacant <= 0)
		return -1;
	*mv = claim_move(kth_vacant(s, (int)rng_below(r, (uint32_t)vacant)));
	return 0;
}

/* Random claims to the end, or to max_plies: a uniformly random vacant
 * region each ply, the claimer going round, from a list of the vacant
 * regions (a pick is then one load and a swap with the last, where the
 * k-th set bit costs about 45 instructions a ply).  A playout to the end
 * counts only points and writes the bits, the claims and the turn back
 * at the end: keeping the open pairs ply by ply cost 15 instructions a
 * ply (2,439 a playout against 2,114, scripts/tools/playout-cost abstractoe
 * ""), and none are left at the end.  One that stops early (the search's, cut
 * short for evaluate(), which reads them) claims with claim(), which
 * keeps them: 95 instructions a search iteration against 505 for
 * counting them afresh once (bench_ai iterations abstractoe).  A board
 * still to be cut gets a random line first. */
static BITS_HOT int ab_playout(void *st, struct rng *r, int max_plies)
{
	struct state *s = st;
	int plies = 0;
	if (!s->drawn && max_plies > 0) {
		struct move mv;
		ab_random_move(s, r, &mv);
		ab_play(s, &mv);
		plies++;
	}
	/* mine[p]: the lane of p's side; next[p]: who claims after p */
	uint64_t mine[GAME_MAX_PLAYERS + 1] = {0}, pts = s->pts;
	uint8_t list[MAX_REGIONS], next[GAME_MAX_PLAYERS + 1] = {0};
	int n = 0;
	for (int w = 0; w < 2; w++)
		for (uint64_t m = s->vacant[w]; m; m &= m - 1)
			list[n++] = (uint8_t)(64 * w + bit_first(m) + 1);
	for (int p = 1; p <= GAME_MAX_PLAYERS; p++) {
		mine[p] = s->lane[p] * 0xffff;
		next[p] = (uint8_t)after(s, p);
	}
	int p = s->turn;
	if (max_plies - plies < n) {
		for (; plies < max_plies; plies++) {
			int k = (int)rng_below(r, (uint32_t)n), reg = list[k];
			list[k] = list[--n];
			claim(s, reg, p);
			p = next[p];
		}
		s->turn = (uint8_t)p;
		return plies;
	}
	const uint64_t *lane = s->lane;
	const uint16_t *at = s->nb_at;
	const uint8_t *nb = s->nb;
	uint8_t *owner = s->owner;
	int start = plies;
	for (; n > 0; plies++) {
		int k = (int)rng_below(r, (uint32_t)n), reg = list[k];
		list[k] = list[--n];
		uint64_t closed = 0;
		for (int i = at[reg]; i < at[reg + 1]; i++)
			closed += lane[owner[nb[i]]];
		pts += closed & mine[p];
		owner[reg] = (uint8_t)p;
		p = next[p];
	}
	s->pts = pts;
	s->turn = (uint8_t)p;
	s->claims = (uint8_t)(s->claims + plies - start);
	s->vacant[0] = s->vacant[1] = 0; /* none is left */
	s->open = 0;
	return plies;
}

/* The board and who holds what: the claim order does not matter (the
 * count of claims fixes who moves, the owners the points).  Folded from
 * the owners when asked, so that a claim costs nothing for it. */
static uint64_t ab_key(const void *st)
{
	const struct state *s = st;
	uint64_t h = s->board;
	for (int r = 1; r <= s->nregions; r++)
		h = (h ^ s->owner[r]) * 0x100000001b3ULL;
	return mix(h);
}

/* Points so far plus 0.4 for each border a side could still complete (its
 * region next to a vacant one), turned into a rough chance of winning by
 * the lead over the best other side; from the packed lanes of points and
 * open pairs. */
static void judge(const struct state *s, uint64_t pts, uint64_t open,
		  double *value)
{
	double est[GAME_MAX_PLAYERS], chance[GAME_MAX_PLAYERS];
	int n = sides(s);
	for (int i = 0; i < n; i++)
		est[i] = lane_of(pts, i) + 0.4 * lane_of(open, i);
	if (s->players == 1) {
		value[0] = est[0] / (est[0] + 4.0);
		return;
	}
	if (n == 2) {
		/* the common case, with one division: side 1's lead is
		 * exactly minus side 0's, so its chance is the mirror */
		double d = est[0] - est[1];
		double t = 0.5 * d / (2.0 + (d < 0 ? -d : d));
		chance[0] = 0.5 + t;
		chance[1] = 0.5 - t;
		if (s->players == 2) { /* a side each */
			value[0] = chance[0];
			value[1] = chance[1];
			return;
		}
	} else {
		for (int me = 0; me < n; me++) {
			double other = -1e9;
			for (int q = 0; q < n; q++)
				if (q != me && est[q] > other)
					other = est[q];
			double d = est[me] - other;
			chance[me] = 0.5 + 0.5 * d / (2.0 + (d < 0 ? -d : d));
		}
	}
	for (int p = 0; p < s->players; p++)
		value[p] = chance[side_of(s, p + 1)];
}

static void ab_evaluate(const void *st, double *value)
{
	const struct state *s = st;
	judge(s, s->pts, s->open, value);
}

/* A claim, looked at from the side: claim_sums() without the copy of the
 * whole board (1.8 kB) that the search's look ahead would otherwise make
 * for every move of every node it adds.  The line is left to play(). */
static int ab_preview(const void *st, const struct move *mv,
		      struct game_status *next, double *value, int *points)
{
	const struct state *s = st;
	int r = (int)(mv->w[0] >> 1);
	if (!s->drawn || is_line_move(mv))
		return -1;
	uint64_t open, pts;
	claim_sums(s, r, s->turn, &open, &pts);
	if (s->claims + 1 < s->nregions) {
		*next = (struct game_status){
			GAME_PLAY, s->players == 1 ? 1 : after(s, s->turn)};
		judge(s, pts, open, value);
	} else {
		*next = final_status(s, pts);
		player_points(s, pts, points);
	}
	return 0;
}

/* Its levels 2 to 8 (docs/strength.md, "Levels"). */
static const struct game_level ab_levels[GAME_LEVELS] = {
	{0.65, 5, 3}, {0.35, 5, 3},  {0.1, 5, 3},  {0, 8, 2},
	{0, 12, 1.5}, {0, 19, 1.15}, {0, 42, 0.8},
};

static const struct game_search ab_search = {
	.playout = ab_playout,
	.evaluate = ab_evaluate,
	.preview = ab_preview,
	.levels = ab_levels,
};

const struct game game_abstractoe = {
	.name = "abstractoe",
	.title = "Abs-Trac-Toe",
	.summary = "1-4 players; options players=1..4 teams draw outline= "
		   "vlines= hlines= line=",
	.state_size = sizeof(struct state),
	.max_moves = MAX_REGIONS,
	.marks = "XO#@",
	.options = ab_options,
	.init = ab_init,
	.describe = ab_describe,
	.position = ab_position,
	.players = ab_players,
	.status = ab_status,
	.moves = ab_moves,
	.play = ab_play,
	.parse = ab_parse,
	.format = ab_format,
	.score = ab_score,
	.show = ab_show,
	.random_move = ab_random_move,
	.key = ab_key,
	.geometry = ab_geometry,
	.contents = ab_contents,
	.drawing = ab_drawing,
	.sides = ab_sides,
	.turn = ab_turn,
	.units = ab_units,
	.search = &ab_search,
};
