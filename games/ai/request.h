/* request.h: what the computer player is asked and what it answers: the
 * clocks, a search's settings and hooks (struct ai_search), and its typed
 * results (struct ai_result), shared by the engine (through ai.h) and
 * every part of games/ai/; the functions here are timeman.c's. */
#ifndef REQUEST_H
#define REQUEST_H

#include "../game.h"

/* The mover's clock, as the engine keeps it (GTP's time_settings and
 * time_left, KGS's kgs-time_settings), in milliseconds. */
enum ai_clock_kind {
	AI_CLOCK_ABSOLUTE, /* main time only */
	AI_CLOCK_FISCHER,  /* main time, plus inc after each own move */
	AI_CLOCK_CANADIAN, /* main time, then `stones` moves per period */
	AI_CLOCK_BYOYOMI,  /* main time, then periods of period_ms each */
};

struct ai_clock {
	enum ai_clock_kind kind;
	double main_ms;   /* main time left; 0 once overtime has begun */
	double inc_ms;    /* fischer: added after each of the mover's moves */
	double period_ms; /* canadian: time left for this period's stones (a
			   * whole period while main time lasts); byoyomi:
			   * one period */
	int stones;       /* canadian: moves to make within period_ms */
	int periods;      /* byoyomi: periods left */
};

/* What every move costs on the frontend's clock beyond the engine's own
 * thinking (the trip of the answer and the next command), as a share of
 * the overhead (`set overhead`): the engine's account charges each move
 * overhead / AI_LAG_SHARE, and a clock's plan keeps as much for each move
 * to come (timeman.c). */
#define AI_LAG_SHARE 10

/* The engine's account of the mover's clock `left` (as `set` gives it
 * afresh) after a move that took ms milliseconds from reading the command
 * to answering, with the frontend's overhead_ms (timeman.c). */
void ai_clock_spend(struct ai_clock *left, const struct ai_clock *set,
		    double ms, double overhead_ms);

struct ai_result;

/* What one search may do, and how it talks to the engine. */
struct ai_search {
	int level;
	long playouts;      /* > 0: at most this many playouts */
	double movetime_ms; /* without a clock: think at most this long */
	const struct ai_clock *clock; /* not NULL: the time comes from it */
	double overhead_ms; /* with a clock: kept for the frontend's delays */
	double start_ms;    /* ai_now_ms() when the command was read */
	uint64_t seed;      /* all of the search's randomness */
	/* Asked every AI_POLL_MS (timeman.h) while thinking (may be NULL):
	 * nonzero ends the search at once with the best move so far. */
	int (*stop)(void *ctx);
	/* ai_analyze: what the search has found, every interval */
	void (*info)(void *ctx, const struct ai_result *res);
	int info_moves; /* the candidates a result lists at most (ai_analyze:
			 * 0 means AI_INFO_MOVES; ai_choose: 0 lists
			 * none) */
	void *ctx;
	int no_book;   /* search where the opening book knows the move too
			* (benchmarks of the search) */
	int no_solver; /* never hand the rest of the game to the exact
			* solver (the levels below the top) */
	double temper; /* > 0: play one of the few moves searched most, drawn
			* with odds of visits^(1 / temper); 0: the best (the
			* levels below the top) */
};

/* Why a search ended before its budget: its choice was settled. */
enum ai_settled {
	AI_OPEN,      /* not settled: it ran its budget, or was stopped */
	AI_ONLY_MOVE, /* the mover has one move */
	AI_PROVEN,    /* the tree proved the root won or drawn */
	AI_ONE_LEFT,  /* every move but one is proven lost or set aside */
	AI_SOLVED,    /* more than two players: the solver's own choice */
};

/* On which scale a value is. */
enum ai_scale {
	AI_SCALE_RESULT, /* the mover's expected result, 0 (a sure loss) to 1
			  * (a sure win) */
	AI_SCALE_POINTS, /* the solo puzzle: mark 1's expected points */
};

/* What is proven of a move's value. */
enum ai_proof {
	AI_UNPROVEN,
	AI_PROVEN_LOSS, /* its result under perfect play */
	AI_PROVEN_DRAW,
	AI_PROVEN_WIN,
	AI_PROVEN_POINTS, /* solo: exactly `value` points */
};

/* One step of the line a search expects: a move, or a chance outcome. */
struct ai_step {
	int roll; /* 1: the chance outcome `outcome`; 0: the move mv */
	int outcome;
	struct move mv;
};

/* The steps a line holds at most: 16 moves, and the rolls between them. */
#define AI_LINE_MAX 32

/* One root move as a search sees it. */
struct ai_candidate {
	struct move mv;
	unsigned long visits; /* its playouts (not the game's judgement) */
	int judged;           /* it has a mean: visits, or the judgement */
	double mean;          /* the mean of its rewards for the mover */
	double value;         /* what it is worth: exact where proven, else
			       * the mean */
	enum ai_scale scale;  /* of mean and value */
	enum ai_proof proof;
	int aside; /* proven lost or shown worse: no longer in the running */
	int steps; /* the line the search expects, from mv on: the most
		    * visited reply at each move, the likeliest roll at each
		    * chance event */
	struct ai_step line[AI_LINE_MAX];
};

/* Where a move came from. */
enum ai_source {
	AI_QUIET,  /* a move with nothing to report (a drawn line) */
	AI_RANDOM, /* level 0, or a level's random pick */
	AI_GREEDY, /* level 1, or a level's greedy odds */
	AI_BOOK,   /* the opening book */
	AI_SEARCH, /* the tree search */
};

/* What a search found, as typed results: the engine alone writes them as
 * text (the search line of genmove and hint, analyze's `info` lines). */
struct ai_result {
	enum ai_source source;
	int level;      /* the level asked for */
	struct move mv; /* ai_choose: the move chosen */
	int book_value; /* AI_BOOK: its value for the mover (solve.h) */
	/* AI_SEARCH: */
	long playouts;       /* of every thread */
	unsigned long nodes; /* in the tree at the end */
	unsigned long kept;  /* root visits kept from earlier searches */
	int flexible;        /* the clock's plan: the shortest and longest
			      * time it allowed, from the start */
	double soft_ms, hard_ms;
	int stopped; /* the engine's stop ended it */
	enum ai_settled settled;
	int solved;               /* the exact solver finished */
	long solver_nodes;        /* the nodes it searched */
	struct ai_candidate pick; /* ai_choose: the move chosen */
	/* the candidates, best first (analyze's order), how->info_moves at
	 * most; kept by the player until its next search */
	int n;
	const struct ai_candidate *cand;
};

/* The candidates an `info` line names unless info_moves says otherwise
 * (protocol.md, "analyze"). */
#define AI_INFO_MOVES 20

/* Milliseconds on a monotonic clock. */
double ai_now_ms(void);

#endif
