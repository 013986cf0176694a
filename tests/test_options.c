/* test_options.c: option_info tells a new-game dialog exactly what newgame
 * accepts (protocol.md, "Discovery"), for every game of the table.
 *
 * For each game and a set of options chosen so far (none, and each
 * on/off option on, each enum value, each int at its ends, where newgame
 * takes them), every domain option_info gives is checked against newgame
 * value by value: what it lists is accepted, what it leaves out is
 * refused; defaults are accepted; what an option requires and excludes
 * holds both ways; a string option's example matches its pattern and is
 * accepted.  Random walks through the dialog, choosing each option from
 * the domain option_info gives at that moment, always end in options
 * newgame accepts. */
#include <regex.h>

#include "test_util.h"

/* One line of option_info, read. */
struct opt_line {
	char key[32], type[8];
	char def[512], value[512];
	int has_def, has_value, has_range, has_values;
	long min, max;
	char values[512];
	char requires[512], excludes[512];
	char pattern[512], example[512];
};

#define MAX_LINES 32

static void read_line(const char *l, struct opt_line *o)
{
	memset(o, 0, sizeof *o);
	int n = 0;
	ck_assert_msg(sscanf(l, "%31s type %7s%n", o->key, o->type, &n) == 2,
		      "option_info: '%s'", l);
	for (const char *p = l + n; *p;) {
		char k[16], v[512];
		int m = 0;
		if (sscanf(p, " %15s%n", k, &m) != 1)
			break;
		p += m;
		if (!strcmp(k, "values")) {
			/* the rest of the line */
			snprintf(o->values, sizeof o->values, "%s",
				 p + strspn(p, " "));
			o->has_values = 1;
			break;
		}
		ck_assert_msg(sscanf(p, " %511s%n", v, &m) == 1,
			      "option_info: '%s'", l);
		p += m;
		if (!strcmp(k, "default"))
			snprintf(o->def, sizeof o->def, "%s", v),
				o->has_def = 1;
		else if (!strcmp(k, "value"))
			snprintf(o->value, sizeof o->value, "%s", v),
				o->has_value = 1;
		else if (!strcmp(k, "min"))
			o->min = atol(v), o->has_range = 1;
		else if (!strcmp(k, "max"))
			o->max = atol(v);
		else if (!strcmp(k, "requires"))
			snprintf(o->requires, sizeof o->requires, "%s", v);
		else if (!strcmp(k, "excludes"))
			snprintf(o->excludes, sizeof o->excludes, "%s", v);
		else if (!strcmp(k, "pattern"))
			snprintf(o->pattern, sizeof o->pattern, "%s", v);
		else if (!strcmp(k, "example"))
			snprintf(o->example, sizeof o->example, "%s", v);
		else
			ck_abort_msg("option_info: unknown key %s in '%s'", k,
				     l);
	}
}

/* option_info NAME chosen, read into v; returns how many lines. */
static int info(struct session *s, const char *name, const char *chosen,
		struct opt_line *v)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "option_info %s %s", name, chosen);
	char *text = strdup(ok(s, cmd)), *save = NULL;
	int n = 0;
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		ck_assert(n < MAX_LINES);
		read_line(l, &v[n++]);
	}
	free(text);
	return n;
}

/* chosen with key=value in place of any key= it has ("" value: key
 * left out), into buf. */
static void with(const char *chosen, const char *key, const char *value,
		 char *buf, size_t size)
{
	char copy[1024];
	snprintf(copy, sizeof copy, "%s", chosen);
	buf[0] = '\0';
	size_t klen = strlen(key);
	for (char *save = NULL, *w = strtok_r(copy, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		if (!strncmp(w, key, klen) && (w[klen] == '=' || !w[klen]))
			continue;
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
			 buf[0] ? " " : "", w);
	}
	if (value[0])
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s=%s",
			 buf[0] ? " " : "", key, value);
}

/* Whether newgame takes name with these options. */
static int takes(struct session *s, const char *name, const char *opts)
{
	char cmd[4096];
	fit(cmd, sizeof cmd, "newgame %s %s", name, opts);
	return send_line(s, cmd)[0] == '=';
}

static int takes_with(struct session *s, const char *name, const char *chosen,
		      const char *key, const char *value)
{
	char opts[1024];
	with(chosen, key, value, opts, sizeof opts);
	return takes(s, name, opts);
}

static const struct game_option_spec *spec_of(const struct game *g,
					      const char *key)
{
	for (const struct game_option_spec *o = g->options; o && o->key; o++)
		if (!strcmp(o->key, key))
			return o;
	return NULL;
}

/* The set-ups each game is looked at with: none, each on/off option on,
 * each enum value and each int at the ends of its range, where newgame
 * takes them; calls fn(s, g, chosen). */
typedef void chosen_fn(struct session *s, const struct game *g,
		       const char *chosen);

static void each_chosen(chosen_fn *fn)
{
	struct session *s = quiet_session();
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		fn(s, g, "");
		for (const struct game_option_spec *o = g->options; o && o->key;
		     o++) {
			char c[256];
			if (o->type == OPT_BOOL) {
				snprintf(c, sizeof c, "%s", o->key);
				if (takes(s, g->name, c))
					fn(s, g, c);
			} else if (o->type == OPT_INT) {
				for (int end = 0; end < 2; end++) {
					snprintf(c, sizeof c, "%s=%ld", o->key,
						 end ? o->max : o->min);
					if (takes(s, g->name, c))
						fn(s, g, c);
				}
			} else if (o->type == OPT_ENUM) {
				char vals[256];
				snprintf(vals, sizeof vals, "%s", o->values);
				for (char *sv = NULL,
					  *w = strtok_r(vals, " ", &sv);
				     w; w = strtok_r(NULL, " ", &sv)) {
					snprintf(c, sizeof c, "%s=%s", o->key,
						 w);
					if (takes(s, g->name, c))
						fn(s, g, c);
				}
			}
		}
	}
	session_free(s);
}

/* Whether word w is one of the space-separated words. */
static int listed(const char *words, const char *w)
{
	char copy[512];
	snprintf(copy, sizeof copy, "%s", words);
	for (char *sv = NULL, *x = strtok_r(copy, " ", &sv); x;
	     x = strtok_r(NULL, " ", &sv))
		if (!strcmp(x, w))
			return 1;
	return 0;
}

static void domains_exact(struct session *s, const struct game *g,
			  const char *chosen)
{
	struct opt_line v[MAX_LINES];
	int n = info(s, g->name, chosen, v);
	ck_assert_str_eq(v[0].key, "seed");
	for (int i = 1; i < n; i++) {
		const struct opt_line *o = &v[i];
		const struct game_option_spec *sp = spec_of(g, o->key);
		ck_assert_msg(sp != NULL, "option_info %s: %s is no option",
			      g->name, o->key);
		if (o->has_def)
			ck_assert_msg(
				takes_with(s, g->name, chosen, o->key, o->def),
				"%s [%s]: default %s=%s refused", g->name,
				chosen, o->key, o->def);
		if (o->has_range) {
			/* every value of the range in, the rest of the
			 * game's widest range out (its ends only, for a
			 * wide one) */
			long step = sp->max - sp->min > 64 ? 0 : 1;
			for (long x = sp->min; x <= sp->max;
			     x = step ? x + 1
				      : (x < o->min - 1   ? o->min - 1
					 : x < o->min     ? o->min
					 : x < o->max     ? o->max
					 : x < o->max + 1 ? o->max + 1
							  : sp->max + 1)) {
				char val[24];
				snprintf(val, sizeof val, "%ld", x);
				int in = x >= o->min && x <= o->max;
				ck_assert_msg(takes_with(s, g->name, chosen,
							 o->key, val) == in,
					      "%s [%s]: %s=%s %s, but "
					      "option_info says min %ld max "
					      "%ld",
					      g->name, chosen, o->key, val,
					      in ? "refused" : "taken", o->min,
					      o->max);
			}
		}
		if (o->has_values) {
			const char *all = !strcmp(o->type, "bool") ? "0 1"
					  : sp->values             ? sp->values
								   : o->values;
			char copy[512];
			snprintf(copy, sizeof copy, "%s", all);
			for (char *sv = NULL, *w = strtok_r(copy, " ", &sv); w;
			     w = strtok_r(NULL, " ", &sv)) {
				int in = listed(o->values, w);
				ck_assert_msg(takes_with(s, g->name, chosen,
							 o->key, w) == in,
					      "%s [%s]: %s=%s %s, but "
					      "option_info says values %s",
					      g->name, chosen, o->key, w,
					      in ? "refused" : "taken",
					      o->values);
			}
		}
		ck_assert_msg(!strcmp(o->type, "string") || o->has_range ||
				      o->has_values,
			      "%s [%s]: %s has no domain", g->name, chosen,
			      o->key);
	}
}

START_TEST(domains_are_what_newgame_takes)
{
	each_chosen(domains_exact);
}
END_TEST

/* The value that sets option o away from its default, for a relation's
 * test: on, another enum value or int, the example. */
static void away_value(struct session *s, const struct game *g,
		       const struct game_option_spec *o, char *buf, size_t size)
{
	(void)s, (void)g;
	if (o->type == OPT_BOOL)
		snprintf(buf, size, "1");
	else if (o->type == OPT_STRING)
		snprintf(buf, size, "%s", o->example ? o->example : "");
	else if (o->type == OPT_INT)
		snprintf(buf, size, "%ld",
			 o->def && atol(o->def) == o->max ? o->min : o->max);
	else /* the enum's last value */
		snprintf(buf, size, "%s", strrchr(o->values, ' ') + 1);
}

/* key=value (or bare key: given) words, comma-separated, as newgame
 * options that meet them, into buf. */
static void meet(const struct game *g, const char *rel, char *buf, size_t size)
{
	char copy[128];
	snprintf(copy, sizeof copy, "%s", rel);
	buf[0] = '\0';
	for (char *sv = NULL, *w = strtok_r(copy, ",", &sv); w;
	     w = strtok_r(NULL, ",", &sv)) {
		const char *eq = strchr(w, '=');
		if (eq) {
			snprintf(buf + strlen(buf), size - strlen(buf), " %s",
				 w);
		} else {
			const struct game_option_spec *o = spec_of(g, w);
			ck_assert_msg(o && o->example, "%s: requires %s",
				      g->name, w);
			snprintf(buf + strlen(buf), size - strlen(buf),
				 " %s=%s", w, o->example);
		}
	}
}

START_TEST(requires_and_excludes_hold)
{
	struct session *s = quiet_session();
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		for (const struct game_option_spec *o = g->options; o && o->key;
		     o++) {
			char away[512], need[1024] = "", opts[2048];
			away_value(s, g, o, away, sizeof away);
			if (o->requires)
				meet(g, o->requires, need, sizeof need);
			/* with what it requires: taken */
			snprintf(opts, sizeof opts, "%s=%s%s", o->key, away,
				 need);
			ck_assert_msg(takes(s, g->name, opts), "%s %s refused",
				      g->name, opts);
			/* without each thing it requires: refused */
			char copy[128];
			snprintf(copy, sizeof copy, "%s",
				 o->requires ? o->requires : "");
			for (char *sv = NULL, *w = strtok_r(copy, ",", &sv); w;
			     w = strtok_r(NULL, ",", &sv)) {
				char key[32], rest[1024] = "";
				snprintf(key, sizeof key, "%.*s",
					 (int)strcspn(w, "="), w);
				with(need + 1, key, "", rest, sizeof rest);
				const struct game_option_spec *k =
					spec_of(g, key);
				ck_assert(k != NULL);
				/* another value of key than the one needed */
				char other[512] = "";
				if (strchr(w, '=') && k->type == OPT_INT)
					snprintf(other, sizeof other, " %s=%ld",
						 key,
						 atol(strchr(w, '=') + 1) ==
								 k->min
							 ? k->max
							 : k->min);
				else if (strchr(w, '=') && k->type == OPT_BOOL)
					snprintf(other, sizeof other, " %s=%d",
						 key,
						 !atoi(strchr(w, '=') + 1));
				snprintf(opts, sizeof opts, "%s=%s %s%s",
					 o->key, away, rest, other);
				ck_assert_msg(!takes(s, g->name, opts),
					      "%s %s taken, but %s requires "
					      "%s",
					      g->name, opts, o->key, w);
			}
			/* with each thing it excludes: refused */
			snprintf(copy, sizeof copy, "%s",
				 o->excludes ? o->excludes : "");
			for (char *sv = NULL, *w = strtok_r(copy, ",", &sv); w;
			     w = strtok_r(NULL, ",", &sv)) {
				const struct game_option_spec *k =
					spec_of(g, w);
				ck_assert(k != NULL);
				char kv[512];
				away_value(s, g, k, kv, sizeof kv);
				fit(opts, sizeof opts, "%s=%s %s=%s%s", o->key,
				    away, w, kv, need);
				ck_assert_msg(!takes(s, g->name, opts),
					      "%s %s taken, but %s excludes "
					      "%s",
					      g->name, opts, o->key, w);
			}
		}
	}
	session_free(s);
}
END_TEST

START_TEST(string_examples_match_their_patterns)
{
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		for (const struct game_option_spec *o = g->options; o && o->key;
		     o++) {
			if (o->type != OPT_STRING)
				continue;
			ck_assert_msg(o->pattern && o->example,
				      "%s %s: a string option needs a pattern "
				      "and an example",
				      g->name, o->key);
			char re[256];
			snprintf(re, sizeof re, "^(%s)$", o->pattern);
			regex_t rx;
			ck_assert_int_eq(regcomp(&rx, re, REG_EXTENDED), 0);
			ck_assert_msg(!regexec(&rx, o->example, 0, NULL, 0),
				      "%s %s: example %s does not match %s",
				      g->name, o->key, o->example, o->pattern);
			regfree(&rx);
		}
	}
}
END_TEST

/* A person at the dialog: options in a random order, each given a value
 * from the domain option_info gives at that moment (a string its example
 * with what it requires, now and then), and newgame takes the result. */
START_TEST(a_dialog_built_from_domains_is_taken)
{
	struct session *s = quiet_session();
	struct rng r;
	rng_seed(&r, 7);
	for (int i = 0; game_table[i]; i++) {
		const struct game *g = game_table[i];
		for (int walk = 0; walk < 30; walk++) {
			char chosen[1024] = "";
			struct opt_line v[MAX_LINES];
			int n = info(s, g->name, chosen, v);
			for (int k = 0; k < 2 * n; k++) {
				n = info(s, g->name, chosen, v);
				struct opt_line *o =
					&v[1 + (int)rng_below(
						       &r, (uint32_t)(n - 1))];
				char val[512] = "", next[1024];
				if (o->has_values) {
					char copy[512], *w[64];
					int m = 0;
					snprintf(copy, sizeof copy, "%s",
						 o->values);
					for (char *sv = NULL,
						  *x = strtok_r(copy, " ", &sv);
					     x && m < 64;
					     x = strtok_r(NULL, " ", &sv))
						w[m++] = x;
					if (m)
						snprintf(val, sizeof val, "%s",
							 w[rng_below(
								 &r,
								 (uint32_t)m)]);
				} else if (o->has_range) {
					long span = o->max - o->min + 1;
					if (span > 1000)
						span = 1000;
					snprintf(val, sizeof val, "%ld",
						 o->min +
							 (long)rng_below(
								 &r,
								 (uint32_t)
									 span));
				} else if (rng_below(&r, 4) == 0) {
					const struct game_option_spec *sp =
						spec_of(g, o->key);
					if (sp->requires)
						continue; /* all or nothing */
					snprintf(val, sizeof val, "%s",
						 o->example);
				}
				if (!val[0])
					continue;
				with(chosen, o->key, val, next, sizeof next);
				ck_assert_msg(takes(s, g->name, next),
					      "%s: option_info offered %s=%s "
					      "with [%s], newgame refuses it",
					      g->name, o->key, val, chosen);
				snprintf(chosen, sizeof chosen, "%s", next);
			}
		}
	}
	session_free(s);
}
END_TEST

/* option_info refuses what newgame refuses, with its reason, and leaves
 * the game in progress as it was. */
START_TEST(option_info_refuses_and_keeps_the_game)
{
	struct session *s = quiet_session();
	ok(s, "newgame tiptoe size=5 seed=1");
	ok(s, "play c3");
	char before[4096];
	KEEP(before, ok(s, "position"));
	ck_assert_str_eq(bad(s, "option_info nosuchgame"),
			 "unknown game nosuchgame (list_games lists them)\n\n");
	for (int i = 0; game_table[i]; i++) {
		char cmd[256], why[512];
		snprintf(cmd, sizeof cmd, "newgame %s nosuchoption=1",
			 game_table[i]->name);
		KEEP(why, bad(s, cmd));
		snprintf(cmd, sizeof cmd, "option_info %s nosuchoption=1",
			 game_table[i]->name);
		ck_assert_str_eq(bad(s, cmd), why);
		snprintf(cmd, sizeof cmd, "option_info %s seed=x",
			 game_table[i]->name);
		bad(s, cmd);
	}
	bad(s, "option_info");
	ck_assert_str_eq(ok(s, "position"), before);
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("options");
	TCase *t = tcase_create("options");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, domains_are_what_newgame_takes);
	tcase_add_test(t, requires_and_excludes_hold);
	tcase_add_test(t, string_examples_match_their_patterns);
	tcase_add_test(t, a_dialog_built_from_domains_is_taken);
	tcase_add_test(t, option_info_refuses_and_keeps_the_game);
	suite_add_tcase(s, t);
	return s;
}

TEST_MAIN()
