/* test_learn.c: the learned evaluations (games/learn.h) and their training
 * (games/ai/train.h): the compiled weights are what the training tool
 * writes for its recorded settings, the training does not depend on its
 * threads or on being cut short, and features stay in their table. */
#include "test_util.h"

#include <math.h>
#include <unistd.h>

#include "../games/ai/pattern.h"
#include "../games/ai/train.h"

extern const struct learn_weights takebacktoe_weights, tiptoe_weights,
	tiptoe_size6_weights, tiptoe_hex_weights;

/* Every game's compiled weights, with the game they belong to, and the
 * share of games one move deep that the table wins, at the least, against
 * its first guess (scripts/tools/train.c prints it at its end, over 4000
 * games: 91.0% in Take-Back-Toe, whose first guess is a race of threats;
 * 75.4% in Tiptoe 8x8, 65.8% on 6x6 and 70.7% on the hexagon of side 8,
 * whose first guess, the cubes, plays well already). */
static const struct table {
	const struct learn_weights *w;
	double beats;
} tables[] = {{&takebacktoe_weights, 0.75},
	      {&tiptoe_weights, 0.62},
	      {&tiptoe_size6_weights, 0.58},
	      {&tiptoe_hex_weights, 0.65}};
#define NTABLES (int)(sizeof tables / sizeof tables[0])

static struct train_opts opts_of(const struct learn_weights *lw, int threads)
{
	return (struct train_opts){.options = lw->options,
				   .seed = lw->seed,
				   .games = lw->games,
				   .alpha = lw->alpha,
				   .epsilon = lw->epsilon,
				   .threads = threads,
				   .contents = lw->contents};
}

/* The checksum of a trainer's table after `rounds` more rounds. */
static uint64_t after_rounds(struct trainer *t, int rounds)
{
	char err[GAME_ERR_MAX];
	for (int i = 0; i < rounds; i++)
		ck_assert_int_eq(train_round(t, err), 0);
	int16_t *w = malloc(train_size(t) * sizeof *w);
	ck_assert_ptr_nonnull(w);
	train_export(t, w);
	uint64_t sum = learn_sum(w, train_size(t));
	free(w);
	return sum;
}

START_TEST(the_compiled_weights_are_whole)
{
	const struct learn_weights *lw = tables[_i].w;
	const struct game *g = game_find(lw->game);
	ck_assert_ptr_nonnull(g);
	ck_assert(lw->contents || game_search(g)->learn);
	ck_assert_uint_eq(lw->size, lw->contents ? PAT_SIZE
						 : game_search(g)->learn->size);
	ck_assert_msg(learn_sum(lw->w, lw->size) == lw->sum,
		      "%s's weights differ from the checksum train wrote",
		      lw->game);
	ck_assert_int_gt(lw->rounds, lw->sample);
}
END_TEST

/* make check cannot play the hours of training again, but it plays the
 * first rounds of the recorded settings, on one thread and on three, and
 * finds the table the tool found. */
START_TEST(a_sample_of_the_training_is_made_again)
{
	const struct learn_weights *lw = tables[_i].w;
	const struct game *g = game_find(lw->game);
	char err[GAME_ERR_MAX];
	for (int threads = 1; threads <= 3; threads += 2) {
		struct train_opts o = opts_of(lw, threads);
		struct trainer *t = train_new(g, &o, err);
		ck_assert_msg(t != NULL, "%s", err);
		ck_assert_msg(after_rounds(t, lw->sample) == lw->sample_sum,
			      "%s on %d threads: not the recorded sample",
			      lw->game, threads);
		train_free(t);
	}
}
END_TEST

/* A run saved after one round and loaded into a new trainer goes on to
 * the same table as a run of two rounds, and a checkpoint is read back
 * byte for byte. */
START_TEST(a_checkpoint_goes_on_where_it_stopped)
{
	const struct learn_weights *lw = tables[0].w;
	const struct game *g = game_find(lw->game);
	struct train_opts o = opts_of(lw, 2);
	o.games = 16;
	char err[GAME_ERR_MAX], path[] = "/tmp/test_learn_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	struct trainer *a = train_new(g, &o, err), *b = train_new(g, &o, err);
	ck_assert(a && b);
	uint64_t whole = after_rounds(a, 2);
	after_rounds(b, 1);
	ck_assert_int_eq(train_save(b, path, err), 0);
	train_free(b);
	b = train_new(g, &o, err);
	ck_assert_int_eq(train_load(b, path, err), 0);
	ck_assert_int_eq(train_rounds(b), 1);
	ck_assert(after_rounds(b, 1) == whole);
	/* weights whose first bytes read as white space come back whole:
	 * the first weight's six low bytes spaces (1.0078... on a
	 * little-endian machine) */
	FILE *f = fopen(path, "r+b");
	ck_assert_ptr_nonnull(f);
	char line[512];
	ck_assert(fgets(line, sizeof line, f) && fgets(line, sizeof line, f));
	/* from reading to writing */
	ck_assert_int_eq(fseek(f, 0, SEEK_CUR), 0);
	const unsigned char spaced[8] = {' ', ' ', ' ',  ' ',
					 ' ', ' ', 0xf0, 0x3f};
	ck_assert_uint_eq(fwrite(spaced, 1, 8, f), 8);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(train_load(b, path, err) == 0, "%s", err);
	int16_t *w = malloc(train_size(b) * sizeof *w);
	train_export(b, w);
	double d;
	memcpy(&d, spaced, sizeof d);
	ck_assert_int_eq(w[0], (int)(d * LEARN_SCALE + 0.5));
	free(w);
	/* other settings are refused, not mixed in */
	o.seed++;
	struct trainer *c = train_new(g, &o, err);
	ck_assert_int_eq(train_load(c, path, err), -1);
	ck_assert_msg(strstr(err, "other settings"), "%s", err);
	train_free(a);
	train_free(b);
	train_free(c);
	unlink(path);
}
END_TEST

/* A step the round's cap makes no different from 0.5 (or one that
 * would train nothing) is refused with the reason, not taken. */
START_TEST(a_step_past_the_cap_is_refused)
{
	const struct learn_weights *lw = tables[0].w;
	const struct game *g = game_find(lw->game);
	struct train_opts o = opts_of(lw, 1);
	char err[GAME_ERR_MAX] = "";
	const double bad[] = {0.6, 1, 0, -0.1};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		o.alpha = bad[i];
		ck_assert_msg(train_new(g, &o, err) == NULL, "%g taken",
			      bad[i]);
		ck_assert_msg(strstr(err, "at most 0.5"), "%s", err);
	}
	o.alpha = 0.5;
	struct trainer *t = train_new(g, &o, err);
	ck_assert_msg(t != NULL, "%s", err);
	train_free(t);
}
END_TEST

/* The compiled table knows more than its first guess: one move deep, the
 * player going by it wins clearly more games than the player going by
 * the first guess alone (400 games; `beats` in tables above), while an
 * empty table, which plays like the first guess, wins about half. */
START_TEST(the_table_beats_its_first_guess)
{
	const struct learn_weights *lw = tables[_i].w;
	const struct game *g = game_find(lw->game);
	struct train_opts o = opts_of(lw, 1);
	char err[GAME_ERR_MAX];
	struct trainer *t = train_new(g, &o, err);
	ck_assert_msg(t != NULL, "%s", err);
	double empty = train_match(t, NULL, 400, 1);
	ck_assert_msg(empty > 0.4 && empty < 0.6, "%g", empty);
	train_import(t, lw->w);
	double full = train_match(t, NULL, 400, 1);
	ck_assert_msg(full > tables[_i].beats, "%s: %g", lw->game, full);
	train_free(t);
}
END_TEST

/* train_match against a table: an empty table (the first guess alone)
 * loses to the compiled one as clearly as the_table_beats_its_first_guess
 * has it the other way round, and the compiled table against itself wins about
 * half; the game names the table it compiles in. */
START_TEST(a_table_meets_another)
{
	const struct learn_weights *lw = tables[_i].w;
	const struct game *g = game_find(lw->game);
	if (lw->contents) {
		ck_assert_ptr_eq(game_search(g)->contents_table, lw);
	} else {
		const struct learn_weights *const *c =
			game_search(g)->learn->compiled;
		while (c && *c && *c != lw)
			c++;
		ck_assert_msg(c && *c, "%s does not name its table", g->name);
	}
	struct train_opts o = opts_of(lw, 1);
	char err[GAME_ERR_MAX];
	struct trainer *t = train_new(g, &o, err);
	ck_assert_msg(t != NULL, "%s", err);
	double empty = train_match(t, lw->w, 400, 1);
	ck_assert_msg(empty < 1 - tables[_i].beats, "%s: %g", lw->game, empty);
	train_import(t, lw->w);
	double same = train_match(t, lw->w, 400, 1);
	ck_assert_msg(same > 0.4 && same < 0.6, "%s: %g", lw->game, same);
	train_free(t);
}
END_TEST

/* Along random games from opts the features stay in the table and
 * within their count, and the compiled evaluation is a value in [0, 1]. */
static void stay_in_table(const struct game *g, const char *opts)
{
	const struct learn_spec *ls = game_search(g)->learn;
	char err[GAME_ERR_MAX];
	uint32_t *idx = malloc((size_t)ls->max_features * sizeof *idx);
	struct move *list = malloc((size_t)g->max_moves * sizeof *list);
	for (uint64_t seed = 1; seed <= 40; seed++) {
		void *st = game_new_state(g, opts, seed, err);
		ck_assert_msg(st != NULL, "%s", err);
		struct rng r;
		rng_seed(&r, seed);
		for (;;) {
			struct game_status s = g->status(st);
			if (s.phase == GAME_OVER)
				break;
			double base = NAN;
			int n = ls->features(st, idx, &base);
			ck_assert_msg(n > 0 && n <= ls->max_features,
				      "%s %s: %d features", g->name, opts, n);
			ck_assert(isfinite(base));
			for (int i = 0; i < n; i++)
				ck_assert_uint_lt(idx[i], ls->size);
			double v[GAME_MAX_PLAYERS];
			game_search(g)->evaluate(st, v);
			ck_assert(v[0] >= 0 && v[0] <= 1);
			ck_assert(v[0] + v[1] > 1 - 1e-12 &&
				  v[0] + v[1] < 1 + 1e-12);
			if (s.phase == GAME_ROLL) {
				g->roll(st, game_chance_pick(g, st, &r));
				continue;
			}
			int k = g->moves(st, list);
			g->play(st, &list[rng_below(&r, (uint32_t)k)]);
		}
		free(st);
	}
	free(idx);
	free(list);
}

/* The smallest (or, with down, the largest) value of number o that the
 * set-up `base` takes beside it, written as base and o into opts; 0 if
 * it takes none. */
static int end_of(const struct game *g, const char *base,
		  const struct game_option_spec *o, int down, char *opts,
		  size_t n)
{
	for (long i = 0; i <= o->max - o->min; i++) {
		long v = down ? o->max - i : o->min + i;
		fit(opts, n, "%s%s%s=%ld", base, *base ? " " : "", o->key, v);
		if (takes_options(g, opts))
			return 1;
	}
	return 0;
}

/* ... from the table's own set-up, and from both ends of each number that
 * set-up takes beside its own options (a board's smallest and largest
 * size: a hexagon's are not a square's), where a table that reads any
 * size of board must stay within its room. */
START_TEST(features_stay_in_their_table)
{
	const struct learn_weights *lw = tables[_i].w;
	const struct game *g = game_find(lw->game);
	stay_in_table(g, lw->options);
	for (const struct game_option_spec *o = g->options; o && o->key; o++) {
		char opts[128];
		for (int down = 0; down < 2; down++)
			if (o->type == OPT_INT &&
			    end_of(g, lw->options, o, down, opts, sizeof opts))
				stay_in_table(g, opts);
	}
}
END_TEST

/* The lines of three that the contents reader finds on a board of
 * squares (7 by 6: Connect Four's), by direction: across, rising to the
 * right, up, rising to the left; and the lines whose middle cell lies on
 * the board's edge. */
START_TEST(the_lines_follow_the_geometry)
{
	const struct game *g = game_find("connect4");
	ck_assert_ptr_nonnull(g);
	char err[GAME_ERR_MAX];
	void *st = game_new_state(g, "", 1, err);
	ck_assert_msg(st != NULL, "%s", err);
	struct pattern p;
	ck_assert_msg(pattern_init(&p, g, st, err) == 0, "%s", err);
	ck_assert_int_eq(p.cells, 42);
	int dir[PAT_DIRS] = {0}, edge = 0;
	for (int l = 0; l < p.lines; l++) {
		dir[p.cls[l] / 2]++;
		edge += p.cls[l] % 2;
		/* three cells in a row: the middle one halfway */
		int a = p.line[l][0], b = p.line[l][1], c = p.line[l][2];
		ck_assert_int_eq(a % 7 + c % 7, 2 * (b % 7));
		ck_assert_int_eq(a / 7 + c / 7, 2 * (b / 7));
	}
	ck_assert_int_eq(dir[0], 5 * 6);
	ck_assert_int_eq(dir[1], 5 * 4);
	ck_assert_int_eq(dir[2], 7 * 4);
	ck_assert_int_eq(dir[3], 5 * 4);
	/* middles on the edge: across along the bottom and top rows (10),
	 * up along the outer columns (8) */
	ck_assert_int_eq(edge, 18);
	pattern_free(&p);
	free(st);
}
END_TEST

/* Along random games of every game and variant for two players, the
 * contents' features stay in the table and within the lines found, read
 * the same position the same way, and a table's value is in [0, 1]. */
static void contents_stay_in_table(const struct game *g, const char *opts)
{
	char err[GAME_ERR_MAX];
	void *st = game_new_state(g, opts, 1, err);
	ck_assert_msg(st != NULL, "%s", err);
	if (g->players(st) != 2) {
		free(st);
		return;
	}
	struct pattern p;
	ck_assert_msg(pattern_init(&p, g, st, err) == 0, "%s %s: %s", g->name,
		      opts, err);
	ck_assert_int_le(p.lines, PAT_DIRS * p.cells);
	int16_t *w = malloc(PAT_SIZE * sizeof *w);
	uint32_t *idx = malloc(PAT_MAX_FEATURES * sizeof *idx),
		 *again = malloc(PAT_MAX_FEATURES * sizeof *again);
	struct move *list = malloc((size_t)g->max_moves * sizeof *list);
	for (int i = 0; i < PAT_SIZE; i++)
		w[i] = (int16_t)(i % 97 - 48);
	struct rng r;
	rng_seed(&r, 1);
	for (int ply = 0; ply < 400; ply++) {
		struct game_status s = g->status(st);
		if (s.phase == GAME_OVER)
			break;
		ck_assert_int_eq(pattern_refresh(&p, st, err), 0);
		double base = NAN, base2;
		int n = pattern_features(&p, st, idx, &base);
		ck_assert_int_eq(n, p.lines + 2);
		ck_assert(isfinite(base));
		for (int i = 0; i < n; i++)
			ck_assert_uint_lt(idx[i], PAT_SIZE);
		ck_assert_int_eq(pattern_features(&p, st, again, &base2), n);
		ck_assert(!memcmp(idx, again, (size_t)n * sizeof *idx));
		double v[GAME_MAX_PLAYERS];
		pattern_evaluate(&p, w, st, v);
		ck_assert(v[0] >= 0 && v[0] <= 1 && v[0] + v[1] == 1);
		if (s.phase == GAME_ROLL) {
			g->roll(st, game_chance_pick(g, st, &r));
			continue;
		}
		struct move mv;
		int k = g->moves(st, list);
		if (k > 0)
			mv = list[rng_below(&r, (uint32_t)k)];
		else
			ck_assert_int_eq(g->random_move(st, &r, &mv), 0);
		g->play(st, &mv);
	}
	pattern_free(&p);
	free(w);
	free(idx);
	free(again);
	free(list);
	free(st);
}

START_TEST(contents_features_stay_in_their_table)
{
	each_variant(contents_stay_in_table);
}
END_TEST

/* A game added to the table with no features and no evaluation of its
 * own (Connect Four) learns one from its contents: after 10 rounds of
 * 256 games, one move deep, the table wins clearly against its first
 * guess (which, knowing nothing, takes the first move it lists; 85.8%
 * of 4000 games by the training tool), and its first rounds make the
 * same table on 1 thread and on 2. */
START_TEST(a_game_without_features_learns_from_its_contents)
{
	const struct game *g = game_find("connect4");
	ck_assert_ptr_null(game_search(g)->learn);
	ck_assert_ptr_null(game_search(g)->evaluate);
	struct train_opts o = {.options = "",
			       .seed = 7,
			       .games = 256,
			       .alpha = 0.01,
			       .epsilon = 0.1,
			       .threads = 1};
	char err[GAME_ERR_MAX];
	struct trainer *t = train_new(g, &o, err), *two;
	ck_assert_msg(t != NULL, "%s", err);
	ck_assert_uint_eq(train_size(t), PAT_SIZE);
	uint64_t one = after_rounds(t, 2);
	after_rounds(t, 8);
	double full = train_match(t, NULL, 200, 1);
	ck_assert_msg(full > 0.7, "%g", full);
	train_free(t);
	o.threads = 2;
	two = train_new(g, &o, err);
	ck_assert_msg(two != NULL, "%s", err);
	ck_assert(after_rounds(two, 2) == one);
	train_free(two);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("learn");
	TCase *t = tcase_create("core");
	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, the_compiled_weights_are_whole, 0, NTABLES);
	tcase_add_loop_test(t, a_sample_of_the_training_is_made_again, 0,
			    NTABLES);
	tcase_add_test(t, a_checkpoint_goes_on_where_it_stopped);
	tcase_add_test(t, a_step_past_the_cap_is_refused);
	tcase_add_loop_test(t, the_table_beats_its_first_guess, 0, NTABLES);
	tcase_add_loop_test(t, a_table_meets_another, 0, NTABLES);
	tcase_add_loop_test(t, features_stay_in_their_table, 0, NTABLES);
	tcase_add_test(t, the_lines_follow_the_geometry);
	tcase_add_test(t, contents_features_stay_in_their_table);
	tcase_add_test(t, a_game_without_features_learns_from_its_contents);
	suite_add_tcase(s, t);
	return s;
}

TEST_MAIN()
