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
 * w[0] = 1 + from + 16 * to, so that `pass` is the all-zero move. */
#include "game.h"

#include <string.h>

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
	/* The previous turn's move, which the mover may not reverse; last_n is
	 * 0 after a pass and at the start (then nothing is forbidden). */
	uint8_t last_from, last_to, last_n;
	uint32_t turns;    /* turns played (moves and passes) */
	uint32_t maxturns; /* the game is a draw once turns reaches this */
};

/* The neighbours of every space, ending in -1, in the order moves() lists
 * them: down, left, right, up as showboard draws the board. */
static const int8_t nbr[SPACES][5] = {
	{1, 4, -1},    {0, 2, 5, -1},    {1, 3, 6, -1},     {2, 7, -1},
	{0, 5, 8, -1}, {1, 4, 6, 9, -1}, {2, 5, 7, 10, -1}, {3, 6, 11, -1},
	{4, 9, -1},    {5, 8, 10, -1},   {6, 9, 11, -1},    {7, 10, -1},
};

static int adjacent(int a, int b)
{
	for (const int8_t *p = nbr[a]; *p >= 0; p++)
		if (*p == b)
			return 1;
	return 0;
}

/* The height of three or four equal stacks in row y, or 0 when there are
 * none.  Any three of the row's four spaces include its first or its
 * second, so only those two heights need counting. */
static int row_win(const struct state *s, int y)
{
	const uint8_t *r = &s->cnt[SQ(0, y)];
	for (int i = 0; i < 2; i++) {
		int v = r[i], same = 0;
		if (!v)
			continue;
		for (int j = 0; j < COLS; j++)
			same += r[j] == v;
		if (same >= 3)
			return v;
	}
	return 0;
}

static struct move make_move(int from, int to)
{
	struct move m = {{0}};
	m.w[0] = (uint64_t)(1 + from + 16 * to);
	return m;
}

static int move_from(const struct move *m)
{
	return (int)((m->w[0] - 1) % 16);
}

static int move_to(const struct move *m)
{
	return (int)((m->w[0] - 1) / 16);
}

/* Whether from->to is the reverse of the previous turn's move under the
 * current die. */
static int takes_back(const struct state *s, int from, int to)
{
	return s->last_n == s->die && s->last_n && from == s->last_to &&
	       to == s->last_from;
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
	space_name(move_from(mv), buf);
	buf[2] = '-';
	space_name(move_to(mv), buf + 3);
}

/* The options a person sets; the keys only `position` writes (board, turns,
 * player, die, last) are read by init too, but not listed. */
static const struct game_option_spec tb_options[] = {
	{"first", OPT_INT, NULL, 1, 2, NULL},
	{"maxturns", OPT_INT, "1000", 1, 1000000, NULL},
	{NULL, OPT_INT, NULL, 0, 0, NULL},
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
	    *p || !adjacent(from, to) || n < 1 || n > 6)
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
	s->last_from = (uint8_t)from;
	s->last_to = (uint8_t)to;
	s->last_n = (uint8_t)n;
	return 0;
}

/* The winner, from the home rows: a turn that left equal stacks there
 * ended the game. */
static int set_winner(struct state *s, char *err)
{
	int h1 = row_win(s, 0), h2 = row_win(s, ROWS - 1);
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
	if (turns > s->maxturns)
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
	if (s->last_n) {
		char a[8], b[8];
		space_name(s->last_from, a);
		space_name(s->last_to, b);
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

static int over(const struct state *s)
{
	return s->winner || s->turns >= s->maxturns;
}

/* The moves of the die showing, without the pass. */
static int real_moves(const struct state *s, struct move *out)
{
	int n = 0;
	for (int from = 0; from < SPACES; from++) {
		if (s->cnt[from] < s->die)
			continue;
		for (const int8_t *p = nbr[from]; *p >= 0; p++)
			if (!takes_back(s, from, *p))
				out[n++] = make_move(from, *p);
	}
	return n;
}

static int tb_moves(const void *st, struct move *out)
{
	const struct state *s = st;
	if (!s->die || over(s))
		return 0;
	int n = real_moves(s, out);
	if (n == 0)
		out[n++] = (struct move){{0}};
	return n;
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
	if (mv->w[0] == 0) {
		/* a pass changes no stack, so it cannot make a win, and it
		 * forbids nothing on the next turn */
		s->last_from = s->last_to = s->last_n = 0;
	} else {
		int from = move_from(mv), to = move_to(mv);
		s->cnt[from] = (uint8_t)(s->cnt[from] - s->die);
		s->cnt[to] = (uint8_t)(s->cnt[to] + s->die);
		s->last_from = (uint8_t)from;
		s->last_to = (uint8_t)to;
		s->last_n = s->die;
		/* only rows 1 and 3 are home rows, and one move touches at
		 * most one of them, so at most one player can win here */
		for (int p = 1; p <= 2 && !s->winner; p++) {
			int h = row_win(s, p == 1 ? 0 : ROWS - 1);
			if (h) {
				s->winner = (uint8_t)p;
				s->win_size = (uint8_t)h;
			}
		}
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
	struct move list[MAX_MOVES];
	int n = real_moves(s, list);
	if (strcmp(text, "pass") == 0) {
		if (n) {
			char m[16];
			tb_format(s, &list[0], m);
			return game_fail(err,
					 "pass is legal only when no move "
					 "is (%d are, %s among them)",
					 n, m);
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
	if (!adjacent(from, to))
		return game_fail(err, "%s and %s are not orthogonally adjacent",
				 a, b);
	if (s->cnt[from] < s->die)
		return game_fail(err,
				 "%s has %d chips, fewer than the %d rolled", a,
				 s->cnt[from], s->die);
	if (takes_back(s, from, to))
		return game_fail(
			err, "%s-%s takes back the opponent's last move", a, b);
	*mv = make_move(from, to);
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
	if (s->last_n) {
		char a[8], b[8];
		space_name(s->last_to, a);
		space_name(s->last_from, b);
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
	for (int sq = 0; sq < SPACES; sq++) {
		space_name(sq, a);
		text_printf(out, "cell %s %d %d\n", a, sq % COLS, sq / COLS);
	}
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

static int tb_random_move(const void *st, struct rng *r, struct move *mv)
{
	struct move list[MAX_MOVES];
	int n = tb_moves(st, list);
	if (n == 0)
		return -1;
	*mv = list[rng_below(r, (uint32_t)n)];
	return 0;
}

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
	.random_move = tb_random_move,
};
