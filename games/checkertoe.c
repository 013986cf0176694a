/* checkertoe.c: Tic-Tac-Toe On A Checkerboard.
 *
 * Two players place checkers in turn on a 5x5 board, 12 each, so one square
 * stays empty.  At the end every three squares in a line (row, column or
 * diagonal) holding only one player's checkers, or those and the empty
 * square, count one tic-tac-toe for that player; a line of four therefore
 * counts two and a line of five three.  Most tic-tac-toes wins.
 *
 * Squares are numbered y * 8 + x on an 8-wide grid so that one 64-bit mask
 * per player holds the position. */
#include "game.h"

#include <stdio.h>
#include <string.h>

#define W 8 /* stride of a square number */
#define SQ(x, y) ((y) * W + (x))
#define BIT(sq) ((uint64_t)1 << (sq))

struct state {
	uint64_t men[2];  /* squares of player 1, player 2 */
	uint64_t area;    /* the squares of the board */
	uint8_t size;     /* the board is size x size */
	uint8_t first;    /* player who placed first: 1 or 2 */
	uint8_t placed;   /* checkers on the board */
	uint8_t total;    /* checkers in the game: 24 */
};

/* Every line of three squares inside an n x n board, as masks. */
struct lines {
	int n;
	uint64_t mask[2 * 8 * 8];
};

static const struct lines *lines_for(int size)
{
	static struct lines cache[9];
	struct lines *l = &cache[size];
	if (l->n)
		return l;
	static const int dir[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++)
			for (int d = 0; d < 4; d++) {
				int x2 = x + 2 * dir[d][0], y2 = y + 2 * dir[d][1];
				if (x2 < 0 || x2 >= size || y2 < 0 || y2 >= size)
					continue;
				l->mask[l->n++] = BIT(SQ(x, y)) |
						  BIT(SQ(x + dir[d][0], y + dir[d][1])) |
						  BIT(SQ(x2, y2));
			}
	return l;
}

static int to_move(const struct state *s)
{
	/* players alternate, starting with `first` */
	return (s->placed % 2 == 0) ? s->first : 3 - s->first;
}

static int ct_init(void *st, struct game_options *opt, uint64_t seed, char *err)
{
	struct state *s = st;
	long first = 0;
	if (opt_int(opt, "first", 1, 2, &first, err) < 0)
		return -1;
	if (!first) {
		/* the rules toss coins for the starting player */
		struct rng r;
		rng_seed(&r, seed);
		first = 1 + (long)rng_below(&r, 2);
	}
	s->size = 5;
	s->first = (uint8_t)first;
	s->total = 24;
	for (int y = 0; y < s->size; y++)
		for (int x = 0; x < s->size; x++)
			s->area |= BIT(SQ(x, y));
	return 0;
}

static void ct_describe(const void *st, struct text *out)
{
	const struct state *s = st;
	text_printf(out, "first=%d", s->first);
}

static int ct_players(const void *st)
{
	(void)st;
	return 2;
}

/* Tic-tac-toes of player p (0 or 1).  Once the game is over the empty
 * square counts for both players. */
static int count(const struct state *s, int p)
{
	const struct lines *l = lines_for(s->size);
	uint64_t ok = s->men[p];
	if (s->placed == s->total)
		ok |= s->area & ~(s->men[0] | s->men[1]);
	int n = 0;
	for (int i = 0; i < l->n; i++)
		n += (l->mask[i] & ~ok) == 0;
	return n;
}

static struct game_status ct_status(const void *st)
{
	const struct state *s = st;
	if (s->placed < s->total)
		return (struct game_status){GAME_PLAY, to_move(s)};
	int a = count(s, 0), b = count(s, 1);
	return (struct game_status){GAME_OVER, a > b ? 1 : b > a ? 2 : 0};
}

static int ct_moves(const void *st, struct move *out)
{
	const struct state *s = st;
	if (s->placed == s->total)
		return 0;
	uint64_t free_sq = s->area & ~(s->men[0] | s->men[1]);
	int n = 0;
	while (free_sq) {
		out[n++] = (struct move){{(uint64_t)__builtin_ctzll(free_sq)}};
		free_sq &= free_sq - 1;
	}
	return n;
}

static int ct_chance(const void *st, int *values, double *probs)
{
	(void)st, (void)values, (void)probs;
	return 0;
}

static void ct_roll(void *st, int value)
{
	(void)st, (void)value;
}

static void ct_play(void *st, const struct move *mv)
{
	struct state *s = st;
	s->men[to_move(s) - 1] |= BIT(mv->w[0]);
	s->placed++;
}

static int ct_parse(const void *st, const char *text, struct move *mv, char *err)
{
	const struct state *s = st;
	int x, y;
	const char *p = text;
	if (square_read(&p, &x, &y) < 0 || *p || x >= s->size || y < 0 ||
	    y >= s->size) {
		snprintf(err, GAME_ERR_MAX, "%s is not a square of the %dx%d board",
			 text, s->size, s->size);
		return -1;
	}
	if (s->placed == s->total) {
		snprintf(err, GAME_ERR_MAX, "the game is over");
		return -1;
	}
	int sq = SQ(x, y);
	if ((s->men[0] | s->men[1]) & BIT(sq)) {
		snprintf(err, GAME_ERR_MAX, "%s is occupied", text);
		return -1;
	}
	*mv = (struct move){{(uint64_t)sq}};
	return 0;
}

static void ct_format(const void *st, const struct move *mv, char *buf)
{
	(void)st;
	square_name((int)(mv->w[0] % W), (int)(mv->w[0] / W), buf);
}

static void ct_score(const void *st, int *points)
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
	for (int y = s->size - 1; y >= 0; y--) {
		text_printf(out, "%2d ", y + 1);
		for (int x = 0; x < s->size; x++) {
			uint64_t b = BIT(SQ(x, y));
			text_puts(out, s->men[0] & b ? " X" : s->men[1] & b ? " O" : " .");
		}
		text_putc(out, '\n');
	}
	text_puts(out, "   ");
	for (int x = 0; x < s->size; x++)
		text_printf(out, " %c", 'a' + x);
	text_putc(out, '\n');
	int left1 = s->total / 2 - __builtin_popcountll(s->men[0]);
	int left2 = s->total / 2 - __builtin_popcountll(s->men[1]);
	text_printf(out, "X player 1: %d in hand, %d tic-tac-toes\n", left1, pts[0]);
	text_printf(out, "O player 2: %d in hand, %d tic-tac-toes\n", left2, pts[1]);
	struct game_status g = ct_status(s);
	if (g.phase == GAME_PLAY)
		text_printf(out, "%c (player %d) to place\n", g.player == 1 ? 'X' : 'O',
			    g.player);
	else if (g.player)
		text_printf(out, "game over: player %d wins\n", g.player);
	else
		text_puts(out, "game over: draw\n");
}

static int ct_random_move(const void *st, struct rng *r, struct move *mv)
{
	const struct state *s = st;
	uint64_t free_sq = s->area & ~(s->men[0] | s->men[1]);
	if (s->placed == s->total || !free_sq)
		return -1;
	/* pick the k-th set bit */
	for (uint32_t k = rng_below(r, (uint32_t)__builtin_popcountll(free_sq)); k;
	     k--)
		free_sq &= free_sq - 1;
	*mv = (struct move){{(uint64_t)__builtin_ctzll(free_sq)}};
	return 0;
}

const struct game game_checkertoe = {
	.name = "checkertoe",
	.title = "Tic-Tac-Toe On A Checkerboard",
	.summary = "2 players; options first=1|2",
	.state_size = sizeof(struct state),
	.max_moves = 64,
	.init = ct_init,
	.describe = ct_describe,
	.players = ct_players,
	.status = ct_status,
	.moves = ct_moves,
	.chance = ct_chance,
	.roll = ct_roll,
	.play = ct_play,
	.parse = ct_parse,
	.format = ct_format,
	.score = ct_score,
	.show = ct_show,
	.random_move = ct_random_move,
};
