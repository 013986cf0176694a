/* book_data.c: the opening book, written by `make book` (scripts/solver.c):
 * do not edit.  (Empty until the first `make book`.) */
#include "book.h"

const struct book_line book_lines[] = {
	{NULL, NULL, NULL, NULL, 0, 0},
};

const int book_size = 0;
