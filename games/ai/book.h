/* book.h: the opening book's data, as `make book` writes it into
 * book_data.c, and as book.c and the tests read it. */
#ifndef BOOK_H
#define BOOK_H

#include <stddef.h>

/* One book position: reached from a game's set-up by a line of moves, with
 * the move to play there and its exact value for the mover (search.h's
 * scale: result, then margin).  Lines, not position text, name positions:
 * book.c replays them through the game itself, so the book outlives any
 * change of a game's state or position format, and finds a position's
 * mirror images through the game's key(). */
struct book_line {
	const char *game;  /* the game's protocol name: "tiptoe" */
	const char *setup; /* newgame options: "size=5" */
	const char *moves; /* the line from the set-up: "c3 b2" ("" none) */
	const char *best;  /* the move to play */
	int value;         /* its value for the mover */
	int exact; /* 1: value has the margin too; 0: only its result counts
		    * (SOLVE_RESULT times 1, 0 or -1), as in a game where
		    * the points only tell who won */
};

extern const struct book_line book_lines[];
extern const int book_size;

#endif
