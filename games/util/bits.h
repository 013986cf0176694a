/* bits.h: counting and picking bits of 64-bit masks, for the bitboard
 * games' move generators and playouts.
 *
 * At plain -O2 for x86-64 the compiler cannot assume the POPCNT
 * instruction, so __builtin_popcountll becomes a call into libgcc (about
 * 20 instructions).  A function whose loop counts bits can be marked
 * BITS_HOT: gcc then builds it twice, with and without POPCNT, and the
 * dynamic loader picks the one this CPU runs (function multiversioning,
 * an ifunc; x86-64 Linux only).  Elsewhere BITS_HOT is empty and the
 * build stays portable; so it is under ThreadSanitizer, whose runtime is
 * not up yet when the loader calls an ifunc's resolver (make SAN=thread
 * crashed there before main).  The helpers below are always inlined, so that
 * they take the instruction set of the function they are inlined into. */
#ifndef BITS_H
#define BITS_H

#include <stdint.h>

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) &&          \
	!defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define BITS_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define BITS_HOT
#endif

#define BITS_INLINE static inline __attribute__((always_inline))

BITS_INLINE int bit_count(uint64_t m)
{
	return __builtin_popcountll(m);
}

/* The index of the lowest set bit of m (m != 0). */
BITS_INLINE int bit_first(uint64_t m)
{
	return __builtin_ctzll(m);
}

/* The index of the k-th set bit of m, counting from 0 at the low end
 * (k < bit_count(m)).  Branch-free over the bytes: the byte that holds
 * the bit comes from prefix sums of byte counts, then a step through at
 * most 8 bits of that byte.  About 25 instructions, where clearing bits
 * one at a time costs about 3 a bit skipped. */
BITS_INLINE int bit_select(uint64_t m, int k)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t s = m - ((m >> 1) & 0x5555555555555555ULL);
	s = (s & 0x3333333333333333ULL) + ((s >> 2) & 0x3333333333333333ULL);
	s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0fULL; /* bits in each byte */
	uint64_t before = (s * ones) << 8;          /* bits below each byte */
	/* the bytes with at most k bits below them: bit 7 of each byte of
	 * (before | 0x80..) - (k + 1) * ones stays set exactly where
	 * before >= k + 1, so the others count the byte we want */
	uint64_t kk = (uint64_t)(k + 1) * ones;
	uint64_t geq =
		((before | 0x8080808080808080ULL) - kk) & 0x8080808080808080ULL;
	int byte = bit_count(~geq & 0x8080808080808080ULL) - 1;
	int left = k - (int)((before >> (8 * byte)) & 0xff);
	uint64_t b = (m >> (8 * byte)) & 0xff;
	for (; left > 0; left--)
		b &= b - 1;
	return 8 * byte + bit_first(b);
}

#endif
