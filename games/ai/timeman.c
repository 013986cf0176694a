/* timeman.c: time management, all of it: what a clock allows a move
 * (clock_time), how a search spends it (tm_plan: movetime whole; under a
 * clock the main time spread over the mover's expected moves), the
 * moments of its course (tm_first_look and the others), its course along
 * the plan (tm_course: ending early when the best move can no longer be
 * caught, going on while the top two are close), each thread's clock while
 * it searches (struct tm_watch: its deadline, its margin, the engine's
 * stop), how late searches end on a busy machine (tm_late), and the
 * engine's account of the clock after each move (ai_clock_spend).  The
 * one constant they share is AI_LAG_SHARE (request.h). */
#include "timeman.h"

#include <time.h>

double ai_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* What the clock c allows this move, keeping overhead_ms for the
 * frontend's delays and a lag for each move to come: the main time to
 * spread over the moves still to come, what the move gets besides (the
 * increment, the overtime), and the most it may take without losing (a
 * byo-yomi period is kept whole). */
static void clock_time(const struct ai_clock *c, double overhead,
		       struct ai_time *t)
{
	double main = c->main_ms > overhead ? c->main_ms - overhead : 0;
	t->main = main;
	t->extra = 0;
	t->cap = main;
	t->lag = overhead / AI_LAG_SHARE;
	switch (c->kind) {
	case AI_CLOCK_ABSOLUTE:
		break;
	case AI_CLOCK_FISCHER:
		/* most of the increment comes back after the move, less what
		 * the move costs besides its thinking (over a 26x26 Tiptoe
		 * game under Fischer 2 s + 0.05 s, spending 0.8 of the whole
		 * increment ran the clock out) */
		if (c->inc_ms > t->lag)
			t->extra = 0.8 * (c->inc_ms - t->lag);
		break;
	case AI_CLOCK_CANADIAN: {
		double per = c->stones > 0
				     ? (c->period_ms - c->stones * overhead) /
					       c->stones
				     : 0;
		if (per < 0)
			per = 0;
		if (c->main_ms > 0) {
			t->extra =
				0.5 * per; /* the periods are still to come */
			t->cap = main + 0.5 * per;
		} else {
			t->extra = t->cap = per;
		}
		break;
	}
	case AI_CLOCK_BYOYOMI: {
		/* a move that ends within a period costs nothing */
		double per =
			c->periods > 0 ? 0.9 * (c->period_ms - overhead) : 0;
		if (per < 0)
			per = 0;
		if (c->main_ms > 0) {
			t->extra = per;
			t->cap = main + per;
		} else {
			t->extra = t->cap = per;
		}
		break;
	}
	}
}

struct ai_time tm_search_time(const struct ai_search *how)
{
	struct ai_time t = {0};
	t.start = how->start_ms;
	t.budgeted = how->playouts > 0;
	if (how->clock) {
		t.clock = 1;
		clock_time(how->clock, how->overhead_ms, &t);
	} else if (how->playouts <= 0) {
		t.fixed = how->movetime_ms;
	}
	return t;
}

/* Main time is spread over this many more moves of the mover at least, so
 * that the game's last moves still get some. */
#define MIN_MOVES_LEFT 6
/* A move may take up to this many times its share while the best moves
 * are close. */
#define STRETCH 2.5
/* The weight of the last search in `late`'s moving average. */
#define LATE_WEIGHT 0.2

struct tm_plan tm_plan(int np, const struct ai_time *time, double plies,
		       double late)
{
	struct tm_plan p = {0, 0, 0, !time->budgeted};
	if (time->fixed > 0) {
		/* movetime: the whole of it, less what answering takes (and
		 * not less what a busy machine may add: ending 10 ms early at
		 * movetime 50, as `late` had it with ten processes on two
		 * cores, lost 16 to 24 in Tiptoe 8x8 against the old engine,
		 * which thought 52 ms a move to our 39) */
		double margin = time->fixed > 20 ? 1.0 : 0.05 * time->fixed;
		p.soft = p.hard = time->start + time->fixed - margin;
		return p;
	}
	if (!time->clock)
		return p;
	/* random games last about as long as real ones here (Tiptoe 8x8:
	 * 38 plies at random, 42 in self-play at movetime 20; Take It Away
	 * 34 and 39) */
	double moves = plies / (np > 1 ? np : 1);
	if (moves < MIN_MOVES_LEFT)
		moves = MIN_MOVES_LEFT;
	/* every move to come costs its lag besides its thinking, and may end
	 * late like the searches before it */
	double spread = time->main - (time->lag + late) * moves;
	double share = (spread > 0 ? spread / moves : 0) + time->extra;
	double cap = time->cap - late;
	if (share > cap)
		share = cap;
	double hard = share * STRETCH;
	if (hard > cap)
		hard = cap;
	if (share < 0)
		share = hard = 0;
	/* (a clock with no time left still gets a deadline: now) */
	p.soft = time->start + share;
	p.hard = time->budgeted ? p.soft : time->start + hard;
	p.flexible = !time->budgeted;
	return p;
}

double tm_late(double late, double past)
{
	return late + LATE_WEIGHT * ((past > 0 ? past : 0) - late);
}

/* Past its share of the time, a search goes on only while the second move
 * has at least this share of the first one's visits. */
#define OPEN_SHARE 0.6

/* Whether the search may end now because its best move can no longer be
 * caught: `first` and `second` the real visits of the two most visited
 * moves, `rate` the visits a millisecond so far, `left` the ms left. */
static int settled(double first, double second, double rate, double left)
{
	return first - second > rate * left;
}

/* Whether a search past its share of the time goes on: the position is
 * open (the second move close behind the first). */
static int open(double first, double second)
{
	return second >= OPEN_SHARE * first;
}

void tm_course_start(struct tm_course *c, const struct tm_plan *p, double now,
		     long iters)
{
	*c = (struct tm_course){*p, now, iters, 0};
}

int tm_course_next(struct tm_course *c, double now, long iters, double first,
		   double second, double *until)
{
	const struct tm_plan *p = &c->plan;
	if (!p->flexible) {
		*until = p->hard;
		return c->phases++ == 0;
	}
	double span = p->soft - c->began;
	double rate =
		now > c->began ? (iters - c->iters0) / (now - c->began) : 0;
	if (c->phases < 4) {
		/* the quarters up to soft */
		if (c->phases > 0 &&
		    settled(first, second, rate, p->soft - now))
			return 0;
		c->phases++;
		*until = c->began + span * c->phases / 4;
		return 1;
	}
	/* past soft, a quarter more at a time */
	if (now >= p->hard || !open(first, second) ||
	    settled(first, second, rate, p->hard - now))
		return 0;
	c->phases++;
	*until = now + span / 4 < p->hard ? now + span / 4 : p->hard;
	return 1;
}

/* The moments of a search's course.  Under a playout budget (the plan not
 * steered), the clock only ends the search: every phase runs to the one
 * deadline, hard (timeman.h, ai_time's budgeted). */

/* Finding the new root in the kept tree may take long (a move that costs
 * much to play, as Abs-Trac-Toe's bending lines do): a twentieth of the
 * share at most. */
double tm_reroot_until(const struct tm_plan *p, double start)
{
	return p->hard > 0 ? start + 0.05 * (p->soft - start) : 0;
}

/* Dropping the kept tree's rest at once, a quarter of the share at most:
 * see the search's reroot. */
double tm_tidy_until(const struct tm_plan *p, double start)
{
	return p->hard > 0 ? start + 0.25 * (p->soft - start) : 0;
}

/* The first look at the rest of the game (how long is it?), 2% of the
 * time at most. */
double tm_first_look(const struct tm_plan *p, double start)
{
	return p->hard > 0 && p->steered ? start + 0.02 * (p->hard - start)
					 : p->hard;
}

/* The first tenth of the share, which the tree has before the solver. */
double tm_warm_up(const struct tm_plan *p, double start)
{
	return p->hard > 0 && p->steered ? start + 0.1 * (p->soft - start)
					 : p->hard;
}

double tm_solver_until(const struct tm_plan *p, double now, double share)
{
	return p->hard > 0 && p->steered ? now + share * (p->soft - now)
					 : p->hard;
}

/* The margins get the rest of the move: a root the solver proved leaves
 * the tree little to do (a won one ends the search, its time unused; Take
 * It Away's 138 endgames at 1 s: the best margin in 94.2-96.4% of them in
 * seven runs, 93.5-94.2% in three when the margins had the solver's share
 * alone). */
double tm_margins_until(const struct tm_plan *p, double until)
{
	return p->hard > 0 ? p->soft : until;
}

/* ---- the clock of a running search ---- */

/* How often the clock is read: the iterations between two looks double or
 * halve to keep them this far apart. */
#define LOOK_MS 0.2

/* The margin kept before a deadline is the longest step lately: the
 * processor time the search took between two looks at the clock, long
 * when its steps are (a wide expansion, a long playout).  Processor time,
 * not the clock's: while the process waits for a busy machine the clock
 * runs on, and a margin that took such a wait for a step would end the
 * search early for nothing (the wait itself cannot be foreseen).  It
 * shrinks by this factor at each look. */
#define STEP_DECAY 0.9

void tm_watch_start(struct tm_watch *w, int (*stop)(void *ctx), void *ctx)
{
	*w = (struct tm_watch){0};
	w->look_every = w->look_in = 1;
	w->last_look = w->paced = ai_now_ms();
	w->last_cpu = tm_cpu_ms();
	w->stop = stop;
	w->ctx = ctx;
}

void tm_phase(struct tm_watch *w, double until)
{
	w->deadline = until;
	w->last_look = w->paced = ai_now_ms(); /* what came before is no
						* step of ours */
	w->last_cpu = w->timed ? tm_cpu_ms() : 0;
	w->look_in = 1; /* and the first look comes at once */
	w->since = 0;
}

int tm_ask_stop(struct tm_watch *w, double now)
{
	if (!w->stopped && w->stop && now >= w->next_poll) {
		w->next_poll = now + AI_POLL_MS;
		w->stopped = w->stop(w->ctx) != 0;
	}
	return w->stopped;
}

int tm_out_of_time(struct tm_watch *w)
{
	if (w->stopped)
		return 1;
	double now = ai_now_ms();
	if (w->timed) {
		double cpu = tm_cpu_ms(), dt = cpu - w->last_cpu;
		w->step = dt > STEP_DECAY * w->step ? dt : STEP_DECAY * w->step;
		w->last_cpu = cpu;
	}
	w->last_look = now;
	if (w->timed && now + w->step >= w->deadline)
		return 1;
	tm_ask_stop(w, now);
	/* a helper thread: its main search has ended the phase (asked at
	 * every look: the main search waits for it) */
	if (w->halt && atomic_load_explicit(w->halt, memory_order_relaxed))
		w->stopped = 1;
	return w->stopped;
}

int tm_look(struct tm_watch *w)
{
	int end = tm_out_of_time(w);
	if (w->since > 0) {
		/* the time since tm_look's own last look: the clock is read
		 * inside iterations too (wide expansions, long playouts), and
		 * pacing by the last of those reads made iterations look
		 * nearly free (look_every ran up to 4096, 10 ms between
		 * looks, on Tiptoe 26x26, where movetime 50 ended up to 12 ms
		 * late) */
		double per = (w->last_look - w->paced) / (double)w->since;
		long want = per > 0 ? (long)(LOOK_MS / per) : 4096;
		if (want > 2 * w->look_every)
			want = 2 * w->look_every;
		w->look_every = want < 1 ? 1 : want > 4096 ? 4096 : want;
	}
	w->since = 0;
	w->paced = w->last_look;
	w->look_in = w->look_every;
	return end;
}

int tm_room_for(const struct tm_watch *w, double ms)
{
	return !(w->end > 0 && ai_now_ms() + ms + w->step >= w->end);
}

int tm_compaction_stop(void *ctx)
{
	struct tm_watch *w = ctx;
	double now = ai_now_ms();
	if (w->end > 0 && now >= w->end)
		return 1;
	return tm_ask_stop(w, now);
}

/* The engine's account: the frontend's clock also
 * runs while the answer travels and the next command is written, a
 * fraction of a millisecond a move that over hundreds of moves adds up
 * (seen: 0.36 s over a 26x26 Tiptoe game under Fischer 2 s + 0.05 s), so
 * each move is charged overhead / AI_LAG_SHARE more (the lag that
 * clock_time keeps for each move to come): then the true clock gains on the
 * account rather than falling behind it. */
void ai_clock_spend(struct ai_clock *a, const struct ai_clock *set, double ms,
		    double overhead)
{
	ms += overhead / AI_LAG_SHARE;
	if (a->main_ms > 0 ||
	    (set->kind != AI_CLOCK_CANADIAN && set->kind != AI_CLOCK_BYOYOMI)) {
		a->main_ms -= ms;
		if (set->kind == AI_CLOCK_FISCHER)
			a->main_ms += set->inc_ms;
		if (a->main_ms > 0 || set->kind == AI_CLOCK_ABSOLUTE ||
		    set->kind == AI_CLOCK_FISCHER)
			return;
		ms = -a->main_ms; /* into overtime */
		a->main_ms = 0;
	}
	if (set->kind == AI_CLOCK_CANADIAN) {
		a->period_ms -= ms;
		if (--a->stones <= 0) { /* a new period */
			a->period_ms = set->period_ms;
			a->stones = set->stones;
		}
	} else if (set->period_ms > 0) {
		/* byo-yomi: a move that overruns a period uses it up */
		int lost = (int)(ms / set->period_ms);
		a->periods -= lost;
		a->period_ms = set->period_ms;
	}
}
