/* train.h: learning a game's evaluation (learn.h) from self-play.
 *
 * TD(0) over afterstates, as for backgammon and 2048: the player picks
 * each move by the value of the state it leaves (the table's value for
 * the player to act there, or the result when the game is over), and
 * each such state's value is moved toward the value of the next one the
 * game reaches.  Games are played in rounds, against the table as it
 * stood when the round began, on any number of threads; each game's moves
 * and dice come from its own seed (the training's seed and the game's
 * number), and the steps are summed in fixed point, so the weights after
 * a round are the same bits whatever the threads. */
#ifndef TRAIN_H
#define TRAIN_H

#include <stdint.h>

#include "../game.h"

struct train_opts {
	const char *options; /* the set-up, as newgame reads it */
	uint64_t seed;
	int games;      /* games a round */
	double alpha;   /* step size, in the logistic's units: (0, 0.5] */
	double epsilon; /* share of moves played at random */
	int threads;
	/* read the board's contents (pattern.h) where the game has features
	 * of its own too; a game without them is always read so */
	int contents;
};

struct trainer;

/* A trainer with every weight 0, of the game's learn_spec features or,
 * where it has none (or o->contents asks), of its contents' lines
 * (pattern.h).  NULL with the reason in err (GAME_ERR_MAX bytes): not for
 * two players, bad options, a step (alpha) not in (0, 0.5], no memory. */
struct trainer *train_new(const struct game *g, const struct train_opts *o,
			  char *err);
void train_free(struct trainer *t);

/* Plays one round and applies its steps.  Returns 0, or -1 with the
 * reason in err (GAME_ERR_MAX bytes): a thread could not start, no
 * memory, or a game's set-up failed. */
int train_round(struct trainer *t, char *err);

/* Rounds played so far, and the mean result of the last round's games
 * for the player who moved first (a draw counts half). */
int train_rounds(const struct trainer *t);
double train_first_score(const struct trainer *t);

/* The weights as compiled (learn.h: int16 in 1 / LEARN_SCALE), size
 * entries. */
void train_export(const struct trainer *t, int16_t *out);
uint32_t train_size(const struct trainer *t);

/* Sets the weights from a compiled table (learn.h's units). */
void train_import(struct trainer *t, const int16_t *w);

/* What the table knows beyond another: `games` games of a player that
 * takes the move whose position the table values most against one that
 * goes by the table `other` (learn.h's units, train_size entries), or,
 * where other is NULL, by the first guess alone (the base that
 * learn_spec's features give), both looking one move ahead, seats
 * alternating, dice from seed (a game without dice opens with a few
 * random plies from it, so that its games differ).  Returns the table's share
 * of the points (a draw counts half), or -1 when out of memory. */
double train_match(const struct trainer *t, const int16_t *other, int games,
		   uint64_t seed);

/* A checkpoint: the weights and the rounds played, so that a run cut
 * short goes on where it stopped.  Returns 0, or -1 with the reason in
 * err. */
int train_save(const struct trainer *t, const char *path, char *err);
int train_load(struct trainer *t, const char *path, char *err);

#endif
