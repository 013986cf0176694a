/* scratch.c: growable scratch buffers, in whole cache lines
 * (scratch.h). */
#include "scratch.h"

#include <stdlib.h>

void *scratch_get(struct scratch *b, size_t bytes)
{
	if (bytes > b->cap) {
		free(b->p);
		/* whole cache lines: a thread's scratch space shares none
		 * with another's (a line written by two cores moves between
		 * them at every write) */
		size_t want = bytes < 4096 ? 4096 : (bytes + 63) / 64 * 64;
		b->p = aligned_alloc(64, want);
		b->cap = b->p ? want : 0;
	}
	return b->p;
}

void scratch_free(struct scratch *b)
{
	free(b->p);
	b->p = NULL;
	b->cap = 0;
}
