/* train.c: learns a game's evaluation from self-play (games/ai/train.h)
 * and writes its weights as C (games/GAME_weights.c, see games/learn.h).
 *
 *   train [-t THREADS] [-s SEED] [-g GAMES] [-a ALPHA] [-e EPSILON]
 *         [-n ROUNDS] [-c CHECKPOINT] [-b] GAME "OPTIONS" OUT.c
 *
 * plays ROUNDS rounds of GAMES games each (defaults 1000 and 512), with
 * a step of ALPHA (default 0.01; above 0 and at most 0.5, the most a
 * weight moves in a round, over the times it is picked there) on
 * THREADS threads (default: the processors online), over the features
 * of the game's learn_spec or, where it has none (or with -b), over the
 * lines of the board's contents (games/ai/pattern.h), saving the weights to
 * CHECKPOINT (default OUT.c.ckpt) every minute and at the end.  Run again
 * with the same settings, it goes on from the checkpoint, so a run cut
 * short loses a minute at most; the weights depend on the settings alone,
 * not on the threads or where a run was cut.  OUT.c holds the table as
 * `const struct learn_weights OUT` (games/tiptoe_weights.c:
 * tiptoe_weights), which records the settings
 * and a checksum of the weights after the first SAMPLE_ROUNDS rounds,
 * which make check plays again (tests/test_learn.c).  At the end it says
 * what the table is worth beside its first guess: the share of 4000
 * games a player going by the table wins against one going by the first
 * guess alone, both one move deep; and, where the game has a table
 * compiled in, the same against that table (training on from the
 * checkpoint, this is where more rounds show: against the first guess a
 * table of 3,000 rounds and one of 24,000 both win 91 to 92%). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../games/ai/train.h"

#define SAMPLE_ROUNDS 2
#define MATCH_GAMES 4000 /* the table against its first guess, at the end */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void usage(void)
{
	fprintf(stderr, "usage: train [-t THREADS] [-s SEED] [-g GAMES] "
			"[-a ALPHA] [-e EPSILON] [-n ROUNDS] [-c CHECKPOINT] "
			"[-b] GAME \"OPTIONS\" OUT.c\n");
	exit(2);
}

/* The table's checksum after SAMPLE_ROUNDS rounds from scratch. */
static uint64_t sample_sum(const struct game *g, const struct train_opts *o)
{
	char err[GAME_ERR_MAX];
	struct trainer *t = train_new(g, o, err);
	if (!t) {
		fprintf(stderr, "train: %s\n", err);
		exit(1);
	}
	int16_t *w = malloc(train_size(t) * sizeof *w);
	if (!w) {
		fprintf(stderr, "train: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < SAMPLE_ROUNDS; i++)
		if (train_round(t, err) < 0) {
			fprintf(stderr, "train: %s\n", err);
			exit(1);
		}
	train_export(t, w);
	uint64_t sum = learn_sum(w, train_size(t));
	free(w);
	train_free(t);
	return sum;
}

/* The name of the table a file holds: its own name, without the
 * directory and ".c" (games/tiptoe_size6_weights.c holds
 * tiptoe_size6_weights), or NULL where that is no C name. */
static const char *table_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);
	if (n < 3 || n - 2 >= size || strcmp(base + n - 2, ".c"))
		return NULL;
	memcpy(buf, base, n - 2);
	buf[n - 2] = 0;
	for (size_t i = 0; i < n - 2; i++)
		if (!(buf[i] == '_' || (buf[i] >= 'a' && buf[i] <= 'z') ||
		      (buf[i] >= 'A' && buf[i] <= 'Z') ||
		      (i && buf[i] >= '0' && buf[i] <= '9')))
			return NULL;
	return buf;
}

static int write_weights(const char *path, const char *name,
			 const struct game *g, const struct train_opts *o,
			 int rounds, const int16_t *w, uint32_t size)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f,
		"/* %s.c: the learned evaluation of %s (learn.h),\n"
		" * written by scripts/tools/train.c\n"
		" * (make train GAME=%s%s%s%s%s): do not edit.\n"
		" * %d rounds of %d games from \"%s\", seed %llu, alpha %g,\n"
		" * epsilon %g. */\n"
		"#include \"learn.h\"\n\n"
		"static const int16_t w[%u] = {\n",
		name, g->title, g->name, *o->options ? " OPTIONS=\"" : "",
		o->options, *o->options ? "\"" : "",
		o->contents && game_search(g)->learn ? " CONTENTS=1" : "",
		rounds, o->games, o->options, (unsigned long long)o->seed,
		o->alpha, o->epsilon, size);
	for (uint32_t i = 0; i < size; i++)
		fprintf(f, "%d,%s", w[i],
			i % 16 == 15 || i + 1 == size ? "\n" : " ");
	fprintf(f,
		"};\n\n"
		"const struct learn_weights %s = {\n"
		"\t.game = \"%s\",\n\t.options = \"%s\",\n"
		"\t.seed = %lluULL,\n\t.games = %d,\n\t.rounds = %d,\n"
		"\t.alpha = %.17g,\n\t.epsilon = %.17g,\n"
		"\t.sample = %d,\n\t.sample_sum = 0x%016llxULL,\n"
		"\t.sum = 0x%016llxULL,\n\t.contents = %d,\n\t.size = %u,\n"
		"\t.w = w,\n};\n",
		name, g->name, o->options, (unsigned long long)o->seed,
		o->games, rounds, o->alpha, o->epsilon, SAMPLE_ROUNDS,
		(unsigned long long)sample_sum(g, o),
		(unsigned long long)learn_sum(w, size), o->contents, size);
	return fclose(f);
}

int main(int argc, char **argv)
{
	struct train_opts o = {.seed = 1,
			       .games = 512,
			       .alpha = 0.01,
			       .epsilon = 0,
			       .threads = (int)sysconf(_SC_NPROCESSORS_ONLN)};
	int rounds = 1000, c;
	const char *ckpt = NULL;
	while ((c = getopt(argc, argv, "t:s:g:a:e:n:c:b")) != -1) {
		switch (c) {
		case 'b':
			o.contents = 1;
			break;
		case 't':
			o.threads = atoi(optarg);
			break;
		case 's':
			o.seed = strtoull(optarg, NULL, 10);
			break;
		case 'g':
			o.games = atoi(optarg);
			break;
		case 'a':
			o.alpha = atof(optarg);
			break;
		case 'e':
			o.epsilon = atof(optarg);
			break;
		case 'n':
			rounds = atoi(optarg);
			break;
		case 'c':
			ckpt = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 3 || o.games < 1 || rounds < 0)
		usage();
	const struct game *g = game_find(argv[optind]);
	if (!g) {
		fprintf(stderr, "train: no game %s\n", argv[optind]);
		return 2;
	}
	o.options = argv[optind + 1];
	const char *out = argv[optind + 2];
	char err[GAME_ERR_MAX], path[4096], name[256];
	if (!table_name(out, name, sizeof name)) {
		fprintf(stderr,
			"train: %s: the table takes the file's name, "
			"which must be a C name ending in .c\n",
			out);
		return 2;
	}
	if (!ckpt) {
		snprintf(path, sizeof path, "%s.ckpt", out);
		ckpt = path;
	}
	struct trainer *t = train_new(g, &o, err);
	if (!t) {
		fprintf(stderr, "train: %s\n", err);
		return 1;
	}
	if (access(ckpt, F_OK) == 0) {
		if (train_load(t, ckpt, err) < 0) {
			fprintf(stderr, "train: %s\n", err);
			return 1;
		}
		fprintf(stderr, "train: from %s, round %d\n", ckpt,
			train_rounds(t));
	}
	double start = now(), saved = start, shown = start;
	while (train_rounds(t) < rounds) {
		if (train_round(t, err) < 0) {
			fprintf(stderr, "train: %s\n", err);
			return 1;
		}
		double x = now();
		if (x - shown >= 10 || train_rounds(t) == rounds) {
			fprintf(stderr,
				"train: round %d of %d, first player %.3f, "
				"%.0f s\n",
				train_rounds(t), rounds, train_first_score(t),
				x - start);
			shown = x;
		}
		if (x - saved >= 60 || train_rounds(t) == rounds) {
			if (train_save(t, ckpt, err) < 0) {
				fprintf(stderr, "train: %s\n", err);
				return 1;
			}
			saved = x;
		}
	}
	double guess = train_match(t, NULL, MATCH_GAMES, o.seed);
	/* (a game without features of its own is read by its contents) */
	o.contents = o.contents || !game_search(g)->learn;
	const struct learn_weights *lw = game_search(g)->contents_table;
	if (!o.contents) {
		/* the table compiled in for the same set-up */
		const struct learn_weights *const *in =
			game_search(g)->learn->compiled;
		for (lw = NULL; in && *in && !lw; in++)
			lw = strcmp((*in)->options, o.options) ? NULL : *in;
	}
	if (lw && lw->size != train_size(t))
		lw = NULL; /* a table of other features: nothing to compare */
	double old = lw ? train_match(t, lw->w, MATCH_GAMES, o.seed) : 0;
	if (guess < 0 || old < 0) {
		fprintf(stderr, "train: out of memory\n");
		return 1;
	}
	fprintf(stderr,
		"train: the table against its first guess alone, one move "
		"deep: %.1f%% of %d games\n",
		100 * guess, MATCH_GAMES);
	if (lw)
		fprintf(stderr,
			"train: against the table compiled in (%d rounds of "
			"%d games, seed %llu), one move deep: %.1f%% of %d "
			"games\n",
			lw->rounds, lw->games, (unsigned long long)lw->seed,
			100 * old, MATCH_GAMES);
	uint32_t size = train_size(t);
	int16_t *w = malloc(size * sizeof *w);
	if (!w)
		return 1;
	train_export(t, w);
	if (write_weights(out, name, g, &o, train_rounds(t), w, size) != 0) {
		fprintf(stderr, "train: cannot write %s\n", out);
		return 1;
	}
	free(w);
	train_free(t);
	return 0;
}
