/* abstractoe_board.c: the lattice geometry of Abs-Trac-Toe: checking a
 * figure and a bending line against the rules, reading and writing them as
 * text, numbering the regions they make, and drawing random ones. */
#include "abstractoe_board.h"

#include <stdio.h>
#include <string.h>

#define RAND_W 20 /* the lattice of boards from the seed */
#define RAND_H 16

/* ---- the lattice ---- */

static int g_in(const struct abt_geo *g, int x, int y)
{
	return x >= 0 && y >= 0 && x < g->w && y < g->h &&
	       g->in[y * ABT_MAXW + x];
}

static int is_vline(const struct abt_geo *g, int x)
{
	return x == g->vx[0] || x == g->vx[1];
}

static int is_hline(const struct abt_geo *g, int y)
{
	return y == g->hy[0] || y == g->hy[1];
}

enum { V_OUT, V_EDGE, V_IN };

/* Where vertex (x, y) lies: outside, on the outline, or inside. */
static int vkind(const struct abt_geo *g, int x, int y)
{
	int n = g_in(g, x - 1, y - 1) + g_in(g, x, y - 1) + g_in(g, x - 1, y) +
		g_in(g, x, y);
	return n == 0 ? V_OUT : n == 4 ? V_IN : V_EDGE;
}

/* A point where a straight line meets the outline. */
static int is_meet(const struct abt_geo *g, int x, int y)
{
	return vkind(g, x, y) == V_EDGE && (is_vline(g, x) || is_hline(g, y));
}

static int is_cross(const struct abt_geo *g, int x, int y)
{
	return is_vline(g, x) && is_hline(g, y);
}

/* Cell (x, y) makes the figure or a bay of the outside one cell thin: its
 * two neighbours across it, in a row or a column, are both the other
 * kind.  Legal, but random boards look better without. */
static int thin_at(const struct abt_geo *g, int x, int y)
{
	int v = g_in(g, x, y);
	return (x > 0 && x < g->w - 1 && g_in(g, x - 1, y) != v &&
		g_in(g, x + 1, y) != v) ||
	       (y > 0 && y < g->h - 1 && g_in(g, x, y - 1) != v &&
		g_in(g, x, y + 1) != v);
}

/* The outline touches itself at lattice point (x, y): two cells of the
 * figure meet there only at their corners. */
static int touch_at(const struct abt_geo *g, int x, int y)
{
	int p = g_in(g, x - 1, y - 1), q = g_in(g, x, y - 1);
	return p == g_in(g, x, y) && q == g_in(g, x - 1, y) && p != q;
}

/* The two cells beside the edge from vertex (x, y) in direction d. */
static void edge_cells(int x, int y, int d, int c[4])
{
	switch (d) {
	case ABT_EAST:
		c[0] = x, c[1] = y - 1, c[2] = x, c[3] = y;
		break;
	case ABT_WEST:
		c[0] = x - 1, c[1] = y - 1, c[2] = x - 1, c[3] = y;
		break;
	case ABT_NORTH:
		c[0] = x - 1, c[1] = y, c[2] = x, c[3] = y;
		break;
	default:
		c[0] = x - 1, c[1] = y - 1, c[2] = x, c[3] = y - 1;
	}
}

/* Cells of the figure beside the edge: 2 inside, 1 on the outline. */
static int edge_inside(const struct abt_geo *g, int x, int y, int d)
{
	int c[4];
	edge_cells(x, y, d, c);
	return g_in(g, c[0], c[1]) + g_in(g, c[2], c[3]);
}

static int edge_on_line(const struct abt_geo *g, int x, int y, int d)
{
	return (d == ABT_EAST || d == ABT_WEST) ? is_hline(g, y)
						: is_vline(g, x);
}

static void vname(int x, int y, char *buf)
{
	square_name(x, y, buf);
}

/* ---- regions ---- */

/* Walls between cells: hwall[y * ABT_MAXW + x] is the edge under cell (x, y)
 * (vertex row y), vwall[y * (ABT_MAXW + 1) + x] the edge left of cell (x, y).
 */
struct walls {
	uint8_t h[(ABT_MAXH + 1) * ABT_MAXW];
	uint8_t v[ABT_MAXH * (ABT_MAXW + 1)];
};

static void walls_of(const struct abt_geo *g, const struct abt_walk *wk,
		     struct walls *wl)
{
	memset(wl, 0, sizeof *wl);
	for (int i = 0; i < 2; i++) {
		for (int y = 0; y < g->h; y++)
			wl->v[y * (ABT_MAXW + 1) + g->vx[i]] = 1;
		for (int x = 0; x < g->w; x++)
			wl->h[g->hy[i] * ABT_MAXW + x] = 1;
	}
	if (!wk)
		return;
	int x = wk->x0, y = wk->y0;
	for (int i = 0; i < wk->n; i++) {
		int d = wk->dir[i];
		if (d == ABT_EAST)
			wl->h[y * ABT_MAXW + x] = 1;
		else if (d == ABT_WEST)
			wl->h[y * ABT_MAXW + x - 1] = 1;
		else if (d == ABT_NORTH)
			wl->v[y * (ABT_MAXW + 1) + x] = 1;
		else
			wl->v[(y - 1) * (ABT_MAXW + 1) + x] = 1;
		x += ABT_DX[d], y += ABT_DY[d];
	}
}

/* Numbers the regions into cell[] (scan order: top row first, left to
 * right) and counts their cells into size[] (ABT_MAX_REGIONS + 1 entries).
 * Returns the number of regions, or -1 past ABT_MAX_REGIONS. */
static int label(const struct abt_geo *g, const struct walls *wl, uint8_t *cell,
		 int *size)
{
	static const int ND[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
	int stack[ABT_MAXW * ABT_MAXH], n = 0;
	memset(cell, 0, ABT_MAXW * ABT_MAXH);
	for (int y = g->h - 1; y >= 0; y--)
		for (int x = 0; x < g->w; x++) {
			if (!g_in(g, x, y) || cell[y * ABT_MAXW + x])
				continue;
			if (n == ABT_MAX_REGIONS)
				return -1;
			n++;
			size[n] = 0;
			int sp = 0;
			stack[sp++] = y * ABT_MAXW + x;
			cell[y * ABT_MAXW + x] = (uint8_t)n;
			while (sp) {
				int c = stack[--sp], cx = c % ABT_MAXW,
				    cy = c / ABT_MAXW;
				size[n]++;
				for (int k = 0; k < 4; k++) {
					int nx = cx + ND[k][0],
					    ny = cy + ND[k][1];
					if (!g_in(g, nx, ny) ||
					    cell[ny * ABT_MAXW + nx])
						continue;
					int wall =
						k == 0 ? wl->v[cy * (ABT_MAXW +
								     1) +
							       cx + 1]
						: k == 1
							? wl->v[cy * (ABT_MAXW +
								      1) +
								cx]
						: k == 2
							? wl->h[(cy +
								 1) * ABT_MAXW +
								cx]
							: wl->h[cy * ABT_MAXW +
								cx];
					if (wall)
						continue;
					cell[ny * ABT_MAXW + nx] = (uint8_t)n;
					stack[sp++] = ny * ABT_MAXW + nx;
				}
			}
		}
	return n;
}

/* ---- checking a figure and a line ---- */

/* Cells with in[] == want that one flood reaches: from the first such cell
 * (want = 1), or from the lattice's border (want = 0: outside cells on the
 * border are linked through the space around the lattice, a ring of
 * outside cells here).  On a grid with that ring and a row of zeros
 * above and below, where a cell still to reach is 1, a step needs no
 * bounds check; the ring's row y is grid row y + 1. */
#define PW (ABT_MAXW + 2) /* a row of the grid, ring included */

static int flood(const struct abt_geo *g, int want)
{
	static const int ND[4] = {1, -1, PW, -PW};
	uint8_t grid[PW * (ABT_MAXH + 4)];
	int stack[PW * (ABT_MAXH + 4)], sp = 0, count = 0, first = -1;
	memset(grid, 0, sizeof grid);
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++) {
			int c = (y + 2) * PW + x + 1;
			grid[c] = g->in[y * ABT_MAXW + x] == want;
			if (grid[c] && first < 0)
				first = c;
		}
	if (!want) { /* the ring, not counted */
		for (int x = 0; x < g->w + 2; x++)
			grid[PW + x] = grid[(g->h + 2) * PW + x] = 1;
		for (int y = 1; y < g->h + 3; y++)
			grid[y * PW] = grid[y * PW + g->w + 1] = 1;
		first = PW;
		count = -2 * (g->w + g->h + 2);
	}
	if (first < 0)
		return 0;
	grid[first] = 0;
	stack[sp++] = first;
	while (sp) {
		int c = stack[--sp];
		count++;
		for (int k = 0; k < 4; k++)
			if (grid[c + ND[k]]) {
				grid[c + ND[k]] = 0;
				stack[sp++] = c + ND[k];
			}
	}
	return count;
}

/* The outline alone: one piece, no holes, never touching itself. */
static int check_outline(const struct abt_geo *g, char *err)
{
	int area = 0;
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++)
			area += g_in(g, x, y);
	if (!area)
		return game_fail(err, "the figure has no cells");
	if (flood(g, 1) != area)
		return game_fail(err, "the figure must be in one piece");
	if (flood(g, 0) != g->w * g->h - area)
		return game_fail(err, "the figure must have no holes");
	for (int y = 1; y < g->h; y++)
		for (int x = 1; x < g->w; x++) {
			if (touch_at(g, x, y)) {
				char a[8];
				vname(x, y, a);
				return game_fail(
					err, "the outline touches itself at %s",
					a);
			}
		}
	return 0;
}

/* What breaks the rules of one straight line, vertical at vertex column
 * `at` or horizontal at vertex row `at`: the cells on its two sides must
 * agree all along (else it runs along the outline, at step *where), the
 * figure's cells along it must be one run (it meets the outline twice),
 * and that run must reach past both lines of the other direction. */
enum { STRAIGHT_OK, STRAIGHT_ALONG, STRAIGHT_TWICE, STRAIGHT_SHORT };

static int straight_problem(const struct abt_geo *g, int vertical, int at,
			    int *where)
{
	int len = vertical ? g->h : g->w, lo = -1, hi = -1, gap = 0;
	const int *other = vertical ? g->hy : g->vx;
	for (int t = 0; t < len; t++) {
		int x = vertical ? at : t, y = vertical ? t : at;
		int in = g_in(g, x, y);
		if (g_in(g, x - vertical, y - !vertical) != in) {
			*where = t;
			return STRAIGHT_ALONG;
		}
		if (in) {
			gap |= hi >= 0 && hi < t - 1;
			if (lo < 0)
				lo = t;
			hi = t;
		}
	}
	if (gap)
		return STRAIGHT_TWICE;
	if (lo < 0 || lo > other[0] - 1 || hi < other[1])
		return STRAIGHT_SHORT;
	return STRAIGHT_OK;
}

/* straight_problem() with the reason in err: returns 0, or -1. */
static int check_straight(const struct abt_geo *g, int vertical, int at,
			  char *err)
{
	int t = 0, k = straight_problem(g, vertical, at, &t);
	char name[16], a[8];
	if (vertical)
		snprintf(name, sizeof name, "%c", 'a' + at);
	else
		snprintf(name, sizeof name, "%d", at + 1);
	vname(vertical ? at : t, vertical ? t : at, a);
	switch (k) {
	case STRAIGHT_ALONG:
		return game_fail(err,
				 "the straight line %s runs along the outline "
				 "at %s",
				 name, a);
	case STRAIGHT_TWICE:
		return game_fail(err,
				 "the straight line %s meets the outline more "
				 "than twice",
				 name);
	case STRAIGHT_SHORT:
		return game_fail(err,
				 "the straight line %s must cross both %s "
				 "lines inside the figure",
				 name, vertical ? "horizontal" : "vertical");
	}
	return 0;
}

/* The pieces the straight lines alone cut g into: returns their count
 * (-1 past ABT_MAX_REGIONS) and writes their sizes into size[]
 * (ABT_MAX_REGIONS + 1). */
static int sections(const struct abt_geo *g, int *size)
{
	struct walls wl;
	uint8_t cell[ABT_MAXW * ABT_MAXH];
	walls_of(g, NULL, &wl);
	return label(g, &wl, cell, size);
}

/* Checks a figure with its straight lines: one piece, no holes, an outline
 * that never touches itself, each straight line meeting the outline exactly
 * twice and crossing both lines of the other kind inside the figure, nine
 * sections of at least min_section cells.  Returns 0 or -1 with err. */
int abt_check_figure(const struct abt_geo *g, int min_section, char *err)
{
	if (check_outline(g, err) < 0)
		return -1;
	for (int i = 0; i < 2; i++)
		if (check_straight(g, 1, g->vx[i], err) < 0)
			return -1;
	for (int i = 0; i < 2; i++)
		if (check_straight(g, 0, g->hy[i], err) < 0)
			return -1;
	int size[ABT_MAX_REGIONS + 1], n = sections(g, size);
	if (n != 9)
		return game_fail(err,
				 "the straight lines must cut the figure into "
				 "9 sections, not %d",
				 n);
	for (int r = 1; r <= 9; r++)
		if (size[r] < min_section)
			return game_fail(err, "a section is too small");
	return 0;
}

/* The start of a line: on the outline, not where a straight line meets
 * it, and the line has a step. */
static int check_start(const struct abt_geo *g, const struct abt_walk *wk,
		       char *err)
{
	int x = wk->x0, y = wk->y0;
	char a[8];
	vname(x, y, a);
	if (wk->n < 1)
		return game_fail(err, "a line needs at least one step");
	if (x < 0 || y < 0 || x > g->w || y > g->h || vkind(g, x, y) != V_EDGE)
		return game_fail(
			err,
			"the line must start on the outline, %s is not on it",
			a);
	if (is_meet(g, x, y))
		return game_fail(err,
				 "the line starts at %s, where a straight line "
				 "meets the outline",
				 a);
	return 0;
}

/* Step i of wk, from (x, y), runs along a straight line: says which rule
 * that breaks.  Coming off the straight line on the side the line came
 * from is touching it; otherwise the line runs along it. */
static int along_straight(const struct abt_geo *g, const struct abt_walk *wk,
			  int i, int x, int y, char *err)
{
	int d = wk->dir[i], j = i;
	char a[8], b[8];
	vname(x, y, a);
	vname(x + ABT_DX[d], y + ABT_DY[d], b);
	while (j < wk->n &&
	       edge_on_line(g, x + (j - i) * ABT_DX[d], y + (j - i) * ABT_DY[d],
			    wk->dir[j]) &&
	       wk->dir[j] == d)
		j++;
	if (i > 0 && j < wk->n && wk->dir[j] == (wk->dir[i - 1] + 2) % 4)
		return game_fail(err,
				 "the line touches a straight line at %s "
				 "without crossing it",
				 a);
	return game_fail(
		err, "the line runs along a straight line from %s to %s", a, b);
}

/* The edge of step i from (x, y) to (nx, ny): on the lattice, not through
 * a crossing of straight lines, not ending where a straight line meets the
 * outline, inside the figure, not along a straight line. */
static int check_edge(const struct abt_geo *g, const struct abt_walk *wk, int i,
		      int x, int y, char *err)
{
	int d = wk->dir[i], nx = x + ABT_DX[d], ny = y + ABT_DY[d];
	char a[8], b[8];
	vname(x, y, a);
	if (nx < 0 || ny < 0 || nx > g->w || ny > g->h)
		return game_fail(err, "the line leaves the lattice at %s", a);
	vname(nx, ny, b);
	/* on a lattice both of these can only be reached along a line or the
	 * outline; name the rule the drawer had in mind */
	if (is_cross(g, nx, ny))
		return game_fail(err,
				 "the line passes through %s, where two "
				 "straight lines cross",
				 b);
	if (i == wk->n - 1 && is_meet(g, nx, ny))
		return game_fail(err,
				 "the line ends at %s, where a straight line "
				 "meets the outline",
				 b);
	int in = edge_inside(g, x, y, d);
	if (in == 1)
		return game_fail(
			err, "the line runs along the outline from %s to %s", a,
			b);
	if (in == 0)
		return game_fail(err,
				 "the line goes outside the figure from %s to "
				 "%s",
				 a, b);
	if (edge_on_line(g, x, y, d))
		return along_straight(g, wk, i, x, y, err);
	return 0;
}

/* Checks the rules of the bending line; returns 0 and the number of times
 * it crosses a straight line into *cross, or -1 with the reason. */
int abt_check_walk(const struct abt_geo *g, const struct abt_walk *wk,
		   int *cross, char *err)
{
	uint8_t seen[ABT_NVERT] = {0};
	char b[8];
	int x = wk->x0, y = wk->y0, k = 0;
	if (check_start(g, wk, err) < 0)
		return -1;
	seen[y * (ABT_MAXW + 1) + x] = 1;
	for (int i = 0; i < wk->n; i++) {
		if (check_edge(g, wk, i, x, y, err) < 0)
			return -1;
		int nx = x + ABT_DX[wk->dir[i]], ny = y + ABT_DY[wk->dir[i]];
		vname(nx, ny, b);
		if (seen[ny * (ABT_MAXW + 1) + nx])
			return game_fail(err,
					 "the line meets itself at %s (it may "
					 "not cross or touch itself)",
					 b);
		int kind = vkind(g, nx, ny);
		if (i < wk->n - 1) {
			if (kind == V_EDGE)
				return game_fail(err,
						 "the line touches the outline "
						 "at %s between its ends",
						 b);
			/* inside the figure a straight line can only be
			 * crossed: turning would run along it, going back meets
			 * itself */
			k += is_vline(g, nx) || is_hline(g, ny);
		} else if (kind != V_EDGE) {
			return game_fail(err,
					 "the line must end on the outline, %s "
					 "is not on it",
					 b);
		}
		seen[ny * (ABT_MAXW + 1) + nx] = 1;
		x = nx, y = ny;
	}
	*cross = k;
	return 0;
}

/* ---- text forms ---- */

/* Reads a vertex name at *p within the lattice. */
static int read_vertex(const struct abt_geo *g, const char **p, int *x, int *y)
{
	const char *s = *p;
	int vx, vy;
	if (square_read(&s, &vx, &vy) < 0 || vx > g->w || vy > g->h)
		return -1;
	*x = vx, *y = vy, *p = s;
	return 0;
}

/* Reads a line written as its corner points "b4-h4-h9" into a walk (not
 * yet checked against the rules). */
int abt_read_walk(const struct abt_geo *g, const char *text,
		  struct abt_walk *wk, char *err)
{
	const char *p = text;
	int x, y;
	wk->n = 0;
	if (read_vertex(g, &p, &x, &y) < 0)
		goto bad;
	wk->x0 = x, wk->y0 = y;
	if (*p != '-')
		goto bad;
	while (*p == '-') {
		int nx, ny;
		p++;
		if (read_vertex(g, &p, &nx, &ny) < 0)
			goto bad;
		if ((nx != x) == (ny != y)) {
			char a[8], b[8];
			vname(x, y, a), vname(nx, ny, b);
			return game_fail(
				err,
				"%s-%s is not a straight piece along the "
				"lattice "
				"(the corners must share a row or a column)",
				a, b);
		}
		int d = nx > x   ? ABT_EAST
			: nx < x ? ABT_WEST
			: ny > y ? ABT_NORTH
				 : ABT_SOUTH;
		while (x != nx || y != ny) {
			if (wk->n == ABT_MAX_STEPS) {
				return game_fail(
					err,
					"the line is too long (at most %d "
					"unit steps)",
					ABT_MAX_STEPS);
			}
			wk->dir[wk->n++] = (uint8_t)d;
			x += ABT_DX[d], y += ABT_DY[d];
		}
	}
	if (*p)
		goto bad;
	return 0;
bad:
	return game_fail(
		err,
		"write a line as lattice points from a1 to %c%d joined by "
		"'-', such as b1-b5-f5",
		'a' + g->w, g->h + 1);
}

/* Writes a walk as its corner points. */
void abt_write_walk(const struct abt_walk *wk, char *buf, size_t size)
{
	int x = wk->x0, y = wk->y0;
	size_t len = 0;
	char v[8];
	vname(x, y, v);
	len += (size_t)snprintf(buf + len, size - len, "%s", v);
	for (int i = 0; i < wk->n && len < size; i++) {
		x += ABT_DX[wk->dir[i]], y += ABT_DY[wk->dir[i]];
		if (i == wk->n - 1 || wk->dir[i + 1] != wk->dir[i]) {
			vname(x, y, v);
			len += (size_t)snprintf(buf + len, size - len, "-%s",
						v);
		}
	}
}

/* outline=ROW/ROW/...: rows top first, cells left to right, `x` in the
 * figure and `.` outside, each optionally led by a repeat count. */
int abt_read_outline(const char *text, struct abt_geo *g, char *err)
{
	static const char size[] = "the lattice has 4 to 24 rows (joined by /) "
				   "of 4 to 24 cells each";
	int x = 0, y = 0, w = -1;
	uint8_t rows[ABT_MAXH][ABT_MAXW];
	for (const char *p = text;; p++) {
		if (*p == '/' || !*p) {
			if (w < 0)
				w = x;
			if (x != w)
				return game_fail(err,
						 "outline: row %d has %d cells "
						 "and row 1 has %d: every row "
						 "must have the same number of "
						 "cells",
						 y + 1, x, w);
			y++, x = 0;
			if (!*p)
				break;
			if (y == ABT_MAXH)
				return game_fail(err,
						 "outline: more than %d rows: "
						 "%s",
						 ABT_MAXH, size);
			continue;
		}
		int count = 1;
		if (*p >= '1' && *p <= '9') {
			count = *p++ - '0';
			if (*p >= '0' && *p <= '9')
				count = count * 10 + (*p++ - '0');
		}
		if (*p != 'x' && *p != '.')
			return game_fail(err,
					 "outline: write rows of x (in the "
					 "figure) and . (outside), each led by "
					 "an optional count, rows joined by /");
		if (x + count > ABT_MAXW)
			return game_fail(err,
					 "outline: row %d has more than %d "
					 "cells: %s",
					 y + 1, ABT_MAXW, size);
		for (int i = 0; i < count; i++)
			rows[y][x++] = *p == 'x';
	}
	if (y < ABT_MINW || w < ABT_MINW)
		return game_fail(err, "outline: %d row%s of %d cells: %s", y,
				 y == 1 ? "" : "s", w, size);
	g->w = w, g->h = y;
	memset(g->in, 0, sizeof g->in);
	for (int r = 0; r < y; r++)
		for (int c = 0; c < w; c++)
			g->in[(y - 1 - r) * ABT_MAXW + c] = rows[r][c];
	return 0;
}

/* Writes the figure as for outline=: rows from the top, runs of `x` and
 * `.` led by their length when longer than 1. */
void abt_write_outline(const struct abt_geo *g, struct text *out)
{
	for (int y = g->h - 1; y >= 0; y--) {
		for (int x = 0; x < g->w;) {
			int v = g_in(g, x, y), n = 0;
			while (x < g->w && g_in(g, x, y) == v)
				x++, n++;
			if (n > 1)
				text_printf(out, "%d", n);
			text_putc(out, v ? 'x' : '.');
		}
		if (y)
			text_putc(out, '/');
	}
}

/* vlines=C,C (vertex column letters) or hlines=R,R (vertex row numbers). */
int abt_read_lines(const char *text, int vertical, int limit, int *pos,
		   char *err)
{
	const char *p = text;
	for (int i = 0; i < 2; i++) {
		int v;
		if (vertical) {
			if (*p < 'a' || *p > 'z')
				goto bad;
			v = *p++ - 'a';
		} else {
			if (*p < '1' || *p > '9')
				goto bad;
			v = *p++ - '0';
			if (*p >= '0' && *p <= '9')
				v = v * 10 + (*p++ - '0');
			v--;
		}
		if (v < 1 || v >= limit)
			goto bad;
		pos[i] = v;
		if (*p++ != (i ? '\0' : ','))
			goto bad;
	}
	if (pos[0] > pos[1]) {
		int t = pos[0];
		pos[0] = pos[1], pos[1] = t;
	}
	if (pos[1] - pos[0] < 2)
		return game_fail(err,
				 "%s: the two lines must be at least 2 apart",
				 vertical ? "vlines" : "hlines");
	return 0;
bad:
	if (vertical)
		return game_fail(err,
				 "vlines: write two vertex columns from b to "
				 "%c, such as vlines=f,l",
				 'a' + limit - 1);
	return game_fail(err,
			 "hlines: write two vertex rows from 2 to %d, such as "
			 "hlines=5,11",
			 limit);
}

/* ---- random boards ---- */

/* The figure's cells in the box [x0, x1) x [y0, y1) between straight
 * lines are one section of at least 4 cells. */
static int section_ok(const struct abt_geo *g, int x0, int x1, int y0, int y1)
{
	static const int ND[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
	uint8_t seen[ABT_MAXW * ABT_MAXH] = {0};
	int stack[ABT_MAXW * ABT_MAXH], sp = 0, cells = 0, reached = 0;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			if (g_in(g, x, y) && !cells++) {
				seen[y * ABT_MAXW + x] = 1;
				stack[sp++] = y * ABT_MAXW + x;
			}
	while (sp) {
		int c = stack[--sp], cx = c % ABT_MAXW, cy = c / ABT_MAXW;
		reached++;
		for (int k = 0; k < 4; k++) {
			int nx = cx + ND[k][0], ny = cy + ND[k][1];
			if (nx < x0 || ny < y0 || nx >= x1 || ny >= y1 ||
			    !g_in(g, nx, ny) || seen[ny * ABT_MAXW + nx])
				continue;
			seen[ny * ABT_MAXW + nx] = 1;
			stack[sp++] = ny * ABT_MAXW + nx;
		}
	}
	return cells >= 4 && reached == cells;
}

/* A change to the block of cells [bx, bx + bw) x [by, by + bh) (all set
 * to `add`, old[] their values before) of a figure that was valid and not
 * thin: whether it still is, the same answer as !thin(g) and
 * abt_check_figure(g, 4, ...) == 0, but checking near the block what only
 * the block can have changed.  A thin cell or a point where the outline
 * touches itself can only appear there.  A block added to a figure in one
 * piece leaves it in one piece exactly when it overlaps or borders it, and
 * a block bitten off leaves no hole exactly when it reaches the old
 * outside or the lattice's edge; the other of the two can change anywhere
 * and is flooded.  Of the 9 sections, one each, only those the block
 * reaches can change. */
static int still_valid(const struct abt_geo *g, int bx, int by, int bw, int bh,
		       int add, const uint8_t *old)
{
	static const int ND[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
	for (int y = by - 1; y <= by + bh; y++)
		for (int x = bx - 1; x <= bx + bw; x++)
			if (x >= 0 && y >= 0 && x < g->w && y < g->h &&
			    thin_at(g, x, y))
				return 0;
	for (int y = by > 1 ? by : 1; y <= by + bh && y < g->h; y++)
		for (int x = bx > 1 ? bx : 1; x <= bx + bw && x < g->w; x++)
			if (touch_at(g, x, y))
				return 0;
	int t;
	for (int i = 0; i < 2; i++)
		if (straight_problem(g, 1, g->vx[i], &t) ||
		    straight_problem(g, 0, g->hy[i], &t))
			return 0;
	/* the old kind of cell the block must meet: figure (add), or
	 * outside, where the lattice's edge counts as outside (bite) */
	int met = 0, area = 0, want = add;
	for (int y = by; y < by + bh && !met; y++)
		for (int x = bx; x < bx + bw && !met; x++) {
			met = old[(y - by) * 4 + (x - bx)] == want;
			for (int k = 0; k < 4 && !met; k++) {
				int nx = x + ND[k][0], ny = y + ND[k][1];
				int inside = nx >= bx && nx < bx + bw &&
					     ny >= by && ny < by + bh;
				if (nx < 0 || ny < 0 || nx >= g->w ||
				    ny >= g->h)
					met = !add;
				else if (!inside)
					met = g_in(g, nx, ny) == want;
			}
		}
	if (!met)
		return 0;
	for (int i = 0; i < ABT_MAXW * ABT_MAXH; i++)
		area += g->in[i];
	if (!area ||
	    (add ? flood(g, 0) != g->w * g->h - area : flood(g, 1) != area))
		return 0;
	/* the sections the block reaches: the others are as they were */
	const int xs[4] = {0, g->vx[0], g->vx[1], g->w};
	const int ys[4] = {0, g->hy[0], g->hy[1], g->h};
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++)
			if (xs[c] < bx + bw && bx < xs[c + 1] &&
			    ys[r] < by + bh && by < ys[r + 1] &&
			    !section_ok(g, xs[c], xs[c + 1], ys[r], ys[r + 1]))
				return 0;
	return 1;
}

/* Any cell thin (thin_at). */
static int thin(const struct abt_geo *g)
{
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++)
			if (thin_at(g, x, y))
				return 1;
	return 0;
}

/* A random figure with its straight lines: start from a rectangle around
 * the 3x3 grid and add or bite off random blocks, keeping every change that
 * leaves a valid figure that is nowhere thin.  still_valid() decides as
 * the whole checks would (the boards of seeds 1 to 4000 are unchanged):
 * with it the figure of `newgame abstractoe seed=1` takes 2.8 million
 * instructions, where the whole checks took 14.2. */
void abt_random_figure(struct abt_geo *g, struct rng *r)
{
	char err[GAME_ERR_MAX];
	memset(g, 0, sizeof *g);
	g->w = RAND_W, g->h = RAND_H;
	g->vx[0] = 5 + (int)rng_below(r, 3);
	g->vx[1] = g->vx[0] + 5 + (int)rng_below(r, 3);
	g->hy[0] = 4 + (int)rng_below(r, 2);
	g->hy[1] = g->hy[0] + 4 + (int)rng_below(r, 3);
	int x0 = g->vx[0] - 2 - (int)rng_below(r, 2);
	int x1 = g->vx[1] + 2 + (int)rng_below(r, 2);
	int y0 = g->hy[0] - 2 - (int)rng_below(r, 2);
	int y1 = g->hy[1] + 2 + (int)rng_below(r, 2);
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			g->in[y * ABT_MAXW + x] = 1;
	int area = (x1 - x0) * (y1 - y0);
	/* the whole checks until a change is kept, should the rectangle
	 * itself not pass (it always does) */
	int valid = !thin(g) && abt_check_figure(g, 4, err) == 0;
	int tries = 300 + (int)rng_below(r, 300);
	for (int t = 0; t < tries; t++) {
		int bw = 1 + (int)rng_below(r, 4),
		    bh = 1 + (int)rng_below(r, 4);
		int bx = (int)rng_below(r, (uint32_t)(g->w - bw + 1));
		int by = (int)rng_below(r, (uint32_t)(g->h - bh + 1));
		int add = rng_below(r, 100) < 55;
		uint8_t old[16];
		int changed = 0, was = area;
		for (int y = by; y < by + bh; y++)
			for (int x = bx; x < bx + bw; x++) {
				uint8_t *c = &g->in[y * ABT_MAXW + x];
				old[(y - by) * 4 + (x - bx)] = *c;
				changed |= *c != add;
				area += add - *c;
				*c = (uint8_t)add;
			}
		if (!changed)
			continue;
		int keep =
			area <= g->w * g->h * 3 / 4 &&
			(valid ? still_valid(g, bx, by, bw, bh, add, old)
			       : !thin(g) && abt_check_figure(g, 4, err) == 0);
		if (keep) {
			valid = 1;
			continue;
		}
		for (int y = by; y < by + bh; y++)
			for (int x = bx; x < bx + bw; x++)
				g->in[y * ABT_MAXW + x] =
					old[(y - by) * 4 + (x - bx)];
		area = was;
	}
}

/* What a random walk asks of each lattice point v = y * (ABT_MAXW + 1) + x,
 * worked out when the walk first reaches or looks at it and kept for all
 * its attempts (working out every point at once cost more than a walk
 * that fits at its first attempts: 209,200 instructions a draw=1 playout
 * against 161,449). */
struct walk_map {
	uint8_t known[ABT_NVERT]; /* the point's entries are filled in (only
				   * known[] is cleared) */
	uint8_t edge[ABT_NVERT];  /* on the outline */
	uint8_t stop[ABT_NVERT];  /* there a straight line meets the outline */
	uint8_t line[ABT_NVERT];  /* on a straight line */
	/* bit d: the edge in direction d runs inside the figure and not
	 * along a straight line (so it never leads onto a crossing, whose
	 * edges all lie on straight lines) */
	uint8_t dirs[ABT_NVERT];
};

static const int DV[4] = {1, ABT_MAXW + 1, -1, -(ABT_MAXW + 1)};

static void walk_point(const struct abt_geo *g, struct walk_map *m, int v)
{
	int x = v % (ABT_MAXW + 1), y = v / (ABT_MAXW + 1);
	if (m->known[v])
		return;
	m->known[v] = 1;
	m->edge[v] = vkind(g, x, y) == V_EDGE;
	m->stop[v] = is_meet(g, x, y);
	m->line[v] = is_vline(g, x) || is_hline(g, y);
	m->dirs[v] = 0;
	for (int d = 0; d < 4; d++)
		if (edge_inside(g, x, y, d) == 2 && !edge_on_line(g, x, y, d))
			m->dirs[v] |= (uint8_t)(1 << d);
}

/* The points a line may start from: on the outline, not where a straight
 * line meets it, with an edge into the figure.  Returns their count. */
static int walk_starts(const struct abt_geo *g, int (*starts)[2])
{
	int ns = 0;
	for (int y = 0; y <= g->h; y++)
		for (int x = 0; x <= g->w; x++) {
			if (vkind(g, x, y) != V_EDGE || is_meet(g, x, y))
				continue;
			for (int d = 0; d < 4; d++)
				if (edge_inside(g, x, y, d) == 2 &&
				    !edge_on_line(g, x, y, d)) {
					starts[ns][0] = x, starts[ns][1] = y;
					ns++;
					break;
				}
		}
	return ns;
}

/* The steps a random walk at point v may take next (its last direction
 * d, -1 at the start; k crossings so far; seen[] holds `mark` where it
 * has been) with their weights: straight on 4, a turn 1, onto the
 * outline, which ends the line, 6 once it has crossed kmin times; none
 * past kmax crossings or ABT_MAX_STEPS.  Returns their count. */
static int walk_options(const struct abt_geo *g, struct walk_map *m,
			const struct abt_walk *wk, const uint16_t *seen,
			int mark, int v, int d, int k, int kmin, int kmax,
			int *opt, int *wt)
{
	int no = 0, on_line = wk->n > 0 && m->line[v];
	for (int nd = 0; nd < 4; nd++) {
		if (d >= 0 && nd == (d + 2) % 4)
			continue;
		if (on_line && nd != d)
			continue;
		int nv = v + DV[nd];
		if (!(m->dirs[v] >> nd & 1) || seen[nv] == mark)
			continue;
		walk_point(g, m, nv);
		int w = nd == d ? 4 : 1;
		if (m->edge[nv]) {
			if (m->stop[nv] || k < kmin)
				continue;
			w = 6;
		} else if (wk->n + 1 >= ABT_MAX_STEPS) {
			continue;
		} else if (m->line[nv] && k >= kmax) {
			continue;
		}
		opt[no] = nd, wt[no] = w, no++;
	}
	return no;
}

/* A random legal walk crossing the straight lines kmin to kmax times:
 * self-avoiding random walks that keep their direction more often than they
 * turn, retried until one fits.  Returns 0, or -1 when none was found.
 * (The walk map, and attempt numbers in seen[] that spare clearing it,
 * took the line of `newgame abstractoe seed=1` from 3.2 to 1.3 million
 * instructions, and a random playout from the draw turn, which draws one
 * line, from 168,660 to 161,449: scripts/tools/playout-cost abstractoe draw=1.)
 */
static int random_walk(const struct abt_geo *g, struct rng *r, int kmin,
		       int kmax, struct abt_walk *wk)
{
	struct walk_map m;
	uint16_t seen[ABT_NVERT] = {0};
	memset(m.known, 0, sizeof m.known);
	int starts[ABT_NVERT][2];
	int ns = walk_starts(g, starts);
	if (!ns)
		return -1;
	for (int attempt = 1; attempt <= 4000; attempt++) {
		int s = (int)rng_below(r, (uint32_t)ns);
		int x = starts[s][0], y = starts[s][1], d = -1, k = 0;
		int v = y * (ABT_MAXW + 1) + x;
		wk->x0 = x, wk->y0 = y, wk->n = 0;
		seen[v] = (uint16_t)attempt;
		walk_point(g, &m, v);
		for (;;) {
			int opt[4], wt[4], total = 0;
			int no = walk_options(g, &m, wk, seen, attempt, v, d, k,
					      kmin, kmax, opt, wt);
			if (!no)
				break;
			for (int i = 0; i < no; i++)
				total += wt[i];
			int pick = (int)rng_below(r, (uint32_t)total), c = 0;
			while (pick >= wt[c])
				pick -= wt[c++];
			d = opt[c];
			v += DV[d];
			wk->dir[wk->n++] = (uint8_t)d;
			seen[v] = (uint16_t)attempt;
			if (m.edge[v])
				return 0;
			k += m.line[v];
		}
	}
	return -1;
}

/* The fallback line: straight across the middle row of the centre section,
 * crossing both vertical lines (the figure check makes it legal). */
static void middle_walk(const struct abt_geo *g, struct abt_walk *wk)
{
	int y = (g->hy[0] + g->hy[1]) / 2, x = g->vx[0];
	while (vkind(g, x, y) != V_EDGE)
		x--;
	wk->x0 = x, wk->y0 = y, wk->n = 0;
	do
		wk->dir[wk->n++] = ABT_EAST, x++;
	while (vkind(g, x, y) != V_EDGE && wk->n < ABT_MAX_STEPS);
}

/* A random legal line: random_walk with kmin to kmax crossings, then with
 * up to 15, then straight across the middle. */
void abt_random_line(const struct abt_geo *g, struct rng *r, int kmin, int kmax,
		     struct abt_walk *wk)
{
	if (random_walk(g, r, kmin, kmax, wk) < 0 &&
	    random_walk(g, r, kmin < 2 ? kmin : 2, 15, wk) < 0)
		middle_walk(g, wk);
}

int abt_regions(const struct abt_geo *g, const struct abt_walk *wk,
		uint8_t *cell, int *size)
{
	struct walls wl;
	walls_of(g, wk, &wl);
	return label(g, &wl, cell, size);
}
