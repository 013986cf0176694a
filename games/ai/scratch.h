/* scratch.h: growable scratch buffers (scratch.c).  Each part of the
 * computer player names the buffers it needs in a struct of its own, which
 * the player keeps, one for each thread: a search allocates nothing per
 * move once they are big enough (the clock would have to cover large
 * mallocs and frees). */
#ifndef SCRATCH_H
#define SCRATCH_H

#include <stddef.h>

struct scratch {
	void *p;
	size_t cap;
};

/* At least `bytes` bytes of b (contents undefined), or NULL when out of
 * memory. */
void *scratch_get(struct scratch *b, size_t bytes);

/* Gives b's memory back; b is then empty. */
void scratch_free(struct scratch *b);

#endif
