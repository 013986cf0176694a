/* iterate.h: the tree search's iterations (iterate.c): one at a time on
 * one thread, or on a tree shared with other threads. */
#ifndef ITERATE_H
#define ITERATE_H

#include "worker.h"

/* Runs iterations until the clock passes until_ms (when timed), m's
 * iterations reach until_iters (with a budget shared by a team of
 * threads, the team's playouts), or the engine says stop.  A full pool is
 * compacted between iterations (one thread), or the run leaves with
 * m->for_room set (a team's lead: team_run compacts it with the team
 * stopped). */
void worker_run(struct worker *m, double until_ms, long until_iters);

/* Compacts a full pool when the time left allows (see iterate.c). */
void worker_make_room(struct worker *m);

#endif
