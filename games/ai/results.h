/* results.h: what a search found (results.c): the root move to play, and
 * the reports of the search. */
#ifndef RESULTS_H
#define RESULTS_H

#include <stdio.h>

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

/* The search line on the log: the move, the effort (iters playouts,
 * reused visits kept), and what it expects. */
void report_search(const struct worker *m, uint32_t chosen,
		   const struct endgame *sv, enum ai_settled why,
		   const struct tm_plan *plan, long iters, unsigned long reused,
		   FILE *log, double start_ms);
/* analyze's line: the root moves, best first, at most `most` of them
 * (protocol.md, "analyze"). */
void report_info(const struct worker *m, const struct endgame *sv, int most,
		 struct text *out);

#endif
