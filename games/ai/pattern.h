/* pattern.h: a learned evaluation for any game, read from what the game
 * tells every frontend (protocol.md, "Discovery"): the cells of its
 * geometry and what its contents put on them.  A game needs no feature
 * code of its own.
 *
 * The features are lines of three neighbouring cells (an n-tuple network,
 * as Othello's and 2048's players learned, whose tuples come from the
 * geometry): each cell reads as one of PAT_CODES codes from the side of
 * the player to act (empty; the mover's piece or stack; the other's;
 * nobody's, by kind), and each line picks a weight by its codes, its
 * direction, whether its middle cell lies on the board's edge and the
 * eighth of the cells filled.  No weight belongs to one place, so one
 * table reads every size of board.  Beside the lines, the mover's lead in
 * points (score) and in pieces in hand each pick one weight by the same
 * eighth.  Where the game has its own evaluate(), its value for the
 * mover is the first guess that the table corrects (learn.h).
 *
 * The training tool learns such a table for a game with no learn_spec
 * (games/ai/train.h); a game names the table it compiled in as struct
 * game_search's `contents_table`, and the search then judges two-player
 * set-ups by it (games/ai/worker.c, worker_judge). */
#ifndef PATTERN_H
#define PATTERN_H

#include <stdint.h>

#include "../game.h"

#define PAT_CODES 8 /* what a cell holds, from the mover's side */
#define PAT_LINE (PAT_CODES * PAT_CODES * PAT_CODES)
#define PAT_DIRS 4   /* a line's direction, to 45 degrees, modulo 180 */
#define PAT_PHASES 8 /* eighths of the cells filled */
#define PAT_LEADS 9  /* a lead of -4 to 4 (beyond it: its end) */
#define PAT_MAX_CELLS 1024

enum {
	PAT_F_LINES = 0, /* by phase, direction, edge, codes */
	PAT_F_SCORE = PAT_F_LINES + PAT_PHASES * PAT_DIRS * 2 * PAT_LINE,
	PAT_F_HAND = PAT_F_SCORE + PAT_PHASES * PAT_LEADS,
	PAT_SIZE = PAT_F_HAND + PAT_PHASES * PAT_LEADS,
	/* a state picks at most: a line per direction at each cell, and
	 * the two leads */
	PAT_MAX_FEATURES = PAT_DIRS * PAT_MAX_CELLS + 2,
};

/* The lines of one set-up's geometry, and room to read its contents. */
struct pattern {
	const struct game *g;
	int cells, lines;
	uint16_t (*line)[3];    /* its cells, in geometry's order */
	uint8_t *cls;           /* direction * 2 + (middle cell on the edge) */
	struct game_site *site; /* room for contents() */
	uint32_t *idx;          /* room for the features */
	double *xy;             /* the cells' coordinates, as read */
};

/* Reads the geometry of st, a state of g, into p.  Returns 0, or -1 with
 * the reason in err (GAME_ERR_MAX bytes): no memory, more than
 * PAT_MAX_CELLS cells. */
int pattern_init(struct pattern *p, const struct game *g, const void *st,
		 char *err);

/* Reads the geometry of st again where its cells moved since (a game
 * whose board changes in play: Abs-Trac-Toe's line drawn by a player).
 * The lines stand until then: the training reads them again at every
 * move, a search at its root.  Returns 0, or -1 as pattern_init. */
int pattern_refresh(struct pattern *p, const void *st, char *err);
void pattern_free(struct pattern *p);

/* dst (zeroed, or made by pattern_init or pattern_copy, whose room it
 * keeps) made a copy of src's lines with room of its own (for another
 * thread).  Returns 0, or -1 with the reason in err. */
int pattern_copy(struct pattern *dst, const struct pattern *src, char *err);

/* The features of st (a state of p's set-up, going on, with two
 * players) for its player to act, as learn_spec's features() gives
 * them: indices below PAT_SIZE into idx (PAT_MAX_FEATURES room) and the
 * first guess into *base.  Returns how many. */
int pattern_features(struct pattern *p, const void *st, uint32_t *idx,
		     double *base);

/* The value of st for each player by the table w (PAT_SIZE weights), as
 * evaluate() gives it.  Two players; st going on. */
void pattern_evaluate(struct pattern *p, const int16_t *w, const void *st,
		      double *value);

#endif
