/* train.c: TD(0) self-play over afterstates (see train.h). */
#include "train.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/numbers.h"
#include "pattern.h"

#define MAX_PLIES 100000 /* a game longer than this stops unlearned */
/* In a game without chance the match between two tables opens with this
 * many random plies, so that its games differ. */
#define OPENING_PLIES 4
/* Errors are summed as integers in units of 2^-32: integer sums do not
 * depend on their order, so neither do the weights on the threads.  An
 * error is below 1, and a weight gets at most a few hundred a game: far
 * from 2^63. */
#define FIXED 4294967296.0
/* A round's games all read the table as it stood when the round began, so
 * a weight that most positions pick (no threats on either side) would take
 * hundreds of steps of alpha at once and overshoot.  A weight moves by
 * alpha for each time it was picked, but by no more than ROUND_STEP times
 * the mean of its shares of the errors of those times. */
#define ROUND_STEP 0.5

struct trainer {
	const struct game *g;
	struct train_opts o;
	char *options;
	uint32_t size;
	int nf;       /* features a state picks at most */
	int contents; /* the features are pattern.h's lines, not the game's */
	double *w;    /* the weights, in the logistic's units */
	int rounds;   /* played so far */
	double first; /* the last round's mean result for the first player */
};

/* One thread's share of a round: games [lo, hi). */
struct worker {
	const struct trainer *t;
	int lo, hi;
	int64_t *acc;  /* the errors of its games, in units of 1 / FIXED */
	uint32_t *hit; /* how often each weight was picked */
	double first;  /* the first player's results, summed */
	int failed;
	char err[GAME_ERR_MAX];
};

/* The state a move leaves: its features and value for its player to
 * act, or its result when the game is over. */
struct after {
	struct game_status s;
	int n;
	double v;
	uint32_t *idx;
};

static double result_for(struct game_status s, int player)
{
	return s.player == player ? 1 : s.player == 0 ? 0.5 : 0;
}

/* Looks at st with the weights w, or with the first guess alone when w
 * is NULL; through the lines of pat where the trainer reads contents. */
static void look(const struct trainer *t, const double *w, const void *st,
		 struct pattern *pat, struct after *a)
{
	a->s = t->g->status(st);
	a->n = 0;
	if (a->s.phase == GAME_OVER)
		return;
	double sum;
	a->n = t->contents
		       ? pattern_features(pat, st, a->idx, &sum)
		       : game_search(t->g)->learn->features(st, a->idx, &sum);
	for (int i = 0; w && i < a->n; i++)
		sum += w[a->idx[i]];
	a->v = num_logistic(sum);
}

/* The value of a for player: the result, or the table's value for the
 * player to act there, turned round when that is the other. */
static double value_for(const struct after *a, int player)
{
	if (a->s.phase == GAME_OVER)
		return result_for(a->s, player);
	return a->s.player == player ? a->v : 1 - a->v;
}

/* The seed of a game's set-up, dice and random moves: the training's
 * seed, the round and the game's number, mixed (a 64-bit finaliser). */
static uint64_t game_seed(const struct trainer *t, int game)
{
	uint64_t x = t->o.seed ^ ((uint64_t)t->rounds << 32 | (uint32_t)game);
	x = (x ^ (x >> 31)) * 0x7fb5d329728ea185ULL;
	x = (x ^ (x >> 27)) * 0x81dadef4bc2dd44dULL;
	return x ^ (x >> 33);
}

/* The move for player, st's mover, whose position w values most (NULL:
 * the first guess alone), each of the n moves played on tmp, a copy of
 * st; or move `only` where it is not -1.  Returns its index, with its
 * position in cand[0] (cand[1] is scratch). */
static int choose(const struct trainer *t, const double *w, const void *st,
		  int player, const struct move *list, int n, int only,
		  void *tmp, struct pattern *pat, struct after *cand)
{
	double best = -1;
	int chosen = 0;
	for (int i = 0; i < n; i++) {
		if (only >= 0 && i != only)
			continue;
		game_copy(t->g, tmp, st);
		t->g->play(tmp, &list[i]);
		look(t, w, tmp, pat, &cand[1]);
		double v = value_for(&cand[1], player);
		if (v > best) {
			struct after x = cand[0];
			cand[0] = cand[1];
			cand[1] = x;
			best = v;
			chosen = i;
		}
	}
	return chosen;
}

/* Plays game number `game` of this round, adding its errors to wk->acc
 * and wk->hit.  Returns 0, or -1 with the reason in wk->err. */
static int play_game(struct worker *wk, int game, void *tmp, struct move *list,
		     struct after *cand, struct after *prev)
{
	const struct trainer *t = wk->t;
	const struct game *g = t->g;
	uint64_t seed = game_seed(t, game);
	void *st = game_new_state(g, t->options, seed, wk->err);
	if (!st)
		return -1;
	/* the lines of this game's board (a random set-up may differ) */
	struct pattern pat = {0};
	if (t->contents && pattern_init(&pat, g, st, wk->err) < 0) {
		free(st);
		return -1;
	}
	struct rng r;
	rng_seed(&r, seed);
	int have_prev = 0, first = g->status(st).player;
	for (int ply = 0; ply < MAX_PLIES; ply++) {
		struct game_status s = g->status(st);
		if (s.phase == GAME_ROLL) {
			g->roll(st, game_chance_pick(g, st, &r));
			continue;
		}
		int n = s.phase == GAME_PLAY ? g->moves(st, list) : 0;
		if (n == 0)
			break;
		if (t->contents && pattern_refresh(&pat, st, wk->err) < 0) {
			pattern_free(&pat);
			free(st);
			return -1;
		}
		int pick = t->o.epsilon > 0 && rng_unit(&r) < t->o.epsilon
				   ? (int)rng_below(&r, (uint32_t)n)
				   : -1;
		int chosen = choose(t, t->w, st, s.player, list, n, pick, tmp,
				    &pat, cand);
		g->play(st, &list[chosen]);
		if (have_prev) {
			double target = value_for(&cand[0], prev->s.player);
			/* all of its features move together: each takes its
			 * share of the error */
			int64_t e =
				(int64_t)((target - prev->v) / prev->n * FIXED);
			for (int i = 0; i < prev->n; i++) {
				wk->acc[prev->idx[i]] += e;
				wk->hit[prev->idx[i]]++;
			}
		}
		if (cand[0].s.phase == GAME_OVER) {
			wk->first += result_for(cand[0].s, first);
			break;
		}
		struct after x = *prev;
		*prev = cand[0];
		cand[0] = x;
		have_prev = 1;
	}
	pattern_free(&pat);
	free(st);
	return 0;
}

static void *work(void *arg)
{
	struct worker *wk = arg;
	const struct trainer *t = wk->t;
	void *tmp = malloc(t->g->state_size);
	struct move *list = malloc((size_t)t->g->max_moves * sizeof *list);
	uint32_t *idx = malloc(3 * (size_t)t->nf * sizeof *idx);
	struct after cand[2] = {{.idx = idx}, {.idx = idx + t->nf}};
	struct after prev = {.idx = idx + 2 * t->nf};
	if (!tmp || !list || !idx) {
		snprintf(wk->err, sizeof wk->err, "out of memory");
		wk->failed = 1;
	}
	for (int i = wk->lo; i < wk->hi && !wk->failed; i++)
		if (play_game(wk, i, tmp, list, cand, &prev) < 0)
			wk->failed = 1;
	free(tmp);
	free(list);
	free(idx);
	return NULL;
}

struct trainer *train_new(const struct game *g, const struct train_opts *o,
			  char *err)
{
	/* (a step above ROUND_STEP would train the same table as ROUND_STEP:
	 * tell the author rather than let the number seem to count) */
	if (!(o->alpha > 0 && o->alpha <= ROUND_STEP)) {
		game_fail(err,
			  "the step (-a) must be above 0 and at most %g: a "
			  "weight moves by at most %g over the times a round "
			  "picks it, so a larger step changes nothing",
			  ROUND_STEP, ROUND_STEP);
		return NULL;
	}
	void *st = game_new_state(g, o->options, o->seed, err);
	if (!st)
		return NULL;
	int players = g->players(st);
	free(st);
	if (players != 2) {
		game_fail(err, "training is for two players, not %d", players);
		return NULL;
	}
	struct trainer *t = calloc(1, sizeof *t);
	if (t) {
		t->g = g;
		t->o = *o;
		t->options = strdup(o->options);
		const struct learn_spec *ls = game_search(g)->learn;
		t->contents = o->contents || !ls;
		t->size = t->contents ? PAT_SIZE : ls->size;
		t->nf = t->contents ? PAT_MAX_FEATURES : ls->max_features;
		t->w = calloc(t->size, sizeof *t->w);
	}
	if (!t || !t->options || !t->w) {
		train_free(t);
		game_fail(err, "out of memory");
		return NULL;
	}
	if (t->o.threads < 1)
		t->o.threads = 1;
	return t;
}

void train_free(struct trainer *t)
{
	if (!t)
		return;
	free(t->options);
	free(t->w);
	free(t);
}

int train_round(struct trainer *t, char *err)
{
	int nt = t->o.threads, ok = 1;
	game_fail(err, "out of memory");
	struct worker *wk = calloc((size_t)nt, sizeof *wk);
	pthread_t *th = calloc((size_t)nt, sizeof *th);
	if (!wk || !th)
		ok = 0;
	for (int i = 0; ok && i < nt; i++) {
		wk[i].t = t;
		wk[i].lo = (int)((long)t->o.games * i / nt);
		wk[i].hi = (int)((long)t->o.games * (i + 1) / nt);
		wk[i].acc = calloc(t->size, sizeof *wk[i].acc);
		wk[i].hit = calloc(t->size, sizeof *wk[i].hit);
		ok = wk[i].acc && wk[i].hit;
	}
	int started = 0;
	for (; ok && started < nt; started++)
		if (pthread_create(&th[started], NULL, work, &wk[started])) {
			game_fail(err, "cannot start a thread");
			ok = 0;
		}
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	double first = 0;
	for (int i = 0; ok && i < nt; i++) {
		if (wk[i].failed) {
			game_fail(err, "%s", wk[i].err);
			ok = 0;
		}
		first += wk[i].first;
	}
	for (uint32_t j = 0; ok && j < t->size; j++) {
		int64_t sum = 0;
		uint64_t hits = 0;
		for (int i = 0; i < nt; i++) {
			sum += wk[i].acc[j];
			hits += wk[i].hit[j];
		}
		if (hits) {
			double rate = ROUND_STEP / (double)hits;
			rate = rate < t->o.alpha ? rate : t->o.alpha;
			t->w[j] += rate * ((double)sum / FIXED);
		}
	}
	if (ok) {
		t->rounds++;
		t->first = first / t->o.games;
	}
	for (int i = 0; wk && i < nt; i++) {
		free(wk[i].acc);
		free(wk[i].hit);
	}
	free(wk);
	free(th);
	return ok ? 0 : -1;
}

int train_rounds(const struct trainer *t)
{
	return t->rounds;
}

double train_first_score(const struct trainer *t)
{
	return t->first;
}

uint32_t train_size(const struct trainer *t)
{
	return t->size;
}

void train_import(struct trainer *t, const int16_t *w)
{
	for (uint32_t i = 0; i < t->size; i++)
		t->w[i] = (double)w[i] / LEARN_SCALE;
}

double train_match(const struct trainer *t, const int16_t *other, int games,
		   uint64_t seed)
{
	const struct game *g = t->g;
	char err[GAME_ERR_MAX];
	void *tmp = malloc(g->state_size);
	struct move *list = malloc((size_t)g->max_moves * sizeof *list);
	uint32_t *idx = malloc(2 * (size_t)t->nf * sizeof *idx);
	double *ow = other ? malloc(t->size * sizeof *ow) : NULL;
	double points = 0;
	int played = 0;
	if (!tmp || !list || !idx || (other && !ow))
		games = played = -1;
	for (uint32_t j = 0; ow && j < t->size; j++)
		ow[j] = (double)other[j] / LEARN_SCALE;
	for (int i = 0; i < games; i++) {
		void *st =
			game_new_state(g, t->options, seed + (uint64_t)i, err);
		if (!st)
			break;
		struct pattern pat = {0};
		if (t->contents && pattern_init(&pat, g, st, err) < 0) {
			free(st);
			games = played = -1;
			break;
		}
		struct rng r;
		rng_seed(&r, seed + (uint64_t)i);
		int table = 1 + i % 2; /* the seat the table plays */
		struct game_status s = g->status(st);
		for (int ply = 0; s.phase != GAME_OVER && ply < MAX_PLIES;
		     ply++, s = g->status(st)) {
			if (s.phase == GAME_ROLL) {
				g->roll(st, game_chance_pick(g, st, &r));
				continue;
			}
			int n = g->moves(st, list);
			if (n == 0 ||
			    (t->contents && pattern_refresh(&pat, st, err) < 0))
				break;
			struct after cand[2] = {{.idx = idx},
						{.idx = idx + t->nf}};
			int only = !g->roll && ply < OPENING_PLIES
					   ? (int)rng_below(&r, (uint32_t)n)
					   : -1;
			int best = choose(t, s.player == table ? t->w : ow, st,
					  s.player, list, n, only, tmp, &pat,
					  cand);
			g->play(st, &list[best]);
		}
		points += s.phase == GAME_OVER ? result_for(s, table) : 0.5;
		played++;
		pattern_free(&pat);
		free(st);
	}
	free(tmp);
	free(list);
	free(idx);
	free(ow);
	return played < 0 ? -1 : played ? points / played : 0;
}

void train_export(const struct trainer *t, int16_t *out)
{
	for (uint32_t i = 0; i < t->size; i++) {
		double x = t->w[i] * LEARN_SCALE;
		x = x < -32767 ? -32767 : x > 32767 ? 32767 : x;
		out[i] = (int16_t)(x < 0 ? x - 0.5 : x + 0.5);
	}
}

/* A checkpoint: one line naming the game and the settings (a load refuses
 * another's), the rounds, then the weights as raw doubles. */
static void settings(const struct trainer *t, char *buf, size_t size)
{
	snprintf(buf, size,
		 "quintet-train 1 %s%s size=%u seed=%llu games=%d alpha=%.17g "
		 "epsilon=%.17g options=%s\n",
		 t->g->name, t->contents ? " contents" : "", t->size,
		 (unsigned long long)t->o.seed, t->o.games, t->o.alpha,
		 t->o.epsilon, t->options);
}

int train_save(const struct trainer *t, const char *path, char *err)
{
	char head[512], tmp[4096];
	settings(t, head, sizeof head);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return game_fail(err, "cannot write %s", tmp);
	int ok = fputs(head, f) >= 0 &&
		 fprintf(f, "rounds=%d\n", t->rounds) > 0 &&
		 fwrite(t->w, sizeof *t->w, t->size, f) == t->size;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0)
		return game_fail(err, "cannot write %s", path);
	return 0;
}

int train_load(struct trainer *t, const char *path, char *err)
{
	char head[512], line[512];
	settings(t, head, sizeof head);
	FILE *f = fopen(path, "rb");
	if (!f)
		return game_fail(err, "cannot read %s", path);
	int rounds = -1,
	    ok = fgets(line, sizeof line, f) && !strcmp(line, head);
	if (!ok) {
		fclose(f);
		return game_fail(err, "%s was made with other settings", path);
	}
	/* a line of its own: the "\n" of a scanf format would skip on into
	 * the weights' bytes wherever they look like white space */
	ok = fgets(line, sizeof line, f) &&
	     sscanf(line, "rounds=%d", &rounds) == 1 && rounds >= 0 &&
	     fread(t->w, sizeof *t->w, t->size, f) == t->size;
	fclose(f);
	if (!ok)
		return game_fail(err, "%s is cut short", path);
	t->rounds = rounds;
	return 0;
}
