/* checkertoe.c: Tic-Tac-Toe On A Checkerboard and its three variations.
 *
 * Two players place checkers in turn on a 5x5 board, 12 each, so one square
 * stays empty.  At the end every three squares in a line (row, column or
 * diagonal) holding only one player's checkers, or those and the empty
 * square, count one tic-tac-toe for that player; a line of four therefore
 * counts two and a line of five three.  Most tic-tac-toes wins.
 *
 * Variations, freely combined except float with size=6:
 * - size=6: a 6x6 board, 18 checkers each, so no square stays empty.
 * - float: an 8x8 board on which the 5x5 layout forms as checkers go down;
 *   the first on a centre square, each later one only where the bounding
 *   box of all checkers stays within 5x5.
 * - exchange: after the last placement the starting player, then the other,
 *   may swap one own checker with one of the opponent's, or pass; the second
 *   may not touch the two checkers the first swapped.
 *
 * Squares are numbered y * 8 + x on an 8-wide grid so that one 64-bit mask
 * per player holds the position, even on the 8x8 float board; lines are
 * counted with shifts of whole masks, so a playout costs a few word
 * operations per move. */
#include "game.h"
#include "util/bits.h"
#include "util/numbers.h"

#include <stdio.h>
#include <string.h>

#define W 8 /* stride of a square number */
#define SQ(x, y) ((y)*W + (x))
#define BIT(sq) ((uint64_t)1 << (sq))
#define COLS(lo, hi)                                                           \
	((((uint64_t)2 << (hi)) - ((uint64_t)1 << (lo))) *                     \
	 0x0101010101010101ull)
#define LAYOUT 5 /* the float layout is at most LAYOUT x LAYOUT */

/* move.w[2]: what a move is (placements leave it 0) */
enum { MV_PLACE, MV_EXCHANGE, MV_PASS };

struct state {
	uint64_t men[2];  /* squares of player 1, player 2 */
	uint64_t area;    /* the squares of the board */
	uint64_t locked;  /* after the first exchange: its two squares */
	uint8_t size;     /* the board is size x size */
	uint8_t first;    /* player who placed first: 1 or 2 */
	uint8_t placed;   /* checkers on the board */
	uint8_t total;    /* checkers in the game: 24 or 36 */
	uint8_t floating; /* float: the layout forms on the 8x8 board */
	uint8_t exchange; /* exchange: two exchange turns follow placement */
	uint8_t turns;    /* exchange turns taken (exchanges and passes) */
	uint8_t box[4];   /* float: x0, x1, y0, y1 of the checkers so far */
};

/* Start squares of the lines of three inside an 8-wide grid: a line going
 * right (or up-right) must start in columns a-f, one going up-left in c-h,
 * or its squares would wrap into the next row. */
#define START_LEFT COLS(0, 5)
#define START_RIGHT COLS(2, 7)

/* The four directions of a line, as steps through the grid (rows,
 * columns, up-right and up-left diagonals), and the squares a line of
 * each may start on: the lines lines_in() counts, for the code that
 * walks them one direction at a time. */
static const int LINE_STEP[4] = {1, W, W + 1, W - 1};
static const uint64_t LINE_START[4] = {START_LEFT, ~(uint64_t)0, START_LEFT,
				       START_RIGHT};

/* Lines of three within the squares of m: a line of four holds two, a line
 * of five three. */
static inline int lines_in(uint64_t m)
{
	return bit_count(m & m >> 1 & m >> 2 & START_LEFT) +
	       bit_count(m & m >> W & m >> 2 * W) +
	       bit_count(m & m >> (W + 1) & m >> 2 * (W + 1) & START_LEFT) +
	       bit_count(m & m >> (W - 1) & m >> 2 * (W - 1) & START_RIGHT);
}

/* Rows lo..hi of the grid (0 <= lo <= hi <= 7). */
static inline uint64_t rows(int lo, int hi)
{
	return ~(uint64_t)0 >> W * (7 - hi) & ~(uint64_t)0 << W * lo;
}

static int placing(const struct state *s)
{
	return s->placed < s->total;
}

static int over(const struct state *s)
{
	return !placing(s) && (!s->exchange || s->turns == 2);
}

static int to_move(const struct state *s)
{
	/* players alternate, starting with `first`; the placements are an
	 * even number, so the exchange turns start with `first` too */
	return ((s->placed + s->turns) % 2 == 0) ? s->first : 3 - s->first;
}

/* The squares a checker may go on now (occupied ones included): in a float
 * game those that keep the layout within 5x5, else the board. */
static inline uint64_t allowed(const struct state *s)
{
	if (!s->floating)
		return s->area;
	if (s->placed == 0)
		return COLS(3, 4) & rows(3, 4);
	const uint8_t *b = s->box;
	int xlo = b[1] >= LAYOUT - 1 ? b[1] - (LAYOUT - 1) : 0;
	int xhi = b[0] + LAYOUT - 1 <= 7 ? b[0] + LAYOUT - 1 : 7;
	int ylo = b[3] >= LAYOUT - 1 ? b[3] - (LAYOUT - 1) : 0;
	int yhi = b[2] + LAYOUT - 1 <= 7 ? b[2] + LAYOUT - 1 : 7;
	return COLS(xlo, xhi) & rows(ylo, yhi);
}

/* The squares whose lines count: the board, or in a float game the
 * bounding box of the checkers (the final 5x5 layout once all are down). */
static uint64_t layout(const struct state *s)
{
	if (!s->floating)
		return s->area;
	if (s->placed == 0)
		return 0;
	return COLS(s->box[0], s->box[1]) & rows(s->box[2], s->box[3]);
}

/* Tic-tac-toes of player p (0 or 1).  Once the game is over the one empty
 * square of the layout counts for both players (with size=6 there is none);
 * before the end, exchange turns included, only a player's own checkers
 * count, as protocol.md reads the score of a game still running.  Lines of own
 * checkers always lie inside the layout, which is why a float game needs
 * no other clipping. */
static inline int count(const struct state *s, int p)
{
	uint64_t ok = s->men[p];
	if (over(s))
		ok |= layout(s) & ~(s->men[0] | s->men[1]);
	return lines_in(ok);
}

/* Reads one square of the board at *p into *sq; -1 when there is none. */
static int read_square(const struct state *s, const char **p, int *sq)
{
	int x, y;
	if (square_read(p, &x, &y) < 0 || x >= s->size || y < 0 || y >= s->size)
		return -1;
	*sq = SQ(x, y);
	return 0;
}

/* ---- positions: the keys only `position` writes ----
 *
 * board= is the checkers, turns= and locked= the exchange phase; every
 * other fact (checkers placed and in hand, whose turn, the float box)
 * follows from them, so it cannot disagree with them. */

/* board=: the rows from the top down, separated by '/', each from column a
 * rightwards: x (player 1), o (player 2) or . (empty). */
static int read_board(struct state *s, const char *text, char *err)
{
	const char *p = text;
	int n = s->size;
	for (int y = n - 1; y >= 0; y--) {
		size_t len = strcspn(p, "/");
		if (len != (size_t)n)
			return game_fail(err,
					 "board= row %d has %zu squares: every "
					 "row of the %dx%d board has %d",
					 y + 1, len, n, n, n);
		for (int x = 0; x < n; x++, p++) {
			if (*p == 'x' || *p == 'o')
				s->men[*p == 'o'] |= BIT(SQ(x, y));
			else if (*p != '.')
				return game_fail(
					err,
					"board= row %d: %c is neither "
					"x (player 1), o (player 2) "
					"nor . (empty)",
					y + 1, *p > ' ' && *p < 127 ? *p : '?');
		}
		if (y > 0 && *p++ != '/')
			return game_fail(err,
					 "board= has %d rows: the %dx%d board "
					 "has %d, from the top row down, "
					 "separated by /",
					 n - y, n, n, n);
	}
	if (*p)
		return game_fail(err,
				 "board= has more than %d rows: the %dx%d "
				 "board has %d",
				 n, n, n, n);
	return 0;
}

/* The counts the rules allow: at most a player's checkers each, placed in
 * turn from the first player, and in a float game within 5x5. */
static int check_board(const struct state *s, char *err)
{
	int n[2] = {bit_count(s->men[0]), bit_count(s->men[1])};
	int each = s->total / 2;
	for (int p = 0; p < 2; p++)
		if (n[p] > each)
			return game_fail(err,
					 "board= has %d %c checkers: each "
					 "player has %d",
					 n[p], p ? 'o' : 'x', each);
	int f = s->first - 1;
	if (n[f] != n[1 - f] && n[f] != n[1 - f] + 1)
		return game_fail(err,
				 "board= has %d x and %d o checkers: players "
				 "place in turn from player %d (first=%d), so "
				 "%c has as many as %c or one more",
				 n[0], n[1], s->first, s->first, "xo"[f],
				 "xo"[1 - f]);
	if (!s->floating || !s->placed)
		return 0;
	int w = s->box[1] - s->box[0] + 1, h = s->box[3] - s->box[2] + 1;
	if (w > LAYOUT || h > LAYOUT)
		return game_fail(err,
				 "board=: the smallest rectangle around the "
				 "checkers is %dx%d (columns x rows), and with "
				 "float it is at most %dx%d",
				 w, h, LAYOUT, LAYOUT);
	return 0;
}

/* The smallest rectangle around the squares of m (not empty): its
 * columns x0-x1 and rows y0-y1 into b[0..3]. */
static void span(uint64_t m, int *b)
{
	uint64_t cols = m | m >> 32;
	cols |= cols >> 16;
	cols |= cols >> 8;
	cols &= 0xff;
	b[0] = bit_first(cols);
	b[1] = 63 - __builtin_clzll(cols);
	b[2] = bit_first(m) / W;
	b[3] = (63 - __builtin_clzll(m)) / W;
}

/* The box of a float game: the smallest rectangle around the checkers. */
static void set_box(struct state *s)
{
	int b[4];
	if (!s->placed)
		return;
	span(s->men[0] | s->men[1], b);
	for (int i = 0; i < 4; i++)
		s->box[i] = (uint8_t)b[i];
}

/* locked=: the two squares of the first exchange, "c3,d4". */
static int read_locked(struct state *s, const char *text, char *err)
{
	const char *p = text;
	int a, b;
	if (read_square(s, &p, &a) < 0 || *p++ != ',' ||
	    read_square(s, &p, &b) < 0 || *p || a == b)
		return game_fail(err, "locked= names the two squares of the "
				      "first exchange: locked=c3,d4");
	if (s->turns == 0)
		return game_fail(err, "locked= needs the first exchange made: "
				      "turns=1 or turns=2");
	uint64_t two = BIT(a) | BIT(b);
	if (bit_count(s->men[0] & two) != 1 || bit_count(s->men[1] & two) != 1)
		return game_fail(err,
				 "locked= %s: after an exchange its two "
				 "squares hold one x and one o",
				 text);
	s->locked = two;
	return 0;
}

/* Reads the position keys after the set-up options. */
static int read_position(struct state *s, struct game_options *opt, char *err)
{
	const char *board = opt_str(opt, "board");
	const char *locked = opt_str(opt, "locked");
	long turns = 0;
	if (opt_int(opt, "turns", 0, 2, &turns, err) < 0)
		return -1;
	if (board && read_board(s, board, err) < 0)
		return -1;
	s->placed = (uint8_t)bit_count(s->men[0] | s->men[1]);
	if (s->floating)
		set_box(s);
	if (check_board(s, err) < 0)
		return -1;
	if ((turns || locked) && !s->exchange)
		return game_fail(err, "turns= and locked= are the exchange "
				      "turns: they need exchange");
	if (turns && placing(s))
		return game_fail(err,
				 "turns=%ld: the exchange turns begin once "
				 "all %d checkers are placed, and the board "
				 "has %d",
				 turns, s->total, s->placed);
	s->turns = (uint8_t)turns;
	return locked ? read_locked(s, locked, err) : 0;
}

static int ct_init(void *st, struct game_options *opt, uint64_t seed, char *err)
{
	struct state *s = st;
	long first = 0, size = 5;
	int floating = 0, exchange = 0;
	if (opt_int(opt, "first", 1, 2, &first, err) < 0 ||
	    opt_int(opt, "size", 5, 6, &size, err) < 0 ||
	    opt_flag(opt, "float", &floating, err) < 0 ||
	    opt_flag(opt, "exchange", &exchange, err) < 0)
		return -1;
	if (floating && size != 5)
		return game_fail(err,
				 "float forms a 5x5 layout: it cannot be "
				 "combined with size=%ld",
				 size);
	if (!first) {
		/* the rules toss coins for the starting player */
		struct rng r;
		rng_seed(&r, seed);
		first = 1 + (long)rng_below(&r, 2);
	}
	s->size = floating ? 8 : (uint8_t)size;
	s->first = (uint8_t)first;
	s->total = size == 6 ? 36 : 24;
	s->floating = (uint8_t)floating;
	s->exchange = (uint8_t)exchange;
	s->area = COLS(0, s->size - 1) & rows(0, s->size - 1);
	return read_position(s, opt, err);
}

static void ct_describe(const void *st, struct text *out)
{
	const struct state *s = st;
	text_printf(out, "first=%d size=%d float=%d exchange=%d", s->first,
		    s->total == 36 ? 6 : 5, s->floating, s->exchange);
}

/* Writes the lowest and the highest square of m (not empty) joined by
 * sep: the locked pair "a1,b1", a rectangle's corners "d4 h8". */
static void ends(uint64_t m, char sep, struct text *out)
{
	char a[8], b[8];
	int lo = bit_first(m), hi = 63 - __builtin_clzll(m);
	square_name(lo % W, lo / W, a);
	square_name(hi % W, hi / W, b);
	text_printf(out, "%s%c%s", a, sep, b);
}

/* The set-up options, then board=, and in an exchange game turns= and
 * (once the first exchange is made) locked=. */
static void ct_position(const void *st, struct text *out)
{
	const struct state *s = st;
	ct_describe(s, out);
	text_puts(out, " board=");
	for (int y = s->size - 1; y >= 0; y--) {
		for (int x = 0; x < s->size; x++) {
			uint64_t b = BIT(SQ(x, y));
			text_putc(out, s->men[0] & b   ? 'x'
				       : s->men[1] & b ? 'o'
						       : '.');
		}
		if (y)
			text_putc(out, '/');
	}
	if (s->exchange)
		text_printf(out, " turns=%d", s->turns);
	if (s->locked) {
		text_puts(out, " locked=");
		ends(s->locked, ',', out);
	}
}

static int ct_players(const void *st)
{
	(void)st;
	return 2;
}

BITS_HOT static struct game_status ct_status(const void *st)
{
	const struct state *s = st;
	if (!over(s))
		return (struct game_status){GAME_PLAY, to_move(s)};
	int a = count(s, 0), b = count(s, 1);
	return (struct game_status){GAME_OVER, a > b ? 1 : b > a ? 2 : 0};
}

/* The checkers of the mover and of the opponent that may take part in an
 * exchange now. */
static void exchangeable(const struct state *s, uint64_t *mine,
			 uint64_t *theirs)
{
	int p = to_move(s) - 1;
	*mine = s->men[p] & ~s->locked;
	*theirs = s->men[1 - p] & ~s->locked;
}

static int ct_moves(const void *st, struct move *out)
{
	const struct state *s = st;
	int n = 0;
	if (over(s))
		return 0;
	if (placing(s)) {
		uint64_t free_sq = allowed(s) & ~(s->men[0] | s->men[1]);
		for (; free_sq; free_sq &= free_sq - 1)
			out[n++] =
				(struct move){{(uint64_t)bit_first(free_sq)}};
		return n;
	}
	uint64_t mine, theirs;
	exchangeable(s, &mine, &theirs);
	for (uint64_t a = mine; a; a &= a - 1)
		for (uint64_t b = theirs; b; b &= b - 1)
			out[n++] = (struct move){{(uint64_t)bit_first(a),
						  (uint64_t)bit_first(b),
						  MV_EXCHANGE}};
	out[n++] = (struct move){{0, 0, MV_PASS}};
	return n;
}

/* Puts a checker of player p (0 or 1) on the empty square sq. */
static inline void place(struct state *s, int p, int sq)
{
	s->men[p] |= BIT(sq);
	if (s->floating) {
		uint8_t x = (uint8_t)(sq % W), y = (uint8_t)(sq / W);
		uint8_t *b = s->box;
		if (s->placed == 0) {
			b[0] = b[1] = x;
			b[2] = b[3] = y;
		}
		b[0] = x < b[0] ? x : b[0];
		b[1] = x > b[1] ? x : b[1];
		b[2] = y < b[2] ? y : b[2];
		b[3] = y > b[3] ? y : b[3];
	}
	s->placed++;
}

static void ct_play(void *st, const struct move *mv)
{
	struct state *s = st;
	int p = to_move(s) - 1;
	if (mv->w[2] == MV_PLACE) {
		place(s, p, (int)mv->w[0]);
		return;
	}
	if (mv->w[2] == MV_EXCHANGE) {
		uint64_t a = BIT(mv->w[0]), b = BIT(mv->w[1]);
		s->men[p] = (s->men[p] & ~a) | b;
		s->men[1 - p] = (s->men[1 - p] & ~b) | a;
		/* the second exchanger may not touch these two checkers */
		if (s->turns == 0)
			s->locked = a | b;
	}
	s->turns++;
}

/* Refuses a placement on sq (empty, on the board) that breaks the float
 * layout, with the reason. */
static int float_refusal(const struct state *s, int sq, const char *text,
			 char *err)
{
	if (s->placed == 0)
		return game_fail(err, "the first checker goes on a centre "
				      "square: d4, e4, d5 or e5");
	int x = sq % W, y = sq / W;
	int x0 = x < s->box[0] ? x : s->box[0],
	    x1 = x > s->box[1] ? x : s->box[1];
	int y0 = y < s->box[2] ? y : s->box[2],
	    y1 = y > s->box[3] ? y : s->box[3];
	if (x1 - x0 >= LAYOUT)
		return game_fail(err,
				 "%s would make the layout %d columns wide (5 "
				 "at most)",
				 text, x1 - x0 + 1);
	return game_fail(err,
			 "%s would make the layout %d rows tall (5 at most)",
			 text, y1 - y0 + 1);
}

static int parse_exchange(const struct state *s, const char *text,
			  struct move *mv, char *err)
{
	if (strcmp(text, "pass") == 0) {
		*mv = (struct move){{0, 0, MV_PASS}};
		return 0;
	}
	const char *p = text;
	int a, b;
	if (read_square(s, &p, &a) < 0 || *p++ != ':' ||
	    read_square(s, &p, &b) < 0 || *p)
		return game_fail(err, "all checkers are placed: exchange with "
				      "your square:their square (c3:d4) or "
				      "pass");
	int me = to_move(s) - 1;
	char name[8];
	if (!(s->men[me] & BIT(a))) {
		square_name(a % W, a / W, name);
		return game_fail(err,
				 "%s is not your checker (write yours first)",
				 name);
	}
	if (!(s->men[1 - me] & BIT(b))) {
		square_name(b % W, b / W, name);
		return game_fail(err, "%s is not your opponent's checker",
				 name);
	}
	if (s->locked & (BIT(a) | BIT(b))) {
		int sq = s->locked & BIT(a) ? a : b;
		square_name(sq % W, sq / W, name);
		return game_fail(err,
				 "the checker on %s was exchanged by the first "
				 "player",
				 name);
	}
	*mv = (struct move){{(uint64_t)a, (uint64_t)b, MV_EXCHANGE}};
	return 0;
}

static int ct_parse(const void *st, const char *text, struct move *mv,
		    char *err)
{
	const struct state *s = st;
	/* the engine asks only while a move is due: over(s) is false */
	if (!placing(s))
		return parse_exchange(s, text, mv, err);
	const char *p = text;
	int sq;
	if (read_square(s, &p, &sq) < 0 || *p) {
		char c[40];
		game_clean(text, c, sizeof c); /* never echo raw bytes */
		return game_fail(err, "%s is not a square of the %dx%d board",
				 c, s->size, s->size);
	}
	if ((s->men[0] | s->men[1]) & BIT(sq))
		return game_fail(err, "%s is occupied", text);
	if (!(allowed(s) & BIT(sq)))
		return float_refusal(s, sq, text, err);
	*mv = (struct move){{(uint64_t)sq}};
	return 0;
}

static void ct_format(const void *st, const struct move *mv, char *buf)
{
	(void)st;
	if (mv->w[2] == MV_PASS) {
		strcpy(buf, "pass");
		return;
	}
	square_name((int)(mv->w[0] % W), (int)(mv->w[0] / W), buf);
	if (mv->w[2] == MV_EXCHANGE) {
		size_t n = strlen(buf);
		buf[n] = ':';
		square_name((int)(mv->w[1] % W), (int)(mv->w[1] / W),
			    buf + n + 1);
	}
}

BITS_HOT static void ct_score(const void *st, int *points)
{
	const struct state *s = st;
	points[0] = count(s, 0);
	points[1] = count(s, 1);
}

static void ct_show(const void *st, struct text *out)
{
	const struct state *s = st;
	int pts[2];
	ct_score(s, pts);
	/* float: '-' marks squares no checker may reach any more */
	uint64_t reach = placing(s) ? allowed(s) : layout(s);
	for (int y = s->size - 1; y >= 0; y--) {
		text_printf(out, "%2d ", y + 1);
		for (int x = 0; x < s->size; x++) {
			uint64_t b = BIT(SQ(x, y));
			text_puts(out, s->men[0] & b   ? " X"
				       : s->men[1] & b ? " O"
				       : reach & b     ? " ."
						       : " -");
		}
		text_putc(out, '\n');
	}
	text_puts(out, "   ");
	for (int x = 0; x < s->size; x++)
		text_printf(out, " %c", 'a' + x);
	text_putc(out, '\n');
	int left1 = s->total / 2 - bit_count(s->men[0]);
	int left2 = s->total / 2 - bit_count(s->men[1]);
	text_printf(out, "X player 1: %d in hand, %d tic-tac-toes\n", left1,
		    pts[0]);
	text_printf(out, "O player 2: %d in hand, %d tic-tac-toes\n", left2,
		    pts[1]);
	if (s->locked) {
		text_puts(out, "exchanged, not to be used again: ");
		ends(s->locked, ' ', out);
		text_putc(out, '\n');
	}
	struct game_status g = ct_status(s);
	if (g.phase == GAME_PLAY)
		text_printf(out, "%c (player %d) to %s\n",
			    g.player == 1 ? 'X' : 'O', g.player,
			    placing(s) ? "place" : "exchange or pass");
	else if (g.player)
		text_printf(out, "game over: player %d wins\n", g.player);
	else
		text_puts(out, "game over: draw\n");
}

/* Every square, then the exchange's pass and colon; a float game adds the
 * rectangle a checker may still go in (while placing) and the rectangle
 * the checkers span, which is the layout once all are down. */
static void ct_geometry(const void *st, struct text *out)
{
	const struct state *s = st;
	square_cells(s->size, s->size, out);
	if (s->exchange)
		text_puts(out, "word pass\nsep :\n");
	if (!s->floating)
		return;
	if (placing(s)) {
		text_puts(out, "reach ");
		ends(allowed(s), ' ', out);
		text_putc(out, '\n');
	}
	if (s->placed) {
		text_puts(out, "layout ");
		ends(layout(s), ' ', out);
		text_putc(out, '\n');
	}
}

/* ---- for frontends (protocol.md, "Discovery") ---- */

/* Tags: a float square no checker may reach any more (or, at the end,
 * outside the layout), and the two checkers the second exchange turn may
 * not use. */
#define TAG_DEAD 1
#define TAG_LOCKED 2

static void ct_contents(const void *st, struct game_contents *out)
{
	const struct state *s = st;
	uint64_t live = placing(s) ? allowed(s) : layout(s);
	uint64_t locked = s->turns == 1 && !over(s) ? s->locked : 0;
	struct game_site *c = out->site;
	for (int y = 0; y < s->size; y++)
		for (int x = 0; x < s->size; x++, c++) {
			uint64_t b = BIT(SQ(x, y));
			int owner = s->men[0] & b ? 1 : s->men[1] & b ? 2 : 0;
			c->owner = (uint8_t)owner;
			c->count = owner != 0;
			if (s->floating && !(live & b))
				c->tags |= TAG_DEAD;
			if (locked & b)
				c->tags |= TAG_LOCKED;
		}
	out->hands = 1;
	for (int p = 0; p < 2; p++)
		out->hand[p][0] = s->total / 2 - bit_count(s->men[p]);
}

static void ct_sides(const void *st, struct game_sides *out)
{
	(void)st;
	*out = (struct game_sides){.sides = 2, .colour = {"red", "black"}};
}

/* Placements are counted over both players (placement 5 of 24), the
 * exchange turns as 1 and 2. */
static void ct_turn(const void *st, struct game_turn *out)
{
	const struct state *s = st;
	struct game_status g = ct_status(s);
	if (g.phase == GAME_OVER) {
		int pts[2];
		ct_score(s, pts);
		out->phase = "over";
		if (g.player)
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: player %d wins with %d "
				 "tic-tac-toes to %d",
				 g.player, pts[g.player - 1],
				 pts[2 - g.player]);
		else
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: a draw, %d tic-tac-toes each",
				 pts[0]);
		return;
	}
	if (placing(s)) {
		out->phase = "place";
		out->step = s->placed + 1;
		out->steps = s->total;
		snprintf(out->prompt, sizeof out->prompt,
			 "player %d: place checker %d of %d on an empty "
			 "square%s",
			 g.player, out->step, out->steps,
			 s->floating ? " that keeps the layout within 5x5"
				     : "");
		return;
	}
	out->phase = "exchange";
	out->step = s->turns + 1;
	out->steps = 2;
	out->also = "pass";
	snprintf(out->prompt, sizeof out->prompt,
		 "player %d: swap one of your checkers with one of the "
		 "opponent's (mine:theirs), or pass; exchange turn %d of 2",
		 g.player, out->step);
}

/* Every line of three that count() counts, one unit each, in the order
 * rows, columns, up-right and up-left diagonals, each by its first
 * square. */
static void ct_units(const void *st, struct text *out)
{
	const struct state *s = st;
	uint64_t hole = over(s) ? layout(s) & ~(s->men[0] | s->men[1]) : 0;
	for (int p = 0; p < 2; p++) {
		uint64_t ok = s->men[p] | hole;
		for (int d = 0; d < 4; d++) {
			int k = LINE_STEP[d];
			uint64_t m = ok & ok >> k & ok >> 2 * k & LINE_START[d];
			for (; m; m &= m - 1) {
				int sq = bit_first(m);
				text_printf(out,
					    "unit line player %d points 1 "
					    "cells",
					    p + 1);
				for (int i = 0; i < 3; i++) {
					char name[8];
					int c = sq + i * k;
					square_name(c % W, c / W, name);
					text_printf(out, " %s", name);
				}
				text_putc(out, '\n');
			}
		}
	}
}

/* The k-th set bit of m (k < bit_count(m)), from the low end: which half,
 * quarter and eighth of the word holds it, from their bit counts, then a
 * step through the few bits of that byte below it.  Inlined into BITS_HOT
 * functions, where the counts are POPCNT instructions, it beats bits.h's
 * bit_select: 1,791 instructions per 5x5 playout against 2,211
 * (scripts/tools/playout-cost checkertoe ""). */
BITS_INLINE int select_bit(uint64_t m, int k)
{
	int at = 0, c = bit_count(m & 0xffffffff);
	if (k >= c) {
		k -= c;
		at = 32;
	}
	c = bit_count(m >> at & 0xffff);
	if (k >= c) {
		k -= c;
		at += 16;
	}
	c = bit_count(m >> at & 0xff);
	if (k >= c) {
		k -= c;
		at += 8;
	}
	uint64_t b = m >> at;
	for (; k; k--)
		b &= b - 1;
	return at + bit_first(b);
}

/* The square of a random placement: the k-th (k uniform) of the n empty
 * squares of free_sq a checker may go on, counted from a1 rightwards and
 * upwards.  random_move and the playout draw it alike, so that the same
 * generator gives them the same games. */
BITS_INLINE int random_square(uint64_t free_sq, int n, struct rng *r)
{
	return select_bit(free_sq, (int)rng_below(r, (uint32_t)n));
}

/* A random exchange turn: uniform over moves(), every pair and pass. */
static struct move random_exchange(const struct state *s, struct rng *r)
{
	uint64_t mine, theirs;
	exchangeable(s, &mine, &theirs);
	uint32_t na = (uint32_t)bit_count(mine);
	uint32_t nb = (uint32_t)bit_count(theirs);
	uint32_t k = rng_below(r, na * nb + 1);
	if (k == na * nb)
		return (struct move){{0, 0, MV_PASS}};
	return (struct move){{(uint64_t)bit_select(mine, (int)(k / nb)),
			      (uint64_t)bit_select(theirs, (int)(k % nb)),
			      MV_EXCHANGE}};
}

BITS_HOT static int ct_random_move(const void *st, struct rng *r,
				   struct move *mv)
{
	const struct state *s = st;
	if (over(s))
		return -1;
	if (!placing(s)) {
		*mv = random_exchange(s, r);
		return 0;
	}
	uint64_t free_sq = allowed(s) & ~(s->men[0] | s->men[1]);
	if (!free_sq)
		return -1;
	int sq = random_square(free_sq, bit_count(free_sq), r);
	*mv = (struct move){{(uint64_t)sq}};
	return 0;
}

/* The squares at most 4 columns and 4 rows from sq: a float layout that
 * holds sq lies within them, so each checker placed narrows allowed() to
 * its part of them. */
static inline uint64_t near(int sq)
{
	int x = sq % W, y = sq / W;
	uint64_t cols = (0x1ffull << x >> 4 & 0xff) * 0x0101010101010101ull;
	return cols & rows(y > 4 ? y - 4 : 0, y < 3 ? y + 4 : 7);
}

/* The random playout: the very moves random_move would draw, from the
 * same generator in the same order, without a struct move or a call per
 * ply.  While placing, the squares a checker may go on live in a local
 * mask: all empty ones on a fixed board, and in a float game those of
 * allowed(), which each checker narrows to near() it. */
BITS_HOT static int ct_playout(void *st, struct rng *r, int max_plies)
{
	struct state *s = st;
	int n = 0;
	if (placing(s)) {
		int p = to_move(s) - 1, left = s->total - s->placed;
		uint64_t m[2] = {s->men[0], s->men[1]};
		uint64_t allow = allowed(s), free_sq = allow & ~(m[0] | m[1]);
		int nfree = bit_count(free_sq);
		if (left > max_plies)
			left = max_plies;
		if (!s->floating)
			for (; n < left; n++, p ^= 1) {
				uint64_t b =
					BIT(random_square(free_sq, nfree--, r));
				free_sq ^= b;
				m[p] |= b;
			}
		for (int first = !s->placed; n < left; n++, p ^= 1) {
			int sq = random_square(free_sq, nfree, r);
			m[p] |= BIT(sq);
			/* the first checker lifts the centre rule */
			allow = (first && !n ? ~(uint64_t)0 : allow) & near(sq);
			free_sq = allow & ~(m[0] | m[1]);
			nfree = bit_count(free_sq);
		}
		s->men[0] = m[0];
		s->men[1] = m[1];
		s->placed = (uint8_t)(s->placed + n);
		if (s->floating)
			set_box(s);
	}
	for (; n < max_plies && !over(s); n++) {
		struct move mv = random_exchange(s, r);
		ct_play(s, &mv);
	}
	return n;
}

/* ---- the judgement of new moves ---- */

/* The tic-tac-toes player p would count if every empty square a checker
 * may go on now went to either player with even odds: each line of three
 * with none of the other's checkers, halved for each empty square in it
 * (once all are placed, p's lines as they stand).  Each direction's
 * lines (LINE_STEP, LINE_START) as their three squares side by side in
 * three masks, whose bits tell lines of 0, 1, 2 and 3 empty squares
 * apart. */
static double expected_lines(const struct state *s, int p)
{
	uint64_t e = placing(s) ? allowed(s) & ~(s->men[0] | s->men[1]) : 0;
	uint64_t ok = s->men[p] | e;
	double sum = 0;
	for (int k = 0; k < 4; k++) {
		int d = LINE_STEP[k];
		uint64_t open = ok & ok >> d & ok >> 2 * d & LINE_START[k];
		uint64_t a = e & open, b = e >> d & open, c = e >> 2 * d & open;
		uint64_t three = a & b & c, odd = a ^ b ^ c, any = a | b | c;
		sum += bit_count(open & ~any) + bit_count(odd & ~three) / 2.0 +
		       bit_count(any & ~odd) / 4.0 + bit_count(three) / 8.0;
	}
	return sum;
}

/* Each player's chance from the difference of their expected
 * tic-tac-toes (expected_lines), through a logistic of slope
 * EXPECT_SLOPE a tic-tac-toe.  The search weighs it as the first value
 * of each new move only (ct_eval_after): on the 6x6 board at movetime
 * 100 it scored +29.6 Elo against the search without it (400 games;
 * slopes 0.5 and 2 did less, and implicit minimax lost: docs/strength.md,
 * "A first guess for checkertoe"). */
#define EXPECT_SLOPE 1.0

static void ct_evaluate(const void *st, double *value)
{
	const struct state *s = st;
	double d = expected_lines(s, 0) - expected_lines(s, 1);
	value[0] = num_logistic(EXPECT_SLOPE * d);
	value[1] = 1 - value[0];
}

/* Its weight in a new move's value: on the 6x6 board 15 visits, the most
 * a game may give it (+41.9 Elo against the search without it where 7
 * scored +33.1, 200 games each); elsewhere none.  On 5x5 the book and
 * the solver settle the plain game (every pair of 200 games split with
 * it as without it), so it buys nothing there; in the float game, whose
 * layout is not yet known, it scored 37.8% of 200 games, and with the
 * exchange on 6x6, whose last two turns swap checkers, 35.2%
 * (docs/strength.md, "A first guess for checkertoe"). */
static int ct_prior_visits(const void *st)
{
	const struct state *s = st;
	return s->size == 6 && !s->exchange ? 15 : -1;
}

/* Playouts run to the end, which counts the rows exactly: the plies the
 * game has left (placements, then the exchange turns). */
static int ct_eval_after(const void *st)
{
	const struct state *s = st;
	return s->total - s->placed + (s->exchange ? 2 - s->turns : 0);
}

/* ---- the key: one for every image of a position ----
 *
 * The 5x5 and 6x6 boards have the 8 symmetries of a square (4 rotations,
 * each with or without a mirror), which keep every line a line and the
 * rules as they are.  On the 8x8 float board the 8 symmetries of the big
 * board keep its four centre squares, so they hold too.  A float position
 * is moreover worth the same moved sideways (or up and down) as long as
 * the checkers span both centre columns (rows) before and after the move:
 * allowed() is then the box widened to 5 and never meets the board's edge,
 * and lines count inside the box wherever it lies.  So the key moves such
 * a position to the lowest place where it still spans them; a finished
 * float game becomes the 5x5 layout at a1.  Boards stay in their 8-wide
 * grid, a square board of side n at a1. */

/* Column x becomes 7 - x. */
static inline uint64_t mirror_cols(uint64_t m)
{
	m = (m >> 1 & 0x5555555555555555ull) | (m & 0x5555555555555555ull) << 1;
	m = (m >> 2 & 0x3333333333333333ull) | (m & 0x3333333333333333ull) << 2;
	return (m >> 4 & 0x0f0f0f0f0f0f0f0full) | (m & 0x0f0f0f0f0f0f0f0full)
							  << 4;
}

/* Square (x, y) becomes (y, x): three exchanges of blocks across the
 * diagonal, 4x4, then 2x2, then single squares. */
static inline uint64_t transpose(uint64_t m)
{
	uint64_t t = (m ^ m << 28) & 0x0f0f0f0f00000000ull;
	m ^= t ^ t >> 28;
	t = (m ^ m << 14) & 0x3333000033330000ull;
	m ^= t ^ t >> 14;
	t = (m ^ m << 7) & 0x5500550055005500ull;
	return m ^ t ^ t >> 7;
}

/* The 8 images of m on the n x n board at a1, always in the same order:
 * as it is and transposed, each also with the columns mirrored, and all
 * four also with the rows mirrored. */
static inline void images(uint64_t m, int n, uint64_t *out)
{
	out[0] = m;
	out[1] = transpose(m);
	out[2] = mirror_cols(out[0]) >> (W - n);
	out[3] = mirror_cols(out[1]) >> (W - n);
	for (int i = 0; i < 4; i++)
		out[4 + i] = __builtin_bswap64(out[i]) >> W * (W - n);
}

/* A float position moved as low and as far left as it stays worth the
 * same (see above); w[0] | w[1] are all the checkers. */
static void settle(uint64_t *w, int nw)
{
	int b[4];
	if (!(w[0] | w[1]))
		return;
	span(w[0] | w[1], b);
	int shift = (b[0] <= 3 && b[1] >= 4 ? b[1] - 4 : 0) +
		    (b[2] <= 3 && b[3] >= 4 ? W * (b[3] - 4) : 0);
	for (int i = 0; i < nw; i++)
		w[i] >>= shift;
}

/* splitmix64's finaliser: every bit of the key depends on every input
 * bit, so a table may index by its low bits. */
static inline uint64_t mix(uint64_t z)
{
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ z >> 27) * 0x94d049bb133111ebull;
	return z ^ z >> 31;
}

/* The smallest image of (checkers of player 1, of player 2, locked
 * squares), hashed with the variant, the exchange turns and the mover (the
 * starting player matters only through whose turn it is). */
static uint64_t ct_key(const void *st)
{
	const struct state *s = st;
	uint64_t x[8], o[8], l[8] = {0};
	uint64_t best[3] = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0};
	images(s->men[0], s->size, x);
	images(s->men[1], s->size, o);
	if (s->locked)
		images(s->locked, s->size, l);
	for (int g = 0; g < 8; g++) {
		uint64_t w[3] = {x[g], o[g], l[g]};
		if (s->floating)
			settle(w, 3);
		if (w[0] < best[0] ||
		    (w[0] == best[0] &&
		     (w[1] < best[1] || (w[1] == best[1] && w[2] < best[2]))))
			memcpy(best, w, sizeof best);
	}
	uint64_t game = (uint64_t)to_move(s) | (uint64_t)s->turns << 2 |
			(uint64_t)s->size << 4 | (uint64_t)s->floating << 8 |
			(uint64_t)s->exchange << 9;
	/* hashed apart from the boards, whose low bits it would meet */
	return mix(mix(mix(mix(game) ^ best[0]) ^ best[1]) ^ best[2]);
}

static const struct game_option_spec ct_options[] = {
	{.key = "first", .type = OPT_INT, .min = 1, .max = 2},
	{.key = "size", .type = OPT_INT, .def = "5", .min = 5, .max = 6},
	{.key = "float", .type = OPT_BOOL, .def = "0", .requires = "size=5"},
	{.key = "exchange", .type = OPT_BOOL, .def = "0"},
	{0},
};

/* Its levels 2 to 8 (docs/strength.md, "Levels"). */
static const struct game_level ct_levels[GAME_LEVELS] = {
	{0, 5, 3},    {0, 10, 1.75}, {0, 17, 1.25},  {0, 27, 0.97},
	{0, 42, 0.8}, {0, 62, 0.7},  {0, 105, 0.47},
};

static const struct game_search ct_search = {
	.playout = ct_playout,
	.evaluate = ct_evaluate,
	.eval_after = ct_eval_after,
	.prior_visits = ct_prior_visits,
	.levels = ct_levels,
};

const struct game game_checkertoe = {
	.name = "checkertoe",
	.title = "Tic-Tac-Toe On A Checkerboard",
	.summary = "2 players; options first=1|2 size=5|6 float exchange",
	.state_size = sizeof(struct state),
	/* exchange on the 6x6 board: 18 x 18 pairs and pass */
	.max_moves = 18 * 18 + 1,
	.options = ct_options,
	.marks = "XO",
	.init = ct_init,
	.describe = ct_describe,
	.position = ct_position,
	.players = ct_players,
	.status = ct_status,
	.moves = ct_moves,
	.play = ct_play,
	.parse = ct_parse,
	.format = ct_format,
	.score = ct_score,
	.show = ct_show,
	.geometry = ct_geometry,
	.contents = ct_contents,
	.tags = "dead locked",
	.random_move = ct_random_move,
	.key = ct_key,
	.sides = ct_sides,
	.turn = ct_turn,
	.units = ct_units,
	.search = &ct_search,
};
