/* book.h: the opening book (book.c), and its data, as `make book` writes
 * it into book_data.c. */
#ifndef BOOK_H
#define BOOK_H

#include <stddef.h>

#include "../game.h"

/* One book position: reached from a game's set-up by a line of moves, with
 * the move to play there and its exact value for the mover (solve.h's
 * scale: result, then margin).  Lines, not position text, name positions:
 * book.c replays them through the game itself, so the book outlives any
 * change of a game's state or position format, and finds a position's
 * mirror images through the game's key(). */
/* The fields are arrays, not pointers, so that the lines are read-only
 * data (pointers would need relocations, which make them writable in a
 * position-independent program: see tests/check-ai-data.sh). */
#define BOOK_GAME_MAX 16
#define BOOK_SETUP_MAX 32
#define BOOK_MOVES_MAX 48
#define BOOK_BEST_MAX 16
struct book_line {
	char game[BOOK_GAME_MAX];   /* the game's protocol name: "tiptoe" */
	char setup[BOOK_SETUP_MAX]; /* newgame options: "size=5" */
	char moves[BOOK_MOVES_MAX]; /* the line from the set-up: "c3 b2" (""
				       none) */
	char best[BOOK_BEST_MAX];   /* the move to play */
	int value;                  /* its value for the mover */
	int exact; /* 1: value has the margin too; 0: only its result counts
		    * (SOLVE_RESULT times 1, 0 or -1), as in a game where
		    * the points only tell who won */
};

extern const struct book_line book_lines[];
extern const int book_size;

/* A player's book: the positions of the lines, filed per game when the game
 * is first probed. */
struct book;

/* An empty book, or NULL when out of memory. */
struct book *book_new(void);
void book_free(struct book *b);

/* The move the book gives for st, with its value for the mover (as
 * solve_values's: -1, 0 or 1 with two players), when st is in the book.
 * Returns 1 when it is, 0 when not. */
int book_probe(struct book *b, const struct game *g, const void *st,
	       struct move *mv, int *value);

/* The same, with the exact value (solve_moves's scale: the margin too),
 * for a search that carries proven values into its tree. */
int book_find(struct book *b, const struct game *g, const void *st,
	      struct move *mv, int *value);

#endif
