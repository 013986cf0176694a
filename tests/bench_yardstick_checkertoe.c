/* bench_yardstick_checkertoe.c: the yardstick for checkertoe's random
 * playouts, a small bitboard program written for nothing else.
 *
 *   bench_yardstick_checkertoe N
 *
 * plays N random games of the 5x5 game from the empty board and prints
 * `checkertoe-yardstick: N playouts`, then how the games ended.  Each ply
 * puts the mover's checker on a uniformly random empty square (drawn as
 * the game draws it: rng_below over the empty squares, taken from a1
 * rightwards and upwards), 24 plies, then both players' tic-tac-toes are
 * counted with the last empty square counting for both.  It shares only
 * the random generator and the bit helpers with the engine, so under
 * callgrind (run with two N and subtract, as scripts/tools/playout-cost does)
 * it tells what a random playout costs when nothing but the playout is
 * done: the game's playout() is meant to stay within twice that. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "../games/util/bits.h"
#include "../games/util/rng.h"

/* Square (x, y) of the 5x5 board is bit 5y + x. */
#define ALL ((1ull << 25) - 1)
#define COL_AC 0x0739ce7ull /* columns a-c: lines going right start there */
#define COL_CE 0x1ce739cull /* columns c-e: lines going up-left start there */

/* Lines of three within m: along rows, columns and both diagonals. */
BITS_INLINE int lines(uint64_t m)
{
	return bit_count(m & m >> 1 & m >> 2 & COL_AC) +
	       bit_count(m & m >> 5 & m >> 10) +
	       bit_count(m & m >> 6 & m >> 12 & COL_AC) +
	       bit_count(m & m >> 4 & m >> 8 & COL_CE);
}

/* The k-th set bit of m (k < bit_count(m) and m < 2^25): which half and
 * which byte of the low 32 bits hold it, from their bit counts, then a step
 * through the bits of that byte below it.  (bits.h's bit_select, built for
 * words without POPCNT too, costs about 45 instructions here.) */
BITS_INLINE int select25(uint64_t m, int k)
{
	int at = 0, c = bit_count(m & 0xffff);
	if (k >= c) {
		k -= c;
		at = 16;
	}
	c = bit_count(m >> at & 0xff);
	if (k >= c) {
		k -= c;
		at += 8;
	}
	uint64_t b = m >> at;
	for (; k; k--)
		b &= b - 1;
	return at + bit_first(b);
}

/* Plays n games; wins[0] counts draws, wins[p] player p's wins (player 1
 * places first). */
BITS_HOT static void run(long n, struct rng *r, long *wins)
{
	for (long i = 0; i < n; i++) {
		uint64_t men[2] = {0, 0}, empty = ALL;
		for (uint32_t ply = 0; ply < 24; ply++) {
			int k = (int)rng_below(r, 25 - ply);
			uint64_t b = 1ull << select25(empty, k);
			empty ^= b;
			men[ply & 1] |= b;
		}
		int a = lines(men[0] | empty), o = lines(men[1] | empty);
		wins[a > o ? 1 : o > a ? 2 : 0]++;
	}
}

int main(int argc, char **argv)
{
	char *end;
	errno = 0;
	long n = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	if (argc != 2 || *end || errno || n < 0) {
		fprintf(stderr, "usage: bench_yardstick_checkertoe N\n");
		return 2;
	}
	struct rng r;
	rng_seed(&r, 1);
	long wins[3] = {0, 0, 0};
	run(n, &r, wins);
	printf("checkertoe-yardstick: %ld playouts\n", n);
	printf("player 1 (first) wins %ld, player 2 wins %ld, draws %ld\n",
	       wins[1], wins[2], wins[0]);
	return 0;
}
