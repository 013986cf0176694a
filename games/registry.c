/* registry.c: the table of games the engine hosts, in list_games order. */
#include "game.h"

#include <string.h>

extern const struct game game_checkertoe, game_takebacktoe, game_takeitaway,
	game_abstractoe, game_tiptoe;

const struct game *const game_table[] = {
	&game_checkertoe, &game_takebacktoe, &game_takeitaway,
	&game_abstractoe, &game_tiptoe,      NULL,
};

const struct game *game_find(const char *name)
{
	for (int i = 0; game_table[i]; i++)
		if (strcmp(game_table[i]->name, name) == 0)
			return game_table[i];
	return NULL;
}
