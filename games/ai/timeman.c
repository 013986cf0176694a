/* timeman.c: time management, all of it: what a clock allows a move
 * (clock_time), how a search spends it (tm_plan: movetime whole; under a
 * clock the main time spread over the mover's expected moves, ending early
 * when the best move can no longer be caught and going on while the top
 * two are close; the search reads these through tm_settled and tm_open),
 * how late searches end on a busy machine (tm_late), and the engine's
 * account of the clock after each move (ai_clock_spend).  The one
 * constant they share is AI_LAG_SHARE (ai.h). */
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
	struct tm_plan p = {0, 0, 0};
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

int tm_settled(double first, double second, double rate, double left)
{
	return first - second > rate * left;
}

int tm_open(double first, double second)
{
	return second >= OPEN_SHARE * first;
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
