/* timeman.h: time management, all of it (timeman.c): what a clock allows
 * a move, how a search spends it (its plan, the moments of its course,
 * its course along the plan), each thread's clock while it searches, and
 * the engine's account of the clock after a move. */
#ifndef TIMEMAN_H
#define TIMEMAN_H

#include <stdatomic.h>
#include <time.h>

#include "request.h"

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
	int steered;  /* the clock shapes the search's phases (not under a
		       * playout budget, which the clock only ends) */
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

/* The moments of a plan that the search's course asks for, each a time
 * as ai_now_ms() gives it, or 0 for no limit (see timeman.c): until when a
 * clock-bound search looks for its position in the kept tree, and until when it
 * may drop the kept tree's rest (start: when the command was read) */
double tm_reroot_until(const struct tm_plan *p, double start);
double tm_tidy_until(const struct tm_plan *p, double start);
/* the end of the first look at the rest of the game, and of the first
 * tenth of the search, which comes before the solver's turn */
double tm_first_look(const struct tm_plan *p, double start);
double tm_warm_up(const struct tm_plan *p, double start);
/* the end of the exact solver's share of the time left after now, and
 * the end of its margins (until: its share's end) */
double tm_solver_until(const struct tm_plan *p, double now, double share);
double tm_margins_until(const struct tm_plan *p, double until);

/* A clock-bound search run along its plan: to soft, ending early (after
 * each quarter of it) as soon as the second move could no longer catch up
 * with the first at the rate so far (one move dominates); past soft
 * towards hard while the position is open (the second close behind) and
 * the first can still be caught.  A plan that is not flexible runs as one
 * phase to hard. */
struct tm_course {
	struct tm_plan plan;
	double began; /* ai_now_ms() when it began */
	long iters0;  /* the playouts then */
	int phases;   /* phases run so far */
};
void tm_course_start(struct tm_course *c, const struct tm_plan *p, double now,
		     long iters);
/* Whether the search runs another phase, and until when (*until; 0: no
 * clock), given the time now, the playouts so far and the real visits of
 * the two most visited moves still in the running. */
int tm_course_next(struct tm_course *c, double now, long iters, double first,
		   double second, double *until);

/* Milliseconds of processor time this thread has used; where there is no
 * such clock (WebAssembly) the wall clock stands in. */
static inline double tm_cpu_ms(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return ai_now_ms();
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The clock of one thread of a running search: when its phase ends, how
 * often it reads the clock, and the engine's stop.  Each thread has its
 * own. */
struct tm_watch {
	int timed;        /* a deadline ends the search */
	double deadline;  /* when timed: the end of the current phase */
	double end;       /* the search's last moment (0: none), which a
			   * full pool's compaction must leave room before */
	double last_look; /* when the clock was last read */
	double paced;     /* when tm_time_to_stop last read it */
	double last_cpu;  /* tm_cpu_ms() then (timed searches) */
	double step;      /* the longest time between two looks: the
			   * margin */
	long look_every;  /* iterations between looks */
	long look_in;     /* iterations until the next look */
	long since;       /* iterations since the last look */
	double next_poll; /* when to ask stop next */
	int stopped;      /* stop said so (a stop once seen stays) */
	/* the engine's input, asked every AI_POLL_MS (NULL: none) */
	int (*stop)(void *ctx);
	void *ctx;
	atomic_int *halt; /* a helper's: its main search says stop */
};

/* A watch with no deadline yet, first looking at once, asking stop(ctx)
 * (stop may be NULL). */
void tm_watch_start(struct tm_watch *w, int (*stop)(void *ctx), void *ctx);

/* A phase of the search begins, to end at until (when timed). */
void tm_phase(struct tm_watch *w, double until);

/* Asks the engine whether to stop, at most every AI_POLL_MS.  Returns
 * w->stopped. */
int tm_ask_stop(struct tm_watch *w, double now);

/* Whether the search must end now: the deadline is closer than the
 * margin (the longest step lately), the engine says stop, or, for a
 * helper, its main search has ended the phase.  Reads the clock. */
int tm_out_of_time(struct tm_watch *w);

/* Whether the clock needs watching at all: a deadline, a stop hook, or a
 * main search that may end a helper's phase. */
static inline int tm_watched(const struct tm_watch *w)
{
	return w->timed || w->stop || w->halt;
}

/* tm_time_to_stop's look at the clock (timeman.c). */
int tm_look(struct tm_watch *w);

/* Between iterations: looks at the clock every look_every iterations,
 * which follows the time iterations take so that the looks come about
 * LOOK_MS apart (tm_look).  Returns 1 when the search must end. */
static inline int tm_time_to_stop(struct tm_watch *w)
{
	if (!tm_watched(w) || --w->look_in > 0)
		return w->stopped;
	return tm_look(w);
}

/* Whether a job of ms milliseconds (a compaction of the pool) fits before
 * the search's end, with a look's margin to spare. */
int tm_room_for(const struct tm_watch *w, double ms);

/* The stop of a compaction of the pool during a search (w: the search's
 * watch): the search's end has passed, or the engine says stop. */
int tm_compaction_stop(void *w);

#endif
