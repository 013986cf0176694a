/* takebacktoe.c: Take-Back-Toe, a dice game on a 4x3 grid of stacks.
 *
 * 40 chips start as four stacks of 10 across the middle row.  Each turn the
 * player rolls a die and moves exactly that many chips from one space to an
 * orthogonally adjacent one, never reversing the opponent's last move; with
 * no legal move the turn is a pass.  Whoever's home row (row 1 for player 1,
 * row 3 for player 2) ends a turn holding three or four equal stacks wins,
 * whoever made the move.  See protocol.md for the exact reading.
 *
 * Spaces are numbered y * 4 + x (a1 = 0, d3 = 11).  A move is stored as
 * w[0] = 1 + its edge (see edge_from), so that `pass` is the all-zero move.
 * The playout picks its moves without listing any: the legal moves of a
 * roll are a mask of edges, computed from all 12 stacks at once, and the
 * few that touch a home row are tried for a win on the spot.  The computer
 * player judges positions by an evaluation learned from self-play
 * (learn.h; its weights in takebacktoe_weights.c, `make train`). */
#include "game.h"

#include <stdio.h>
#include <string.h>

#include "util/bits.h"
#include "util/numbers.h"

#define COLS 4
#define ROWS 3
#define SPACES (COLS * ROWS)
#define SQ(x, y) ((y)*COLS + (x))
#define MAX_MOVES 34 /* 17 edges of the grid, both ways */
#define DEFAULT_MAXTURNS 1000
#define CHIPS 40

struct state {
	uint8_t cnt[SPACES]; /* chips on each space */
	uint8_t first;       /* who took the first turn: 1 or 2 */
	uint8_t mover;       /* who rolls or moves now: 1 or 2 */
	uint8_t die;         /* the roll showing; 0 while a roll is due */
	uint8_t winner;      /* 1 or 2 once someone won, else 0 */
	uint8_t win_size;    /* the height of the winning stacks */
	/* The previous turn's move, which the mover may not reverse: its edge
	 * + 1 and the chips it moved, both 0 after a pass and at the start
	 * (then nothing is forbidden). */
	uint8_t last, last_n;
	uint8_t pad;       /* zero: no stale byte between the fields */
	uint32_t turns;    /* turns played (moves and passes) */
	uint32_t maxturns; /* the game is a draw once turns reaches this */
};
/* no padding: states compare byte for byte, and sources() reads the bytes
 * after the counts */
_Static_assert(sizeof(struct state) == 28, "struct state has padding");

/* The 34 moves of a chip pile between neighbours ("edges", one each way)
 * in the order moves() lists them: by source space, then down, left,
 * right, up as showboard draws the board.  rev[] is the edge back. */
static const uint8_t edge_from[MAX_MOVES] = {
	0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4,  5,  5,  5,  5,
	6, 6, 6, 6, 7, 7, 7, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11};
static const uint8_t edge_to[MAX_MOVES] = {
	1, 4, 0, 2,  5, 1, 3,  6, 2, 7, 0, 5,  8, 1, 4,  6, 9,
	2, 5, 7, 10, 3, 6, 11, 4, 9, 5, 8, 10, 6, 9, 11, 7, 10};
static const uint8_t rev[MAX_MOVES] = {
	2, 10, 0,  5,  13, 3,  8,  17, 6,  21, 1,  14, 24, 4,  11, 18, 26,
	7, 15, 22, 29, 9,  19, 32, 12, 27, 16, 25, 30, 20, 28, 33, 23, 31};
static const uint8_t first_edge[SPACES + 1] = {0,  2,  5,  8,  10, 13, 17,
					       21, 24, 26, 29, 32, 34};

/* The edges out of a set of sources (a mask of spaces), in two lookups of
 * six spaces each: each space's edges are consecutive bits. */
#define PICK(m, i, v) (((m) >> (i)&1) ? (uint64_t)(v) : 0)
#define OUT_LO(m)                                                              \
	(PICK(m, 0, 0x3) | PICK(m, 1, 0x1c) | PICK(m, 2, 0xe0) |               \
	 PICK(m, 3, 0x300) | PICK(m, 4, 0x1c00) | PICK(m, 5, 0x1e000))
#define OUT_HI(m)                                                              \
	(PICK(m, 0, 0x1e0000) | PICK(m, 1, 0xe00000) | PICK(m, 2, 0x3000000) | \
	 PICK(m, 3, 0x1c000000) | PICK(m, 4, 0xe0000000) |                     \
	 PICK(m, 5, 0x300000000))
#define X4(F, m) F(m), F((m) + 1), F((m) + 2), F((m) + 3)
#define X16(F, m) X4(F, m), X4(F, (m) + 4), X4(F, (m) + 8), X4(F, (m) + 12)
#define X64(F) X16(F, 0), X16(F, 16), X16(F, 32), X16(F, 48)
static const uint64_t out_lo[64] = {X64(OUT_LO)};
static const uint64_t out_hi[64] = {X64(OUT_HI)};

/* Bytes p[0..7] as a number, p[0] the lowest: one load. */
static inline uint64_t load8(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* The spaces holding at least d chips (1 <= d <= 6), as a mask: eight
 * bytes at a time, where (c | 0x80) - d keeps bit 7 exactly when c >= d
 * (no count passes 127, so no byte borrows from the next), then the bit 7s
 * gathered into one byte by a multiplication. */
static inline unsigned sources(const uint8_t *cnt, unsigned d)
{
	const uint64_t h = 0x8080808080808080ULL, l = 0x0101010101010101ULL;
	/* the last four counts, and four bytes of the state after them */
	uint64_t lo = load8(cnt), hi = load8(cnt + 8) & 0xffffffff;
	lo = ((lo | h) - l * d) & h;
	hi = ((hi | h) - l * d) & h;
	const uint64_t gather = 0x0102040810204080ULL;
	return (unsigned)(((lo >> 7) * gather) >> 56 |
			  (((hi >> 7) * gather) >> 56) << 8);
}

/* The legal moves of die d as a mask of edges: every edge out of a space
 * with d chips, but the take-back of the previous move when it moved d. */
static inline uint64_t legal_edges(const uint8_t *cnt, unsigned d,
				   unsigned last, unsigned last_n)
{
	unsigned m = sources(cnt, d);
	uint64_t e = out_lo[m & 63] | out_hi[m >> 6];
	if (last && last_n == d)
		e &= ~((uint64_t)1 << rev[last - 1]);
	return e;
}

/* The edge from `from` to `to`, or -1 when they are not neighbours. */
static int edge_of(int from, int to)
{
	for (int e = first_edge[from]; e < first_edge[from + 1]; e++)
		if (edge_to[e] == to)
			return e;
	return -1;
}

/* The height of three or four equal stacks in row y, or 0 when there are
 * none.  Three of four equal: when the first two are equal, one of the
 * other two must match them; else the last two must be equal and match
 * one of the first two. */
static inline int row_win(const uint8_t *cnt, int y)
{
	const uint8_t *r = &cnt[SQ(0, y)];
	if (r[0] == r[1])
		return r[0] == r[2] || r[0] == r[3] ? r[0] : 0;
	return r[2] == r[3] && (r[2] == r[0] || r[2] == r[1]) ? r[2] : 0;
}

/* Moves d chips along edge e; returns the player whose home row now holds
 * equal stacks, 0 for none.  Only rows 1 and 3 are home rows, and one edge
 * touches at most one of them, so at most one player can win here. */
static inline int move_chips(uint8_t *cnt, int e, int d, int *height)
{
	int from = edge_from[e], to = edge_to[e];
	cnt[from] = (uint8_t)(cnt[from] - d);
	cnt[to] = (uint8_t)(cnt[to] + d);
	int lo = from < to ? from : to, hi = from ^ to ^ lo;
	int y = lo < COLS ? 0 : hi >= 2 * COLS ? ROWS - 1 : -1;
	if (y < 0 || !(*height = row_win(cnt, y)))
		return 0;
	return y ? 2 : 1;
}

static struct move edge_move(int e)
{
	struct move m = {{0}};
	m.w[0] = (uint64_t)(1 + e);
	return m;
}

/* Reads a space name of this board at *p. */
static int read_space(const char **p, int *sq)
{
	int x, y;
	if (square_read(p, &x, &y) < 0 || x >= COLS || y < 0 || y >= ROWS)
		return -1;
	*sq = SQ(x, y);
	return 0;
}

static void space_name(int sq, char *buf)
{
	square_name(sq % COLS, sq / COLS, buf);
}

static void tb_format(const void *st, const struct move *mv, char *buf)
{
	(void)st;
	if (mv->w[0] == 0) {
		strcpy(buf, "pass");
		return;
	}
	int e = (int)mv->w[0] - 1;
	space_name(edge_from[e], buf);
	buf[2] = '-';
	space_name(edge_to[e], buf + 3);
}

/* The options a person sets; the keys only `position` writes (board, turns,
 * player, die, last) are read by init too, but not listed. */
static const struct game_option_spec tb_options[] = {
	{.key = "first", .type = OPT_INT, .min = 1, .max = 2},
	{.key = "maxturns",
	 .type = OPT_INT,
	 .def = "1000",
	 .min = 1,
	 .max = 1000000},
	{0},
};

/* Reads a count of chips at *p (one or two digits) and advances past it. */
static int read_count(const char **p, int *v)
{
	const char *q = *p;
	if (*q < '0' || *q > '9')
		return -1;
	*v = *q++ - '0';
	if (*q >= '0' && *q <= '9')
		*v = *v * 10 + (*q++ - '0');
	if (*q >= '0' && *q <= '9')
		return -1;
	*p = q;
	return 0;
}

/* board=: the rows from row 3 down, separated by '/', each the counts of
 * spaces a to d separated by ','; every chip of the game on it. */
static int read_board(struct state *s, const char *text, char *err)
{
	const char *p = text;
	int sum = 0;
	for (int y = ROWS - 1; y >= 0; y--)
		for (int x = 0; x < COLS; x++) {
			int v, sep = x < COLS - 1 ? ',' : y ? '/' : '\0';
			if (read_count(&p, &v) < 0 || *p != sep)
				return game_fail(
					err,
					"board= is 3 rows from row 3 down, "
					"separated by /, each 4 chip counts "
					"separated by commas (the start is "
					"board=0,0,0,0/10,10,10,10/0,0,0,0)");
			p += sep != '\0';
			s->cnt[SQ(x, y)] = (uint8_t)v;
			sum += v;
		}
	if (sum != CHIPS)
		return game_fail(err,
				 "board= holds %d chips: the game has %d, and "
				 "none ever leaves the board",
				 sum, CHIPS);
	return 0;
}

/* last=: the previous turn, "none" before the first, "pass", or its move
 * with the chips it moved, FROM-TO:N. */
static int read_last(struct state *s, const char *text, char *err)
{
	const char *p = text;
	int from, to, n;
	if (!text || !strcmp(text, (s->turns ? "pass" : "none")))
		return 0;
	if (!strcmp(text, "none"))
		return game_fail(err,
				 "last=none means no turn was played, but "
				 "turns=%u: write last=pass or the previous "
				 "move, such as last=b2-b1:5",
				 (unsigned)s->turns);
	if (!strcmp(text, "pass"))
		return game_fail(err, "last=pass follows no turn (turns=0): "
				      "write last=none");
	if (read_space(&p, &from) < 0 || *p++ != '-' ||
	    read_space(&p, &to) < 0 || *p++ != ':' || read_count(&p, &n) < 0 ||
	    *p || edge_of(from, to) < 0 || n < 1 || n > 6)
		return game_fail(err,
				 "last= is none, pass, or the previous turn's "
				 "move and the chips it moved (1 to 6), such "
				 "as last=b2-b1:5");
	if (!s->turns)
		return game_fail(err,
				 "last=%s follows no turn (turns=0): "
				 "write last=none",
				 text);
	if (s->cnt[to] < n) {
		char a[8];
		space_name(to, a);
		return game_fail(err,
				 "last=%s moved %d chips to %s, which holds "
				 "only %d",
				 text, n, a, s->cnt[to]);
	}
	s->last = (uint8_t)(1 + edge_of(from, to));
	s->last_n = (uint8_t)n;
	return 0;
}

/* The winner, from the home rows: a turn that left equal stacks there
 * ended the game. */
static int set_winner(struct state *s, char *err)
{
	int h1 = row_win(s->cnt, 0), h2 = row_win(s->cnt, ROWS - 1);
	if (h1 && h2)
		return game_fail(err, "board= has equal stacks in both home "
				      "rows, which no move can make");
	s->winner = h1 ? 1 : h2 ? 2 : 0;
	s->win_size = (uint8_t)(h1 ? h1 : h2);
	if (s->die && (s->winner || s->turns >= s->maxturns))
		return game_fail(err,
				 "die=%d, but the game is over: write "
				 "die=0",
				 s->die);
	return 0;
}

/* Reads the keys of a position (each optional; without them, the start).
 * first: the first player from the options, 0 when not given. */
static int read_position(struct state *s, struct game_options *opt, long first,
			 uint64_t seed, char *err)
{
	long turns = 0, player = 0, die = 0;
	const char *board = opt_str(opt, "board");
	if ((board && read_board(s, board, err) < 0) ||
	    opt_int(opt, "turns", 0, 1000000, &turns, err) < 0 ||
	    opt_int(opt, "player", 1, 2, &player, err) < 0 ||
	    opt_int(opt, "die", 0, 6, &die, err) < 0)
		return -1;
	if (turns > (long long)s->maxturns)
		return game_fail(err, "turns=%ld is more than maxturns=%u",
				 turns, (unsigned)s->maxturns);
	s->turns = (uint32_t)turns;
	s->die = (uint8_t)die;
	/* turns alternate, a pass included, so the first player and the
	 * turns played tell who is to move */
	if (!first && player)
		first = turns % 2 ? 3 - player : player;
	if (!first) {
		/* the rules start with a random player */
		struct rng r;
		rng_seed(&r, seed);
		first = 1 + (long)rng_below(&r, 2);
	}
	s->first = (uint8_t)first;
	s->mover = (uint8_t)(turns % 2 ? 3 - first : first);
	if (player && player != s->mover)
		return game_fail(err,
				 "player=%ld, but after %ld turns player %d "
				 "is to move when player %ld went first",
				 player, turns, s->mover, first);
	if (read_last(s, opt_str(opt, "last"), err) < 0)
		return -1;
	return set_winner(s, err);
}

static int tb_init(void *st, struct game_options *opt, uint64_t seed, char *err)
{
	struct state *s = st;
	long first = 0, maxturns = DEFAULT_MAXTURNS;
	if (opt_int(opt, "first", 1, 2, &first, err) < 0 ||
	    opt_int(opt, "maxturns", 1, 1000000, &maxturns, err) < 0)
		return -1;
	for (int x = 0; x < COLS; x++)
		s->cnt[SQ(x, 1)] = CHIPS / COLS;
	s->maxturns = (uint32_t)maxturns;
	return read_position(s, opt, first, seed, err);
}

static void tb_position(const void *st, struct text *out)
{
	const struct state *s = st;
	text_puts(out, "board=");
	for (int y = ROWS - 1; y >= 0; y--)
		for (int x = 0; x < COLS; x++)
			text_printf(out, "%d%s", s->cnt[SQ(x, y)],
				    x < COLS - 1 ? ","
				    : y          ? "/"
						 : "");
	text_printf(out, " turns=%u maxturns=%u first=%d player=%d die=%d",
		    (unsigned)s->turns, (unsigned)s->maxturns, s->first,
		    s->mover, s->die);
	if (s->last) {
		char a[8], b[8];
		space_name(edge_from[s->last - 1], a);
		space_name(edge_to[s->last - 1], b);
		text_printf(out, " last=%s-%s:%d", a, b, s->last_n);
	} else {
		text_puts(out, s->turns ? " last=pass" : " last=none");
	}
}

/* A set-up is the start, or a position given to newgame. */
static void tb_describe(const void *st, struct text *out)
{
	const struct state *s = st;
	struct state start = {
		.first = s->first, .mover = s->first, .maxturns = s->maxturns};
	for (int x = 0; x < COLS; x++)
		start.cnt[SQ(x, 1)] = CHIPS / COLS;
	if (memcmp(s, &start, sizeof start))
		tb_position(s, out);
	else
		text_printf(out, "first=%d maxturns=%u", s->first,
			    (unsigned)s->maxturns);
}

static int tb_players(const void *st)
{
	(void)st;
	return 2;
}

static struct game_status tb_status(const void *st)
{
	const struct state *s = st;
	if (s->winner)
		return (struct game_status){GAME_OVER, s->winner};
	if (s->turns >= s->maxturns)
		return (struct game_status){GAME_OVER, 0};
	return (struct game_status){s->die ? GAME_PLAY : GAME_ROLL, s->mover};
}

/* Lists the edges of mask e as moves, in edge order; the pass when e is
 * empty. */
static int list_edges(uint64_t e, struct move *out)
{
	int n = 0;
	for (; e; e &= e - 1)
		out[n++] = edge_move(bit_first(e));
	if (n == 0)
		out[n++] = (struct move){{0}};
	return n;
}

static int tb_moves(const void *st, struct move *out)
{
	const struct state *s = st;
	if (!s->die || s->winner || s->turns >= s->maxturns)
		return 0;
	return list_edges(legal_edges(s->cnt, s->die, s->last, s->last_n), out);
}

static int tb_chance(const void *st, int *values, double *probs)
{
	(void)st;
	for (int i = 0; i < 6; i++) {
		values[i] = i + 1;
		probs[i] = 1.0 / 6;
	}
	return 6;
}

static void tb_roll(void *st, int value)
{
	struct state *s = st;
	s->die = (uint8_t)value;
}

static void tb_play(void *st, const struct move *mv)
{
	struct state *s = st;
	int e = (int)mv->w[0] - 1, h;
	if (e < 0) {
		/* a pass changes no stack, so it cannot make a win, and it
		 * forbids nothing on the next turn */
		s->last = s->last_n = 0;
	} else {
		int p = move_chips(s->cnt, e, s->die, &h);
		if (p) {
			s->winner = (uint8_t)p;
			s->win_size = (uint8_t)h;
		}
		s->last = (uint8_t)(e + 1);
		s->last_n = s->die;
	}
	s->die = 0;
	s->turns++;
	s->mover = (uint8_t)(3 - s->mover);
}

/* The engine refuses play while a roll is due or after the end, so the die
 * shows a number here. */
static int tb_parse(const void *st, const char *text, struct move *mv,
		    char *err)
{
	const struct state *s = st;
	uint64_t legal = legal_edges(s->cnt, s->die, s->last, s->last_n);
	if (strcmp(text, "pass") == 0) {
		if (legal) {
			char m[16];
			tb_format(s,
				  &(struct move){
					  {1u + (unsigned)bit_first(legal)}},
				  m);
			return game_fail(err,
					 "pass is legal only when no move "
					 "is (%d are, %s among them)",
					 bit_count(legal), m);
		}
		*mv = (struct move){{0}};
		return 0;
	}
	const char *p = text;
	int from, to;
	if (read_space(&p, &from) < 0 || *p++ != '-' ||
	    read_space(&p, &to) < 0 || *p)
		return game_fail(err, "write a move as from-to, a1 to d3 "
				      "(b2-b1), or pass");
	char a[8], b[8];
	space_name(from, a);
	space_name(to, b);
	int e = edge_of(from, to);
	if (e < 0)
		return game_fail(err, "%s and %s are not orthogonally adjacent",
				 a, b);
	if (s->cnt[from] < s->die)
		return game_fail(err,
				 "%s has %d chips, fewer than the %d rolled", a,
				 s->cnt[from], s->die);
	if (!(legal >> e & 1))
		return game_fail(
			err, "%s-%s takes back the opponent's last move", a, b);
	*mv = edge_move(e);
	return 0;
}

static void tb_score(const void *st, int *points)
{
	const struct state *s = st;
	points[0] = s->winner == 1 ? s->win_size : 0;
	points[1] = s->winner == 2 ? s->win_size : 0;
}

static void tb_show(const void *st, struct text *out)
{
	const struct state *s = st;
	static const char *const owner[ROWS] = {"player 1's row", "neutral row",
						"player 2's row"};
	text_puts(out, "     a   b   c   d\n");
	for (int y = ROWS - 1; y >= 0; y--) {
		text_printf(out, "%d ", y + 1);
		for (int x = 0; x < COLS; x++)
			text_printf(out, " %3d", s->cnt[SQ(x, y)]);
		text_printf(out, "   %s\n", owner[y]);
	}
	struct game_status g = tb_status(s);
	if (g.phase == GAME_OVER) {
		if (g.player)
			text_printf(out,
				    "game over after %u turns: player %d wins "
				    "with stacks of %d\n",
				    (unsigned)s->turns, g.player, s->win_size);
		else
			text_printf(out, "game over: draw after %u turns\n",
				    (unsigned)s->turns);
		return;
	}
	text_printf(out, "turn %u of %u: player %d ", (unsigned)s->turns + 1,
		    (unsigned)s->maxturns, s->mover);
	if (s->die)
		text_printf(out, "to move %d chips (die shows %d)\n", s->die,
			    s->die);
	else
		text_puts(out, "to roll\n");
	if (s->last) {
		char a[8], b[8];
		space_name(edge_to[s->last - 1], a);
		space_name(edge_from[s->last - 1], b);
		text_printf(out, "no take-back: %s-%s is forbidden", a, b);
		text_printf(out, " on a roll of %d\n", s->last_n);
	}
}

/* The 12 spaces, then which row is whose: `home P CELLS` for each player's
 * home row and `neutral CELLS` for the middle row. */
static void tb_geometry(const void *st, struct text *out)
{
	(void)st;
	char a[8];
	square_cells(COLS, ROWS, out);
	text_puts(out, "word pass\nsep -\n");
	for (int y = 0; y < ROWS; y++) {
		if (y == 1)
			text_puts(out, "neutral");
		else
			text_printf(out, "home %d", y ? 2 : 1);
		for (int x = 0; x < COLS; x++) {
			space_name(SQ(x, y), a);
			text_printf(out, " %s", a);
		}
		text_putc(out, '\n');
	}
}

/* ---- for frontends (protocol.md, "Discovery") ---- */

/* The chips, nobody's, on each space; row 1 is player 1's own, row 3
 * player 2's; the die while it shows. */
static void tb_contents(const void *st, struct game_contents *out)
{
	const struct state *s = st;
	for (int sq = 0; sq < SPACES; sq++) {
		int row = sq / COLS;
		out->site[sq].count = s->cnt[sq];
		out->site[sq].zone = (uint8_t)(row == 0 ? 1 : row == 2 ? 2 : 0);
	}
	out->stacks = 1;
	out->die = s->die;
}

/* A turn is a roll, then a move of as many chips as the die shows (or a
 * pass when none is legal). */
static void tb_turn(const void *st, struct game_turn *out)
{
	const struct state *s = st;
	struct game_status g = tb_status(s);
	unsigned turn = (unsigned)s->turns + 1, of = (unsigned)s->maxturns;
	if (g.phase == GAME_OVER) {
		out->phase = "over";
		if (g.player)
			snprintf(out->prompt, sizeof out->prompt,
				 "game over after %u turns: player %d wins "
				 "with stacks of %d",
				 (unsigned)s->turns, g.player, s->win_size);
		else
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: a draw after %u turns",
				 (unsigned)s->turns);
		return;
	}
	if (g.phase == GAME_ROLL) {
		out->phase = "roll";
		snprintf(out->prompt, sizeof out->prompt,
			 "player %d: roll the die (turn %u of %u)", g.player,
			 turn, of);
		return;
	}
	if (!legal_edges(s->cnt, s->die, s->last, s->last_n)) {
		out->phase = "pass";
		snprintf(out->prompt, sizeof out->prompt,
			 "player %d: no pile of %d chips may move: pass "
			 "(turn %u of %u)",
			 g.player, s->die, turn, of);
		return;
	}
	out->phase = "move";
	snprintf(out->prompt, sizeof out->prompt,
		 "player %d: move %d chip%s from one space to a neighbouring "
		 "one (turn %u of %u)",
		 g.player, s->die, s->die == 1 ? "" : "s", turn, of);
}

/* The winner's equal stacks, which score their height. */
static void tb_units(const void *st, struct text *out)
{
	const struct state *s = st;
	if (!s->winner)
		return;
	int y = s->winner == 1 ? 0 : ROWS - 1;
	text_printf(out, "unit stack player %d points %d cells", s->winner,
		    s->win_size);
	for (int x = 0; x < COLS; x++)
		if (s->cnt[SQ(x, y)] == s->win_size) {
			char a[8];
			space_name(SQ(x, y), a);
			text_printf(out, " %s", a);
		}
	text_putc(out, '\n');
}

/* The edges that touch player p's home row (p = 1, 2): the only moves that
 * can complete it. */
static const uint64_t row_edges[3] = {
	0, 0x2227ffULL, /* the 10 edges out of row 1, e10 e13 e17 e21 into it */
	0x3ff911000ULL, /* e12 e16 e20 e23 into row 3, the 10 out of it */
};

/* The edges of mask e (moves of d chips) after which player p's home row
 * holds equal stacks. */
static inline uint64_t row_makers(uint8_t *cnt, uint64_t e, int d, int p)
{
	int y = p == 1 ? 0 : ROWS - 1;
	uint64_t hits = 0;
	for (e &= row_edges[p]; e; e &= e - 1) {
		int k = bit_first(e), from = edge_from[k], to = edge_to[k];
		cnt[from] = (uint8_t)(cnt[from] - d);
		cnt[to] = (uint8_t)(cnt[to] + d);
		if (row_win(cnt, y))
			hits |= e & -e;
		cnt[from] = (uint8_t)(cnt[from] + d);
		cnt[to] = (uint8_t)(cnt[to] - d);
	}
	return hits;
}

/* The die faces (bit d for d = 1..6) on which player p, rolling now, has a
 * move that completes p's home row.  mover: whether p is the player to
 * move (the take-back ban binds only the mover). */
static unsigned win_faces(const struct state *s, int p, int mover)
{
	uint8_t cnt[SPACES + 4]; /* sources() reads 4 bytes past the counts */
	memcpy(cnt, s->cnt, SPACES);
	memset(cnt + SPACES, 0, 4);
	unsigned faces = 0;
	for (unsigned d = 1; d <= 6; d++) {
		uint64_t e =
			legal_edges(cnt, d, mover ? s->last : 0, s->last_n);
		if (row_makers(cnt, e, (int)d, p))
			faces |= 1u << d;
	}
	return faces;
}

/* The roller's chance to win, when each turn the roller would win with
 * chance a and the other player with chance b: a / (a + b - ab). */
static double race(double a, double b)
{
	return a / (a + b - a * b);
}

/* The chance of a threat appearing in a turn, and the share of the other's
 * threats a move takes away.  Measured against these (100 games each,
 * movetime 50, both seats): base 0.05 scored 39%, 0.2 55%, 0.3 43%; block
 * 0 45%, 0.6 38%; base 0.2 with block 0.2 48%, with 0.4 35%. */
#define EVAL_BASE 0.1
#define EVAL_BLOCK 0.3

/* The first guess of the learned evaluation, for the player to roll: a
 * race of threats (the faces of the die that would win at once).  The
 * roller wins with the share of its faces, else moves (and may spoil some
 * of the other's), and so on.  As the log of the odds. */
static double base_of(unsigned fm, unsigned fo)
{
	double a = bit_count(fm) / 6.0, b = bit_count(fo) / 6.0;
	double v = race(a + EVAL_BASE, b * (1 - EVAL_BLOCK) + EVAL_BASE);
	v = v < 1e-6 ? 1e-6 : v > 1 - 1e-6 ? 1 - 1e-6 : v;
	return num_log(1 / (1 - v)) - num_log(1 / v);
}

/* The die faces that would win at once for the player to roll in s (fm)
 * and for the other (fo). */
static void faces(const struct state *s, unsigned *fm, unsigned *fo)
{
	*fm = win_faces(s, s->mover, 1);
	*fo = win_faces(s, 3 - s->mover, 0);
}

/* The learned evaluation (learn.h): an n-tuple network over the stacks
 * and the threats, seen from the player to act, whose home row is "home"
 * and the other's "away".  Each board is read twice, as it is and
 * mirrored left to right, through the same tuples: both home rows, the
 * 2x2 squares of each home row with the middle row (at the edge and
 * inside), and the columns (at the edge and inside); besides, the die
 * faces that would win at once for either player. */
#define LV 12 /* stack heights told apart: 0 to 10, and 11 or more */
#define T3 (LV * LV * LV)
#define T4 (LV * T3)
enum {
	F_FACES = 0,             /* the mover's and the other's faces */
	F_HOME = F_FACES + 4096, /* the home row */
	F_AWAY = F_HOME + T4,    /* the other's home row */
	F_HSQ = F_AWAY + T4,     /* 2x2 of home and middle: edge, inside */
	F_ASQ = F_HSQ + 2 * T4,  /* the same for the other's row */
	F_COL = F_ASQ + 2 * T4,  /* a column, home to away: edge, inside */
	F_SIZE = F_COL + 2 * T3,
};
#define F_MAX 17

extern const struct learn_weights takebacktoe_weights;

static inline uint32_t lv(unsigned c)
{
	return c < LV - 1 ? c : LV - 1;
}

static uint32_t tuple4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	return ((a * LV + b) * LV + c) * LV + d;
}

static int features_of(const struct state *s, unsigned fm, unsigned fo,
		       uint32_t *idx)
{
	int home = s->mover == 1 ? 0 : ROWS - 1, away = ROWS - 1 - home;
	int n = 0;
	idx[n++] = F_FACES + (fm >> 1 | (fo >> 1) << 6);
	for (int img = 0; img < 2; img++) {
		uint32_t h[COLS], a[COLS], c[COLS];
		for (int x = 0; x < COLS; x++) {
			int col = img ? COLS - 1 - x : x;
			h[x] = lv(s->cnt[SQ(col, home)]);
			c[x] = lv(s->cnt[SQ(col, 1)]);
			a[x] = lv(s->cnt[SQ(col, away)]);
		}
		idx[n++] = F_HOME + tuple4(h[0], h[1], h[2], h[3]);
		idx[n++] = F_AWAY + tuple4(a[0], a[1], a[2], a[3]);
		for (int x = 0; x < 2; x++) {
			idx[n++] = F_HSQ + x * T4 +
				   tuple4(h[x], h[x + 1], c[x], c[x + 1]);
			idx[n++] = F_ASQ + x * T4 +
				   tuple4(a[x], a[x + 1], c[x], c[x + 1]);
			idx[n++] =
				F_COL + x * T3 + (h[x] * LV + c[x]) * LV + a[x];
		}
	}
	return n;
}

static int tb_features(const void *st, uint32_t *idx, double *base)
{
	unsigned fm, fo;
	faces(st, &fm, &fo);
	*base = base_of(fm, fo);
	return features_of(st, fm, fo, idx);
}

/* No playout: the learned value judges a search's leaf as it stands.  At
 * movetime 10 that scored +74.1 Elo (+24.8 to +123.3) against the engine
 * with the hand-written evaluation alone (base_of) after 8 turns of
 * playout, where the learned value after the same 8 turns scored +0.0
 * (docs/strength.md, "A learned evaluation"). */
static int tb_eval_after(const void *st)
{
	(void)st;
	return -1;
}

static const struct learn_weights *const tb_tables[] = {&takebacktoe_weights,
							NULL};
static const struct learn_spec tb_learn = {F_SIZE, F_MAX, tb_features,
					   tb_tables};

/* The learned value of the roll in s for its mover, from its faces
 * (which do not depend on a die showing). */
static double learned(const struct state *s, unsigned fm, unsigned fo)
{
	uint32_t idx[F_MAX];
	int n = features_of(s, fm, fo, idx);
	return learn_value(takebacktoe_weights.w, base_of(fm, fo), idx, n);
}

/* The value for the player to act: the learned table's where a roll is
 * due.  With the die showing, a sure win when it completes the mover's
 * row, else the table's value of the roll before it: the search tells
 * the moves apart below.  Looking over the moves instead, each judged by
 * the table where it leaves the other to roll, took 47,000 instructions a
 * search iteration, over four times as many, and scored +24.4 Elo (-23.9 to
 * +72.6) against the engine with the hand-written evaluation at movetime 100
 * where this scored +63.2 (+14.3 to +112.2), 200 games each
 * (docs/strength.md, "A learned evaluation"). */
static BITS_HOT void tb_evaluate(const void *st, double *value)
{
	const struct state *s = st;
	int m = s->mover, o = 3 - m;
	double vm;
	if (s->winner || s->turns >= s->maxturns) {
		value[0] = s->winner == 1 ? 1 : s->winner == 2 ? 0 : 0.5;
		value[1] = 1 - value[0];
		return;
	}
	unsigned fm, fo;
	faces(s, &fm, &fo);
	vm = s->die && fm >> s->die & 1 ? 1 : learned(s, fm, fo);
	value[m - 1] = vm;
	value[o - 1] = 1 - vm;
}

/* Uniform in [0, n) from 32 random bits x, unbiased: Lemire's
 * multiply-shift, drawing again (rarely) from r where x falls in the few
 * values that would favour some results. */
static inline uint32_t below(uint32_t x, uint32_t n, struct rng *r)
{
	uint64_t m = (uint64_t)x * n;
	if ((uint32_t)m < n) {
		uint32_t threshold = (uint32_t)-n % n;
		while ((uint32_t)m < threshold)
			m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
	}
	return (uint32_t)(m >> 32);
}

/* A uniformly random edge of the mask e (not empty), from 32 random
 * bits. */
static inline int pick_edge(uint64_t e, uint32_t x, struct rng *r)
{
	return bit_select(e, (int)below(x, (uint32_t)bit_count(e), r));
}

static BITS_HOT int tb_random_move(const void *st, struct rng *r,
				   struct move *mv)
{
	const struct state *s = st;
	if (!s->die || s->winner || s->turns >= s->maxturns)
		return -1;
	uint64_t e = legal_edges(s->cnt, s->die, s->last, s->last_n);
	*mv = e ? edge_move(pick_edge(e, (uint32_t)rng_next(r), r))
		: (struct move){{0}};
	return 0;
}

/* Turns until the end, as roll() and play() would make them: a roll, then
 * a move that wins on the spot when there is one, else a uniformly random
 * legal move among those that do not complete the other's row (any, when
 * every move does), or the pass.  Uniformly random players miss wins in
 * one and hand them over, which blurs what a playout tells: this policy
 * scored +67 Elo (+18 to +116) against them at movetime 100
 * (scripts/tournament, 200 games, both seats), though a playout costs
 * more. */
static BITS_HOT int tb_playout(void *st, struct rng *r, int max_plies)
{
	struct state *s = st;
	unsigned die = s->die, last = s->last, last_n = s->last_n;
	uint32_t turns = s->turns;
	int plies = 0, h = 0, winner = 0, p = s->mover;
	while (!winner && turns < s->maxturns && plies < max_plies) {
		/* one draw a turn: the high half rolls, the low half picks */
		uint64_t x = rng_next(r);
		if (!die)
			die = 1 + below((uint32_t)(x >> 32), 6, r);
		uint64_t e = legal_edges(s->cnt, die, last, last_n);
		if (e) {
			uint64_t win = row_makers(s->cnt, e, (int)die, p);
			if (win) {
				e = win;
			} else {
				uint64_t lose =
					row_makers(s->cnt, e, (int)die, 3 - p);
				if (e & ~lose)
					e &= ~lose;
			}
			int k = pick_edge(e, (uint32_t)x, r);
			winner = move_chips(s->cnt, k, (int)die, &h);
			last = (unsigned)k + 1;
			last_n = die;
		} else {
			last = last_n = 0;
		}
		die = 0;
		turns++;
		plies++;
		p = 3 - p;
	}
	s->die = (uint8_t)die;
	s->last = (uint8_t)last;
	s->last_n = (uint8_t)last_n;
	if (winner) {
		s->winner = (uint8_t)winner;
		s->win_size = (uint8_t)h;
	}
	if (plies % 2)
		s->mover = (uint8_t)(3 - s->mover);
	s->turns = turns;
	return plies;
}

/* Its levels 2 to 8 (docs/strength.md, "Levels"). */
static const struct game_level tb_levels[GAME_LEVELS] = {
	{0.83, 5, 3},  {0.65, 5, 3},  {0.42, 5, 3},  {0.18, 5, 3},
	{0, 6.5, 2.5}, {0, 17, 1.25}, {0, 30, 0.95},
};

static const struct game_search tb_search = {
	.playout = tb_playout,
	.evaluate = tb_evaluate,
	.eval_after = tb_eval_after,
	.learn = &tb_learn,
	.levels = tb_levels,
};

const struct game game_takebacktoe = {
	.name = "takebacktoe",
	.title = "Take-Back-Toe",
	.summary = "2 players, dice; options first=1|2 maxturns=N",
	.state_size = sizeof(struct state),
	.max_moves = MAX_MOVES,
	.options = tb_options,
	.init = tb_init,
	.describe = tb_describe,
	.position = tb_position,
	.players = tb_players,
	.status = tb_status,
	.moves = tb_moves,
	.chance = tb_chance,
	.roll = tb_roll,
	.play = tb_play,
	.parse = tb_parse,
	.format = tb_format,
	.score = tb_score,
	.show = tb_show,
	.geometry = tb_geometry,
	.contents = tb_contents,
	.random_move = tb_random_move,
	.turn = tb_turn,
	.units = tb_units,
	.search = &tb_search,
};
