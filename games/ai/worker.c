/* worker.c: one thread's part of a search, set up for a search of its own
 * or beside the main one's (worker.h). */
#include "worker.h"

void worker_scratch_free(struct worker_scratch *s)
{
	scratch_free(&s->list);
	scratch_free(&s->cls);
	scratch_free(&s->prior);
	scratch_free(&s->order);
	scratch_free(&s->states);
	scratch_free(&s->reroot);
	scratch_free(&s->pending);
	pattern_free(&s->pat);
}

/* m's scratch space, from m->sc.  Returns 0, or -1 when out of memory. */
static int scratch(struct worker *m)
{
	size_t nm = (size_t)m->g->max_moves;
	m->st = scratch_get(&m->sc->states, 2 * m->ss);
	m->cls = scratch_get(&m->sc->cls, nm);
	m->prior = scratch_get(&m->sc->prior, sizeof *m->prior * nm);
	m->list = scratch_get(&m->sc->list, sizeof *m->list * nm);
	m->order = scratch_get(&m->sc->order, sizeof *m->order * nm);
	if (!m->st || !m->cls || !m->prior || !m->list || !m->order)
		return -1;
	m->st2 = m->st + m->ss;
	return 0;
}

/* Reads the lines of st's board into m's scratch, where the game has a
 * contents table and two players (the table is a two-player value): in
 * the room of the last search of the same game, whose lines stand where
 * the board is the same.  A board the lines cannot read leaves the
 * game's evaluate() to judge. */
static void find_table(struct worker *m, const void *st)
{
	const struct learn_weights *w = game_search(m->g)->contents_table;
	struct pattern *p = &m->sc->pat;
	char err[GAME_ERR_MAX];
	m->table = NULL;
	if (!w || m->np != 2)
		return;
	int ok;
	if (p->line && p->g == m->g) {
		ok = pattern_refresh(p, st, err) == 0;
	} else {
		pattern_free(p);
		ok = pattern_init(p, m->g, st, err) == 0;
	}
	if (ok)
		m->table = w->w;
}

void worker_judge(struct worker *m, const void *st, double *value)
{
	if (m->table)
		pattern_evaluate(&m->sc->pat, m->table, st, value);
	else
		game_search(m->g)->evaluate(st, value);
}

int worker_start(struct worker *m, struct tree *t, struct worker_scratch *sc,
		 const struct game *g, const void *st, struct rng *r,
		 int (*stop)(void *ctx), void *ctx)
{
	*m = (struct worker){0};
	m->t = t;
	m->sc = sc;
	m->g = g;
	m->r = r;
	ai_players_of(g, st, &m->pl);
	m->np = m->pl.n;
	m->im = t->im;
	m->ss = g->state_size;
	tm_watch_start(&m->clock, stop, ctx);
	find_table(m, st);
	return scratch(m);
}

int worker_share(struct worker *m)
{
	m->pending = scratch_get(&m->sc->pending, sizeof *m->pending * PENDING);
	if (!m->pending)
		return -1;
	for (int i = 0; i < PENDING; i++)
		m->pending[i] = (struct pending){.node = UINT32_MAX};
	return 0;
}

int worker_follow(struct worker *m, const struct worker *lead,
		  struct worker_scratch *sc, struct rng *r)
{
	*m = (struct worker){0};
	m->t = lead->t;
	m->sc = sc;
	m->g = lead->g;
	m->r = r;
	m->np = lead->np;
	m->pl = lead->pl;
	m->im = lead->im;
	m->ss = lead->ss;
	tm_watch_start(&m->clock, NULL, NULL); /* (the input is the lead's) */
	/* a copy of the lead's lines: the helper is given no state of the
	 * root to read them from */
	m->table = NULL;
	if (lead->table) {
		char err[GAME_ERR_MAX];
		if (pattern_copy(&sc->pat, &lead->sc->pat, err) == 0)
			m->table = lead->table;
	}
	m->lock = lead->lock;
	m->tickets = lead->tickets;
	m->grown = 1; /* the main search makes room (team_run) */
	return scratch(m) < 0 || worker_share(m) < 0 ? -1 : 0;
}
