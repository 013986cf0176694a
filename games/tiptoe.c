/* tiptoe.c: Tiptoe, by Kanare Kato.
 *
 * Two players add pieces of their colour in turn; the player who cannot add
 * one loses.  After a free set-up (White one piece, Black two, White one), a
 * new piece must land exactly S squares away, in a straight unblocked line,
 * from some piece of the mover's whose group holds S pieces.  Variants: the
 * diagonal rule (links and steps in 8 directions) and a hexagonal board (6).
 *
 * Every board lives in one padded grid of PW x PW cells: board square
 * (x, y) is cell (y + 1) * PW + x + 1, and every cell that is not a square of
 * the board (the frame, the corners outside a hexagon) holds OFF.  A walk
 * along a line therefore stops at the first cell that is not EMPTY without
 * any bounds test.  A hex cell (q, r) is square (q + N - 1, r + N - 1) of a
 * (2N - 1)-wide grid, so its name is that square's name, as protocol.md says.
 *
 * One byte per cell holds its colour and, for a piece, the size of its
 * group, so listing moves reads sizes without a flood fill; a placement
 * refills only the one group it joins (groups only ever grow).  No line is
 * longer than 25 steps, so sizes stop at SIZE_CAP without changing any
 * move.  The state is thus a small function of the position alone,
 * whatever order the pieces came in: equal positions have equal bytes,
 * which a transposition table keyed by the state's bytes relies on. */
#include "game.h"

#include <stdio.h>
#include <string.h>

#define PW 28                     /* grid stride: 26 squares and a frame */
#define NCELL (PW * PW)           /* cells of the grid */
#define NWORD ((NCELL + 63) / 64) /* 64-bit words of a cell set */
#define SETUP 4                   /* pieces placed freely before stepping */
#define MAX_SIDE 13               /* largest hex side: 25 cells across */

/* A cell byte: colour in the low 2 bits, group size above them. */
enum { EMPTY, WHITE, BLACK, OFF };
#define COLOUR(b) ((b)&3)
#define GSIZE(b) ((b) >> 2)
#define SIZE_CAP 63 /* sizes above 25 all mean "reaches nothing" */

struct state {
	uint8_t cell[NCELL]; /* EMPTY, OFF, or a colour | group size << 2 */
	uint16_t placed;     /* pieces on the board */
	uint16_t squares;    /* squares of the board */
	uint8_t size;        /* square: the side; hex: cells per edge */
	uint8_t diagonal;    /* links and steps along diagonals too */
	uint8_t hex;         /* the hexagonal board */
	uint8_t winner;      /* 0 while the game runs */
};

/* Line directions as cell offsets; each set holds every direction's
 * opposite, so a walk backwards from a target finds the same lines. */
static const int orth_dir[] = {1, -1, PW, -PW};
static const int diag_dir[] = {1,      -1,     PW,      -PW,
			       PW + 1, PW - 1, -PW + 1, -PW - 1};
/* axial (+-1, 0), (0, +-1), (+1, -1), (-1, +1) */
static const int hex_dir[] = {1, -1, PW, -PW, 1 - PW, PW - 1};

static const int *dirs(const struct state *s, int *n)
{
	if (s->hex) {
		*n = 6;
		return hex_dir;
	}
	if (s->diagonal) {
		*n = 8;
		return diag_dir;
	}
	*n = 4;
	return orth_dir;
}

static int cell_of(int x, int y)
{
	return (y + 1) * PW + x + 1;
}

/* Width (and height) of the grid of squares the board uses. */
static int span(const struct state *s)
{
	return s->hex ? 2 * s->size - 1 : s->size;
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

static void set_bit(uint64_t *set, int c)
{
	set[c / 64] |= (uint64_t)1 << (c % 64);
}

/* The cells where player p (1 or 2) may place by the stepping rule, into
 * set (NWORD words, cleared here).  With stop, returns 1 at the first one
 * found; otherwise returns how many there are. */
static int step_targets(const struct state *s, int p, uint64_t *set, int stop)
{
	int nd, count = 0;
	const int *d = dirs(s, &nd);
	memset(set, 0, NWORD * sizeof *set);
	for (int y = 0, n = span(s); y < n; y++)
		for (int c = cell_of(0, y), end = c + n; c < end; c++) {
			if (COLOUR(s->cell[c]) != p)
				continue;
			int size = GSIZE(s->cell[c]);
			for (int i = 0; i < nd; i++) {
				int t = c, k = 0;
				/* a line is at most 25 cells: OFF stops it */
				while (k < size && s->cell[t + d[i]] == EMPTY) {
					t += d[i];
					k++;
				}
				if (k < size)
					continue;
				if (stop)
					return 1;
				set_bit(set, t);
			}
		}
	if (stop)
		return 0;
	for (int w = 0; w < NWORD; w++)
		count += __builtin_popcountll(set[w]);
	return count;
}

/* Whether player p may place on the empty cell c: some line from c meets a
 * piece of p's first, exactly as far away as its group is large. */
static int reaches(const struct state *s, int p, int c)
{
	if (is_setup(s))
		return 1;
	int nd;
	const int *d = dirs(s, &nd);
	for (int i = 0; i < nd; i++) {
		int t = c, k = 0;
		do {
			t -= d[i];
			k++;
		} while (s->cell[t] == EMPTY);
		if (COLOUR(s->cell[t]) == p && GSIZE(s->cell[t]) == k)
			return 1;
	}
	return 0;
}

/* The cells where the player to move may place, into set. */
static int legal_set(const struct state *s, uint64_t *set)
{
	memset(set, 0, NWORD * sizeof *set);
	if (s->winner)
		return 0;
	if (!is_setup(s))
		return step_targets(s, to_move(s), set, 0);
	for (int c = 0; c < NCELL; c++)
		if (s->cell[c] == EMPTY)
			set_bit(set, c);
	return s->squares - s->placed;
}

/* Adds a piece of player p on the empty cell c: it joins every group of
 * p's it touches.  A flood fill over the pieces below the cap finds all of
 * them (they touch the new piece or each other); capped groups stay
 * capped, and a capped neighbour caps the whole new group. */
static void put(struct state *s, int c, int p)
{
	int nd;
	const int *d = dirs(s, &nd);
	int n = 0, total = 0;
	uint64_t seen[NWORD] = {0};
	uint16_t list[NCELL];
	list[n++] = (uint16_t)c;
	set_bit(seen, c);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < nd; j++) {
			int t = list[i] + d[j];
			if (COLOUR(s->cell[t]) != p ||
			    (seen[t / 64] >> (t % 64) & 1))
				continue;
			set_bit(seen, t);
			if (GSIZE(s->cell[t]) == SIZE_CAP)
				total = SIZE_CAP;
			else
				list[n++] = (uint16_t)t;
		}
	total += n;
	if (total > SIZE_CAP)
		total = SIZE_CAP;
	for (int i = 0; i < n; i++)
		s->cell[list[i]] = (uint8_t)(p | total << 2);
	s->placed++;
}

/* After a placement: the set-up always has room (7 cells or more); a
 * stepping player without a target loses at once. */
static void judge(struct state *s)
{
	uint64_t set[NWORD];
	if (!is_setup(s) && !step_targets(s, to_move(s), set, 1))
		s->winner = (uint8_t)(3 - to_move(s));
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
	memset(s->cell, OFF, sizeof s->cell);
	int n = span(s), m = (int)size - 1;
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			int q = x - m, r = y - m;
			if (hex && (q + r > m || q + r < -m))
				continue;
			s->cell[cell_of(x, y)] = EMPTY;
			s->squares++;
		}
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
			want += s->cell[cell_of(x, y)] != OFF;
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
			while (s->cell[cell_of(x, y)] == OFF || k-- > 0)
				x++;
			put(s, cell_of(x, y), *p == 'o' ? WHITE : BLACK);
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
			int v = s->cell[cell_of(x, y)];
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
			if (s->cell[cell_of(x, y)] == OFF)
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
	uint64_t set[NWORD];
	int n = 0;
	if (legal_set(s, set) == 0)
		return 0;
	for (int w = 0; w < NWORD; w++)
		for (uint64_t b = set[w]; b; b &= b - 1)
			out[n++] = (struct move){
				{(uint64_t)(w * 64 + __builtin_ctzll(b))}};
	return n;
}

static void tt_play(void *st, const struct move *mv)
{
	struct state *s = st;
	put(s, (int)mv->w[0], to_move(s));
	judge(s);
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
	    s->cell[cell_of(x, y)] == OFF)
		return game_fail(err, "%s is not on %s", text, where);
	int c = cell_of(x, y), who = to_move(s);
	if (s->cell[c] != EMPTY)
		return game_fail(err, "%s is occupied", text);
	if (!reaches(s, who, c))
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
	(void)st;
	int c = (int)mv->w[0];
	square_name(c % PW - 1, c / PW - 1, buf);
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
	if (!is_setup(s) && (legal[c / 64] >> (c % 64) & 1))
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
			text_printf(out, " %c", mark(s, legal, cell_of(x, y)));
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
				line[col] =
					mark(s, legal, cell_of(q + m, r + m));
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
	uint64_t legal[NWORD];
	int n = legal_set(s, legal);
	if (s->hex)
		show_hex(s, legal, out);
	else
		show_square(s, legal, out);
	int count[2] = {0, 0};
	for (int c = 0; c < NCELL; c++)
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

static int tt_random_move(const void *st, struct rng *r, struct move *mv)
{
	const struct state *s = st;
	uint64_t set[NWORD];
	int n = legal_set(s, set);
	if (n == 0)
		return -1;
	/* the k-th cell of the set */
	uint32_t k = rng_below(r, (uint32_t)n);
	for (int w = 0; w < NWORD; w++) {
		uint32_t here = (uint32_t)__builtin_popcountll(set[w]);
		if (k >= here) {
			k -= here;
			continue;
		}
		uint64_t b = set[w];
		for (; k; k--)
			b &= b - 1;
		*mv = (struct move){{(uint64_t)(w * 64 + __builtin_ctzll(b))}};
		return 0;
	}
	return -1;
}

/* Room to move decides the game, so each side's count of places it could
 * use now is the estimate.  Squaring the counts (a sharper curve than the
 * plain share) won 62% of 80 games on 12x12 and 55% of 160 on 8x8 against
 * the plain share at movetime 50; cubes and counting private places twice
 * did no better.  Without any estimate, the search won only 35% on 8x8
 * and 3% on 14x14 against the plain share. */
static void tt_evaluate(const void *st, double *value)
{
	const struct state *s = st;
	uint64_t set[NWORD];
	if (s->winner) {
		value[0] = s->winner == 1;
		value[1] = s->winner == 2;
		return;
	}
	if (is_setup(s)) {
		value[0] = value[1] = 0.5;
		return;
	}
	double a = step_targets(s, 1, set, 0) + 1.0;
	double b = step_targets(s, 2, set, 0) + 1.0;
	value[0] = a * a / (a * a + b * b);
	value[1] = 1 - value[0];
}

static const struct game_option_spec tt_options[] = {
	{"size", OPT_INT, "8", 2, 26, NULL}, /* hex: the side, 2 to 13 */
	{"diagonal", OPT_BOOL, "0", 0, 0, NULL},
	{"hex", OPT_BOOL, "0", 0, 0, NULL},
	{NULL, 0, NULL, 0, 0, NULL},
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
	.parse = tt_parse,
	.format = tt_format,
	.score = tt_score,
	.show = tt_show,
	.geometry = tt_geometry,
	.random_move = tt_random_move,
	.evaluate = tt_evaluate,
};
