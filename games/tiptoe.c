/* tiptoe.c: Tiptoe, by Kanare Kato.
 *
 * Two players add pieces of their colour in turn; the player who cannot add
 * one loses.  After a free set-up (White one piece, Black two, White one), a
 * new piece must land exactly S squares away, in a straight unblocked line,
 * from some piece of the mover's whose group holds S pieces.  Variants: the
 * diagonal rule (links and steps in 8 directions) and a hexagonal board (6).
 *
 * Every board lives in a grid with a frame: with n squares a row (2N - 1
 * for a hexagon of side N) and a stride of n + 1, square (x, y) is cell
 * (y + 1) * (n + 1) + x + 1; one column of frame between rows and a row
 * below and above hold OFF, as do the corners outside a hexagon.  A walk
 * along a line therefore stops at the first cell that is not EMPTY without
 * any bounds test, and a small board uses only the first cells of the
 * grid.  Along a row the empty cells are a run of bits of one cell set,
 * and along a column of another, kept by columns, so those runs are
 * counted by a shift and a count of zeros, not walked (whose ends are
 * hard to predict: on 8x8 a search iteration takes about a sixth less
 * time so, by `bench_ai iterations tiptoe "" 600000`).  A hex cell (q, r)
 * is square (q + N - 1, r + N - 1) of the (2N - 1)-wide grid, so its name is
 * that square's name, as protocol.md says.
 *
 * The state keeps what moves() and status() read ready, and each
 * placement changes only what it touches.  One byte per cell holds its
 * colour and, for a piece, the size of its group (a size of n or more
 * reaches nothing, so sizes stop at the cap n).  Each player's targets
 * (the cells it may step to) are a cell set with a count, and reach[]
 * counts for each cell and player the lines along which a piece reaches
 * it: a cell is a target while its count is not 0.  Along a line only the
 * first piece seen from the cell can reach it, so a count is at most the
 * number of lines, 8.  A placement on t
 *   - cuts the free run of the first piece on each side of t along each
 *     line, which loses the target its run no longer covers, if any;
 *   - joins t and the groups of its colour it touches, whose new size
 *     moves each of their pieces' targets (a walk of at most that size
 *     along each line).
 * Both are a function of the position, not of the order the pieces came
 * in, so the whole state is too: equal positions have equal bytes. */
#include "game.h"

#include <stdio.h>
#include <string.h>

#include "util/bits.h"

#define NCELL 757                 /* 26 squares a row: 28 rows of 27 + 1 */
#define NWORD ((NCELL + 63) / 64) /* 64-bit words of a cell set */
#define SETUP 4                   /* pieces placed freely before stepping */
#define MAX_SIDE 13               /* largest hex side: 25 cells across */
#define MAX_JOIN 256 /* pieces of uncapped groups one placement joins */

/* A cell byte: colour in the low 2 bits, group size above them.  OFF has
 * size 0, so it never seems to reach anything. */
enum { EMPTY, WHITE, BLACK, OFF };
#define COLOUR(b) ((b)&3)
#define GSIZE(b) ((b) >> 2)
/* A piece a placement is joining: no colour's, and no line's end */
#define JOINING (OFF | 63 << 2)

struct state {
	uint8_t cell[NCELL];  /* EMPTY, OFF, or a colour | group size << 2 */
	uint8_t reach[NCELL]; /* lines reaching the cell: White's count in
				 the low 4 bits, Black's in the high */
	uint64_t empty[NWORD + 1];  /* the empty cells (a word more: see
				       run_up) */
	uint64_t column[NWORD + 1]; /* the same in the grid's transpose,
				       square (x, y) at its cell (y, x) */
	uint64_t target[2][NWORD];  /* White's and Black's targets */
	uint16_t ntarget[2];        /* their counts */
	uint16_t placed;            /* pieces on the board */
	uint16_t squares;           /* squares of the board */
	int16_t dir[8];   /* line directions as cell offsets, each followed by
			     its opposite */
	uint8_t nd;       /* directions: 4, 8 (diagonal) or 6 (hex) */
	uint8_t stride;   /* cells from a square to the one above it */
	uint8_t nword;    /* words of a cell set this board uses */
	uint8_t cap;      /* group sizes stop here: the squares of a row */
	uint8_t size;     /* square: the side; hex: cells per edge */
	uint8_t diagonal; /* links and steps along diagonals too */
	uint8_t hex;      /* the hexagonal board */
	uint8_t winner;   /* 0 while the game runs */
};

static int cell_of(const struct state *s, int x, int y)
{
	return (y + 1) * s->stride + x + 1;
}

/* Width (and height) of the grid of squares the board uses. */
static int span(const struct state *s)
{
	return s->hex ? 2 * s->size - 1 : s->size;
}

/* The cells of the grid the board uses: its rows and the frame's rows
 * below and above, and the frame cell past the top row's last. */
static int used_cells(const struct state *s)
{
	return (span(s) + 2) * s->stride + 1;
}

static int is_setup(const struct state *s)
{
	return s->placed < SETUP;
}

/* Players by placement: 1 2 2 1, then 1 2 1 2 ... */
static int to_move(const struct state *s)
{
	int k = s->placed;
	if (k < SETUP)
		return (k == 1 || k == 2) ? 2 : 1;
	return k % 2 == 0 ? 1 : 2;
}

static int has(const uint64_t *set, int c)
{
	return set[c / 64] >> (c % 64) & 1;
}

/* The cells the player to move may place on, and how many (none once the
 * game is over: the mover lost for want of a target). */
static const uint64_t *legal(const struct state *s, int *n)
{
	if (is_setup(s)) {
		*n = s->squares - s->placed;
		return s->empty;
	}
	int p = to_move(s) - 1;
	*n = s->ntarget[p];
	return s->target[p];
}

/* One more line of player p's reaches cell c. */
static inline void gain(struct state *s, int p, int c)
{
	/* without branches: whether c was a target already is hard to
	 * predict (a branch here cost 3-4% of a search on 8x8) */
	int shift = 4 * (p - 1), first = !(s->reach[c] >> shift & 15);
	s->target[p - 1][(unsigned)c / 64] |= (uint64_t)first << (c & 63);
	s->ntarget[p - 1] = (uint16_t)(s->ntarget[p - 1] + first);
	s->reach[c] = (uint8_t)(s->reach[c] + (1 << shift));
}

/* One line of player p's that reached cell c no longer does. */
static inline void lose(struct state *s, int p, int c)
{
	int shift = 4 * (p - 1);
	s->reach[c] = (uint8_t)(s->reach[c] - (1 << shift));
	int last = !(s->reach[c] >> shift & 15);
	s->target[p - 1][(unsigned)c / 64] &= ~((uint64_t)last << (c & 63));
	s->ntarget[p - 1] = (uint16_t)(s->ntarget[p - 1] - last);
}

/* The piece (or frame) on cell b looked along direction d over k - 1
 * empty cells to the new piece, and past it over a - 1 more: its run of
 * k + a - 1 empty cells is now k - 1, so the target of a group of size S
 * with k <= S < k + a is gone. */
static void cut(struct state *s, int b, int d, int k, int a)
{
	int v = s->cell[b], size = GSIZE(v);
	if (size >= k && size < k + a)
		lose(s, COLOUR(v), b + size * d);
}

/* The set cells of set right above cell b, in a row: b + 1, b + 2, ...
 * A run ends within 64 cells, at the frame at the latest, so a window of
 * 64 bits from b + 1 holds it: the set's word and the next (a set has one
 * word more than the cells need, so that the next is always there). */
static inline int run_up(const uint64_t *set, int b)
{
	unsigned c = (unsigned)b + 1, w = c / 64, o = c % 64;
	uint64_t x = set[w] >> o;
	if (o)
		x |= set[w + 1] << (64 - o);
	return __builtin_ctzll(~x);
}

/* The set cells of set right below cell b, in a row: b - 1, b - 2, ...
 * (in the first word a run ends at the frame row, before bit 0). */
static inline int run_down(const uint64_t *set, int b)
{
	unsigned c = (unsigned)b - 1, w = c / 64, o = c % 64;
	uint64_t x = set[w] << (63 - o);
	if (o < 63 && w)
		x |= set[w - 1] >> (o + 1);
	return __builtin_clzll(~x);
}

/* Cell c of the grid in the grid's transpose (a board's grid is square),
 * where struct state's column set has it. */
static inline int transposed(const struct state *s, int c)
{
	return c % s->stride * s->stride + c / s->stride;
}

/* The empty cells from cell c along direction j, up to the first that is
 * not, by a walk (the diagonals). */
static int walk(const struct state *s, int c, int j)
{
	int d = s->dir[j], k = 0;
	for (const uint8_t *q = s->cell + c + d; *q == EMPTY; q += d)
		k++;
	return k;
}

/* The same along any line: along a row and a column from the bit sets,
 * cc being c's cell in the transpose (put and join ask for several lines
 * of one cell). */
BITS_INLINE int free_run(const struct state *s, int c, int cc, int j)
{
	switch (j) {
	case 0:
		return run_up(s->empty, c);
	case 1:
		return run_down(s->empty, c);
	case 2:
		return run_up(s->column, cc);
	case 3:
		return run_down(s->column, cc);
	}
	return walk(s, c, j);
}

/* The new piece on t (marked JOINING, with free runs trun[] along the
 * lines) joins the groups of colour p it touches: a flood fill over the
 * pieces of groups below the cap finds them all (they touch t or each
 * other); a capped group touching t caps the whole new group, which then
 * reaches nothing.  Each joined piece's targets move from its old size to
 * the new one.  The fill measures each piece's free runs as it goes, as
 * far as the new size can be (the sizes around t added up). */
static void join(struct state *s, int t, int p, const int *trun)
{
	uint16_t list[MAX_JOIN];
	uint8_t old[MAX_JOIN], run[MAX_JOIN][8];
	const int16_t *dir = s->dir;
	int n = 1, capped = 0, cap = s->cap, nd = s->nd, far = 1;
	for (int j = 0; j < nd; j++) {
		int u = t + dir[j], v = s->cell[u];
		if (trun[j] || COLOUR(v) != p)
			continue;
		if (GSIZE(v) == cap) {
			capped = 1;
			continue;
		}
		far += GSIZE(v);
		old[n] = (uint8_t)GSIZE(v);
		list[n++] = (uint16_t)u;
		s->cell[u] = JOINING;
	}
	far = capped || far > cap ? cap : far;
	for (int i = 1; i < n; i++) {
		int cc = transposed(s, list[i]);
		for (int j = 0; j < nd; j++) {
			int d = dir[j], u = list[i] + d, v = s->cell[u];
			if (v == EMPTY) {
				int k = free_run(s, list[i], cc, j);
				run[i][j] = (uint8_t)(k < far ? k : far);
				continue;
			}
			run[i][j] = 0;
			if (COLOUR(v) != p) /* JOINING is not p */
				continue;
			if (GSIZE(v) == cap) {
				capped = 1;
				continue;
			}
			old[n] = (uint8_t)GSIZE(v);
			list[n++] = (uint16_t)u;
			s->cell[u] = JOINING;
		}
	}
	int size = capped || n >= cap ? cap : n;
	if (size < cap)
		for (int j = 0; j < nd; j++)
			if (trun[j] >= size)
				gain(s, p, t + size * dir[j]);
	s->cell[t] = (uint8_t)(p | size << 2);
	for (int i = 1; i < n; i++) {
		int c = list[i], was = old[i];
		for (int j = 0; j < nd; j++) {
			int k = run[i][j];
			if (k >= was)
				lose(s, p, c + was * dir[j]);
			if (size < cap && k >= size)
				gain(s, p, c + size * dir[j]);
		}
		s->cell[c] = (uint8_t)(p | size << 2);
	}
}

/* Places a piece of player p on the empty cell t: the runs through t are
 * cut, then t joins its groups.  The set-up and the turn are play's. */
static void put(struct state *s, int t, int p)
{
	int run[8], tc = transposed(s, t);
	s->empty[(unsigned)t / 64] &= ~((uint64_t)1 << (t & 63));
	s->column[(unsigned)tc / 64] &= ~((uint64_t)1 << (tc & 63));
	s->cell[t] = JOINING;
	/* the four lines every board has, spelled out: through free_run's
	 * switch a random playout on 8x8 took 31,478 instructions, 2.01
	 * times its yardstick's, and 29,426 so (scripts/bench) */
	run[0] = run_up(s->empty, t);
	run[1] = run_down(s->empty, t);
	run[2] = run_up(s->column, tc);
	run[3] = run_down(s->column, tc);
	for (int j = 4; j < s->nd; j++)
		run[j] = walk(s, t, j);
	for (int i = 0; i < s->nd; i += 2) {
		int d = s->dir[i], a = run[i] + 1, k = run[i + 1] + 1;
		cut(s, t - k * d, d, k, a);
		cut(s, t + a * d, -d, a, k);
	}
	join(s, t, p, run);
	s->placed++;
}

/* After a placement: the set-up always has room (7 cells or more); a
 * stepping player without a target loses at once. */
static void judge(struct state *s)
{
	if (!is_setup(s) && !s->ntarget[to_move(s) - 1])
		s->winner = (uint8_t)(3 - to_move(s));
}

/* The grid of a board whose size, diagonal and hex are set: the frame,
 * the lines, and every square empty. */
static void lay_out(struct state *s)
{
	int n = span(s), w = n + 1, m = s->size - 1;
	/* each direction followed by its opposite; hex: axial (+-1, 0),
	 * (0, +-1), (+1, -1), (-1, +1) */
	const int d[8] = {1, -1, w, -w, w + 1, -w - 1, w - 1, 1 - w};
	s->stride = (uint8_t)w;
	s->cap = (uint8_t)n;
	s->nd = s->hex ? 6 : s->diagonal ? 8 : 4;
	for (int i = 0; i < s->nd; i++)
		s->dir[i] = (int16_t)d[s->hex && i >= 4 ? i + 2 : i];
	s->nword = (uint8_t)((used_cells(s) + 63) / 64);
	memset(s->cell, OFF, sizeof s->cell);
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			int q = x - m, r = y - m, c = cell_of(s, x, y);
			if (s->hex && (q + r > m || q + r < -m))
				continue;
			s->cell[c] = EMPTY;
			s->empty[c / 64] |= (uint64_t)1 << (c % 64);
			int cc = cell_of(s, y, x);
			s->column[cc / 64] |= (uint64_t)1 << (cc % 64);
			s->squares++;
		}
}

/* The board's shape from the options: size, diagonal, hex. */
static int read_shape(struct state *s, struct game_options *opt, char *err)
{
	int diagonal = 0, hex = 0;
	if (opt_str(opt, "first"))
		return game_fail(err, "tiptoe has no first= option: White "
				      "(player 1) always starts");
	if (opt_flag(opt, "diagonal", &diagonal, err) < 0 ||
	    opt_flag(opt, "hex", &hex, err) < 0)
		return -1;
	if (hex && diagonal)
		return game_fail(err, "hex and diagonal cannot be combined: "
				      "the hexagonal board has no diagonals");
	long size = 8; /* the default, also the side of a hexagon */
	if (hex) {
		if (opt_int(opt, "size", 2, MAX_SIDE, &size, err) < 0)
			return game_fail(err,
					 "with hex, size is the side of the "
					 "hexagon: a number from 2 to %d",
					 MAX_SIDE);
	} else if (opt_int(opt, "size", 4, 26, &size, err) < 0) {
		return -1;
	}
	s->size = (uint8_t)size;
	s->diagonal = (uint8_t)diagonal;
	s->hex = (uint8_t)hex;
	lay_out(s);
	return 0;
}

/* The board's name in messages: "the 8x8 board". */
static const char *board_name(const struct state *s, char *buf, size_t n)
{
	if (s->hex)
		snprintf(buf, n, "the hexagonal board of side %d", s->size);
	else
		snprintf(buf, n, "the %dx%d board", s->size, s->size);
	return buf;
}

/* Whether w White and b Black pieces are what some number of placements
 * leaves: players by placement 1 2 2 1 1 2 1 2 ... */
static int counts_fit(int w, int b)
{
	return w == b || (w == b + 1 && w + b != 3) || (w == 1 && b == 2);
}

/* position's board=: rows from the top down, separated by '/', each row
 * its cells from the left, o White, x Black, . empty.  Places the pieces
 * in any order (the state does not depend on it). */
static int read_board(struct state *s, const char *text, char *err)
{
	char where[48];
	int n = span(s), count[2] = {0, 0};
	board_name(s, where, sizeof where);
	int rows = 1;
	for (const char *p = text; *p; p++)
		rows += *p == '/';
	if (rows != n)
		return game_fail(err,
				 "board: %d row%s, but %s has %d (write them "
				 "from the top down, separated by /)",
				 rows, rows == 1 ? "" : "s", where, n);
	const char *p = text;
	for (int y = n - 1; y >= 0; y--, p++) {
		int cells = 0, want = 0;
		for (int x = 0; x < n; x++)
			want += s->cell[cell_of(s, x, y)] != OFF;
		for (; *p && *p != '/'; p++, cells++) {
			if (*p != 'o' && *p != 'x' && *p != '.')
				return game_fail(
					err,
					"board: '%c' in row %d is no cell: "
					"write o for White, x for Black, . "
					"for empty",
					*p >= ' ' && *p < 127 ? *p : '?',
					y + 1);
			if (cells >= want || *p == '.')
				continue;
			int x = 0, k = cells;
			while (s->cell[cell_of(s, x, y)] == OFF || k-- > 0)
				x++;
			put(s, cell_of(s, x, y), *p == 'o' ? WHITE : BLACK);
			count[*p == 'x']++;
		}
		if (cells != want)
			return game_fail(err,
					 "board: row %d has %d cells, but on "
					 "%s it has %d",
					 y + 1, cells, where, want);
	}
	if (!counts_fit(count[0], count[1]))
		return game_fail(
			err,
			"board: %d White and %d Black pieces, which no turn "
			"order leaves: White places first, Black twice, White "
			"twice, then they alternate, so White has as many "
			"pieces as Black or one more (or 1 and 2 after the "
			"third set-up piece)",
			count[0], count[1]);
	judge(s);
	return 0;
}

static int tt_init(void *st, struct game_options *opt, uint64_t seed, char *err)
{
	struct state *s = st;
	(void)seed; /* nothing in Tiptoe is random */
	if (read_shape(s, opt, err) < 0)
		return -1;
	const char *board = opt_str(opt, "board");
	return board ? read_board(s, board, err) : 0;
}

static void tt_describe(const void *st, struct text *out)
{
	const struct state *s = st;
	text_printf(out, "size=%d diagonal=%d hex=%d", s->size, s->diagonal,
		    s->hex);
}

/* The set-up options and board=, as read_board reads it. */
static void tt_position(const void *st, struct text *out)
{
	const struct state *s = st;
	static const char mark[] = {'.', 'o', 'x'};
	tt_describe(st, out);
	text_puts(out, " board=");
	for (int y = span(s) - 1; y >= 0; y--) {
		for (int x = 0; x < span(s); x++) {
			int v = s->cell[cell_of(s, x, y)];
			if (v != OFF)
				text_putc(out, mark[COLOUR(v)]);
		}
		if (y > 0)
			text_putc(out, '/');
	}
}

/* A coordinate for geometry: at most 4 decimals, no trailing zeros. */
static void coord(struct text *out, double v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.4f", v);
	size_t n = strlen(buf);
	while (buf[n - 1] == '0')
		n--;
	if (buf[n - 1] == '.')
		n--;
	buf[n] = '\0';
	text_printf(out, " %s", strcmp(buf, "-0") ? buf : "0");
}

/* Every cell with its centre; then the shape and how cells link. */
static void tt_geometry(const void *st, struct text *out)
{
	const struct state *s = st;
	int m = s->size - 1;
	for (int y = 0; y < span(s); y++)
		for (int x = 0; x < span(s); x++) {
			if (s->cell[cell_of(s, x, y)] == OFF)
				continue;
			char name[8];
			square_name(x, y, name);
			text_printf(out, "cell %s", name);
			if (s->hex) { /* axial (q, r) = (x - m, y - m) */
				coord(out, (x - m) + (y - m) / 2.0);
				coord(out, (y - m) * 0.86602540378443865);
			} else {
				coord(out, x);
				coord(out, y);
			}
			text_putc(out, '\n');
		}
	text_printf(out, "shape %s %d\nlinks %s\n", s->hex ? "hex" : "square",
		    s->size,
		    s->hex        ? "hex"
		    : s->diagonal ? "diagonal"
				  : "orthogonal");
}

/* White's pieces (player 1), Black's, cell by cell as geometry lists
 * them. */
static void tt_contents(const void *st, struct game_contents *out)
{
	const struct state *s = st;
	struct game_site *site = out->site;
	for (int y = 0; y < span(s); y++)
		for (int x = 0; x < span(s); x++) {
			uint8_t v = s->cell[cell_of(s, x, y)];
			if (v == OFF)
				continue;
			if (v != EMPTY) {
				site->owner = COLOUR(v) == WHITE ? 1 : 2;
				site->count = 1;
			}
			site++;
		}
}

static int tt_players(const void *st)
{
	(void)st;
	return 2;
}

static struct game_status tt_status(const void *st)
{
	const struct state *s = st;
	if (s->winner)
		return (struct game_status){GAME_OVER, s->winner};
	return (struct game_status){GAME_PLAY, to_move(s)};
}

static int tt_moves(const void *st, struct move *out)
{
	const struct state *s = st;
	int n;
	const uint64_t *set = legal(s, &n);
	if (n == 0)
		return 0;
	n = 0;
	for (int w = 0; w < s->nword; w++)
		for (uint64_t b = set[w]; b; b &= b - 1)
			out[n++] = (struct move){
				{(uint64_t)(w * 64 + bit_first(b))}};
	return n;
}

static void tt_play(void *st, const struct move *mv)
{
	struct state *s = st;
	put(s, (int)mv->w[0], to_move(s));
	judge(s);
}

/* The search copies a state at every iteration and for every move it
 * looks at; the arrays are sized for the biggest board, and an 8x8 board
 * uses 91 of their 757 cells, so only the cells, words and fields in use
 * are copied (on 8x8, 3% fewer instructions a search iteration, by
 * callgrind over `bench_ai iterations tiptoe "" 20000`).  A board that
 * uses most of them (hex size=13: 703) is left to the search's copy of
 * the whole: copied here in five pieces it took 16,967 instructions a
 * search iteration against 16,239, and in two 16,630, its iterations a
 * second up to 5% fewer (`bench_ai rate`). */
static int tt_copy(void *dst, const void *src)
{
	struct state *d = dst;
	const struct state *s = src;
	size_t nc = (size_t)used_cells(s), nw = s->nword * sizeof(uint64_t);
	if (2 * nc > NCELL)
		return -1;
	memcpy(d->cell, s->cell, nc);
	memcpy(d->reach, s->reach, nc);
	/* (with the word after them, which run_up reads) */
	memcpy(d->empty, s->empty, nw + sizeof(uint64_t));
	memcpy(d->column, s->column, nw + sizeof(uint64_t));
	memcpy(d->target[0], s->target[0], nw);
	memcpy(d->target[1], s->target[1], nw);
	memcpy(&d->ntarget, &s->ntarget,
	       sizeof *s - offsetof(struct state, ntarget));
	return 0;
}

static const char *colour(int p)
{
	return p == 1 ? "White" : "Black";
}

static int tt_parse(const void *st, const char *text, struct move *mv,
		    char *err)
{
	const struct state *s = st;
	int x, y;
	const char *p = text;
	char where[48];
	board_name(s, where, sizeof where);
	/* echo the text only once it has the shape of a square name */
	if (square_read(&p, &x, &y) < 0 || *p)
		return game_fail(err, "not a square name (write a column "
				      "letter and a row number, as d4)");
	if (x >= span(s) || y < 0 || y >= span(s) ||
	    s->cell[cell_of(s, x, y)] == OFF)
		return game_fail(err, "%s is not on %s", text, where);
	int c = cell_of(s, x, y), who = to_move(s);
	if (s->cell[c] != EMPTY)
		return game_fail(err, "%s is occupied", text);
	if (!is_setup(s) && !has(s->target[who - 1], c))
		return game_fail(err,
				 "no piece of %s's reaches %s (a piece steps "
				 "exactly as many squares as its group has "
				 "pieces, over empty squares only)",
				 colour(who), text);
	*mv = (struct move){{(uint64_t)c}};
	return 0;
}

static void tt_format(const void *st, const struct move *mv, char *buf)
{
	const struct state *s = st;
	int c = (int)mv->w[0];
	square_name(c % s->stride - 1, c / s->stride - 1, buf);
}

static void tt_score(const void *st, int *points)
{
	const struct state *s = st;
	points[0] = s->winner == 1;
	points[1] = s->winner == 2;
}

/* The mark of cell c: a piece, a place the mover may use, or empty. */
static char mark(const struct state *s, const uint64_t *legal, int c)
{
	if (s->cell[c] != EMPTY && s->cell[c] != OFF)
		return COLOUR(s->cell[c]) == WHITE ? 'O' : 'X';
	if (!is_setup(s) && has(legal, c))
		return '*';
	return '.';
}

/* Square boards: rows from the top, column letters below. */
static void show_square(const struct state *s, const uint64_t *legal,
			struct text *out)
{
	for (int y = s->size - 1; y >= 0; y--) {
		text_printf(out, "%2d ", y + 1);
		for (int x = 0; x < s->size; x++)
			text_printf(out, " %c",
				    mark(s, legal, cell_of(s, x, y)));
		text_putc(out, '\n');
	}
	text_puts(out, "   ");
	for (int x = 0; x < s->size; x++)
		text_printf(out, " %c", 'a' + x);
	text_putc(out, '\n');
}

/* Hexagonal boards: each row of cells (one row number) across, every row
 * set half a cell right of the row below, so the six neighbours of a cell
 * are its two neighbours in its row and two in each of the rows above and
 * below.  The cells of one column letter then run along a slant up to the
 * right; each column's letter stands at its upper end, above the top row
 * or past the end of a row on the upper right edge. */
static void show_hex(const struct state *s, const uint64_t *legal,
		     struct text *out)
{
	int m = s->size - 1, width = 4 * m + 3;
	char line[4 * MAX_SIDE + 8];
	/* cell (q, r) is drawn at column 2q + r + 2m; a letter one row above
	 * its column's top cell */
	for (int r = m + 1; r >= -m; r--) {
		memset(line, ' ', (size_t)width);
		for (int q = -m; q <= m; q++) {
			int col = 2 * q + r + 2 * m, top = q <= 0 ? m : m - q;
			if (r == top + 1)
				line[col] = (char)('a' + q + m);
			else if (r <= top && q + r >= -m)
				line[col] = mark(s, legal,
						 cell_of(s, q + m, r + m));
		}
		int n = width;
		while (n > 0 && line[n - 1] == ' ')
			n--;
		/* two spaces after the row number, as on square boards */
		if (r > m)
			text_puts(out, "    ");
		else
			text_printf(out, "%2d  ", r + m + 1);
		text_put(out, line, (size_t)n);
		text_putc(out, '\n');
	}
}

static void tt_show(const void *st, struct text *out)
{
	const struct state *s = st;
	int n;
	const uint64_t *set = legal(s, &n);
	if (s->hex)
		show_hex(s, set, out);
	else
		show_square(s, set, out);
	int count[2] = {0, 0};
	for (int c = 0; c < used_cells(s); c++)
		if (s->cell[c] != EMPTY && s->cell[c] != OFF)
			count[COLOUR(s->cell[c]) - 1]++;
	if (s->hex)
		text_puts(out, "each column runs from its letter down to the "
			       "left\n");
	text_printf(out, "O White (player 1): %d piece%s\n", count[0],
		    count[0] == 1 ? "" : "s");
	text_printf(out, "X Black (player 2): %d piece%s\n", count[1],
		    count[1] == 1 ? "" : "s");
	if (s->winner) {
		text_printf(out,
			    "game over: %s cannot place, %s (player %d) wins\n",
			    colour(3 - s->winner), colour(s->winner),
			    s->winner);
		return;
	}
	int p = to_move(s);
	if (is_setup(s))
		text_printf(
			out,
			"set-up piece %d of %d: %s (player %d) places on any "
			"empty %s\n",
			s->placed + 1, SETUP, colour(p), p,
			s->hex ? "cell" : "square");
	else
		text_printf(out,
			    "%s (player %d) to place: %d places, marked *\n",
			    colour(p), p, n);
}

/* ---- for frontends (protocol.md, "Discovery") ---- */

static void tt_sides(const void *st, struct game_sides *out)
{
	(void)st;
	*out = (struct game_sides){
		.sides = 2,
		.name = {"white", "black"},
		.colour = {"white", "black"},
	};
}

/* The set-up's four free placements are counted (White 1, Black 2 and 3,
 * White 4), so a GUI can say which is due; then every turn is a step. */
static void tt_turn(const void *st, struct game_turn *out)
{
	const struct state *s = st;
	const char *cell = s->hex ? "cell" : "square";
	if (s->winner) {
		out->phase = "over";
		snprintf(out->prompt, sizeof out->prompt,
			 "game over: %s cannot place, %s (player %d) wins",
			 colour(3 - s->winner), colour(s->winner), s->winner);
		return;
	}
	int p = to_move(s);
	if (is_setup(s)) {
		out->phase = "setup";
		out->step = s->placed + 1;
		out->steps = SETUP;
		snprintf(out->prompt, sizeof out->prompt,
			 "%s (player %d): place set-up piece %d of %d on any "
			 "empty %s",
			 colour(p), p, out->step, SETUP, cell);
		return;
	}
	out->phase = "place";
	snprintf(out->prompt, sizeof out->prompt,
		 "%s (player %d): place a piece exactly as many %ss from "
		 "one of yours as its group has pieces",
		 colour(p), p, cell);
}

/* No points: the winner's one unit says who could not place. */
static void tt_units(const void *st, struct text *out)
{
	const struct state *s = st;
	if (s->winner)
		text_printf(out, "unit win player %d points 1\n", s->winner);
}

/* The k-th cell (from 0) of a set of nword words. */
BITS_INLINE int nth_cell(const uint64_t *set, int nword, int k)
{
	for (int w = 0; w < nword; w++) {
		int here = bit_count(set[w]);
		if (k < here)
			return 64 * w + bit_select(set[w], k);
		k -= here;
	}
	return -1; /* not reached: k is below the set's count */
}

BITS_HOT static int tt_random_move(const void *st, struct rng *r,
				   struct move *mv)
{
	const struct state *s = st;
	int n;
	const uint64_t *set = legal(s, &n);
	if (n == 0)
		return -1;
	int k = (int)rng_below(r, (uint32_t)n);
	*mv = (struct move){{(uint64_t)nth_cell(set, s->nword, k)}};
	return 0;
}

/* A uniformly random legal placement each ply, as random_move draws it
 * (so a playout here and the search's own loop play the same games). */
BITS_HOT static int tt_playout(void *st, struct rng *r, int max_plies)
{
	struct state *s = st;
	int plies = 0;
	for (; plies < max_plies && !s->winner; plies++) {
		int n;
		const uint64_t *set = legal(s, &n);
		int k = (int)rng_below(r, (uint32_t)n);
		put(s, nth_cell(set, s->nword, k), to_move(s));
		judge(s);
	}
	return plies;
}

/* The learned evaluation (learn.h), on boards without the diagonal rule,
 * of any size: an n-tuple network over each 2x2 square of the board (on
 * the hexagonal board each rhombus of two triangles of neighbours), its
 * cells seen from the player to act (empty, and which sides reach it; a
 * piece of either side), with one table for the squares inside the board
 * and one for each way they touch its edges and corners (so one table
 * plays on every size), and a table of both sides' counts of targets by
 * the eighth of the board filled, over a first guess made by hand (the
 * cubes, below).  The diagonal rule judges by the cubes alone. */
/* where a 2x2 square lies (inside, at an edge, a corner), or which of a
 * rhombus's cells lie on the rim */
#define LCLASS 9
#define LCNT 32 /* target counts told apart: 0 to 30, and 31 or more */
enum {
	F_SQ = 0,                     /* each 2x2 square: 6^4 codes */
	F_CNT = F_SQ + LCLASS * 1296, /* both counts, by eighths filled */
	F_SIZE = F_CNT + 8 * LCNT * LCNT,
};
#define F_MAX (25 * 25 + 1) /* the 2x2 squares of 26x26, and the counts */
#define BYTES(x) (0x0101010101010101ULL * (x))

/* Room to move decides the game, so each side's count of places it could
 * use now is the estimate, through a sharp curve: a^3 / (a^3 + b^3).  At
 * movetime 50, both seats: with the old, slow targets, squares won 62% of
 * 80 games on 12x12 and 55% of 160 on 8x8 against the plain share.  Since
 * targets are kept up to date (2.3x fewer instructions a search
 * iteration), against squares (scripts/tournament, seed 2026): cubes won
 * 57.5% of 200 games on 8x8 (Elo +52, 95% interval +4 to +103) and 52% of
 * 100 on 12x12; powers 4 and 6 won 53% and 52% of 200 on 8x8; a bonus of
 * one place for the mover 44.5%, for the other side 43.5%, and counting
 * places both sides reach as half 50.5%.  Without any estimate, the
 * search won only 35% on 8x8 and 3% on 14x14 against the plain share.
 * As log odds, 3 ln(a / b): 3072 ln k, rounded, for k = 1 to 65, is that
 * in 1/1024 (learn.h's units). */
static const int16_t ln3[66] = {
	0,     0,     2129,  3375,  4259,  4944,  5504,  5978,  6388,  6750,
	7074,  7366,  7634,  7880,  8107,  8319,  8517,  8704,  8879,  9045,
	9203,  9353,  9496,  9632,  9763,  9888,  10009, 10125, 10237, 10344,
	10448, 10549, 10647, 10741, 10833, 10922, 11009, 11093, 11175, 11254,
	11332, 11408, 11482, 11554, 11625, 11694, 11762, 11828, 11892, 11956,
	12018, 12079, 12138, 12197, 12254, 12311, 12366, 12420, 12474, 12526,
	12578, 12629, 12679, 12728, 12776, 12824,
};

/* 3072 ln k for any count of targets plus one (k >= 1). */
static int ln3_of(int k)
{
	return k < 66 ? ln3[k] : (int)(3072 * num_log(k) + 0.5);
}

/* The codes of the 8 cells of row y from x0 on, a byte each, for the
 * player m (0 White, 1 Black) to act: an empty cell 0 to 3 (1 if m
 * reaches it, 2 if the other does), a piece 4 (m's) or 5.  All 8 at once
 * from the cell and reach bytes (past the row's end: the frame's and the
 * next row's, which the caller leaves alone). */
static inline uint64_t row_codes(const struct state *s, int x0, int y, int m)
{
	uint64_t r, c;
	int at = cell_of(s, x0, y);
	memcpy(&r, s->reach + at, sizeof r);
	memcpy(&c, s->cell + at, sizeof c);
	uint64_t col = c & BYTES(3), piece = (col | col >> 1) & BYTES(1);
	uint64_t w = ((r & BYTES(15)) + BYTES(15)) >> 4 & ~piece & BYTES(1);
	uint64_t b =
		((r >> 4 & BYTES(15)) + BYTES(15)) >> 4 & ~piece & BYTES(1);
	return m == 0 ? (w | b << 1) + col + 3 * piece
		      : (b | w << 1) + 6 * piece - col;
}

/* Whether the learned tables read s: every board without the diagonal
 * rule. */
static int has_table(const struct state *s)
{
	return !s->diagonal;
}

/* Whether the search judges s by a table: where one reads s and the
 * board is 10x10 at most, or a hexagon of side 8 at most.  Judging each
 * new node's children by the table costs more the bigger the board: from
 * the opening on 26x26 a 5 s search made 57,000 iterations a second with
 * it and 401,000 with the cubes (`bench_ai rate tiptoe size=26`; the
 * set-up, which nothing judges, makes a short search from the opening
 * cheaper still: docs/benchmarks.md); its worth is measured on 6x6, 8x8,
 * 10x10 and the hexagon of side 8 alone (docs/strength.md). */
static int judged_by_table(const struct state *s)
{
	return has_table(s) && s->size <= (s->hex ? 8 : 10);
}

/* Row y's pairs of codes: byte x of pair[] is cells x and x + 1 as
 * 6 * code(x) + code(x + 1), for x = 0 to n - 2, n the grid's width (and
 * past them, up to 8 bytes of room, what the caller leaves alone; on a
 * hexagon the pairs with a cell off the board, which it leaves alone
 * too).  Each 8 cells give 7 pairs; the 8th byte is the next chunk's
 * first, written over. */
static inline void row_pairs(const struct state *s, int y, int m, uint8_t *pair)
{
	for (int x0 = 0; x0 < span(s) - 1; x0 += 7) {
		uint64_t code = row_codes(s, x0, y, m);
		uint64_t p = code * 6 + (code >> 8);
		memcpy(pair + x0, &p, sizeof p);
	}
}

/* Where a 2x2 square's first coordinate lies among k places: 0 at the
 * first, 2 at the last, 1 between. */
static uint32_t edge_class(int x, int k)
{
	return x == 0 ? 0 : x == k - 1 ? 2 : 1;
}

/* The class of a hexagon's rhombus by which of its four cells lie on
 * the board's rim (bit i for cell i of hex_rhombi's order): the nine
 * masks that occur on every side of hexagon, the inside (0) first.  The
 * others never occur, and would put a feature far past the table, where
 * tests/test_learn.c's features_stay_in_their_table would see it. */
#define NEVER 255
static const uint8_t rim_class[16] = {
	0, 1,     NEVER, 2, NEVER, 3, NEVER, NEVER,
	4, NEVER, 5,     6, 7,     8, NEVER, NEVER,
};

/* On the hexagonal board, the same tables over its rhombi: the 2x2
 * squares of the grid that holds it, (x, y), (x + 1, y), (x, y + 1) and
 * (x + 1, y + 1), are two triangles of neighbouring cells.  Those whose
 * four cells lie on the board (c <= x + y <= 3c - 2 for side c + 1),
 * each in the table of its class by the cells it has on the rim. */
static int hex_rhombi(const struct state *s, int m, uint32_t *idx)
{
	int n = span(s), c = s->size - 1, k = 0;
	uint8_t pairs[2][40], *top = pairs[0], *bot = pairs[1];
	row_pairs(s, 0, m, top);
	for (int y = 0; y < n - 1; y++) {
		row_pairs(s, y + 1, m, bot);
		int lo = c - y > 0 ? c - y : 0;
		int hi = 3 * c - 2 - y < n - 2 ? 3 * c - 2 - y : n - 2;
		for (int x = lo; x <= hi; x++) {
			int t = x + y;
			unsigned rim = (y == 0 || x == 0 || t == c) |
				       (y == 0 || x + 1 == n - 1) << 1 |
				       (x == 0 || y + 1 == n - 1) << 2 |
				       (y + 1 == n - 1 || x + 1 == n - 1 ||
					t + 2 == 3 * c)
					       << 3;
			idx[k++] = F_SQ + rim_class[rim] * 1296u +
				   (uint32_t)top[x] * 36 + bot[x];
		}
		uint8_t *swap = top;
		top = bot;
		bot = swap;
	}
	return k;
}

/* The 2x2 squares of a square board, each in the table of where it lies
 * (inside, along an edge, in a corner). */
static int square_quads(const struct state *s, int m, uint32_t *idx)
{
	int k = 0, n = s->size;
	uint8_t pairs[2][40], *top = pairs[0], *bot = pairs[1];
	row_pairs(s, 0, m, top);
	for (int y = 0; y < n - 1; y++) {
		row_pairs(s, y + 1, m, bot);
		/* the first square of a row, those between, the last */
		uint32_t row = F_SQ + edge_class(y, n - 1) * 3 * 1296;
		idx[k++] = row + (uint32_t)top[0] * 36 + bot[0];
		for (int x = 1; x < n - 2; x++)
			idx[k++] = row + 1296 + (uint32_t)top[x] * 36 + bot[x];
		idx[k++] =
			row + 2 * 1296 + (uint32_t)top[n - 2] * 36 + bot[n - 2];
		uint8_t *t = top;
		top = bot;
		bot = t;
	}
	return k;
}

static int tt_features(const void *st, uint32_t *idx, double *base)
{
	const struct state *s = st;
	*base = 0;
	if (!has_table(s))
		return 0;
	int m = to_move(s) - 1;
	int a = s->ntarget[m], b = s->ntarget[1 - m];
	if (!is_setup(s))
		*base = (ln3_of(a + 1) - ln3_of(b + 1)) / 1024.0;
	int k = s->hex ? hex_rhombi(s, m, idx) : square_quads(s, m, idx);
	int ph = s->placed * 8 / s->squares;
	idx[k++] = F_CNT +
		   ((uint32_t)(ph < 7 ? ph : 7) * LCNT +
		    (uint32_t)(a < LCNT ? a : LCNT - 1)) *
			   LCNT +
		   (uint32_t)(b < LCNT ? b : LCNT - 1);
	return k;
}

/* Three tables of the same features: one learned on the hexagon of side
 * 8 for the hexagonal boards, one on 6x6 for that board, one on 8x8 for
 * the other squares.  On 6x6, in the search at movetime 100, the board's
 * own table beat the 8x8 one by +115.2 Elo (docs/strength.md, "A
 * learned evaluation"). */
extern const struct learn_weights tiptoe_weights, tiptoe_size6_weights,
	tiptoe_hex_weights;
static const struct learn_weights *const tt_tables[] = {
	&tiptoe_weights, &tiptoe_size6_weights, &tiptoe_hex_weights, NULL};
static const struct learn_spec tt_learn = {F_SIZE, F_MAX, tt_features,
					   tt_tables};

/* The table that judges s. */
static const int16_t *table_of(const struct state *s)
{
	return s->hex         ? tiptoe_hex_weights.w
	       : s->size == 6 ? tiptoe_size6_weights.w
			      : tiptoe_weights.w;
}

/* The value for each player: where a table judges (judged_by_table) the
 * learned table's for the player to act, elsewhere the cubes.  It judges
 * both a new move (its prior) and the end of a playout.  A search
 * iteration takes about 1.6 times as long so on 8x8 (`bench_ai rate
 * tiptoe ""`); docs/strength.md, "A learned evaluation", has what it is
 * worth on each board. */
static void tt_evaluate(const void *st, double *value)
{
	const struct state *s = st;
	if (s->winner) {
		value[0] = s->winner == 1;
		value[1] = s->winner == 2;
		return;
	}
	if (is_setup(s)) {
		value[0] = value[1] = 0.5;
		return;
	}
	uint32_t idx[F_MAX];
	double base;
	int n = judged_by_table(s) ? tt_features(s, idx, &base) : 0;
	if (n) {
		int m = to_move(s) - 1;
		value[m] = learn_value(table_of(s), base, idx, n);
		value[1 - m] = 1 - value[m];
		return;
	}
	double a = s->ntarget[0] + 1.0;
	double b = s->ntarget[1] + 1.0;
	value[0] = a * a * a / (a * a * a + b * b * b);
	value[1] = 1 - value[0];
}

/* Implicit minimax where it measured better: on the square board (8x8:
 * +92.5 Elo against the search without it), not on the hexagonal one
 * (44% of 100 games on hex's default board, and 41.6% of 101 again on
 * a later engine) nor with the diagonal
 * rule (-38.4, 44.5% of 200 on 8x8; docs/strength.md, "Implicit
 * minimax"). */
static int tt_minimax_eval(const void *st)
{
	const struct state *s = st;
	return !s->hex && !s->diagonal;
}

/* The weight of the evaluation in a new node, in visits: 12 on the
 * hexagonal board and where the learned table judges, the search's 7
 * under the diagonal rule.  At movetime 100 on hex's default board, 12
 * against 7 scored 59.5% of 200 games, +66.8 Elo (+18.8 to +117.6); on
 * 8x8 with an earlier table (a weight set for each 2x2 square) 55.3% of
 * 400 (50.4 to 60.1), where with the cubes alone 14 against 7 scored
 * 47.5% (docs/strength.md, at PRIOR_VISITS and "A learned evaluation"). */
static int tt_prior_visits(const void *st)
{
	const struct state *s = st;
	return s->hex || judged_by_table(s) ? 12 : 0;
}

/* A random-looking 64-bit number for a piece of colour p on (x, y), the
 * same for every board (splitmix64's finaliser over the three). */
static uint64_t piece_hash(int p, int x, int y)
{
	uint64_t z = ((uint64_t)p << 16 | (uint64_t)(y + 32) << 8 |
		      (uint64_t)(x + 32)) *
		     0x9e3779b97f4a7c15ULL;
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
	return z ^ z >> 31;
}

/* The images of square (x, y) under the board's symmetries, as (x, y)
 * pairs: 8 on a square board (the diagonal rule keeps them all), 12 on a
 * hexagon, in axial coordinates about its centre (rotating by 60 degrees
 * takes (q, r) to (-r, q + r); swapping q and r reflects).  Returns how
 * many. */
static int images(const struct state *s, int x, int y, int (*img)[2])
{
	int m = span(s) - 1;
	if (!s->hex) {
		const int v[8][2] = {{x, y},         {m - x, y},    {x, m - y},
				     {m - x, m - y}, {y, x},        {m - y, x},
				     {y, m - x},     {m - y, m - x}};
		memcpy(img, v, sizeof v);
		return 8;
	}
	int c = s->size - 1, q = x - c, r = y - c;
	for (int k = 0; k < 6; k++) {
		img[k][0] = q + c, img[k][1] = r + c;
		img[k + 6][0] = r + c, img[k + 6][1] = q + c;
		int t = q;
		q = -r, r = t + r;
	}
	return 12;
}

/* One key for a position and all its images under the board's symmetries:
 * the least of the images' hashes.  The pieces decide everything else
 * (whose turn, the set-up, the winner), so the key is the options and the
 * pieces.  A solver that keys its table by this searches each class of
 * symmetric positions once. */
static uint64_t tt_key(const void *st)
{
	const struct state *s = st;
	uint64_t h[12] = {0};
	int img[12][2], n = s->hex ? 12 : 8;
	for (int y = 0; y < span(s); y++)
		for (int x = 0; x < span(s); x++) {
			int v = s->cell[cell_of(s, x, y)];
			if (v == EMPTY || v == OFF)
				continue;
			images(s, x, y, img);
			for (int k = 0; k < n; k++)
				h[k] ^= piece_hash(COLOUR(v), img[k][0],
						   img[k][1]);
		}
	uint64_t best = h[0];
	for (int k = 1; k < n; k++)
		best = h[k] < best ? h[k] : best;
	return best ^ piece_hash(3 + s->diagonal + 2 * s->hex, s->size, 0);
}

static const struct game_option_spec tt_options[] = {
	{.key = "size",
	 .type = OPT_INT,
	 .def = "8",
	 .min = 2,
	 .max = 26}, /* hex: the side, 2 to 13 */
	{.key = "diagonal", .type = OPT_BOOL, .def = "0", .excludes = "hex"},
	{.key = "hex", .type = OPT_BOOL, .def = "0", .excludes = "diagonal"},
	{0},
};

/* Its levels 2 to 8 (docs/strength.md, "Levels"). */
static const struct game_level tt_levels[GAME_LEVELS] = {
	{0.35, 5, 3}, {0.12, 5, 3},   {0, 8, 2.2},    {0, 22, 1.1},
	{0, 55, 0.7}, {0, 150, 0.38}, {0, 600, 0.22},
};

static const struct game_search tt_search = {
	.playout = tt_playout,
	.evaluate = tt_evaluate,
	.minimax_eval = tt_minimax_eval,
	.prior_visits = tt_prior_visits,
	.learn = &tt_learn,
	.levels = tt_levels,
};

const struct game game_tiptoe = {
	.name = "tiptoe",
	.title = "Tiptoe",
	.summary = "2 players; options size=4..26 (hex: 2..13), diagonal, hex",
	.state_size = sizeof(struct state),
	.max_moves = 26 * 26,
	.options = tt_options,
	.marks = "OX",
	.init = tt_init,
	.describe = tt_describe,
	.position = tt_position,
	.players = tt_players,
	.status = tt_status,
	.moves = tt_moves,
	.play = tt_play,
	.copy = tt_copy,
	.parse = tt_parse,
	.format = tt_format,
	.score = tt_score,
	.show = tt_show,
	.geometry = tt_geometry,
	.contents = tt_contents,
	.random_move = tt_random_move,
	.key = tt_key,
	.sides = tt_sides,
	.turn = tt_turn,
	.units = tt_units,
	.search = &tt_search,
};
