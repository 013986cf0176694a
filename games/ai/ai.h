/* ai.h: the computer player, as the engine sees it.  It plays any game of
 * the table through struct game and nothing else.
 *
 * Level 0 plays a random legal move, level 1 the greedy move (the best
 * immediate result), the top level (AI_LEVEL_MAX) searches: Monte Carlo
 * tree search with chance nodes and per-player (max-n) rewards, plus an
 * exact solver that takes over when the rest of the game fits in the time,
 * and the opening book.  The levels between search too, with a few
 * playouts a move (more from level to level, each game's own: struct
 * game_search's levels, ai.c's default_levels) and neither solver nor
 * book, and play one of their best few moves drawn at random (more evenly
 * at lower levels), the lowest of them the greedy move at some odds, so
 * that a person can beat them.
 *
 * A player (struct ai) keeps its search tree and tables between searches,
 * within the memory `ai_set_hash` allows.  Every search draws its
 * randomness from the one seed it is given, so the engine can keep the
 * dice and the search on separate random streams.  With a playout budget
 * a search starts from an empty tree and empty tables, and the clock never
 * changes its decision: the same position, budget and seed give the same
 * move.  A clock-bound search (movetime or a clock) goes on from the part
 * of the last tree below the position, and ai_ponder grows that tree while
 * the engine waits.  A search runs on `ai_set_threads` threads (one by
 * default; with more, a playout budget still caps the playouts of all of
 * them, but which move it gives may vary from run to run); only the
 * calling thread reads the engine's input, through the `stop` callback.
 * What a search found comes back as typed results (request.h, struct
 * ai_result), which the engine alone writes as text.  Two players share
 * nothing. */
#ifndef AI_H
#define AI_H

#include "../game.h"
#include "request.h"

#define AI_LEVEL_MAX 9      /* the strongest level, the default */
#define AI_THREADS_MAX 1024 /* set threads: the most a search may run on */

struct ai;

/* A player with the default memory limit, or NULL when out of memory. */
struct ai *ai_new(void);
void ai_free(struct ai *ai);

/* Drops the tree and the tables (newgame, undo, and settings that change
 * what a search does), and gives back the memory they held. */
void ai_forget(struct ai *ai);

/* The threads a search runs on (1 to AI_THREADS_MAX), which grow one tree
 * together (team.c); drops the tree.
 * With one thread a search is what it always was.  Returns 0, or -1 when
 * n is out of range or memory is short (the player then searches on one
 * thread). */
int ai_set_threads(struct ai *ai, int n);

/* The megabytes the search may hold (tree and tables); drops the tree. */
void ai_set_hash(struct ai *ai, long mb);

/* Chooses a move for the player to move in st (a GAME_PLAY state), within
 * how->movetime_ms, or the time how->clock allows (main time spread over
 * the moves to come, keeping how->overhead_ms), or how->playouts.  When
 * res is not NULL, it gets what the choice found (struct ai_result).
 * Returns 0, or -1 when the player has no move. */
int ai_choose(struct ai *ai, const struct game *g, const void *st,
	      const struct ai_search *how, struct move *out,
	      struct ai_result *res);

/* Searches st (a GAME_PLAY state) without an end until how->stop says so,
 * passing to how->info, every interval_ms, what it has found: the root
 * moves, best first (see protocol.md, "analyze"), how->info_moves at most.
 * Returns 0, or -1 when the player has no move. */
int ai_analyze(struct ai *ai, const struct game *g, const void *st,
	       const struct ai_search *how, double interval_ms);

/* Thinks on st (a state that is not over: the opponent to move, or a roll
 * due) while the engine waits for input, until how->stop says so (asked
 * every AI_POLL_MS: any input), for the next clock-bound search:
 * the tree it grows is the one that search starts from.  Does nothing and
 * returns -1 under a playout budget or below the top level; else 0. */
int ai_ponder(struct ai *ai, const struct game *g, const void *st,
	      const struct ai_search *how);

/* What the player's last search did, for the tests and the benchmark
 * (struct search_info, games/ai/search.h). */
struct search_info;
void ai_tree_info(struct ai *ai, struct search_info *out);

#endif
