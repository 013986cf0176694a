/* connect4.c: Connect Four, the classic game of four in a row, written as
 * docs/adding-a-game.md teaches: one file, one line in registry.c.
 *
 * Two players drop discs in turn into the columns of an upright board
 * (7 wide and 6 high unless the options say otherwise); a disc falls to
 * the lowest empty cell of its column.  Four of one's own discs in a line
 * (across, up or along a diagonal) win; a full board with no such line is
 * a draw.
 *
 * The state is a plain grid of bytes: small, readable and quick enough
 * for the generic search, which gets no help of this game's own (struct
 * game_search): its random playouts and the exact solver play it well. */
#include "game.h"

#include <stdio.h>
#include <string.h>

#define MAX_SIDE 10 /* columns and rows at most */
#define MIN_SIDE 4
#define LINE 4 /* discs in a row that win */

struct state {
	uint8_t cols, rows;
	uint8_t placed;           /* discs on the board */
	uint8_t winner;           /* 1 or 2 once a line of four stands */
	uint8_t height[MAX_SIDE]; /* discs in each column */
	uint8_t cell[MAX_SIDE * MAX_SIDE]; /* y * MAX_SIDE + x: 0, 1 or 2 */
};

#define AT(s, x, y) ((s)->cell[(y)*MAX_SIDE + (x)])

/* The four directions a line runs in: across, up, and both diagonals. */
static const int DX[4] = {1, 0, 1, 1};
static const int DY[4] = {0, 1, 1, -1};

static int inside(const struct state *s, int x, int y)
{
	return x >= 0 && y >= 0 && x < s->cols && y < s->rows;
}

/* The discs of cell (x, y)'s owner in a row through it along direction
 * d, the cell itself included. */
static int run(const struct state *s, int x, int y, int d)
{
	int p = AT(s, x, y), n = 1;
	for (int k = 1; inside(s, x + k * DX[d], y + k * DY[d]) &&
			AT(s, x + k * DX[d], y + k * DY[d]) == p;
	     k++)
		n++;
	for (int k = 1; inside(s, x - k * DX[d], y - k * DY[d]) &&
			AT(s, x - k * DX[d], y - k * DY[d]) == p;
	     k++)
		n++;
	return n;
}

static int wins_at(const struct state *s, int x, int y)
{
	for (int d = 0; d < 4; d++)
		if (run(s, x, y, d) >= LINE)
			return 1;
	return 0;
}

static int to_move(const struct state *s)
{
	return s->placed % 2 + 1; /* player 1 drops first */
}

static int over(const struct state *s)
{
	return s->winner || s->placed == s->cols * s->rows;
}

/* Drops a disc of the player to move into column x (not full). */
static void drop(struct state *s, int x)
{
	int y = s->height[x]++;
	AT(s, x, y) = (uint8_t)to_move(s);
	s->placed++;
	if (wins_at(s, x, y))
		s->winner = AT(s, x, y);
}

/* ---- set-up and positions ---- */

static const struct game_option_spec c4_options[] = {
	{.key = "cols", .type = OPT_INT, .def = "7", .min = 4, .max = 10},
	{.key = "rows", .type = OPT_INT, .def = "6", .min = 4, .max = 10},
	{0},
};

/* board=: the rows from the top down, separated by /, each from column a
 * rightwards: x (player 1), o (player 2) or . (empty). */
static int read_board(struct state *s, const char *text, char *err)
{
	const char *p = text;
	for (int y = s->rows - 1; y >= 0; y--) {
		for (int x = 0; x < s->cols; x++, p++) {
			if (*p != 'x' && *p != 'o' && *p != '.')
				return game_fail(err,
						 "board= needs %d rows of %d "
						 "cells (x, o or .), top row "
						 "first, separated by /",
						 s->rows, s->cols);
			AT(s, x, y) = *p == 'x' ? 1 : *p == 'o' ? 2 : 0;
		}
		if (*p != (y ? '/' : '\0'))
			return game_fail(err,
					 "board= needs %d rows of %d cells, "
					 "separated by /",
					 s->rows, s->cols);
		p++;
	}
	int count[3] = {0, 0, 0};
	for (int x = 0; x < s->cols; x++)
		for (int y = 0; y < s->rows; y++) {
			int v = AT(s, x, y);
			if (v && y > s->height[x])
				return game_fail(err,
						 "board=: a disc floats above "
						 "an empty cell in column %c",
						 'a' + x);
			if (v)
				s->height[x] = (uint8_t)(y + 1), count[v]++;
		}
	if (count[1] != count[2] && count[1] != count[2] + 1)
		return game_fail(err,
				 "board=: player 1 drops first, so has as "
				 "many discs as player 2 or one more, not %d "
				 "and %d",
				 count[1], count[2]);
	s->placed = (uint8_t)(count[1] + count[2]);
	for (int x = 0; x < s->cols; x++)
		for (int y = 0; y < s->height[x]; y++)
			if (wins_at(s, x, y)) {
				if (s->winner && s->winner != AT(s, x, y))
					return game_fail(err,
							 "board=: both players "
							 "have four in a row");
				s->winner = AT(s, x, y);
			}
	return 0;
}

static int c4_init(void *st, struct game_options *opt, uint64_t seed, char *err)
{
	(void)seed; /* nothing is random */
	struct state *s = st;
	long cols = 7, rows = 6;
	if (opt_int(opt, "cols", MIN_SIDE, MAX_SIDE, &cols, err) < 0 ||
	    opt_int(opt, "rows", MIN_SIDE, MAX_SIDE, &rows, err) < 0)
		return -1;
	s->cols = (uint8_t)cols;
	s->rows = (uint8_t)rows;
	const char *board = opt_str(opt, "board");
	return board ? read_board(s, board, err) : 0;
}

static void c4_describe(const void *st, struct text *out)
{
	const struct state *s = st;
	text_printf(out, "cols=%d rows=%d", s->cols, s->rows);
}

static void c4_position(const void *st, struct text *out)
{
	const struct state *s = st;
	c4_describe(s, out);
	text_puts(out, " board=");
	for (int y = s->rows - 1; y >= 0; y--) {
		for (int x = 0; x < s->cols; x++)
			text_putc(out, ".xo"[AT(s, x, y)]);
		if (y)
			text_putc(out, '/');
	}
}

/* ---- play ---- */

static int c4_players(const void *st)
{
	(void)st;
	return 2;
}

static struct game_status c4_status(const void *st)
{
	const struct state *s = st;
	if (over(s))
		return (struct game_status){GAME_OVER, s->winner};
	return (struct game_status){GAME_PLAY, to_move(s)};
}

/* A move is the column a disc goes into (move.w[0]); moves() lists the
 * columns that are not full, from a. */
static int c4_moves(const void *st, struct move *out)
{
	const struct state *s = st;
	int n = 0;
	if (over(s))
		return 0;
	for (int x = 0; x < s->cols; x++)
		if (s->height[x] < s->rows)
			out[n++] = (struct move){{(uint64_t)x}};
	return n;
}

static void c4_play(void *st, const struct move *mv)
{
	drop(st, (int)mv->w[0]);
}

/* A move is written as the cell where the disc lands (d1); the column's
 * letter alone (d) is read as that cell too. */
static int c4_parse(const void *st, const char *text, struct move *mv,
		    char *err)
{
	const struct state *s = st;
	int x = text[0] - 'a', y = -1;
	if (text[0] < 'a' || text[0] > 'z' || x >= s->cols)
		return game_fail(err,
				 "write the cell where the disc lands (d1), "
				 "or its column (a to %c)",
				 'a' + s->cols - 1);
	if (text[1]) {
		const char *p = text;
		if (square_read(&p, &x, &y) < 0 || *p || y >= s->rows)
			return game_fail(err,
					 "write the cell where the disc lands "
					 "(d1), or its column (a to %c)",
					 'a' + s->cols - 1);
	}
	if (over(s))
		return game_fail(err, "the game is over");
	if (s->height[x] == s->rows)
		return game_fail(err, "column %c is full", 'a' + x);
	if (y >= 0 && y != s->height[x]) {
		char land[8];
		square_name(x, s->height[x], land);
		return game_fail(err,
				 "a disc in column %c falls to %s, the lowest "
				 "empty cell",
				 'a' + x, land);
	}
	*mv = (struct move){{(uint64_t)x}};
	return 0;
}

static void c4_format(const void *st, const struct move *mv, char *buf)
{
	const struct state *s = st;
	int x = (int)mv->w[0];
	square_name(x, s->height[x], buf);
}

/* A game without points: 1 for the winner once it is over. */
static void c4_score(const void *st, int *points)
{
	const struct state *s = st;
	points[0] = s->winner == 1;
	points[1] = s->winner == 2;
}

/* Mirrored positions play alike: the key of the lesser of the two, so
 * that the exact solver searches each pair once. */
static uint64_t c4_key(const void *st)
{
	const struct state *s = st;
	uint64_t a = 0xcbf29ce484222325ULL, b = a;
	for (int y = 0; y < s->rows; y++)
		for (int x = 0; x < s->cols; x++) {
			a = (a ^ AT(s, x, y)) * 0x100000001b3ULL;
			b = (b ^ AT(s, s->cols - 1 - x, y)) * 0x100000001b3ULL;
		}
	uint64_t k = a < b ? a : b;
	return k ^ ((uint64_t)s->cols << 56) ^ ((uint64_t)s->rows << 48);
}

/* ---- for people and frontends ---- */

static const char *const COLOUR[2] = {"red", "yellow"};

static void c4_show(const void *st, struct text *out)
{
	const struct state *s = st;
	for (int y = s->rows - 1; y >= 0; y--) {
		text_printf(out, "%2d ", y + 1);
		for (int x = 0; x < s->cols; x++)
			text_printf(out, " %c", ".XO"[AT(s, x, y)]);
		text_putc(out, '\n');
	}
	text_puts(out, "   ");
	for (int x = 0; x < s->cols; x++)
		text_printf(out, " %c", 'a' + x);
	text_putc(out, '\n');
	int total = s->cols * s->rows;
	for (int p = 1; p <= 2; p++) {
		int mine = (s->placed + (p == 1)) / 2;
		text_printf(out, "%c player %d (%s): %d discs left\n", ".XO"[p],
			    p, COLOUR[p - 1], (total + (p == 1)) / 2 - mine);
	}
	if (s->winner)
		text_printf(out, "player %d wins: four in a row\n", s->winner);
	else if (over(s))
		text_puts(out, "a draw: the board is full\n");
	else
		text_printf(out, "%c (player %d) to drop a disc\n",
			    ".XO"[to_move(s)], to_move(s));
}

static void c4_geometry(const void *st, struct text *out)
{
	const struct state *s = st;
	square_cells(s->cols, s->rows, out);
}

static void c4_contents(const void *st, struct game_contents *out)
{
	const struct state *s = st;
	struct game_site *c = out->site;
	for (int y = 0; y < s->rows; y++)
		for (int x = 0; x < s->cols; x++, c++)
			if (AT(s, x, y))
				c->owner = AT(s, x, y), c->count = 1;
	int total = s->cols * s->rows;
	out->hands = 1;
	for (int p = 1; p <= 2; p++)
		out->hand[p - 1][0] =
			(total + (p == 1)) / 2 - (s->placed + (p == 1)) / 2;
}

static void c4_sides(const void *st, struct game_sides *out)
{
	(void)st;
	*out = (struct game_sides){.sides = 2, .colour = {"red", "yellow"}};
}

static void c4_turn(const void *st, struct game_turn *out)
{
	const struct state *s = st;
	if (over(s)) {
		out->phase = "over";
		if (s->winner)
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: player %d wins with four in a "
				 "row",
				 s->winner);
		else
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: a draw, the board is full");
		return;
	}
	out->phase = "place";
	out->step = s->placed + 1;
	out->steps = s->cols * s->rows;
	snprintf(out->prompt, sizeof out->prompt,
		 "player %d (%s): drop a disc into a column, a to %c",
		 to_move(s), COLOUR[to_move(s) - 1], 'a' + s->cols - 1);
}

/* Once won: the cells of every line of four or more of the winner's. */
static void c4_units(const void *st, struct text *out)
{
	const struct state *s = st;
	if (!s->winner)
		return;
	text_printf(out, "unit win player %d points 1 cells", s->winner);
	for (int y = 0; y < s->rows; y++)
		for (int x = 0; x < s->cols; x++) {
			int in = 0;
			for (int d = 0; d < 4 && !in; d++)
				in = AT(s, x, y) == s->winner &&
				     run(s, x, y, d) >= LINE;
			if (in) {
				char name[8];
				square_name(x, y, name);
				text_printf(out, " %s", name);
			}
		}
	text_putc(out, '\n');
}

const struct game game_connect4 = {
	.name = "connect4",
	.title = "Connect Four",
	.summary = "2 players; options cols=4..10 rows=4..10",
	.state_size = sizeof(struct state),
	.max_moves = MAX_SIDE,
	.options = c4_options,
	.marks = "XO",
	.init = c4_init,
	.describe = c4_describe,
	.position = c4_position,
	.players = c4_players,
	.status = c4_status,
	.moves = c4_moves,
	.play = c4_play,
	.parse = c4_parse,
	.format = c4_format,
	.score = c4_score,
	.show = c4_show,
	.geometry = c4_geometry,
	.contents = c4_contents,
	.key = c4_key,
	.sides = c4_sides,
	.turn = c4_turn,
	.units = c4_units,
};
