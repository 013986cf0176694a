/* bench_ai.c: the computer player's speed and strength figures.
 *
 *   bench_ai                      speed of every game, then a short arena
 *                                 (10 games per pairing at movetime 50)
 *   bench_ai -g N -t MS -j J      the arena with N games per pairing at
 *                                 movetime MS on J processes (0 games: none)
 *   bench_ai -o NAME              only the game NAME (repeatable)
 *   bench_ai -l LEVEL             the opponents: 0 random, 1 greedy (default
 *                                 both; repeatable)
 *
 * and, for scripts/bench, one game set up with OPTIONS (newgame's words in
 * one argument, "" for the defaults; seed 1, from the opening):
 *
 *   bench_ai iterations GAME OPTIONS N
 *                         one search of N playouts (set playouts N), to
 *                         count its instructions under callgrind
 *   bench_ai rate GAME OPTIONS
 *                         search iterations per second of processor time
 *                         in a 0.1 s (the median of 5) and a 5 s search
 *                         (movetime), each from an empty tree; three
 *                         rounds of both, the round of the median ratio
 *                         printed with the range of the ratios; where the
 *                         exact solver had part of the time, the same for
 *                         the tree alone (its iterations over the time
 *                         the solver left it)
 *   bench_ai threads GAME OPTIONS MS [hash=MB] N1 N2 ...
 *                         the thread scaling (set threads): five
 *                         rounds of one search of MS ms for each count
 *                         in turn (movetime, empty tree, set hash MB if
 *                         given); for each count, the median of its
 *                         five: iterations per second of the clock, its
 *                         speed-up over one thread in the same round
 *                         (with the range of the five) and its
 *                         efficiency (the speed-up over the count),
 *                         iterations per second of processor time (what
 *                         the threads cost besides: on a busy machine
 *                         the clock's figures cannot scale), where the
 *                         exact solver had part of the time the tree's
 *                         own rate (its iterations over the clock time
 *                         the solver left it), and where the pool filled
 *                         up its compactions a search; last, the time a
 *                         cache line takes to go from one thread to
 *                         another and back (see round_trip_ns), the
 *                         median of the rounds' and their range
 *   bench_ai poll GAME OPTIONS N
 *                         a search of N playouts with and without the
 *                         engine's stop poll (a poll() of standard input
 *                         every AI_POLL_MS), 5 times each: the
 *                         median playouts per second of processor time
 *   bench_ai gaps GAME OPTIONS MS THREADS [hash=MB]
 *                         how soon a `stop` is seen: the longest times
 *                         between two questions to the stop hook in a
 *                         search of MS ms (movetime, empty tree, the
 *                         default hash or set hash MB) on THREADS
 *                         threads, and the compactions of its pool
 *
 * Speed: random playouts per second of CPU time from the opening of each
 * game (the target is over 1,000,000 on checkertoe, on one core),
 * and search iterations per second (also of CPU time).  Strength: the search
 * (default level, movetime MS) against level 0 and level 1, both seats in turn,
 * a draw counting half; with the longest genmove seen past its movetime. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../games/ai/ai.h"
#include "../games/ai/playout.h"
#include "../games/ai/search.h"

/* The setups the issue measures: default options unless given here. */
static const char *setup_for(const char *name)
{
	if (!strcmp(name, "tiptoe"))
		return "size=8";
	if (!strcmp(name, "takeitaway"))
		return "players=2";
	return "";
}

static void *new_game(const struct game *g, const char *opts, uint64_t seed)
{
	char err[GAME_ERR_MAX];
	void *st = game_new_state(g, opts, seed, err);
	if (!st) {
		fprintf(stderr, "bench_ai: %s %s: %s\n", g->name, opts, err);
		exit(1);
	}
	return st;
}

/* CPU time of this process in ms: on a busy machine the wall clock would
 * measure the neighbours too. */
static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* n things in ms milliseconds, a second. */
static double per_second(long n, double ms)
{
	return ms > 0 ? n / ms * 1000 : 0;
}

/* Random playouts from st for about ms milliseconds of CPU time; returns
 * playouts per CPU second. */
static double playout_speed(const struct game *g, const void *st, double ms)
{
	void *work = malloc(g->state_size);
	struct move *list = malloc(sizeof *list * (size_t)g->max_moves);
	struct rng r;
	rng_seed(&r, 1);
	long n = 0;
	double t0 = cpu_ms(), t = t0;
	while (t - t0 < ms) {
		for (int k = 0; k < 64; k++, n++) {
			memcpy(work, st, g->state_size);
			for (int ply = 0; ply < 100000; ply++) {
				struct game_status s = g->status(work);
				if (s.phase == GAME_OVER)
					break;
				if (s.phase == GAME_ROLL) {
					g->roll(work,
						game_chance_pick(g, work, &r));
					continue;
				}
				struct move mv;
				if (ai_random_move(g, work, &r, list, &mv) < 0)
					break;
				g->play(work, &mv);
			}
		}
		t = cpu_ms();
	}
	free(work);
	free(list);
	return per_second(n, t - t0);
}

/* One arena game: the search in seat `seat` (from 0), the others at level
 * opp.  Returns the search's result (1, 0.5, 0); *over gets the longest
 * genmove past its movetime. */
static double arena_game(const struct game *g, uint64_t seed, int seat, int opp,
			 long movetime, double *over)
{
	void *st = new_game(g, setup_for(g->name), seed);
	int np = g->players(st);
	struct rng r;
	rng_seed(&r, seed * 7919 + 17);
	static struct ai *ai;
	if (!ai)
		ai = ai_new();
	struct ai_search me = {.level = AI_LEVEL_MAX,
			       .movetime_ms = (double)movetime};
	struct ai_search them = {.level = opp, .movetime_ms = (double)movetime};
	double result = 0.5;
	for (int ply = 0; ply < 100000; ply++) {
		struct game_status s = g->status(st);
		if (s.phase == GAME_OVER) {
			if (np == 1)
				result = 1; /* solo: nobody to beat */
			else if (s.player)
				result = s.player == seat + 1;
			else
				result = 0.5;
			break;
		}
		if (s.phase == GAME_ROLL) {
			g->roll(st, game_chance_pick(g, st, &r));
			continue;
		}
		struct move mv;
		int mine = s.player - 1 == seat % np;
		double t0 = ai_now_ms();
		struct ai_search *how = mine ? &me : &them;
		how->start_ms = t0;
		how->seed = rng_next(&r);
		if (ai_choose(ai, g, st, how, &mv, NULL) < 0)
			break;
		double late = ai_now_ms() - t0 - (double)movetime;
		if (mine && late > *over)
			*over = late;
		g->play(st, &mv);
	}
	free(st);
	return result;
}

struct tally {
	double score;
	double over;
	int games;
};

/* n games on j processes; the seats alternate. */
static struct tally arena(const struct game *g, int opp, int n, long movetime,
			  int j)
{
	struct tally all = {0, -1e9, 0};
	int fds[16][2];
	pid_t pids[16];
	for (int k = 0; k < j; k++) {
		if (pipe(fds[k]) < 0) {
			perror("pipe");
			exit(1);
		}
		pids[k] = fork();
		if (pids[k] == 0) {
			struct tally t = {0, -1e9, 0};
			for (int i = k; i < n; i += j) {
				t.score += arena_game(g, (uint64_t)i + 1, i % 2,
						      opp, movetime, &t.over);
				t.games++;
			}
			if (write(fds[k][1], &t, sizeof t) != (ssize_t)sizeof t)
				_exit(1);
			_exit(0);
		}
		close(fds[k][1]);
	}
	for (int k = 0; k < j; k++) {
		struct tally t;
		if (read(fds[k][0], &t, sizeof t) == (ssize_t)sizeof t) {
			all.score += t.score;
			all.games += t.games;
			if (t.over > all.over)
				all.over = t.over;
		}
		close(fds[k][0]);
		waitpid(pids[k], NULL, 0);
	}
	return all;
}

static int wanted(const char *name, char **only, int nonly)
{
	if (!nonly)
		return 1;
	for (int i = 0; i < nonly; i++)
		if (!strcmp(only[i], name))
			return 1;
	return 0;
}

/* The megabytes of a "hash=MB" argument, or -1 when arg is not one. */
static long hash_arg(const char *arg)
{
	return strncmp(arg, "hash=", 5) ? -1 : atol(arg + 5);
}

/* The game g of a subcommand, set up from the opening (a first roll
 * rolled), or exits. */
static void *opening(const char *name, const char *opts, const struct game **g)
{
	*g = game_find(name);
	if (!*g) {
		fprintf(stderr, "bench_ai: unknown game %s\n", name);
		exit(2);
	}
	void *st = new_game(*g, opts, 1);
	struct rng r;
	rng_seed(&r, 1);
	while ((*g)->status(st).phase == GAME_ROLL)
		(*g)->roll(st, game_chance_pick(*g, st, &r));
	return st;
}

/* One search of st; returns its iterations, and the processor time it
 * took in *ms (with solver_ms, the part of it the exact solver had, in
 * *solver_ms). */
static long one_search(struct ai *ai, const struct game *g, const void *st,
		       long playouts, double movetime, int (*stop)(void *),
		       double *ms, double *solver_ms)
{
	struct ai_search how = {.level = AI_LEVEL_MAX,
				.playouts = playouts,
				.movetime_ms = movetime,
				.start_ms = ai_now_ms(),
				.seed = 1,
				.stop = stop,
				.no_book = 1};
	struct move mv;
	double t0 = cpu_ms();
	if (ai_choose(ai, g, st, &how, &mv, NULL) < 0) {
		fprintf(stderr, "bench_ai: %s: no move\n", g->name);
		exit(1);
	}
	*ms = cpu_ms() - t0;
	struct search_info info;
	ai_tree_info(ai, &info);
	if (solver_ms)
		*solver_ms = info.solver_ms;
	return info.iterations;
}

/* The engine's stop poll, as engine.c does it while it thinks: is a line
 * waiting on standard input? */
static int poll_input(void *ctx)
{
	(void)ctx;
	struct pollfd p = {0, POLLIN, 0};
	poll(&p, 1, 0);
	return 0; /* what counts is the call: the search never stops */
}

/* The gaps between the questions to a stop hook that never stops: the
 * longest GAPS of them, longest first. */
#define GAPS 3
struct gaps {
	double last, longest[GAPS];
};

static int note_gap(void *ctx)
{
	struct gaps *g = ctx;
	double now = ai_now_ms(), d = g->last > 0 ? now - g->last : 0;
	g->last = now;
	for (int i = 0; i < GAPS; i++)
		if (d > g->longest[i]) {
			double x = g->longest[i];
			g->longest[i] = d;
			d = x;
		}
	return 0;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of n values (n odd); sorts them. */
static double median(double *x, int n)
{
	qsort(x, (size_t)n, sizeof x[0], compare_doubles);
	return x[n / 2];
}

#define PINGS 100000 /* round trips a run of round_trip_ns times */

/* Two threads hand a counter back and forth. */
static void *ping(void *arg)
{
	long *turn = arg;
	for (long i = 1; i < 2 * PINGS; i += 2) {
		while (__atomic_load_n(turn, __ATOMIC_ACQUIRE) != i)
			;
		__atomic_store_n(turn, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* The median time in ns of a cache line's round trip between two threads
 * (the median of 5 runs of PINGS), -1 if no thread starts.  Threads that
 * share a tree pay it whenever one reads what the other wrote: on a
 * virtual machine it changes with where the host puts the two processors
 * (100 to 700 ns from one minute to the next on the machine of
 * docs/benchmarks.md), and the scaling of a game whose iterations are
 * short (Abs-Trac-Toe) with it. */
static double round_trip_ns(void)
{
	double ns[5];
	for (int k = 0; k < 5; k++) {
		_Alignas(64) long turn = 0;
		pthread_t t;
		if (pthread_create(&t, NULL, ping, &turn))
			return -1;
		double t0 = ai_now_ms();
		for (long i = 0; i < 2 * PINGS; i += 2) {
			while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != i)
				;
			__atomic_store_n(&turn, i + 1, __ATOMIC_RELEASE);
		}
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 2 * PINGS)
			;
		ns[k] = (ai_now_ms() - t0) * 1e6 / PINGS;
		pthread_join(t, NULL);
	}
	return median(ns, 5);
}

#define THREAD_ROUNDS 5     /* of `threads`: an odd number, for a median */
#define THREAD_COUNTS_MAX 8 /* thread counts `threads` compares */

#define RATE_ROUNDS 3 /* of `rate`: an odd number, for a median */

/* One round of `rate`: the median of five short searches' rates, the long
 * search's, and the long one's in percent of the short ones'. */
struct rates {
	double fast, slow, ratio;
};

static struct rates round_rates(double quick[5], double slow)
{
	double mid = median(quick, 5);
	return (struct rates){mid, slow, mid > 0 ? 100 * slow / mid : 0};
}

/* The round of the median ratio, and the range of the ratios. */
static void print_rates(const struct rates r[RATE_ROUNDS])
{
	double sorted[RATE_ROUNDS];
	for (int i = 0; i < RATE_ROUNDS; i++)
		sorted[i] = r[i].ratio;
	qsort(sorted, RATE_ROUNDS, sizeof sorted[0], compare_doubles);
	int mid = 0;
	while (r[mid].ratio != sorted[RATE_ROUNDS / 2])
		mid++;
	printf("%.0f iterations/s at 0.1 s, %.0f at 5 s (%.0f%%; %.0f-%.0f%% "
	       "in %d rounds)",
	       r[mid].fast, r[mid].slow, r[mid].ratio, sorted[0],
	       sorted[RATE_ROUNDS - 1], RATE_ROUNDS);
}

static int subcommand(int argc, char **argv)
{
	const struct game *g;
	if (argc == 5 && !strcmp(argv[1], "iterations")) {
		void *st = opening(argv[2], argv[3], &g);
		struct ai *ai = ai_new();
		double ms;
		long n = one_search(ai, g, st, atol(argv[4]), 0, NULL, &ms,
				    NULL);
		printf("%s [%s]: %ld iterations\n", g->name, argv[3], n);
		ai_free(ai);
		free(st);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "rate")) {
		void *st = opening(argv[2], argv[3], &g);
		struct ai *ai = ai_new();
		/* RATE_ROUNDS rounds of the short search five times (the
		 * median: a short run feels every neighbour on a busy
		 * machine) then the long one; each round's ratio compares
		 * runs close in time, so a machine whose speed drifts moves
		 * the rounds apart rather than bending one figure.  The
		 * round of the median ratio is printed, and the range.
		 * Where the exact solver had part of the time (games short
		 * enough from the opening: Tiptoe 5x5), the rates of the tree
		 * alone, its iterations over the time left to it, follow. */
		struct rates whole[RATE_ROUNDS], tree[RATE_ROUNDS];
		double solver = 0;
		for (int round = 0; round < RATE_ROUNDS; round++) {
			double quick[2][5], ms, sms;
			for (int k = 0; k < 5; k++) {
				ai_forget(ai);
				long n = one_search(ai, g, st, 0, 100, NULL,
						    &ms, &sms);
				quick[0][k] = per_second(n, ms);
				quick[1][k] = per_second(n, ms - sms);
				solver += sms;
			}
			ai_forget(ai);
			long n =
				one_search(ai, g, st, 0, 5000, NULL, &ms, &sms);
			solver += sms;
			whole[round] = round_rates(quick[0], per_second(n, ms));
			tree[round] =
				round_rates(quick[1], per_second(n, ms - sms));
		}
		printf("%s [%s]: ", g->name, argv[3]);
		print_rates(whole);
		if (solver > 0) {
			printf("; the tree alone (%.0f ms of the solver left "
			       "out): ",
			       solver);
			print_rates(tree);
		}
		printf("\n");
		ai_free(ai);
		free(st);
		return 0;
	}
	if (argc >= 6 && !strcmp(argv[1], "threads")) {
		void *st = opening(argv[2], argv[3], &g);
		double ms = atof(argv[4]);
		printf("%s [%s], movetime %.0f:", g->name, argv[3], ms);
		long hash_mb = hash_arg(argv[5]);
		int first = 5;
		if (hash_mb >= 0) {
			printf(" (set hash %ld)", hash_mb);
			first = 6;
		}
		/* THREAD_ROUNDS rounds, each one search of every count in
		 * turn, so that a machine whose speed drifts (this one's by
		 * a third from one minute to the next) moves the rounds
		 * apart rather than the counts: each round's speed-up
		 * compares searches close in time, as `rate` does. */
		int counts = argc - first;
		if (counts > THREAD_COUNTS_MAX) {
			fprintf(stderr, "bench_ai: at most %d counts\n",
				THREAD_COUNTS_MAX);
			exit(1);
		}
		struct ai *ais[THREAD_COUNTS_MAX];
		double wall[THREAD_COUNTS_MAX][THREAD_ROUNDS],
			cpu[THREAD_COUNTS_MAX][THREAD_ROUNDS],
			tree[THREAD_COUNTS_MAX][THREAD_ROUNDS],
			gain[THREAD_COUNTS_MAX][THREAD_ROUNDS],
			tree_gain[THREAD_COUNTS_MAX][THREAD_ROUNDS];
		long compactions[THREAD_COUNTS_MAX] = {0};
		for (int a = 0; a < counts; a++) {
			ais[a] = ai_new();
			if (!ais[a] ||
			    ai_set_threads(ais[a], atoi(argv[first + a])) < 0) {
				fprintf(stderr, "bench_ai: no %s threads\n",
					argv[first + a]);
				exit(1);
			}
			if (hash_mb > 0)
				ai_set_hash(ais[a], hash_mb);
		}
		double trip[THREAD_ROUNDS];
		for (int k = 0; k < THREAD_ROUNDS; k++) {
			trip[k] = round_trip_ns();
			for (int a = 0; a < counts; a++) {
				double c, sms;
				ai_forget(ais[a]);
				double t0 = ai_now_ms();
				long it = one_search(ais[a], g, st, 0, ms, NULL,
						     &c, &sms);
				double w = ai_now_ms() - t0;
				struct search_info info;
				ai_tree_info(ais[a], &info);
				compactions[a] += info.collections;
				wall[a][k] = per_second(it, w);
				cpu[a][k] = per_second(it, c);
				tree[a][k] =
					sms > 0 ? per_second(it, w - sms) : 0;
				gain[a][k] = wall[0][k] > 0
						     ? wall[a][k] / wall[0][k]
						     : 0;
				tree_gain[a][k] =
					tree[0][k] > 0 ? tree[a][k] / tree[0][k]
						       : 0;
			}
		}
		for (int a = 0; a < counts; a++) {
			int n = atoi(argv[first + a]);
			double w = median(wall[a], THREAD_ROUNDS),
			       c = median(cpu[a], THREAD_ROUNDS),
			       tr = median(tree[a], THREAD_ROUNDS),
			       x = median(gain[a], THREAD_ROUNDS);
			printf("%s %d thread%s %.0f/s", a == 0 ? "" : ";", n,
			       n == 1 ? "" : "s", w);
			/* (median sorted each count's rounds: the ends
			 * are the range) */
			if (a > 0)
				printf(" (x%.2f, %.2f-%.2f in %d rounds, "
				       "efficiency %.0f%%)",
				       x, gain[a][0],
				       gain[a][THREAD_ROUNDS - 1],
				       THREAD_ROUNDS,
				       100 * x / (n > 0 ? n : 1));
			printf(", %.0f/s of processor time", c);
			if (compactions[a])
				printf(", %.1f compactions a search",
				       (double)compactions[a] / THREAD_ROUNDS);
			if (tr > 0) {
				printf(", the tree alone %.0f/s", tr);
				if (a > 0)
					printf(" (x%.2f)",
					       median(tree_gain[a],
						      THREAD_ROUNDS));
			}
			ai_free(ais[a]);
		}
		double mid = median(trip, THREAD_ROUNDS);
		printf("; round trip %.0f ns (%.0f-%.0f)\n", mid, trip[0],
		       trip[THREAD_ROUNDS - 1]);
		free(st);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "poll")) {
		void *st = opening(argv[2], argv[3], &g);
		struct ai *ai = ai_new();
		long n = atol(argv[4]);
		double rate[2][5];
		for (int k = 0; k < 10; k++) { /* alternate, so load evens */
			double ms;
			long it = one_search(ai, g, st, n, 0,
					     k % 2 ? poll_input : NULL, &ms,
					     NULL);
			rate[k % 2][k / 2] = per_second(it, ms);
		}
		double without = median(rate[0], 5), with = median(rate[1], 5);
		printf("%s [%s]: %.0f playouts/s without the stop poll, %.0f "
		       "with it (%.2f%% slower)\n",
		       g->name, argv[3], without, with,
		       100 * (without - with) / without);
		ai_free(ai);
		free(st);
		return 0;
	}
	if ((argc == 6 || (argc == 7 && hash_arg(argv[6]) >= 0)) &&
	    !strcmp(argv[1], "gaps")) {
		void *st = opening(argv[2], argv[3], &g);
		struct ai *ai = ai_new();
		if (!ai || ai_set_threads(ai, atoi(argv[5])) < 0) {
			fprintf(stderr, "bench_ai: no %s threads\n", argv[5]);
			exit(1);
		}
		if (argc == 7)
			ai_set_hash(ai, hash_arg(argv[6]));
		struct gaps gaps = {0, {0}};
		struct ai_search how = {.level = AI_LEVEL_MAX,
					.movetime_ms = atof(argv[4]),
					.start_ms = ai_now_ms(),
					.seed = 1,
					.stop = note_gap,
					.ctx = &gaps,
					.no_book = 1};
		struct move mv;
		if (ai_choose(ai, g, st, &how, &mv, NULL) < 0) {
			fprintf(stderr, "bench_ai: %s: no move\n", g->name);
			exit(1);
		}
		struct search_info info;
		ai_tree_info(ai, &info);
		printf("%s [%s], movetime %s, %s thread(s)%s%s: longest gaps",
		       g->name, argv[3], argv[4], argv[5],
		       argc == 7 ? ", " : "", argc == 7 ? argv[6] : "");
		for (int i = 0; i < GAPS; i++)
			printf(" %.2f", gaps.longest[i]);
		printf(" ms; %ld compactions\n", info.collections);
		ai_free(ai);
		free(st);
		return 0;
	}
	fprintf(stderr,
		"usage: bench_ai [iterations GAME OPTIONS N | rate "
		"GAME OPTIONS | threads GAME OPTIONS MS [hash=MB] N... | poll "
		"GAME OPTIONS N | gaps GAME OPTIONS MS THREADS [hash=MB]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc > 1 && argv[1][0] != '-')
		return subcommand(argc, argv);
	int games = 10, jobs = 2, nonly = 0, levels[2] = {0, 1}, nlevels = 0;
	long movetime = 50;
	char *only[16];
	int opt;
	while ((opt = getopt(argc, argv, "g:t:j:o:l:")) != -1) {
		if (opt == 'g')
			games = (int)strtol(optarg, NULL, 10);
		else if (opt == 't')
			movetime = strtol(optarg, NULL, 10);
		else if (opt == 'j')
			jobs = (int)strtol(optarg, NULL, 10);
		else if (opt == 'o' && nonly < 16)
			only[nonly++] = optarg;
		else if (opt == 'l' && nlevels < 2)
			levels[nlevels++] = (int)strtol(optarg, NULL, 10);
		else {
			fprintf(stderr,
				"usage: bench_ai [-g GAMES] [-t MS] [-j JOBS] "
				"[-o GAME] [-l LEVEL]\n");
			return 2;
		}
	}
	if (!nlevels)
		nlevels = 2;
	if (jobs < 1)
		jobs = 1;
	if (jobs > 16)
		jobs = 16;
	if (movetime < 1)
		movetime = 1;

	printf("ai speed: random playouts per second from the opening (one "
	       "core)\n");
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		if (!wanted(g->name, only, nonly))
			continue;
		void *st = new_game(g, setup_for(g->name), 1);
		double pps = playout_speed(g, st, 500);
		/* search iterations: a fixed budget, timed */
		struct ai *ai = ai_new();
		struct ai_search how = {.level = AI_LEVEL_MAX,
					.playouts = 20000,
					.seed = 1,
					.no_book = 1};
		struct rng r;
		rng_seed(&r, 1);
		if (g->status(st).phase ==
		    GAME_ROLL) /* a game that opens with dice */
			g->roll(st, game_chance_pick(g, st, &r));
		struct move mv;
		double t0 = cpu_ms();
		int ok = g->status(st).phase == GAME_PLAY &&
			 ai_choose(ai, g, st, &how, &mv, NULL) == 0;
		double ms = cpu_ms() - t0;
		ai_free(ai);
		printf("  %-12s %10.0f playouts/s  %8.0f search playouts/s%s\n",
		       g->name, pps, ok ? per_second(20000, ms) : 0.0,
		       !strcmp(g->name, "checkertoe")
			       ? "  (target > 1000000 playouts/s)"
			       : "");
		free(st);
	}
	if (games <= 0)
		return 0;
	printf("ai strength: %d games per pairing, both seats, movetime %ld "
	       "ms, "
	       "%d processes\n",
	       games, movetime, jobs);
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		if (!wanted(g->name, only, nonly))
			continue;
		for (int l = 0; l < nlevels; l++) {
			double t0 = ai_now_ms();
			struct tally t =
				arena(g, levels[l], games, movetime, jobs);
			printf("  %-12s %s vs level %d: %5.1f%% of %d games "
			       "(longest genmove %+.2f ms past movetime; %.0f "
			       "s)\n",
			       g->name, setup_for(g->name), levels[l],
			       t.games ? 100 * t.score / t.games : 0.0, t.games,
			       t.over, (ai_now_ms() - t0) / 1000);
			fflush(stdout);
		}
	}
	return 0;
}
