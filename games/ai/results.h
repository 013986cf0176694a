/* results.h: what a search found (results.c): the root move to play, and
 * the root moves as typed candidates (request.h, struct ai_candidate). */
#ifndef RESULTS_H
#define RESULTS_H

#include "endgame.h"
#include "timeman.h"
#include "worker.h"

/* Whether the root of m's tree is proven lost for its mover. */
int root_lost(const struct worker *m);

/* The root move to play: the most visited of the moves of the best
 * standing (see results.c), as the root's child. */
uint32_t best_child(const struct worker *m);

/* The root move a level below the top plays (temper > 0): one of the few
 * moves searched most, drawn with odds of visits^(1 / temper). */
uint32_t tempered_child(const struct worker *m, double temper);

/* The real visits of the two most visited root moves still in the
 * running. */
void top_two(const struct worker *m, double *first, double *second);

/* Root move k of m's tree (the root's k-th child) as a candidate; e: the
 * solver's verdict on the root moves. */
void results_candidate(const struct worker *m, const struct endgame *e,
		       uint32_t k, struct ai_candidate *c);

/* The root moves as candidates, best first (the moves still in the running
 * by visits, then the ones set aside; a move with no visit only when it is
 * proven), `most` at most, into out.  Returns how many. */
int results_candidates(const struct worker *m, const struct endgame *e,
		       int most, struct ai_candidate *out);

#endif
