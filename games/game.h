/* game.h: the one interface through which the engine and the AI see a game.
 *
 * A game is a `const struct game` of function pointers over a flat state: a
 * plain struct of `state_size` bytes with no pointers, set up by `init` from
 * options and a seed.  States are copied with memcpy, so "undo" is a pop of a
 * saved copy and a search can copy-then-apply.  Because states are compared
 * byte for byte in the tests (undo and history replays must give the exact
 * same bytes), a game must write its state deterministically: the caller
 * zeroes the state before `init`, and `play`/`roll` never leave stale bytes
 * that depend on the path taken.
 *
 * Players are numbered 1..players().  Chance (a die) is a state of its own:
 * status() says GAME_ROLL, chance() lists the outcomes with their odds, and
 * roll() applies one.  Nothing in a state is random; randomness comes in only
 * through `init`'s seed and the outcomes the caller picks.
 *
 * To add a game: write games/<name>.c exporting one `const struct game`,
 * and add one line for it to the table in games/registry.c. */
#ifndef GAME_H
#define GAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "learn.h"
#include "util/rng.h"
#include "util/text.h"

#define GAME_MAX_PLAYERS 4
#define GAME_MAX_OPTIONS 16 /* key=value pairs in one newgame */
#define GAME_MAX_CHANCE 16  /* outcomes of one chance event */
#define GAME_ERR_MAX 256    /* bytes of an error message, NUL included */
#define MOVE_TEXT_MAX 1024  /* bytes of a move's text, NUL included */

/* A move, in whatever encoding its game chooses (a square number, a jump
 * chain, a drawn line).  Unused words must be zero so that moves compare
 * with move_equal.  Four words hold the longest move of every game: a Take It
 * Away chain captures at most 48 pieces (the jumper never leaves its own
 * colour of the 2x2 parity classes, so it can only jump the other 48
 * squares), 3 bits each. */
#define MOVE_WORDS 4
struct move {
	uint64_t w[MOVE_WORDS];
};

static inline int move_equal(const struct move *a, const struct move *b)
{
	for (int i = 0; i < MOVE_WORDS; i++)
		if (a->w[i] != b->w[i])
			return 0;
	return 1;
}

enum game_phase {
	GAME_PLAY, /* `player` must move */
	GAME_ROLL, /* `player` must roll first: a chance event */
	GAME_OVER, /* finished: `player` won, or 0 for a draw */
};

struct game_status {
	enum game_phase phase;
	int player;
};

/* The key=value options of a newgame, as the engine read them.  A bare word
 * `float` arrives with value "" (use opt_flag).  A game marks what it reads
 * as used; the engine refuses whatever is left unused. */
struct game_option {
	const char *key;
	const char *value;
	int used;
};

struct game_options {
	int n;
	struct game_option v[GAME_MAX_OPTIONS];
};

/* One newgame option as list_options shows it to a GUI, which builds its
 * new-game dialog from these alone.  The table is what a person may set;
 * keys that only `position` writes (a board in mid-game, whose turn it is)
 * are read by init like any other key but are not listed.  `seed` is every
 * game's and is listed by the engine, not here. */
enum opt_type { OPT_INT, OPT_BOOL, OPT_ENUM, OPT_STRING };

struct game_option_spec {
	const char *key;
	enum opt_type type;
	const char *def;    /* the default as written, NULL: none (first=) */
	long min, max;      /* OPT_INT: the widest range any set-up allows */
	const char *values; /* OPT_ENUM: the values, space-separated */
	/* What option_info says beside the domain, which it finds by trial
	 * (games/options.c).  Set away from its default, the option needs
	 * each of `requires`, comma-separated (KEY=VALUE, or KEY: given),
	 * and cannot go with any of `excludes` (KEY, set away from its
	 * default).  init must refuse what they forbid and accept what they
	 * allow (tests/test_properties.c checks both ways). */
	const char *requires, *excludes;
	/* OPT_STRING: an anchored POSIX extended regular expression that
	 * every value init accepts matches, and one value it accepts with
	 * the examples of the options this one requires. */
	const char *pattern, *example;
};

/* A frontend that knows no game (protocol.md, "Discovery"): what a game
 * says about its players, the player to move's task, and the units its
 * score is made of. */

/* The sides of a set-up (the `game_info` command).  A side owns pieces:
 * each player is one, and where one player places the pieces of several
 * sides (Abs-Trac-Toe's solo puzzle: marks 1 and 2) the extra sides follow
 * the players, played by player 1. */
struct game_sides {
	int sides; /* players(), or more */
	/* one lowercase word the rules call each side ("white"); NULL: it
	 * goes by its number */
	const char *name[GAME_MAX_PLAYERS];
	/* the colour of each side's pieces in the rules; NULL: none */
	const char *colour[GAME_MAX_PLAYERS];
	/* player p's team, named by its lowest-numbered player; 0 when
	 * nobody plays in a team */
	int team[GAME_MAX_PLAYERS];
};

#define GAME_PROMPT_MAX 160 /* bytes of a turn's prompt, NUL included */

/* What the player to move must do now (the `turn_info` command). */
struct game_turn {
	/* one lowercase word: place, setup, claim, remove, jump, move,
	 * exchange, draw, pass, roll, over (protocol.md lists them) */
	const char *phase;
	/* step of steps in the phase (set-up piece 2 of 4); 0 and 0 when
	 * the phase has no count */
	int step, steps;
	/* the side the piece placed now belongs to when it is not the
	 * mover's own (the solo puzzle's mark 2); 0 otherwise */
	int side;
	/* a word move allowed besides the phase's moves ("drop", "pass");
	 * NULL: none */
	const char *also;
	/* bit p - 1: player p has left the game (dropped out) and plays no
	 * more turns */
	unsigned out;
	char prompt[GAME_PROMPT_MAX]; /* a sentence for a person */
};

/* What stands on the board (the `contents` command, protocol.md
 * "Discovery"): what a frontend that knows no rule draws with geometry,
 * and what a learned evaluation reads. */
#define GAME_MAX_KINDS 4 /* kinds of piece a game may name */

/* One cell's contents. */
struct game_site {
	uint8_t owner;  /* the side whose pieces they are (a player, or a
			 * side beyond them: struct game_sides); 0: nobody's */
	uint8_t kind;   /* word `kind` of struct game's kinds, from 0 */
	uint8_t tags;   /* bit b: word b of struct game's tags */
	uint8_t zone;   /* the side whose own cell it is, whatever stands on
			 * it (Take-Back-Toe's home rows); 0: nobody's */
	uint16_t count; /* pieces on it (a stack's height); 0: empty */
};

struct game_contents {
	/* one site per `cell` line of geometry(), in its order: room the
	 * caller gives, zeroed */
	struct game_site *site;
	int stacks; /* cells hold stacks: a count is always worth showing */
	int hands;  /* pieces come from a hand: hand[] tells each side's */
	/* side s + 1's pieces still to place, by kind */
	int hand[GAME_MAX_PLAYERS][GAME_MAX_KINDS];
	/* side s + 1's pieces taken off the board and kept, by kind */
	int store[GAME_MAX_PLAYERS][GAME_MAX_KINDS];
	int die; /* the face the die shows; 0: none */
};

/* One of a game's levels between greedy and the top (`set level` 2 to 8,
 * games/ai/ai.c): the odds that it plays the greedy move, and otherwise
 * the playouts its search makes per legal move and the temperature at
 * which it draws its move from the four it visited most. */
struct game_level {
	float greedy;   /* 0 to 1 */
	float playouts; /* per legal move */
	float temper;
};
#define GAME_LEVELS 7 /* levels 2 to 8 */

/* How the computer player plays a game better than its rules alone let it
 * (docs/adding-a-game.md, "Playing it well").  Every part is optional: a
 * game without it (struct game's `search` NULL, or a field 0 or NULL)
 * gets the search's default, and plays correctly by its rules alone.
 * None of it may change what the rules say. */
struct game_search {
	/* Plays st on with the game's playout policy (random moves, or random
	 * moves guided by cheap knowledge of the game; dice rolled by their
	 * odds, all from r) until the game is over or max_plies moves have
	 * been played.  Returns the moves played.  What a search's own loop of
	 * status/random_move/play would do, at the speed of the game's own
	 * loop over its own representation.  NULL: the search loops. */
	int (*playout)(void *st, struct rng *r, int max_plies);

	/* A heuristic value of an unfinished state for each player, each in
	 * [0, 1] (1 = surely wins), for searches that stop early. */
	void (*evaluate)(const void *st, double *value);

	/* Whether a search of st may back up evaluate() as a minimax and weigh
	 * the best judgement below each move beside its playouts (implicit
	 * minimax, games/ai/iterate.c): where that measured better
	 * (docs/strength.md, "Implicit minimax").  Two players without dice
	 * only.  NULL: never. */
	int (*minimax_eval)(const void *st);

	/* How many plies of the playout policy a search's playout from st
	 * plays before evaluate() judges where it stands: a short tail of
	 * play, then the game's own judgement.  NULL or 0: the search's
	 * default (EVAL_AFTER in games/ai/playout.c).  -1: no playout at all,
	 * evaluate() judges the position where the tree stops (a learned
	 * evaluation that knows more than a few random plies tell).  Only
	 * with evaluate or contents_table. */
	int (*eval_after)(const void *st);

	/* The weight of evaluate() in the value of a new node of a search of
	 * st, in visits (1 to 15): how long the search trusts the game's
	 * judgement of a move before its playouts outvote it.  NULL or 0: the
	 * search's default (PRIOR_VISITS in games/ai/expand.c).  Below 0:
	 * none, new moves get no first value (where the judgement measured
	 * worse as one: checkertoe but on its plain 6x6 board).  Only with
	 * evaluate or contents_table. */
	int (*prior_visits)(const void *st);

	/* What playing the legal move mv would make of st, without playing
	 * it: the status after it into *after, then, if the game goes on,
	 * evaluate()'s values after it into value, or, if it is over,
	 * score()'s points into points.  For a search's look one move ahead
	 * at every node it adds, where a copy of a big state and a play cost
	 * more than the look itself.  Returns 0, or -1 when it cannot tell
	 * cheaply (the caller then plays mv on a copy).  It must agree with
	 * play, status, evaluate and score to the last bit
	 * (tests/test_properties.c checks that it does).  Only with
	 * evaluate. */
	int (*preview)(const void *st, const struct move *mv,
		       struct game_status *after, double *value, int *points);

	/* 1 when points come move by move and what a move wins at once is
	 * the best first guess of its worth (Take It Away's captures): the
	 * exact solver then tries the moves that leave the mover furthest
	 * ahead first, near its root.  0: it orders by past cutoffs only,
	 * which does better where points come late or seldom. */
	int points_first;

	/* The features of an evaluation learned from self-play (learn.h),
	 * for the training tool (scripts/tools/train.c); the game's
	 * evaluate() reads the weights it learned.  Two players only.
	 * NULL: none. */
	const struct learn_spec *learn;

	/* A table learned over the lines of the board's contents, for a
	 * game with no features of its own, or where it played better than
	 * them (games/ai/pattern.h; `make train GAME=...` writes it).  The
	 * search then judges two-player set-ups by it, with evaluate(),
	 * where the game has one, as the first guess it corrects.  NULL:
	 * none. */
	const struct learn_weights *contents_table;

	/* Its levels between greedy and the top, chosen so that each beats
	 * the one below by about as much across this game's span from greedy
	 * to full strength (docs/strength.md, "Levels").  NULL: the search's
	 * default ladder (games/ai/ai.c). */
	const struct game_level *levels;
};

struct game {
	/* the protocol name: a lowercase letter, then lowercase letters and
	 * digits ("checkertoe", "connect4") */
	const char *name;
	const char *title;   /* the game's published name */
	const char *summary; /* one line for list_games: players, options */
	size_t state_size;   /* bytes of the flat state */
	int max_moves;       /* no state has more legal moves than this */
	/* newgame's options for list_options, ended by an entry whose key is
	 * NULL; init must accept each with its default and its whole range
	 * (tests/test_properties.c checks that it does) */
	const struct game_option_spec *options;
	/* the letters show() draws players 1, 2, ... with ("XO"), so that a
	 * person who types one where a player number goes is told which
	 * number it is; NULL when the board shows no player marks */
	const char *marks;
	/* the words that name its kinds of piece, space-separated, where it
	 * has several ("white red blue"); NULL: one kind */
	const char *kinds;
	/* the words that name states of a cell (struct game_site's tags),
	 * space-separated, at most 8 ("dead locked"); NULL: none */
	const char *tags;
	/* what helps the computer player (struct game_search); NULL: the
	 * search's defaults */
	const struct game_search *search;

	/* Sets up a new game in `st` (state_size zeroed bytes) from the options
	 * and the seed of its random set-up.  Returns 0, or -1 with the reason
	 * in err (GAME_ERR_MAX bytes): a bad value, options that cannot be
	 * combined.  Unknown keys are the caller's to refuse. */
	int (*init)(void *st, struct game_options *opt, uint64_t seed,
		    char *err);

	/* Writes the options that rebuild this exact set-up when given to init
	 * with any seed: every option explicit, random set-ups written out
	 * ("first=2", "board=...").  Space-separated, no leading space. */
	void (*describe)(const void *st, struct text *out);

	/* Writes the whole state, set-up and play, as key=value options that
	 * init reads back (the `position` command, like a chess FEN): every
	 * option of the set-up, and every fact the rules still use (contents,
	 * pieces in hand, the phase, whose turn, counts, a previous move the
	 * rules refer to).  init given exactly these keys, with any seed, must
	 * build a state that answers like this one: status, moves in the same
	 * order, score, show and geometry, and the same answers to every later
	 * play and roll.  No seed=; values use only [a-z0-9.,:/_-].  init
	 * refuses position values that break an invariant (counts, ranges, a
	 * phase that disagrees with the counts, two things on one cell) with
	 * the reason; a position need not be reachable in play.  Space-
	 * separated, no leading space. */
	void (*position)(const void *st, struct text *out);

	/* Number of players (seats), 1..GAME_MAX_PLAYERS. */
	int (*players)(const void *st);

	/* Who is to move or roll, or who won. */
	struct game_status (*status)(const void *st);

	/* Lists the legal moves of the player to move into out (max_moves
	 * entries), always in the same order for the same state.  Returns the
	 * count; 0 when the game is over or a roll is due.  A game may have a
	 * GAME_PLAY state with no listed moves only when its moves cannot be
	 * listed (a drawn line); it must then give random_move. */
	int (*moves)(const void *st, struct move *out);

	/* At a GAME_ROLL state: the outcomes (die faces) into values and their
	 * probabilities into probs, GAME_MAX_CHANCE at most.  Returns the
	 * count.  NULL, with roll, in a game that never rolls.  The search
	 * asks only when status() says GAME_ROLL; game_info asks at any
	 * state, for the outcomes a roll of this set-up can take, so a game
	 * whose die never changes may ignore st. */
	int (*chance)(const void *st, int *values, double *probs);

	/* Applies a chance outcome returned by chance(). */
	void (*roll)(void *st, int value);

	/* Applies a legal move (from moves(), parse() or random_move()). */
	void (*play)(void *st, const struct move *mv);

	/* Copies the state src into dst, for a search that copies a state
	 * at every iteration and for every move it looks at: where a small
	 * board uses only the start of a big state, the bytes it uses.  dst
	 * (state_size bytes, holding anything) must then answer every hook
	 * as src does, and go on to play alike; the bytes left as they were
	 * must be ones the game never reads, and the game must give key.
	 * Returns 0, or -1 having copied nothing, where a copy of all the
	 * bytes costs no more (game_copy then makes it).
	 * tests/test_properties.c checks it over random games.  NULL: all
	 * state_size bytes are copied. */
	int (*copy)(void *dst, const void *src);

	/* Reads a move's text (already lowercased, no spaces).  Returns 0 for a
	 * legal move, or -1 with the reason in err; the engine prefixes
	 * "illegal move: ". */
	int (*parse)(const void *st, const char *text, struct move *mv,
		     char *err);

	/* Writes a legal move of this state as text (MOVE_TEXT_MAX bytes). */
	void (*format)(const void *st, const struct move *mv, char *buf);

	/* Each player's points now, by the game's own count (see protocol.md);
	 * writes players() numbers. */
	void (*score)(const void *st, int *points);

	/* Draws the board for a person: several lines, none empty, each ending
	 * in '\n'. */
	void (*show)(const void *st, struct text *out);

	/* The board's shape for a GUI (the `geometry` command), several lines
	 * each ending in '\n': first the lines every game shares, in this
	 * order: `cell NAME X Y` for every cell a move can name, `point NAME X
	 * Y` for every lattice point a move can name, `word W` for every move
	 * that names no cell (pass, drop), `sep C` for every character that
	 * joins names in a move; then the game's own lines.  Coordinates: x to
	 * the right, y upwards, one unit a square; square cell (column c, row
	 * r), counted from 0, is centred at (c, r); hex cell (q, r) at
	 * (q + r/2, r * sqrt(3)/2).  See protocol.md, "geometry". */
	void (*geometry)(const void *st, struct text *out);

	/* What stands on the board now (the `contents` command): for each
	 * cell of geometry(), in its order, into out->site (zeroed, as many
	 * as geometry has `cell` lines), whose pieces stand on it, their
	 * kind, how many, the cell's tags and whose own cell it is; pieces
	 * in hand and in store;
	 * the die that shows.  Together with geometry and game_info, enough
	 * for a frontend that knows no rule to draw every state
	 * recognisably.  tests/test_properties.c checks it over random
	 * games. */
	void (*contents)(const void *st, struct game_contents *out);

	/* Optional (may be NULL). */

	/* Whether moves() of st lists only max_moves of more legal moves (a
	 * game whose moves have no bound: Take It Away's jump chains).  The
	 * `moves` command then ends with `...`; every legal move still
	 * parses.  NULL: moves() is never cut. */
	int (*moves_cut)(const void *st);

	/* The lines a frontend draws besides the cells, for boards whose
	 * cells are not all unit squares or hexes (Abs-Trac-Toe's regions),
	 * each ending in '\n': `line KIND X1 Y1 X2 Y2 ...` (a line through
	 * these points: `cut` a fixed line that divides the board, `drawn`
	 * the line a player or the set-up drew) and `area NAME X1 Y1 ...`
	 * (the centres of the unit squares cell NAME covers).  Coordinates
	 * as geometry's.  The `contents` command writes them last. */
	void (*drawing)(const void *st, struct text *out);

	/* A random legal move of the player to move, cheaply.  Required when
	 * moves() can be empty in a GAME_PLAY state.  Returns 0, or -1 when
	 * there is no move. */
	int (*random_move)(const void *st, struct rng *r, struct move *mv);

	/* A 64-bit key for transposition tables and opening books: states with
	 * equal keys must play alike (same mover, same value for every player).
	 * A game with symmetries (the square boards' 8) returns the same key
	 * for every image of a state under them, so that a solver searches each
	 * class once.  NULL: the state's bytes are hashed. */
	uint64_t (*key)(const void *st);

	/* For frontends that know no game (protocol.md, "Discovery"); NULL
	 * gives the engine's plain answers (sides by number, no teams, the
	 * task read from status(), no units). */

	/* The sides, their names, colours and teams, for this set-up. */
	void (*sides)(const void *st, struct game_sides *out);

	/* What the player to move (or roll) must do now, or, once the game
	 * is over, phase "over" and the result in the prompt. */
	void (*turn)(const void *st, struct game_turn *out);

	/* The units score() is made of now, one line each ending in '\n':
	 * `unit KIND player P points N`, then, where they apply, `pieces K`,
	 * `colour C` and `cells C1 C2 ...` (the cells a GUI marks, named as
	 * moves name them).  Summed by player they give score(), but for
	 * teams, whose units go to the team's lowest-numbered player and
	 * whose players each score the team's total. */
	void (*units)(const void *st, struct text *out);
};

/* The registered games, in list_games order, NULL-terminated. */
extern const struct game *const game_table[];
const struct game *game_find(const char *name);

/* The game's help for the search: its own, or one with every default. */
extern const struct game_search game_search_defaults;
static inline const struct game_search *game_search(const struct game *g)
{
	return g->search ? g->search : &game_search_defaults;
}

/* A cell of a geometry, as its `cell NAME X Y` line gives it. */
struct game_cell {
	char name[16];
	double x, y;
};

/* The cells of geometry(st), in its order, into *cells (malloc'd; the
 * caller frees it).  Returns how many, or -1 when out of memory. */
int game_cells(const struct game *g, const void *st, struct game_cell **cells);

/* The `option_info` answer of game g with the options chosen so far (a
 * set newgame accepts): for each option, its domain with the others as
 * chosen, its default, its value if chosen, what it requires and excludes
 * and, for a string, its pattern and example (protocol.md, "Discovery").
 * Returns 0, or -1 when out of memory. */
int game_option_info(const struct game *g, const struct game_options *chosen,
		     struct text *out);

/* The `contents` answer of st (protocol.md, "Discovery"): `at`, `hand`,
 * `store` and `die` lines from g->contents, then g->drawing's lines; no
 * newline after the last.  Returns 0, or -1 when out of memory. */
int game_write_contents(const struct game *g, const void *st, struct text *out);

/* src copied into dst (state_size bytes): by the game's copy, or whole. */
static inline void game_copy(const struct game *g, void *dst, const void *src)
{
	if (!g->copy || g->copy(dst, src) < 0)
		memcpy(dst, src, g->state_size);
}

/* Writes a reason into err (GAME_ERR_MAX bytes) and returns -1: the one
 * way a game refuses, `return game_fail(err, "...", ...);`. */
int game_fail(char *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Option helpers for init.  Each marks the key used when present and
 * returns 0, or -1 with a reason in err (GAME_ERR_MAX bytes). */

/* An integer option in [min, max]; *out keeps def when the key is absent. */
int opt_int(struct game_options *o, const char *key, long min, long max,
	    long *out, char *err);
/* An on/off option: absent (keeps *out), bare word or 1 (on), 0 (off). */
int opt_flag(struct game_options *o, const char *key, int *out, char *err);
/* A string option; NULL when absent. */
const char *opt_str(struct game_options *o, const char *key);

/* Runs g->init on st (state_size bytes, zeroed here) and refuses any option
 * the game left unused ("unknown option KEY for GAME").  Returns 0, or -1
 * with the reason in err. */
int game_setup(const struct game *g, void *st, struct game_options *o,
	       uint64_t seed, char *err);

/* Reads the key=value words of a newgame (words[0..n-1], which it cuts at
 * '=') into o; a bare word has value "".  Refuses, with a reason that says
 * what to write instead, a word that is no key, a key given twice and too
 * many options.  Returns 0, or -1 with the reason in err. */
int game_options_read(char **words, int n, struct game_options *o, char *err);

/* A chance outcome of the GAME_ROLL state st, drawn from r by its odds:
 * the one way both `roll` and the search sample dice. */
int game_chance_pick(const struct game *g, const void *st, struct rng *r);

/* A new state (malloc'd) of g from options written as in newgame
 * ("size=6 float"; a seed= there is accepted and ignored: `seed` rules).
 * Returns NULL with the reason in err.  For tests and tools. */
void *game_new_state(const struct game *g, const char *opts, uint64_t seed,
		     char *err);

/* Copies text for an error message, keeping only printable ASCII ('?' for
 * anything else) and cutting it short with "...": never echo raw bytes of
 * bad input. */
void game_clean(const char *s, char *buf, size_t size);

/* Writes "a1".."z26" for column x, row y (both from 0). */
void square_name(int x, int y, char *buf);
/* Writes geometry's `cell NAME X Y` lines of a board of cols x rows
 * squares, row by row from a1 at (0, 0). */
void square_cells(int cols, int rows, struct text *out);
/* Reads a square name at *s ("c3", "aa" is not one); advances *s past it.
 * Returns 0 and sets x, y (from 0), or -1 when there is no square there. */
int square_read(const char **s, int *x, int *y);

#endif
