/* timeman.h: time management, all of it (timeman.c): what a clock allows
 * a move, how a search spends it, and the engine's account of the clock
 * after a move. */
#ifndef TIMEMAN_H
#define TIMEMAN_H

#include "ai.h"

/* How often a search asks its stop hook (the engine's input): a stop is
 * answered within about this much (bench: "a stop while genmove thinks"),
 * and the poll() behind it costs about 0.1% of the search (bench_ai poll). */
#define AI_POLL_MS 0.5

/* When a search must end, as the settings and the clock say.  Neither
 * `fixed` nor `clock`: no limit (a playout budget, or a search that runs
 * until stopped). */
struct ai_time {
	double start; /* ai_now_ms() when the command was read */
	double fixed; /* > 0: think exactly this long (movetime) */
	int clock;    /* the time comes from a clock, in milliseconds with
		       * the frontend's overhead already kept: */
	double main;  /* main time to spread over the mover's remaining moves */
	double extra; /* what this move gets besides (an increment, a share of
		       * the overtime period) */
	double cap;   /* the most this move may take without losing on time */
	double lag;   /* what every move costs beyond its thinking (the trip of
		       * the answer and the next command, starting up), kept
		       * for each move still to come */
	/* A playout budget says how much the search does (set playouts, a
	 * level's budget) and the time only ends it: one deadline, no phase
	 * ends early by the clock, so that the same position, budget and
	 * seed give the same move whenever the budget ends the search,
	 * however busy the machine (test_ai
	 * a_budget_is_not_steered_by_the_clock). */
	int budgeted;
};

/* The time of the search `how` asks for: a clock, movetime, or (a playout
 * budget and no clock) nothing. */
struct ai_time tm_search_time(const struct ai_search *how);

/* How the time of a search is spent. */
struct tm_plan {
	double soft;  /* aim to stop here */
	double hard;  /* never later than this */
	int flexible; /* stop early when one move dominates, go on towards
		       * hard while the best moves are close */
};

/* The plan of a search that started at time->start, for np players, given
 * the plies a random game from here lasts and, under a clock, how late
 * recent searches ended (`late`, see tm_late).  A budgeted search's plan
 * has one deadline (soft and hard alike) and is not flexible. */
struct tm_plan tm_plan(int np, const struct ai_time *time, double plies,
		       double late);

/* The moving average of how late clock-bound searches end past their
 * deadlines, after one that ended `past` ms after its deadline. */
double tm_late(double late, double past);

/* Whether the search may end now because its best move can no longer be
 * caught: `first` and `second` the real visits of the two most visited
 * moves, `rate` the visits a millisecond so far, `left` the ms left. */
int tm_settled(double first, double second, double rate, double left);

/* Whether a search past its share of the time goes on: the position is
 * open (the second move close behind the first). */
int tm_open(double first, double second);

#endif
