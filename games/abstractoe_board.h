/* abstractoe_board.h: the lattice geometry of Abs-Trac-Toe, shared by
 * abstractoe.c (the game) and abstractoe_board.c.
 *
 * The board lies on a lattice of W x H unit cells.  Cell (x, y) is the
 * square from lattice point (vertex) (x, y) to (x + 1, y + 1), x to the
 * right and y upwards; vertices are named like squares (column letter from
 * `a` for x = 0, row number from 1 for y = 0).  The figure is a set of
 * cells; the straight lines lie on vertex columns and rows; the bending line
 * is a walk along lattice edges from vertex to vertex. */
#ifndef ABSTRACTOE_BOARD_H
#define ABSTRACTOE_BOARD_H

#include <stdint.h>

#include "game.h"

#define ABT_MAXW 24 /* cells across: vertex columns a..y */
#define ABT_MAXH 24
#define ABT_MINW 4 /* the smallest lattice side */
/* unit steps of a bending line: what fits a struct move, see abstractoe.c */
#define ABT_MAX_STEPS 119
/* every region but the 9 sections comes from one crossing, and a line of
 * ABT_MAX_STEPS steps crosses at most ABT_MAX_STEPS - 1 times: 10 + 118 */
#define ABT_MAX_REGIONS 128
/* lattice points, numbered y * (ABT_MAXW + 1) + x */
#define ABT_NVERT ((ABT_MAXW + 1) * (ABT_MAXH + 1))

enum { ABT_EAST, ABT_NORTH, ABT_WEST, ABT_SOUTH };
static const int ABT_DX[4] = {1, 0, -1, 0};
static const int ABT_DY[4] = {0, 1, 0, -1};

/* A figure with its straight lines, before regions are counted. */
struct abt_geo {
	int w, h;
	/* the straight lines: vertex column x, vertex row y */
	int vx[2], hy[2];
	uint8_t in[ABT_MAXW * ABT_MAXH]; /* cell y * ABT_MAXW + x is in it */
};

/* A bending line: its start vertex and unit steps (ABT_EAST ...). */
struct abt_walk {
	int x0, y0, n;
	uint8_t dir[ABT_MAX_STEPS];
};

/* Checks a figure: one piece, no holes, each straight line meeting the
 * outline exactly twice and crossing both lines of the other direction
 * inside it, the lines at least 2 apart, 9 sections of at least
 * min_section cells.  Returns 0, or -1 with the reason in err. */
int abt_check_figure(const struct abt_geo *g, int min_section, char *err);

/* Checks every rule of the bending line on g.  Returns 0 and the number of
 * straight lines it crosses in *cross, or -1 with the reason in err. */
int abt_check_walk(const struct abt_geo *g, const struct abt_walk *wk,
		   int *cross, char *err);

/* Numbers the regions of g cut by the straight lines and wk (NULL: none)
 * into cell[] (ABT_MAXW * ABT_MAXH, 0 outside), in reading order (top row
 * first, each row left to right), and their cell counts into size[]
 * (ABT_MAX_REGIONS + 1).  Returns the count, or -1 past ABT_MAX_REGIONS. */
int abt_regions(const struct abt_geo *g, const struct abt_walk *wk,
		uint8_t *cell, int *size);

/* Text forms (see protocol.md): a line as its corner vertices "b4-h4-h9";
 * an outline as rows "3.10x7./..."; vlines "f,l" or hlines "5,11".  The
 * readers return 0, or -1 with the reason in err; read_walk does not check
 * the rules of the line. */
int abt_read_walk(const struct abt_geo *g, const char *text,
		  struct abt_walk *wk, char *err);
void abt_write_walk(const struct abt_walk *wk, char *buf, size_t size);
int abt_read_outline(const char *text, struct abt_geo *g, char *err);
void abt_write_outline(const struct abt_geo *g, struct text *out);
int abt_read_lines(const char *text, int vertical, int limit, int *pos,
		   char *err);

/* A random figure with its straight lines on the 20 x 16 lattice. */
void abt_random_figure(struct abt_geo *g, struct rng *r);

/* A random legal bending line on g, preferably crossing the straight lines
 * kmin to kmax times. */
void abt_random_line(const struct abt_geo *g, struct rng *r, int kmin, int kmax,
		     struct abt_walk *wk);

#endif
