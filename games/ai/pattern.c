/* pattern.c: lines of three cells from any geometry, read by contents
 * (pattern.h). */
#include "pattern.h"

#include <stdlib.h>
#include <string.h>

#include "../learn.h"
#include "../util/numbers.h"

/* Cells are neighbours within 1.5 times a cell's distance to its nearest
 * (squared): a square's eight around it, a hexagon's six. */
#define NEAR2 2.25
/* The third cell of a line lies within half a step of where the step from
 * the first to the second leads on (squared): exact on grids, and the
 * closest such cell on a board of regions. */
#define ON2 0.25
#define TAN_22_5 0.41421356237309503

static double dist2(const struct game_cell *a, double x, double y)
{
	return (a->x - x) * (a->x - x) + (a->y - y) * (a->y - y);
}

/* The direction class of a step (dx, dy) with dy > 0, or dy == 0 and
 * dx > 0: 0 across, 1 rising to the right, 2 up, 3 rising to the left. */
static int direction(double dx, double dy)
{
	double ax = dx < 0 ? -dx : dx;
	if (dy <= TAN_22_5 * ax)
		return 0;
	if (ax <= TAN_22_5 * dy)
		return 2;
	return dx > 0 ? 1 : 3;
}

/* Whether the step (dx, dy) points into the upper half turn, so that each
 * line is found from one of its ends only. */
static int upward(double dx, double dy)
{
	return dy > 1e-9 || (dy > -1e-9 && dx > 0);
}

/* The cell nearest (x, y) but a and b, and its distance (squared). */
static int nearest(const struct game_cell *c, int n, int a, int b, double x,
		   double y, double *d)
{
	int best = -1;
	for (int i = 0; i < n; i++) {
		if (i == a || i == b)
			continue;
		double e = dist2(&c[i], x, y);
		if (best < 0 || e < *d) {
			best = i;
			*d = e;
		}
	}
	return best;
}

/* The lines of the n cells c into p: from each cell, along each
 * direction, the nearest neighbour and the cell on past it. */
static void find_lines(struct pattern *p, const struct game_cell *c, int n,
		       const double *near, const int *edge)
{
	for (int a = 0; a < n; a++) {
		int nb[PAT_DIRS];
		double nd[PAT_DIRS];
		for (int k = 0; k < PAT_DIRS; k++)
			nb[k] = -1;
		for (int b = 0; b < n; b++) {
			double dx = c[b].x - c[a].x, dy = c[b].y - c[a].y;
			double d = dx * dx + dy * dy;
			if (b == a || d > NEAR2 * near[a] || !upward(dx, dy))
				continue;
			int k = direction(dx, dy);
			if (nb[k] < 0 || d < nd[k]) {
				nb[k] = b;
				nd[k] = d;
			}
		}
		for (int k = 0; k < PAT_DIRS; k++) {
			int b = nb[k];
			if (b < 0)
				continue;
			double d, x = 2 * c[b].x - c[a].x,
				  y = 2 * c[b].y - c[a].y;
			int e = nearest(c, n, a, b, x, y, &d);
			if (e < 0 || d > ON2 * nd[k])
				continue;
			p->line[p->lines][0] = (uint16_t)a;
			p->line[p->lines][1] = (uint16_t)b;
			p->line[p->lines][2] = (uint16_t)e;
			p->cls[p->lines++] = (uint8_t)(k * 2 + edge[b]);
		}
	}
}

/* Room for the lines of any board the lines read, and for reading it. */
static int make_room(struct pattern *p, char *err)
{
	size_t most = (size_t)PAT_DIRS * PAT_MAX_CELLS;
	p->line = malloc(most * sizeof *p->line);
	p->cls = malloc(most);
	p->site = malloc(PAT_MAX_CELLS * sizeof *p->site);
	p->idx = malloc(PAT_MAX_FEATURES * sizeof *p->idx);
	p->xy = malloc(2 * PAT_MAX_CELLS * sizeof *p->xy);
	if (p->line && p->cls && p->site && p->idx && p->xy)
		return 0;
	pattern_free(p);
	return game_fail(err, "out of memory");
}

int pattern_copy(struct pattern *dst, const struct pattern *src, char *err)
{
	if (!dst->line && make_room(dst, err) < 0)
		return -1;
	dst->g = src->g;
	dst->cells = src->cells;
	dst->lines = src->lines;
	memcpy(dst->line, src->line, (size_t)src->lines * sizeof *src->line);
	memcpy(dst->cls, src->cls, (size_t)src->lines);
	memcpy(dst->xy, src->xy, 2 * (size_t)src->cells * sizeof *src->xy);
	return 0;
}

/* The lines of the n cells c (n <= PAT_MAX_CELLS) into p. */
static void build(struct pattern *p, const struct game_cell *c, int n)
{
	double near[PAT_MAX_CELLS];
	int deg[PAT_MAX_CELLS], most_deg = 0;
	p->cells = n;
	p->lines = 0;
	for (int a = 0; a < n; a++) {
		p->xy[2 * a] = c[a].x;
		p->xy[2 * a + 1] = c[a].y;
		near[a] = -1;
		for (int b = 0; b < n; b++) {
			double d = dist2(&c[b], c[a].x, c[a].y);
			if (b != a && (near[a] < 0 || d < near[a]))
				near[a] = d;
		}
	}
	/* a cell with fewer neighbours than the most any has lies on the
	 * board's edge */
	for (int a = 0; a < n; a++) {
		deg[a] = 0;
		for (int b = 0; b < n; b++)
			deg[a] += b != a && dist2(&c[b], c[a].x, c[a].y) <=
						    NEAR2 * near[a];
		most_deg = deg[a] > most_deg ? deg[a] : most_deg;
	}
	for (int a = 0; a < n; a++)
		deg[a] = deg[a] < most_deg;
	find_lines(p, c, n, near, deg);
}

int pattern_refresh(struct pattern *p, const void *st, char *err)
{
	struct game_cell *c = NULL;
	int n = game_cells(p->g, st, &c);
	if (n < 0)
		return game_fail(err, "out of memory");
	if (n > PAT_MAX_CELLS) {
		free(c);
		return game_fail(err, "%d cells: the lines read %d at most", n,
				 PAT_MAX_CELLS);
	}
	int same = n == p->cells;
	for (int a = 0; same && a < n; a++)
		same = c[a].x == p->xy[2 * a] && c[a].y == p->xy[2 * a + 1];
	if (!same)
		build(p, c, n);
	free(c);
	return 0;
}

int pattern_init(struct pattern *p, const struct game *g, const void *st,
		 char *err)
{
	memset(p, 0, sizeof *p);
	p->g = g;
	p->cells = -1; /* no board read yet */
	if (make_room(p, err) < 0)
		return -1;
	if (pattern_refresh(p, st, err) < 0) {
		pattern_free(p);
		return -1;
	}
	return 0;
}

void pattern_free(struct pattern *p)
{
	free(p->line);
	free(p->cls);
	free(p->site);
	free(p->idx);
	free(p->xy);
	memset(p, 0, sizeof *p);
}

/* What a site holds from the side of player `me` against `you`: 0 empty,
 * 1 and 2 a piece and a stack of me's, 3 and 4 of you's, 5 to 7 nobody's
 * (or a side beyond the players') by kind. */
static unsigned code_of(const struct game_site *s, int me, int you)
{
	if (!s->count)
		return 0;
	unsigned stack = s->count > 1;
	if (s->owner == me)
		return 1 + stack;
	if (s->owner == you)
		return 3 + stack;
	return 5 + (s->kind < 2 ? s->kind : 2);
}

static uint32_t lead(int x)
{
	x = x < -4 ? -4 : x > 4 ? 4 : x;
	return (uint32_t)(x + 4);
}

/* pattern_features for `me`, st's player to act. */
static int features_for(struct pattern *p, const void *st, int me,
			uint32_t *idx, double *base)
{
	const struct game *g = p->g;
	int you = 3 - me, k = 0;
	*base = 0;
	if (game_search(g)->evaluate) {
		double v[GAME_MAX_PLAYERS];
		game_search(g)->evaluate(st, v);
		double x = v[me - 1];
		x = x < 0.001 ? 0.001 : x > 0.999 ? 0.999 : x;
		*base = num_log(x) - num_log(1 - x);
	}
	memset(p->site, 0, (size_t)p->cells * sizeof *p->site);
	struct game_contents c = {.site = p->site};
	g->contents(st, &c);
	int filled = 0;
	for (int i = 0; i < p->cells; i++) {
		unsigned x = code_of(&p->site[i], me, you);
		filled += x != 0;
		/* the code kept where the count was: read below, once */
		p->site[i].count = (uint16_t)x;
	}
	uint32_t phase =
		p->cells ? (uint32_t)(filled * PAT_PHASES / p->cells) : 0;
	phase = phase < PAT_PHASES ? phase : PAT_PHASES - 1;
	uint32_t at = PAT_F_LINES + phase * PAT_DIRS * 2 * PAT_LINE;
	for (int l = 0; l < p->lines; l++) {
		const uint16_t *ln = p->line[l];
		uint32_t a = p->site[ln[0]].count, b = p->site[ln[1]].count,
			 e = p->site[ln[2]].count;
		/* a line read from either end is the same line */
		uint32_t fwd = (a * PAT_CODES + b) * PAT_CODES + e;
		uint32_t rev = (e * PAT_CODES + b) * PAT_CODES + a;
		idx[k++] = at + p->cls[l] * PAT_LINE + (fwd < rev ? fwd : rev);
	}
	int pts[GAME_MAX_PLAYERS] = {0};
	g->score(st, pts);
	idx[k++] = PAT_F_SCORE + phase * PAT_LEADS +
		   lead(pts[me - 1] - pts[you - 1]);
	int hand = 0;
	for (int i = 0; c.hands && i < GAME_MAX_KINDS; i++)
		hand += c.hand[me - 1][i] - c.hand[you - 1][i];
	idx[k++] = PAT_F_HAND + phase * PAT_LEADS + lead(hand);
	return k;
}

int pattern_features(struct pattern *p, const void *st, uint32_t *idx,
		     double *base)
{
	return features_for(p, st, p->g->status(st).player, idx, base);
}

void pattern_evaluate(struct pattern *p, const int16_t *w, const void *st,
		      double *value)
{
	double base;
	int me = p->g->status(st).player;
	int n = features_for(p, st, me, p->idx, &base);
	value[me - 1] = learn_value(w, base, p->idx, n);
	value[2 - me] = 1 - value[me - 1];
}
