/* bench_playout.c: random playouts of one game, for counting instructions.
 *
 *   bench_playout GAME [OPTIONS] [N]
 *
 * plays N (default 10000) random games from the opening of GAME set up with
 * OPTIONS (newgame's words in one argument, "" for the defaults; seed 1) and
 * prints how many plies they took.  Run under
 * `valgrind --tool=callgrind`, the instructions divided by N are the cost of
 * one random playout, repeatable on a busy machine; run twice with different
 * N and subtract to leave out the start-up.  A playout is what the search
 * does: copy the state, then the game's own playout() when it has one, else
 * status/random_move/play until the end, dice rolled by their odds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../games/ai/playout.h"

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: bench_playout GAME [OPTIONS] [N]\n");
		return 2;
	}
	const struct game *g = game_find(argv[1]);
	if (!g) {
		fprintf(stderr, "bench_playout: unknown game %s\n", argv[1]);
		return 2;
	}
	char err[GAME_ERR_MAX];
	void *start = game_new_state(g, argc > 2 ? argv[2] : "", 1, err);
	if (!start) {
		fprintf(stderr, "bench_playout: %s\n", err);
		return 2;
	}
	long n = argc > 3 ? atol(argv[3]) : 10000, plies = 0;
	void *st = malloc(g->state_size);
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	struct rng r;
	rng_seed(&r, 1);
	for (long i = 0; i < n; i++) {
		memcpy(st, start, g->state_size);
		if (game_search(g)->playout) {
			plies += game_search(g)->playout(st, &r, 1 << 30);
			continue;
		}
		for (;;) {
			struct game_status s = g->status(st);
			if (s.phase == GAME_OVER)
				break;
			if (s.phase == GAME_ROLL) {
				g->roll(st, game_chance_pick(g, st, &r));
				continue;
			}
			struct move mv;
			if (ai_random_move(g, st, &r, list, &mv) < 0)
				break;
			g->play(st, &mv);
			plies++;
		}
	}
	printf("%s [%s]: %ld playouts, %.1f plies each\n", g->name,
	       argc > 2 ? argv[2] : "", n, n ? (double)plies / n : 0.0);
	free(st);
	free(list);
	free(start);
	return 0;
}
