/* bench_yardstick_tiptoe.c: the yardstick for Tiptoe's random playouts.
 *
 *   bench_yardstick_tiptoe N
 *
 * plays N random games of Tiptoe on the 8x8 board with a small playout
 * written for that board alone, knowing nothing of the engine: one 64-bit
 * mask a colour, bit 8y + x for square (x, y), and each colour's groups as
 * masks.  Every ply the mover's targets are computed afresh: the groups of
 * each size S are gathered in one mask and shifted S times along each of
 * the four lines, through empty squares only.  The mover picks one of its
 * legal squares uniformly with rng_below and takes the k-th in the order
 * of `moves` (bits from low to high), just as the engine's playout does,
 * so with the same seed both play the very same games: compare the plies
 * with `bench_playout tiptoe size=8`.  Run under callgrind with two values
 * of N, as scripts/tools/playout-cost does, for the instructions a playout
 * costs; the engine's playout should stay within twice that. */
#include <stdio.h>
#include <stdlib.h>

#include "../games/util/bits.h"
#include "../games/util/rng.h"

#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL

struct board {
	uint64_t own[2];       /* White's and Black's pieces */
	uint64_t group[2][32]; /* each colour's groups */
	int ngroups[2];
	int placed;
};

static uint64_t east(uint64_t m)
{
	return (m << 1) & ~FILE_A;
}

static uint64_t west(uint64_t m)
{
	return (m >> 1) & ~FILE_H;
}

/* The squares player p (0 or 1) may step to: S squares from a piece of a
 * group of S, along a row or column, every square on the way empty.  A
 * group of 8 or more reaches nothing on 8 squares a line. */
BITS_HOT static uint64_t targets(const struct board *b, int p)
{
	uint64_t by_size[8] = {0}, empty = ~(b->own[0] | b->own[1]), t = 0;
	for (int i = 0; i < b->ngroups[p]; i++) {
		int size = bit_count(b->group[p][i]);
		if (size < 8)
			by_size[size] |= b->group[p][i];
	}
	for (int size = 1; size < 8; size++) {
		uint64_t e = by_size[size], w = e, n = e, s = e;
		for (int k = 0; k < size && (e | w | n | s); k++) {
			e = east(e) & empty;
			w = west(w) & empty;
			n = (n << 8) & empty;
			s = (s >> 8) & empty;
		}
		t |= e | w | n | s;
	}
	return t;
}

/* Player p places on square sq: the new piece joins every group of p's
 * it touches. */
static void place(struct board *b, int p, int sq)
{
	uint64_t bit = (uint64_t)1 << sq, joined = bit;
	uint64_t near = east(bit) | west(bit) | bit << 8 | bit >> 8;
	b->own[p] |= bit;
	int n = 0;
	for (int i = 0; i < b->ngroups[p]; i++) {
		if (b->group[p][i] & near)
			joined |= b->group[p][i];
		else
			b->group[p][n++] = b->group[p][i];
	}
	b->group[p][n++] = joined;
	b->ngroups[p] = n;
	b->placed++;
}

/* One random game from the empty board; returns its plies. */
BITS_HOT static int playout(struct rng *r)
{
	struct board b = {{0}, {{0}}, {0}, 0};
	for (;;) {
		int k = b.placed;
		/* players by placement: 1 2 2 1, then 1 2 1 2 ... */
		int p = k < 4 ? (k == 1 || k == 2) : k % 2;
		uint64_t legal =
			k < 4 ? ~(b.own[0] | b.own[1]) : targets(&b, p);
		if (!legal)
			return k;
		int pick = (int)rng_below(r, (uint32_t)bit_count(legal));
		place(&b, p, bit_select(legal, pick));
	}
}

int main(int argc, char **argv)
{
	char *end;
	long n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || n < 1) {
		fprintf(stderr, "usage: bench_yardstick_tiptoe N\n"
				"  plays N random 8x8 Tiptoe games\n");
		return 2;
	}
	struct rng r;
	rng_seed(&r, 1);
	long plies = 0;
	for (long i = 0; i < n; i++)
		plies += playout(&r);
	printf("tiptoe-yardstick: %ld playouts, %.1f plies each\n", n,
	       (double)plies / (double)n);
	return 0;
}
