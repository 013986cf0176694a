/* takeitaway.c: Take It Away (Sid Sackson), for 2 to 4 players.
 *
 * 64 pieces (34 white, 20 red, 10 blue) fill an 8x8 board at random.  The
 * first move removes a white piece; after that every move is a chain of
 * jumps by any piece over its neighbours (8 directions) onto empty squares,
 * each jumped piece captured by the mover.  A chain goes on while the piece
 * can still jump.  A player may drop out ("take it away") at the start of a
 * turn; the last one left plays on alone and pays for what stays on the
 * board.  See protocol.md for the options, the notation and the keys of
 * `position`.  For the computer player the file ends with a greedy playout
 * policy (draw_chain), its playout loop, an evaluation and a key.
 *
 * Squares are numbered y * 8 + x (a1 = 0, h8 = 63), so three 64-bit masks
 * hold the board.  A move is packed into struct move:
 *   w[0] bits 0-1   kind: 1 removal, 2 drop, 3 jump chain
 *   w[0] bits 2-7   the removed square or the chain's start square
 *   w[0] bits 8-13  the number of jumps in the chain (1..48)
 *   w[1..3]         the jump directions, 3 bits each, 21 to a word
 * A chain captures at most 48 pieces (the jumper keeps the parity of its x
 * and of its y, so it only ever jumps over the 48 squares of the other three
 * parity classes), so 3 words of directions are plenty.  Every other bit is
 * zero, so equal moves compare equal with move_equal. */
#include "game.h"
#include "util/bits.h"

#include <stdio.h>
#include <string.h>

#define BIT(sq) ((uint64_t)1 << (sq))
#define FULL (~(uint64_t)0)
#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL
#define A8 56 /* the corner left empty in the plain game */

#define MAX_CHAIN 48     /* jumps in one chain, at most (see above) */
#define DIRS_PER_WORD 21 /* 3-bit directions in one 64-bit word */
#define OPEN_REMOVALS 8  /* removals that start the open game */

/* The number of complete chains can grow exponentially on a sparse board
 * (a chain may loop through squares it visited before), so no bound holds
 * for every state.  moves() lists at most MAX_MOVES of them, in its fixed
 * order, and stops there; parse() checks a chain on its own, so every
 * legal chain can still be played.  In 6 million positions of random games
 * the longest list held 7903 chains; a larger cap would mostly cost memory,
 * since the AI keeps buffers of max_moves moves (the solver one per ply). */
#define MAX_MOVES 16384

enum kind { K_REMOVE = 1, K_DROP = 2, K_JUMP = 3 };

/* Directions, counter-clockwise from east. */
static const int DX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int DY[8] = {0, 1, 1, 1, 0, -1, -1, -1};

struct state {
	uint64_t occ;                     /* squares holding a piece */
	uint64_t red, blue;               /* their colours; white is the rest */
	int16_t points[GAME_MAX_PLAYERS]; /* captured value */
	uint8_t caps[GAME_MAX_PLAYERS][3]; /* white, red, blue (not plain) */
	uint8_t nplayers;                  /* 2..4 */
	uint8_t to_move;                   /* 1..nplayers */
	uint8_t active;              /* bit p-1: player p has not dropped */
	uint8_t removals;            /* opening removals made (open) */
	uint8_t open, nodrop, plain; /* variants */
	uint8_t penalty;             /* 2 or 4; plain: 1, 2 or 4 */
};

/* ---- the board ---- */

/* Square steps of the directions (east, north-east, ... as DX, DY). */
static const int OFF[8] = {1, 9, 8, 7, -1, -9, -8, -7};

/* Columns a piece may jump from eastwards (a-f) and westwards (c-h). */
#define FROM_WEST (~(FILE_H | FILE_H >> 1))
#define FROM_EAST (~(FILE_A | FILE_A << 1))
/* Rows it may jump from northwards (1-6) and southwards (3-8). */
#define FROM_SOUTH (FULL >> 16)
#define FROM_NORTH (FULL << 16)

/* The squares from which a jump in direction d lands on the board. */
static const uint64_t JUMP_FROM[8] = {
	FROM_WEST, FROM_WEST &FROM_SOUTH, FROM_SOUTH, FROM_EAST &FROM_SOUTH,
	FROM_EAST, FROM_EAST &FROM_NORTH, FROM_NORTH, FROM_WEST &FROM_NORTH,
};

/* The pieces that can jump in each direction d: a piece next to them that
 * way and an empty square beyond.  Shifting by a step brings the square a
 * step away onto each square; a jump that would leave the board reads a
 * shifted-in 0 (no piece to jump, or no empty square) or is cut by the
 * column masks, so no direction wraps round an edge.  About 50
 * instructions for all 8, where a shift a step cost 20 a direction. */
static inline void jumper_sets(uint64_t occ, uint64_t *j)
{
	uint64_t e = ~occ;
	j[0] = occ & occ >> 1 & e >> 2 & FROM_WEST;
	j[1] = occ & occ >> 9 & e >> 18 & FROM_WEST;
	j[2] = occ & occ >> 8 & e >> 16;
	j[3] = occ & occ >> 7 & e >> 14 & FROM_EAST;
	j[4] = occ & occ << 1 & e << 2 & FROM_EAST;
	j[5] = occ & occ << 9 & e << 18 & FROM_EAST;
	j[6] = occ & occ << 8 & e << 16;
	j[7] = occ & occ << 7 & e << 14 & FROM_WEST;
}

static uint64_t all_jumpers(uint64_t occ)
{
	uint64_t j[8];
	jumper_sets(occ, j);
	return j[0] | j[1] | j[2] | j[3] | j[4] | j[5] | j[6] | j[7];
}

/* Can the piece on sq jump in direction d, with occ the other pieces? */
static inline int can_jump(uint64_t occ, int sq, int d)
{
	return (JUMP_FROM[d] >> sq & 1) && (occ >> (sq + OFF[d]) & 1) &&
	       !(occ >> (sq + 2 * OFF[d]) & 1);
}

static int can_jump_any(uint64_t occ, int sq)
{
	for (int d = 0; d < 8; d++)
		if (can_jump(occ, sq, d))
			return 1;
	return 0;
}

static int value(const struct state *s, int sq)
{
	if (s->plain)
		return 1;
	return (s->blue & BIT(sq)) ? 3 : (s->red & BIT(sq)) ? 2 : 1;
}

static int colour(const struct state *s, int sq)
{
	return (s->blue & BIT(sq)) ? 2 : (s->red & BIT(sq)) ? 1 : 0;
}

/* The value on the board: every piece counts 1, red 1 more, blue 2 more. */
static BITS_HOT int board_value(const struct state *s)
{
	if (s->plain)
		return bit_count(s->occ);
	return bit_count(s->occ) + bit_count(s->red) + 2 * bit_count(s->blue);
}

static int nactive(const struct state *s)
{
	return (s->active & 1) + (s->active >> 1 & 1) + (s->active >> 2 & 1) +
	       (s->active >> 3 & 1);
}

static int removal_phase(const struct state *s)
{
	return s->open ? s->removals < OPEN_REMOVALS : s->occ == FULL;
}

static int is_over(const struct state *s)
{
	return !removal_phase(s) && !all_jumpers(s->occ);
}

/* ---- the move encoding ---- */

static int mv_kind(const struct move *m)
{
	return (int)(m->w[0] & 3);
}

static int mv_square(const struct move *m)
{
	return (int)((m->w[0] >> 2) & 63);
}

static int mv_len(const struct move *m)
{
	return (int)((m->w[0] >> 8) & 63);
}

static int mv_dir(const struct move *m, int i)
{
	return (int)((m->w[1 + i / DIRS_PER_WORD] >>
		      (3 * (i % DIRS_PER_WORD))) &
		     7);
}

static struct move make_chain(int start, const uint8_t *dirs, int len)
{
	struct move m = {{K_JUMP | (uint64_t)start << 2 | (uint64_t)len << 8}};
	for (int i = 0; i < len; i++)
		m.w[1 + i / DIRS_PER_WORD] |= (uint64_t)dirs[i]
					      << (3 * (i % DIRS_PER_WORD));
	return m;
}

/* ---- set-up ---- */

/* The pieces of the set by colour (white, red, blue), and of the plain
 * game, whose pieces are all alike. */
static const int SET[3] = {34, 20, 10};
static const char *const COLOUR_NAME[3] = {"white", "red", "blue"};
#define PLAIN_SET 63

static int read_board(struct state *s, const char *b, char *err)
{
	if (strlen(b) != 64)
		return game_fail(
			err,
			"board= needs 64 characters (w, r, b or .), row 8 "
			"first; got %zu",
			strlen(b));
	for (int i = 0; i < 64; i++) {
		int sq = (7 - i / 8) * 8 + i % 8;
		switch (b[i]) {
		case 'w':
			break;
		case 'r':
			s->red |= BIT(sq);
			break;
		case 'b':
			s->blue |= BIT(sq);
			break;
		case '.':
			continue;
		default:
			return game_fail(err,
					 "board= may hold only w, r, b and . "
					 "(character %d)",
					 i + 1);
		}
		s->occ |= BIT(sq);
	}
	if (s->plain && s->occ == FULL)
		return game_fail(err, "plain needs a board with at least one "
				      "empty square");
	return 0;
}

static void random_board(struct state *s, uint64_t seed)
{
	char c[64];
	memset(c, 'w', 34);
	memset(c + 34, 'r', 20);
	memset(c + 54, 'b', 10);
	struct rng r;
	rng_seed(&r, seed);
	for (int i = 63; i > 0; i--) {
		int j = (int)rng_below(&r, (uint32_t)i + 1);
		char t = c[i];
		c[i] = c[j];
		c[j] = t;
	}
	s->occ = FULL;
	for (int sq = 0; sq < 64; sq++) {
		if (c[sq] == 'r')
			s->red |= BIT(sq);
		else if (c[sq] == 'b')
			s->blue |= BIT(sq);
	}
}

/* The variant: players, penalty, open, nodrop, plain, and the refusals of
 * options that cannot be combined or would do nothing. */
static int read_variant(struct state *s, struct game_options *opt, char *err)
{
	long players = 2, penalty = 0;
	int open = 0, nodrop = -1, plain = 0;
	if (opt_int(opt, "players", 2, 4, &players, err) < 0 ||
	    opt_flag(opt, "open", &open, err) < 0 ||
	    opt_flag(opt, "nodrop", &nodrop, err) < 0 ||
	    opt_flag(opt, "plain", &plain, err) < 0)
		return -1;
	if (plain && open)
		return game_fail(err, "plain and open cannot be combined: the "
				      "plain game starts with jumps");
	if (plain && players != 2)
		return game_fail(err, "plain is a game for 2 players");
	if (opt_int(opt, "penalty", 1, 4, &penalty, err) < 0 || penalty == 3 ||
	    (penalty == 1 && !plain))
		return game_fail(err, plain ? "penalty must be 1, 2 or 4"
					    : "penalty must be 2 or 4 (1 is "
					      "the plain game's)");
	if (nodrop < 0)
		nodrop = plain; /* the plain game drops nobody by default */
	if (!penalty)
		penalty = plain ? 1 : 2;
	else if (nodrop && penalty != (plain ? 1 : 2))
		return game_fail(err,
				 "penalty=%ld counts only when players may "
				 "drop out: %s",
				 penalty,
				 plain ? "add nodrop=0 (the plain game's "
					 "drop-out variation)"
				       : "leave out nodrop");
	s->nplayers = (uint8_t)players;
	s->penalty = (uint8_t)penalty;
	s->open = (uint8_t)open;
	s->nodrop = (uint8_t)nodrop;
	s->plain = (uint8_t)plain;
	s->to_move = 1;
	s->active = (uint8_t)((1u << s->nplayers) - 1);
	return 0;
}

/* Reads a number from 0 to max at *p, digits only, and moves *p past it. */
static int read_num(const char **p, int max, int *out)
{
	int v = 0, digits = 0;
	for (; **p >= '0' && **p <= '9'; (*p)++)
		if (++digits > 3 || (v = v * 10 + (**p - '0')) > max)
			return -1;
	if (!digits)
		return -1;
	*out = v;
	return 0;
}

/* captured=W:R:B,W:R:B,... (plain: N,N): each player's captures, by
 * colour or, in the plain game, as a count of pieces. */
static int read_captured(struct state *s, const char *v, char *err)
{
	int per = s->plain ? 1 : 3;
	const char *p = v;
	for (int pl = 0; pl < s->nplayers; pl++) {
		int c[3] = {0, 0, 0};
		for (int k = 0; k < per; k++) {
			char want = k + 1 < per            ? ':'
				    : pl + 1 < s->nplayers ? ','
							   : '\0';
			if (read_num(&p, 64, &c[k]) < 0 || *p != want)
				return game_fail(
					err,
					s->plain ? "captured= gives the pieces "
						   "each player captured, "
						   "separated by commas: "
						   "captured=3,2"
						 : "captured= gives the white, "
						   "red and blue pieces each "
						   "player captured, players "
						   "separated by commas: "
						   "captured=2:1:0,1:0:1");
			p += *p != '\0';
		}
		s->points[pl] = (int16_t)(c[0] + 2 * c[1] + 3 * c[2]);
		if (!s->plain)
			for (int k = 0; k < 3; k++)
				s->caps[pl][k] = (uint8_t)c[k];
	}
	return 0;
}

/* Board and captures together hold no more pieces than the game has. */
static int check_counts(const struct state *s, char *err)
{
	if (s->plain) {
		int n = bit_count(s->occ);
		for (int p = 0; p < s->nplayers; p++)
			n += s->points[p];
		if (n > PLAIN_SET)
			return game_fail(err,
					 "board= and captured= hold %d pieces; "
					 "the plain game has %d",
					 n, PLAIN_SET);
		return 0;
	}
	uint64_t white = s->occ & ~s->red & ~s->blue;
	int n[3] = {bit_count(white), bit_count(s->red), bit_count(s->blue)};
	for (int c = 0; c < 3; c++) {
		for (int p = 0; p < s->nplayers; p++)
			n[c] += s->caps[p][c];
		if (n[c] > SET[c])
			return game_fail(err,
					 "board= and captured= hold %d %s "
					 "pieces; the set has only %d",
					 n[c], COLOUR_NAME[c], SET[c]);
	}
	return 0;
}

/* dropped=none or dropped=P,Q,...: the players who left the game. */
static int read_dropped(struct state *s, const char *v, char *err)
{
	if (!strcmp(v, "none"))
		return 0;
	if (s->nodrop)
		return game_fail(err, "dropped= must be none: dropping out is "
				      "off in this game");
	const char *p = v;
	for (;;) {
		int pl;
		if (read_num(&p, s->nplayers, &pl) < 0 || pl < 1 ||
		    (*p && *p != ','))
			return game_fail(err,
					 "dropped= lists players 1 to %d who "
					 "dropped out, separated by commas, or "
					 "is none",
					 s->nplayers);
		if (!(s->active >> (pl - 1) & 1))
			return game_fail(err, "dropped= names player %d twice",
					 pl);
		s->active &= (uint8_t) ~(1u << (pl - 1));
		if (!*p++)
			break;
	}
	if (!s->active)
		return game_fail(err, "dropped= names every player: the last "
				      "one left may not drop");
	return 0;
}

/* removals=N (the open game only): the opening removals made.  While some
 * are still due, the captures are exactly those white pieces, and the
 * board must hold a white piece for the next one. */
static int read_removals(struct state *s, struct game_options *opt, char *err)
{
	long n = -1;
	if (opt_int(opt, "removals", 0, OPEN_REMOVALS, &n, err) < 0)
		return -1;
	if (n < 0)
		return s->open && s->occ != FULL
			       ? game_fail(err,
					   "open needs a full board: its first "
					   "8 moves remove white pieces (a "
					   "position says removals=N)")
			       : 0;
	if (!s->open)
		return game_fail(err, "removals= counts the open game's "
				      "removals; this game is not open");
	s->removals = (uint8_t)n;
	int white = 0, all = 0;
	for (int p = 0; p < s->nplayers; p++) {
		white += s->caps[p][0];
		all += s->caps[p][0] + s->caps[p][1] + s->caps[p][2];
	}
	if (n < OPEN_REMOVALS && (white != n || all != n))
		return game_fail(err,
				 "removals=%ld: until the 8th removal the "
				 "captures are just the %ld white pieces "
				 "removed, but captured= holds %d pieces",
				 n, n, all);
	if (n == OPEN_REMOVALS && white < n)
		return game_fail(err,
				 "removals=8 took 8 white pieces, but "
				 "captured= holds only %d",
				 white);
	if (n < OPEN_REMOVALS && !(s->occ & ~s->red & ~s->blue))
		return game_fail(err,
				 "removals=%ld leaves a removal due, but "
				 "the board has no white piece",
				 n);
	return 0;
}

/* The keys only `position` writes: captures, drop-outs, the turn and the
 * open game's removals.  Absent keys keep the start of a game. */
static int read_play(struct state *s, struct game_options *opt, char *err)
{
	const char *v = opt_str(opt, "captured");
	if (v && read_captured(s, v, err) < 0)
		return -1;
	if (check_counts(s, err) < 0)
		return -1;
	if ((v = opt_str(opt, "dropped")) && read_dropped(s, v, err) < 0)
		return -1;
	long turn = 1;
	if (opt_int(opt, "turn", 1, s->nplayers, &turn, err) < 0)
		return -1;
	if (!(s->active >> (turn - 1) & 1))
		return game_fail(err, "turn=%ld names a player who dropped out",
				 turn);
	s->to_move = (uint8_t)turn;
	return read_removals(s, opt, err);
}

static int ta_init(void *st, struct game_options *opt, uint64_t seed, char *err)
{
	struct state *s = st;
	if (read_variant(s, opt, err) < 0)
		return -1;
	const char *b = opt_str(opt, "board");
	if (b) {
		if (read_board(s, b, err) < 0)
			return -1;
	} else if (s->plain) {
		s->occ = FULL & ~BIT(A8);
	} else {
		random_board(s, seed);
	}
	return read_play(s, opt, err);
}

/* The board as board= writes it: row 8 first, w r b or . a square. */
static void write_board(const struct state *s, char *b)
{
	for (int i = 0; i < 64; i++) {
		int sq = (7 - i / 8) * 8 + i % 8;
		b[i] = !(s->occ & BIT(sq)) ? '.' : "wrb"[colour(s, sq)];
	}
	b[64] = '\0';
}

static void ta_describe(const void *st, struct text *out)
{
	const struct state *s = st;
	char b[65];
	write_board(s, b);
	text_printf(out,
		    "players=%d board=%s open=%d nodrop=%d penalty=%d plain=%d",
		    s->nplayers, b, s->open, s->nodrop, s->penalty, s->plain);
}

static void ta_position(const void *st, struct text *out)
{
	const struct state *s = st;
	ta_describe(s, out);
	text_puts(out, " captured=");
	for (int p = 0; p < s->nplayers; p++) {
		if (p)
			text_putc(out, ',');
		if (s->plain)
			text_printf(out, "%d", s->points[p]);
		else
			text_printf(out, "%d:%d:%d", s->caps[p][0],
				    s->caps[p][1], s->caps[p][2]);
	}
	text_puts(out, " dropped=");
	if (nactive(s) == s->nplayers)
		text_puts(out, "none");
	for (int p = 0, n = 0; p < s->nplayers; p++)
		if (!(s->active >> p & 1))
			text_printf(out, "%s%d", n++ ? "," : "", p + 1);
	text_printf(out, " turn=%d", s->to_move);
	if (s->open)
		text_printf(out, " removals=%d", s->removals);
}

static const struct game_option_spec ta_options[] = {
	{.key = "players", .type = OPT_INT, .def = "2", .min = 2, .max = 4},
	{.key = "board",
	 .type = OPT_STRING,
	 .pattern = "[wrb.]{64}",
	 .example =
		 "rwrwbwbwbrwwrbwwwwrwwbwwbwwwrwbwrwwbrrwwrbwwrwwrwwrrwrbwrrrrr"
		 "www"},
	{.key = "open", .type = OPT_BOOL, .def = "0", .excludes = "plain"},
	/* the defaults of these two depend on plain */
	{.key = "nodrop", .type = OPT_BOOL},
	{.key = "penalty",
	 .type = OPT_ENUM,
	 .values = "1 2 4",
	 .requires = "nodrop=0"},
	{.key = "plain",
	 .type = OPT_BOOL,
	 .def = "0",
	 .requires = "players=2",
	 .excludes = "open"},
	{0},
};

static int ta_players(const void *st)
{
	const struct state *s = st;
	return s->nplayers;
}

/* ---- score and status ---- */

static void ta_score(const void *st, int *points)
{
	const struct state *s = st;
	/* the last player left pays for the pieces that stay, once it is over
	 */
	int pay =
		nactive(s) == 1 && is_over(s) ? s->penalty * board_value(s) : 0;
	for (int p = 0; p < s->nplayers; p++)
		points[p] = s->points[p] - ((s->active >> p & 1) ? pay : 0);
}

static struct game_status ta_status(const void *st)
{
	const struct state *s = st;
	if (!is_over(s))
		return (struct game_status){GAME_PLAY, s->to_move};
	int pts[GAME_MAX_PLAYERS], best = 0;
	ta_score(s, pts);
	for (int p = 1; p < s->nplayers; p++)
		if (pts[p] > pts[best])
			best = p;
	for (int p = 0; p < s->nplayers; p++)
		if (p != best && pts[p] == pts[best])
			return (struct game_status){GAME_OVER, 0};
	return (struct game_status){GAME_OVER, best + 1};
}

/* ---- listing moves ---- */

struct gen {
	struct move *out;
	int n, cap;
	int start;
	uint8_t dirs[MAX_CHAIN];
};

/* Extends the chain of the piece now on sq (occ without that piece); every
 * chain that cannot go on is written out.  Returns -1 once the list is
 * full. */
static int extend(struct gen *g, uint64_t occ, int sq, int len)
{
	int any = 0;
	for (int d = 0; d < 8; d++) {
		if (!can_jump(occ, sq, d))
			continue;
		any = 1;
		if (len >= MAX_CHAIN) /* impossible by parity; never overrun */
			break;
		g->dirs[len] = (uint8_t)d;
		if (extend(g, occ & ~BIT(sq + OFF[d]), sq + 2 * OFF[d],
			   len + 1) < 0)
			return -1;
	}
	if (!any || len >= MAX_CHAIN) {
		if (g->n >= g->cap)
			return -1;
		if (g->out)
			g->out[g->n] = make_chain(g->start, g->dirs, len);
		g->n++;
	}
	return 0;
}

/* Lists the jump chains from the pieces in `jumps` after the n moves out
 * holds (out NULL: counts them only).  Returns how many moves in all, or
 * -1 when there were more than MAX_MOVES. */
static int chains(const struct state *s, uint64_t jumps, struct move *out,
		  int n)
{
	struct gen g = {.out = out, .n = n, .cap = MAX_MOVES};
	for (uint64_t b = jumps; b; b &= b - 1) {
		g.start = bit_first(b);
		if (extend(&g, s->occ & ~BIT(g.start), g.start, 0) < 0)
			return -1;
	}
	return g.n;
}

static int ta_moves(const void *st, struct move *out)
{
	const struct state *s = st;
	int removal = removal_phase(s), n = 0;
	uint64_t jumps = removal ? 0 : all_jumpers(s->occ);
	if (!removal && !jumps)
		return 0; /* over */
	if (!s->nodrop && nactive(s) > 1)
		out[n++] = (struct move){{K_DROP}};
	if (removal) {
		for (uint64_t b = s->occ & ~s->red & ~s->blue; b; b &= b - 1)
			out[n++] = (struct move){
				{K_REMOVE | (uint64_t)bit_first(b) << 2}};
		return n;
	}
	n = chains(s, jumps, out, n);
	return n < 0 ? MAX_MOVES : n;
}

/* Whether moves() lists only MAX_MOVES of more chains. */
static int ta_moves_cut(const void *st)
{
	const struct state *s = st;
	if (removal_phase(s))
		return 0;
	return chains(s, all_jumpers(s->occ), NULL, 0) < 0;
}

/* ---- playing ---- */

static void next_player(struct state *s)
{
	for (int i = 1; i <= s->nplayers; i++) {
		int p = (s->to_move - 1 + i) % s->nplayers;
		if (s->active >> p & 1) {
			s->to_move = (uint8_t)(p + 1);
			return;
		}
	}
}

static void capture(struct state *s, int sq)
{
	int p = s->to_move - 1;
	s->points[p] = (int16_t)(s->points[p] + value(s, sq));
	if (!s->plain) /* plain pieces are all alike: points count them */
		s->caps[p][colour(s, sq)]++;
	s->occ &= ~BIT(sq);
	s->red &= ~BIT(sq);
	s->blue &= ~BIT(sq);
}

/* An opening removal: the white piece on sq goes to the mover. */
static void remove_piece(struct state *s, int sq)
{
	capture(s, sq);
	s->removals = (uint8_t)(s->removals + s->open);
}

/* Moves the piece on sq along dirs[0..len-1], capturing each piece it
 * jumps; the jumper carries its colour along. */
static void apply_chain(struct state *s, int sq, const uint8_t *dirs, int len)
{
	uint64_t red = s->red & BIT(sq), blue = s->blue & BIT(sq);
	s->occ &= ~BIT(sq);
	s->red &= ~BIT(sq);
	s->blue &= ~BIT(sq);
	for (int i = 0; i < len; i++) {
		capture(s, sq + OFF[dirs[i]]);
		sq += 2 * OFF[dirs[i]];
	}
	s->occ |= BIT(sq);
	if (red)
		s->red |= BIT(sq);
	if (blue)
		s->blue |= BIT(sq);
}

static void ta_play(void *st, const struct move *mv)
{
	struct state *s = st;
	uint8_t dirs[MAX_CHAIN];
	int len = mv_len(mv);
	switch (mv_kind(mv)) {
	case K_DROP:
		s->active &= (uint8_t) ~(1u << (s->to_move - 1));
		break;
	case K_REMOVE:
		remove_piece(s, mv_square(mv));
		break;
	case K_JUMP:
		for (int i = 0; i < len; i++)
			dirs[i] = (uint8_t)mv_dir(mv, i);
		apply_chain(s, mv_square(mv), dirs, len);
		break;
	}
	next_player(s);
}

/* ---- move text ---- */

/* "drop": allowed unless the variant forbids it or the mover is alone. */
static int parse_drop(const struct state *s, struct move *mv, char *err)
{
	if (s->nodrop)
		return game_fail(err, "dropping out is off in this game");
	if (nactive(s) == 1)
		return game_fail(err, "the last player left may not drop");
	*mv = (struct move){{K_DROP}};
	return 0;
}

/* Reads squares a1-h8 joined by '-' into sq[]; *n gets how many. */
static int read_squares(const char *text, int *sq, int *n, char *err)
{
	const char *p = text;
	char c[24];
	for (*n = 0;; p++) {
		int x, y;
		const char *at = p;
		if (square_read(&p, &x, &y) < 0 || x > 7 || y < 0 || y > 7) {
			if (!*at)
				return game_fail(err, "a square must follow -");
			game_clean(at, c, sizeof c);
			return game_fail(
				err, "%s: expected a square a1-h8 or drop", c);
		}
		if (*n > MAX_CHAIN)
			return game_fail(err, "a chain has at most %d jumps",
					 MAX_CHAIN);
		sq[(*n)++] = y * 8 + x;
		if (!*p)
			return 0;
		if (*p != '-') {
			game_clean(p, c, sizeof c);
			return game_fail(
				err, "%s: squares of a chain are joined by -",
				c);
		}
	}
}

/* A single square in the removal phase: a white piece to take. */
static int parse_removal(const struct state *s, const int *sq, int n,
			 struct move *mv, char *err)
{
	char name[8];
	square_name(sq[0] % 8, sq[0] / 8, name);
	if (n > 1)
		return game_fail(err,
				 "no jumps yet: remove a white piece first");
	if (!(s->occ & BIT(sq[0])) || colour(s, sq[0]) != 0)
		return game_fail(err, "%s holds no white piece", name);
	*mv = (struct move){{K_REMOVE | (uint64_t)sq[0] << 2}};
	return 0;
}

/* The direction of the jump from a to b (squares two apart in a line), or
 * -1 when b is not two steps from a. */
static int jump_dir(int a, int b)
{
	int dx = b % 8 - a % 8, dy = b / 8 - a / 8;
	for (int d = 0; d < 8; d++)
		if (2 * DX[d] == dx && 2 * DY[d] == dy)
			return d;
	return -1;
}

/* A chain sq[0]-sq[1]-...: every step a jump over a piece onto an empty
 * square, and the piece unable to go on at the end. */
static int parse_chain(const struct state *s, const int *sq, int n,
		       struct move *mv, char *err)
{
	char a[8], b[8];
	square_name(sq[0] % 8, sq[0] / 8, a);
	if (n == 1)
		return game_fail(err,
				 "a jump is written as its squares: %s-... "
				 "(the board has an empty square, so no "
				 "removal)",
				 a);
	if (!(s->occ & BIT(sq[0])))
		return game_fail(err, "%s is empty", a);
	uint64_t occ = s->occ & ~BIT(sq[0]);
	uint8_t dirs[MAX_CHAIN];
	for (int i = 1; i < n; i++) {
		square_name(sq[i - 1] % 8, sq[i - 1] / 8, a);
		square_name(sq[i] % 8, sq[i] / 8, b);
		int d = jump_dir(sq[i - 1], sq[i]);
		if (d < 0)
			return game_fail(err,
					 "%s-%s is not a jump: a jump goes "
					 "exactly 2 squares in a line",
					 a, b);
		if (!(occ & BIT(sq[i - 1] + OFF[d])))
			return game_fail(
				err, "%s-%s jumps over an empty square", a, b);
		if (occ & BIT(sq[i]))
			return game_fail(err, "%s-%s lands on a piece", a, b);
		dirs[i - 1] = (uint8_t)d;
		occ &= ~BIT(sq[i - 1] + OFF[d]);
	}
	if (can_jump_any(occ, sq[n - 1]))
		return game_fail(err,
				 "the chain stops early: the piece on %s can "
				 "still jump",
				 b);
	*mv = make_chain(sq[0], dirs, n - 1);
	return 0;
}

/* The engine calls parse only while a move is due (never once the game is
 * over), so the state always has a mover here. */
static int ta_parse(const void *st, const char *text, struct move *mv,
		    char *err)
{
	const struct state *s = st;
	if (strcmp(text, "drop") == 0)
		return parse_drop(s, mv, err);
	int sq[MAX_CHAIN + 1], n;
	if (read_squares(text, sq, &n, err) < 0)
		return -1;
	if (removal_phase(s))
		return parse_removal(s, sq, n, mv, err);
	return parse_chain(s, sq, n, mv, err);
}

static void ta_format(const void *st, const struct move *mv, char *buf)
{
	(void)st;
	int sq = mv_square(mv);
	if (mv_kind(mv) == K_DROP) {
		strcpy(buf, "drop");
		return;
	}
	square_name(sq % 8, sq / 8, buf);
	if (mv_kind(mv) != K_JUMP)
		return;
	size_t at = strlen(buf);
	for (int i = 0, len = mv_len(mv); i < len; i++) {
		sq += 2 * OFF[mv_dir(mv, i)];
		buf[at++] = '-';
		square_name(sq % 8, sq / 8, buf + at);
		at += strlen(buf + at);
	}
}

/* ---- drawing ---- */

/* The line under the board: values, what is left, penalty or no drops. */
static void show_rules(const struct state *s, struct text *out)
{
	if (s->plain) {
		text_printf(out,
			    "plain game: every piece is worth 1; on the board "
			    "%d; ",
			    board_value(s));
		if (s->nodrop)
			text_puts(out, "no dropping out\n");
		else
			text_printf(out, "penalty %dx\n", s->penalty);
		return;
	}
	text_printf(out,
		    "W white 1, R red 2, B blue 3; on the board %d; "
		    "penalty %dx%s\n",
		    board_value(s), s->penalty,
		    s->nodrop ? ", no dropping out" : "");
}

/* One line a player: captures, score, dropped or to move. */
static void show_players(const struct state *s, struct text *out)
{
	int pts[GAME_MAX_PLAYERS], over = is_over(s);
	ta_score(s, pts);
	for (int p = 0; p < s->nplayers; p++) {
		if (s->plain)
			text_printf(out, "player %d: captured %d, score %d",
				    p + 1, s->points[p], pts[p]);
		else
			text_printf(out,
				    "player %d: captured %dW %dR %dB, score %d",
				    p + 1, s->caps[p][0], s->caps[p][1],
				    s->caps[p][2], pts[p]);
		text_puts(out, !(s->active >> p & 1) ? " (dropped)\n"
			       : (!over && p + 1 == s->to_move)
				       ? " <- to move\n"
				       : "\n");
	}
}

static void ta_show(const void *st, struct text *out)
{
	const struct state *s = st;
	text_puts(out, "   a b c d e f g h\n");
	for (int y = 7; y >= 0; y--) {
		text_printf(out, "%d ", y + 1);
		for (int x = 0; x < 8; x++) {
			int sq = y * 8 + x;
			text_putc(out, ' ');
			text_putc(out, (s->occ & BIT(sq)) ? "WRB"[colour(s, sq)]
							  : '.');
		}
		text_printf(out, "  %d\n", y + 1);
	}
	text_puts(out, "   a b c d e f g h\n");
	show_rules(s, out);
	show_players(s, out);
	struct game_status g = ta_status(s);
	if (g.phase == GAME_PLAY) {
		if (removal_phase(s))
			text_printf(out, "player %d to remove a white piece",
				    g.player);
		else
			text_printf(out, "player %d to jump", g.player);
		if (s->open && removal_phase(s))
			text_printf(out, " (open game: removal %d of %d)",
				    s->removals + 1, OPEN_REMOVALS);
		if (nactive(s) == 1)
			text_puts(out, " (alone)");
		text_putc(out, '\n');
	} else if (g.player) {
		text_printf(out, "game over: player %d wins\n", g.player);
	} else {
		text_puts(out, "game over: draw\n");
	}
}

/* ---- for frontends (protocol.md, "Discovery") ---- */

static void ta_turn(const void *st, struct game_turn *out)
{
	const struct state *s = st;
	struct game_status g = ta_status(s);
	out->out = ~(unsigned)s->active & ((1u << s->nplayers) - 1);
	if (g.phase == GAME_OVER) {
		int pts[GAME_MAX_PLAYERS];
		ta_score(s, pts);
		out->phase = "over";
		if (g.player)
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: player %d wins with %d points",
				 g.player, pts[g.player - 1]);
		else
			snprintf(out->prompt, sizeof out->prompt,
				 "game over: a draw");
		return;
	}
	int drop = !s->nodrop && nactive(s) > 1;
	out->also = drop ? "drop" : NULL;
	const char *tail = drop              ? ", or drop out"
			   : nactive(s) == 1 ? " (alone: no dropping out)"
					     : "";
	if (removal_phase(s)) {
		out->phase = "remove";
		if (s->open) {
			out->step = s->removals + 1;
			out->steps = OPEN_REMOVALS;
		}
		char count[32] = "";
		if (s->open)
			snprintf(count, sizeof count, " (removal %d of %d)",
				 out->step, out->steps);
		snprintf(out->prompt, sizeof out->prompt,
			 "player %d: remove a white piece%s%s", g.player, count,
			 tail);
		return;
	}
	out->phase = "jump";
	snprintf(out->prompt, sizeof out->prompt,
		 "player %d: jump a piece over a neighbour onto an empty "
		 "square; it jumps on as long as it can%s",
		 g.player, tail);
}

/* Each player's captures by colour (pieces leave no trace of where they
 * were taken, so captures have no cells), then, once the last player left
 * has finished, the pieces left that count against them. */
static void ta_units(const void *st, struct text *out)
{
	const struct state *s = st;
	static const char *const name[3] = {"white", "red", "blue"};
	for (int p = 0; p < s->nplayers; p++) {
		if (s->plain) {
			if (s->points[p])
				text_printf(out,
					    "unit capture player %d points %d "
					    "pieces %d\n",
					    p + 1, s->points[p], s->points[p]);
			continue;
		}
		for (int c = 0; c < 3; c++)
			if (s->caps[p][c])
				text_printf(out,
					    "unit capture player %d points %d "
					    "pieces %d colour %s\n",
					    p + 1, s->caps[p][c] * (c + 1),
					    s->caps[p][c], name[c]);
	}
	if (nactive(s) != 1 || !is_over(s) || !s->occ)
		return;
	int last = bit_first(s->active) + 1;
	text_printf(out, "unit penalty player %d points %d pieces %d cells",
		    last, -s->penalty * board_value(s), bit_count(s->occ));
	for (uint64_t b = s->occ; b; b &= b - 1) {
		char sq[4];
		square_name(bit_first(b) % 8, bit_first(b) / 8, sq);
		text_printf(out, " %s", sq);
	}
	text_putc(out, '\n');
}

/* The pieces, nobody's, by colour, and what each player has captured (in
 * the plain game, where pieces are all alike, as white ones). */
static void ta_contents(const void *st, struct game_contents *out)
{
	const struct state *s = st;
	for (uint64_t b = s->occ; b; b &= b - 1) {
		int sq = bit_first(b);
		out->site[sq].kind = (uint8_t)colour(s, sq);
		out->site[sq].count = 1;
	}
	for (int p = 0; p < s->nplayers; p++) {
		if (s->plain)
			out->store[p][0] = s->points[p];
		else
			for (int c = 0; c < 3; c++)
				out->store[p][c] = s->caps[p][c];
	}
}

/* The 64 cells, the words and the separator of the moves, then each
 * board= letter with its value. */
static void ta_geometry(const void *st, struct text *out)
{
	const struct state *s = st;
	square_cells(8, 8, out);
	if (!s->nodrop)
		text_puts(out, "word drop\n");
	text_puts(out, "sep -\n");
	for (int c = 0; c < 3; c++)
		text_printf(out, "piece %c %d\n", "wrb"[c],
			    s -> plain ? 1 : c + 1);
}

/* ---- for the AI ---- */

/* A random white piece of the set `white` (not empty), for a removal. */
BITS_INLINE int draw_removal(uint64_t white, struct rng *r)
{
	return bit_select(white, (int)rng_below(r, (uint32_t)bit_count(white)));
}

/* The pieces whose jump in direction d takes a piece of `colour` (a
 * mask of pieces): the jumpers j of that direction, with a piece of that
 * colour next to them that way. */
static inline uint64_t jumps_over(uint64_t j, uint64_t colour, int d)
{
	int o = OFF[d];
	return j & (o > 0 ? colour >> o : colour << -o);
}

/* The playout policy, a greedy player with random ties: the first jump
 * takes the most valuable piece any jump can take (a random one of those
 * jumps), and at every later step of the chain the piece again jumps
 * over the most valuable of its neighbours it can jump (a random one of
 * those).  Writes the start square and the directions; returns the
 * length, 0 when no piece can jump.
 *
 * Measured at movetime 50, 200 games each (both seats): uniformly random
 * jumps lost 36.5% to 63.5% (100 games) against jumps weighted by the
 * value they take (1, 2, 3), which lost 46.5% to weights 1, 4, 9, which
 * lost 44.8% to 1, 9, 30, which lost 45.8% to 1, 20, 400, which lost
 * 41.5% to 1, 1000, 10^6: the greedier, the stronger. */
BITS_INLINE int draw_chain(const struct state *s, struct rng *r, int *start,
			   uint8_t *dirs)
{
	uint64_t occ = s->occ, j[8], cls[8];
	int cnt[8], total = 0;
	jumper_sets(occ, j);
	/* blue first, then red, then any jump (only white ones are left) */
	for (int c = s->plain ? 2 : 0; c < 3 && !total; c++)
		for (int d = 0; d < 8; d++) {
			cls[d] = c == 2 ? j[d]
					: jumps_over(j[d], c ? s->red : s->blue,
						     d);
			total += cnt[d] = bit_count(cls[d]);
		}
	if (!total)
		return 0;
	int k = (int)rng_below(r, (uint32_t)total), d = 0;
	while (k >= cnt[d])
		k -= cnt[d++];
	int sq = *start = bit_select(cls[d], k), len = 0;
	occ &= ~BIT(sq);
	for (;;) {
		dirs[len++] = (uint8_t)d;
		occ &= ~BIT(sq + OFF[d]);
		sq += 2 * OFF[d];
		if (len >= MAX_CHAIN)
			break;
		int can[8], n = 0, best = 0;
		for (int e = 0; e < 8; e++) {
			if (!can_jump(occ, sq, e))
				continue;
			int v = value(s, sq + OFF[e]);
			if (v > best)
				best = v, n = 0;
			if (v == best)
				can[n++] = e;
		}
		if (!n)
			break;
		d = can[rng_below(r, (uint32_t)n)];
	}
	return len;
}

/* The playout policy's move: a greedy chain (draw_chain), or in the
 * removal phase a random white piece.  Never drops: playouts then measure
 * what the board is worth when played out, which is what decides whether
 * dropping pays.  The search's playouts call it, so it is the policy even
 * where the search does not use playout(). */
static BITS_HOT int ta_random_move(const void *st, struct rng *r,
				   struct move *mv)
{
	const struct state *s = st;
	if (removal_phase(s)) {
		uint64_t w = s->occ & ~s->red & ~s->blue;
		if (!w)
			return -1;
		*mv = (struct move){
			{K_REMOVE | (uint64_t)draw_removal(w, r) << 2}};
		return 0;
	}
	uint8_t dirs[MAX_CHAIN];
	int start, len = draw_chain(s, r, &start, dirs);
	if (!len)
		return -1;
	*mv = make_chain(start, dirs, len);
	return 0;
}

/* The playout of random_move and play in one loop over the state: the
 * same draws from r, so the same games, without encoding and decoding
 * each move or asking for the status in between.  27,986 instructions a
 * playout from the opening (scripts/tools/playout-cost takeitaway ""), where
 * uniformly random jumps took 18,994. */
static BITS_HOT int ta_playout(void *st, struct rng *r, int max_plies)
{
	struct state *s = st;
	uint8_t dirs[MAX_CHAIN];
	int plies = 0, start, len;
	for (; plies < max_plies; plies++) {
		if (removal_phase(s)) {
			uint64_t w = s->occ & ~s->red & ~s->blue;
			if (!w)
				break;
			remove_piece(s, draw_removal(w, r));
		} else if ((len = draw_chain(s, r, &start, dirs))) {
			apply_chain(s, start, dirs, len);
		} else {
			break;
		}
		next_player(s);
	}
	return plies;
}

/* A 64-bit mix of x (the splitmix64 finaliser). */
static uint64_t mix64(uint64_t x)
{
	x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ x >> 27) * 0x94d049bb133111ebULL;
	return x ^ x >> 31;
}

/* What decides the rest of the game: the board, each player's points, who
 * is to move, who is still in, the removals and the variant.  The colours
 * of each player's captures are left out (only their value counts), so
 * that a solver's table meets once the transpositions that differ only in
 * who took which colour.  The board's 8 symmetries are no help: a game
 * from a random board never meets a mirror image of its own position. */
static uint64_t ta_key(const void *st)
{
	const struct state *s = st;
	uint64_t pts = 0, small;
	for (int p = 0; p < GAME_MAX_PLAYERS; p++)
		pts |= (uint64_t)(uint16_t)s->points[p] << (16 * p);
	small = (uint64_t)s->to_move | (uint64_t)s->active << 8 |
		(uint64_t)s->removals << 16 | (uint64_t)s->nplayers << 24 |
		(uint64_t)s->penalty << 32 | (uint64_t)s->open << 40 |
		(uint64_t)s->nodrop << 41 | (uint64_t)s->plain << 42;
	return mix64(s->occ ^ mix64(s->red ^ mix64(s->blue ^
						   mix64(pts ^ mix64(small)))));
}

/* Each player's chance from the score lead over the best other player,
 * measured against what is still on the board.  A player left alone is
 * judged by where it is heading: it takes most of what is left but pays for
 * the rest.  The share left behind grows as the board thins out; random
 * solo play leaves about 15% of the value when little has been taken and
 * 70-80% once most has gone, which 0.15 + 0.7 x^2 (x the share of all
 * value taken so far) follows closely.
 *
 * That follows random solo play on purpose: the search's playouts end
 * many of a lone player's lines before evaluate() is asked, with a lone
 * player as weak as theirs, and the two must agree.  Measured at movetime
 * 50 against this evaluation (greedy playouts, both seats): a lone
 * player's take fitted to the engine's real solo play (which leaves 8.5
 * of the value where greedy playouts leave 12.3; pieces with no neighbour
 * mostly stay, and 18% of the rest) predicted the results of 14,000
 * positions far better (log-likelihood -0.32 a position against -0.88)
 * but scored 37.5% of 200 games, 41% with this lead scale kept; a tempo
 * of 1.25 points for the mover, with the lead counted against 0.5 +
 * 0.075 x the value left (fitted the same way), scored 53.3% of 400
 * games, within the noise, and was left out. */
static void ta_evaluate(const void *st, double *value)
{
	const struct state *s = st;
	int pts[GAME_MAX_PLAYERS];
	ta_score(s, pts);
	int left = board_value(s), total = left;
	double proj[GAME_MAX_PLAYERS];
	for (int p = 0; p < s->nplayers; p++) {
		total += s->points[p];
		proj[p] = pts[p];
	}
	if (nactive(s) == 1 && !is_over(s) && total > 0) {
		double x = 1.0 - (double)left / total;
		double share = 0.15 + 0.7 * x * x;
		int p = bit_first(s->active);
		proj[p] += left * (1.0 - share) - s->penalty * share * left;
	}
	double scale = 4.0 + left / 6.0;
	for (int p = 0; p < s->nplayers; p++) {
		double best = -1e9;
		for (int q = 0; q < s->nplayers; q++)
			if (q != p && proj[q] > best)
				best = proj[q];
		double lead = (proj[p] - best) / scale;
		value[p] = 0.5 + 0.5 * lead / (1.0 + (lead < 0 ? -lead : lead));
	}
}

/* Implicit minimax while 28 pieces or more are left: +30.7 Elo at
 * movetime 100 against the search without it (600 games).  Nearer the
 * end the solver decides, and it settles the margins of the tree's
 * favourites first: there a shallow minimax, which favours the moves that
 * take most at once, made those favourites worse (test_ai
 * a_margin_cut_short_keeps_what_it_settled played a win by 21 where 30
 * was there).  See docs/strength.md, "Implicit minimax". */
#define IM_PIECES 28

static int ta_minimax_eval(const void *st)
{
	const struct state *s = st;
	return bit_count(s->occ) >= IM_PIECES;
}

/* With two players, 4 plies of playout before evaluate(), not the
 * search's 8: at movetime 100, both seats, 200 games each, 4 against 8
 * scored 66.2% (+117.2 Elo, +74.6 to +163.4), 2 against 4 36.9% (-85.0,
 * -128.7 to -43.8) and 6 against 4 47.8% (-15.6, -57.7 to +25.9).  With
 * three, 4 in one seat against two copies of 8 scored 21.6% of 300 games
 * (an equal player gets 33.3%).  See docs/strength.md, "Playout plies
 * before the evaluation". */
static int ta_eval_after(const void *st)
{
	const struct state *s = st;
	return s->nplayers == 2 ? 4 : 0;
}

/* Its levels 2 to 8 (docs/strength.md, "Levels"). */
static const struct game_level ta_levels[GAME_LEVELS] = {
	{0, 8, 2},      {0, 21, 1.1},   {0, 42, 0.8},   {0, 95, 0.5},
	{0, 175, 0.33}, {0, 380, 0.23}, {0, 1000, 0.2},
};

static const struct game_search ta_search = {
	.playout = ta_playout,
	.evaluate = ta_evaluate,
	.minimax_eval = ta_minimax_eval,
	.eval_after = ta_eval_after,
	.points_first = 1,
	.levels = ta_levels,
};

const struct game game_takeitaway = {
	.name = "takeitaway",
	.title = "Take It Away",
	.summary = "2-4 players; options players=2..4 board=... open nodrop "
		   "penalty=2|4 plain (penalty=1|2|4 with plain nodrop=0)",
	.state_size = sizeof(struct state),
	.max_moves = MAX_MOVES,
	.options = ta_options,
	.init = ta_init,
	.describe = ta_describe,
	.position = ta_position,
	.players = ta_players,
	.status = ta_status,
	.moves = ta_moves,
	.moves_cut = ta_moves_cut,
	.play = ta_play,
	.parse = ta_parse,
	.format = ta_format,
	.score = ta_score,
	.show = ta_show,
	.geometry = ta_geometry,
	.contents = ta_contents,
	.kinds = "white red blue",
	.random_move = ta_random_move,
	.turn = ta_turn,
	.units = ta_units,
	.key = ta_key,
	.search = &ta_search,
};
