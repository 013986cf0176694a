/* registry.c: the table of games the engine hosts, in list_games order.
 * A game is added by one line in GAMES: its file defines `const struct
 * game game_NAME` (docs/adding-a-game.md). */
#include "game.h"

#include <string.h>

#define GAMES(X)                                                               \
	X(checkertoe)                                                          \
	X(takebacktoe)                                                         \
	X(takeitaway)                                                          \
	X(abstractoe)                                                          \
	X(tiptoe)                                                              \
	X(connect4)                                                            \
	/* (a new game: one line above, in list_games order) */

#define DECLARE(name) extern const struct game game_##name;
GAMES(DECLARE)

#define ENTRY(name) &game_##name,
const struct game *const game_table[] = {GAMES(ENTRY) NULL};

const struct game *game_find(const char *name)
{
	for (int i = 0; game_table[i]; i++)
		if (strcmp(game_table[i]->name, name) == 0)
			return game_table[i];
	return NULL;
}
