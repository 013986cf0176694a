/* book.c: the opening book: moves the project's own solver proved best in
 * positions too early in the game to solve at the table.
 *
 * The lines live in book_data.c, written by `make book`.  The first probe
 * of a game replays that game's lines through the game itself and files
 * each position under solve_key(), together with the key of the position
 * its best move leads to.  A probe then looks the state up by its key and
 * plays the legal move that leads to that second key: where key() folds a
 * board's symmetries, one line serves every mirror image of its position,
 * and the move comes out turned the right way. */
#include "book.h"

#include <stdlib.h>
#include <string.h>

#include "scratch.h"
#include "solve.h"

/* One game's positions, in an open-addressing table keyed by position. */
struct slot {
	uint64_t key;   /* 0: empty */
	uint64_t child; /* the key after the best move */
	int line;       /* index in book_lines */
};

struct shelf {
	const struct game *g;
	struct slot *slot;
	size_t mask; /* slots - 1; 0: the game has no line */
};

/* A player's shelves, filled as games are first probed, and a move list
 * and a state to probe with. */
#define MAX_SHELVES 16
struct book {
	struct shelf shelves[MAX_SHELVES];
	struct scratch mem;
};

struct book *book_new(void)
{
	return calloc(1, sizeof(struct book));
}

void book_free(struct book *b)
{
	if (!b)
		return;
	for (int i = 0; i < MAX_SHELVES; i++)
		free(b->shelves[i].slot);
	scratch_free(&b->mem);
	free(b);
}

static struct slot *find(const struct shelf *sh, uint64_t key)
{
	for (size_t i = key & sh->mask;; i = (i + 1) & sh->mask)
		if (sh->slot[i].key == key || sh->slot[i].key == 0)
			return &sh->slot[i];
}

/* The state after line l's moves (st, state_size bytes) and after its
 * best move too (child).  Returns 0, or -1 when the line does not play
 * (a book built for other rules). */
static int replay(const struct game *g, const struct book_line *l, void *st,
		  void *child)
{
	char err[GAME_ERR_MAX], buf[MOVE_TEXT_MAX];
	void *s = game_new_state(g, l->setup, 1, err);
	if (!s)
		return -1;
	memcpy(st, s, g->state_size);
	free(s);
	struct move mv;
	for (const char *p = l->moves; *p;) {
		size_t n = strcspn(p, " ");
		if (n == 0 || n >= sizeof buf) {
			p += n + (p[n] == ' ');
			continue;
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n + (p[n] == ' ');
		if (g->status(st).phase != GAME_PLAY ||
		    g->parse(st, buf, &mv, err) < 0)
			return -1;
		g->play(st, &mv);
	}
	if (g->status(st).phase != GAME_PLAY ||
	    g->parse(st, l->best, &mv, err) < 0)
		return -1;
	memcpy(child, st, g->state_size);
	g->play(child, &mv);
	return 0;
}

/* Files every line of g (the first line of a position wins). */
static void shelve(struct shelf *sh, const struct game *g)
{
	int count = 0;
	for (int i = 0; i < book_size; i++)
		count += !strcmp(book_lines[i].game, g->name);
	sh->g = g;
	if (count == 0)
		return;
	size_t n = 16;
	while (n < 2 * (size_t)count)
		n *= 2;
	unsigned char *st = malloc(2 * g->state_size);
	sh->slot = calloc(n, sizeof *sh->slot);
	if (!st || !sh->slot) {
		free(st);
		free(sh->slot);
		sh->slot = NULL;
		return;
	}
	sh->mask = n - 1;
	unsigned char *child = st + g->state_size;
	for (int i = 0; i < book_size; i++) {
		if (strcmp(book_lines[i].game, g->name) ||
		    replay(g, &book_lines[i], st, child) < 0)
			continue;
		uint64_t key = solve_key(g, st) | 1; /* never 0 */
		struct slot *s = find(sh, key);
		if (s->key)
			continue;
		*s = (struct slot){key, solve_key(g, child), i};
	}
	free(st);
}

static const struct shelf *shelf_of(struct book *b, const struct game *g)
{
	struct shelf *shelves = b->shelves;
	for (int i = 0; i < MAX_SHELVES; i++) {
		if (shelves[i].g == g)
			return &shelves[i];
		if (!shelves[i].g) {
			shelve(&shelves[i], g);
			return &shelves[i];
		}
	}
	return NULL;
}

int book_find(struct book *b, const struct game *g, const void *st,
	      struct move *mv, int *value)
{
	const struct shelf *sh = shelf_of(b, g);
	if (!sh || !sh->slot || g->status(st).phase != GAME_PLAY)
		return 0;
	const struct slot *s = find(sh, solve_key(g, st) | 1);
	if (!s->key)
		return 0;
	size_t list_bytes = sizeof(struct move) * (size_t)g->max_moves;
	unsigned char *mem = scratch_get(&b->mem, list_bytes + g->state_size);
	if (!mem)
		return 0;
	struct move *list = (struct move *)mem;
	void *child = mem + list_bytes;
	int n = g->moves(st, list);
	for (int i = 0; i < n; i++) {
		memcpy(child, st, g->state_size);
		g->play(child, &list[i]);
		if (solve_key(g, child) == s->child) {
			*mv = list[i];
			*value = book_lines[s->line].value;
			return 1;
		}
	}
	return 0;
}

int book_probe(struct book *b, const struct game *g, const void *st,
	       struct move *mv, int *value)
{
	int v;
	if (!book_find(b, g, st, mv, &v))
		return 0;
	*value = g->players(st) == 2 ? solve_result(v) : v;
	return 1;
}
