/* test_takeitaway.c: Take It Away on hand-built boards (board=): jumps in
 * every direction, chains, edges, values and the penalty, dropping out,
 * the open game, bad move texts, options, and the cap on listed chains. */
#include "test_util.h"

#define G (game_find("takeitaway"))

/* A board= string from pieces written "a1w b2r c3b ..." (everything else
 * empty).  Valid until the next call. */
static const char *board(const char *pieces)
{
	static char b[65];
	memset(b, '.', 64);
	b[64] = '\0';
	for (const char *p = pieces; *p; p += 3) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		int x = p[0] - 'a', y = p[1] - '1';
		b[(7 - y) * 8 + x] = p[2];
	}
	return b;
}

/* Starts a game on a hand-built board with extra options. */
static void newgame(struct session *s, const char *pieces, const char *opts)
{
	char line[256];
	snprintf(line, sizeof line, "newgame takeitaway board=%s %s",
		 board(pieces), opts);
	ok(s, line);
}

/* Is word w one of the space-separated words of list? */
static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

START_TEST(test_single_jump_each_direction)
{
	/* d4 with one neighbour; the neighbour's own jump back over d4 is the
	 * only other move */
	static const struct {
		const char *over, *to, *back;
	} dir[8] = {
		{"e4", "f4", "e4-c4"}, {"e5", "f6", "e5-c3"},
		{"d5", "d6", "d5-d3"}, {"c5", "b6", "c5-e3"},
		{"c4", "b4", "c4-e4"}, {"c3", "b2", "c3-e5"},
		{"d3", "d2", "d3-d5"}, {"e3", "f2", "e3-c5"},
	};
	struct session *s = quiet_session();
	for (int i = 0; i < 8; i++) {
		char pieces[32], jump[16], line[32];
		snprintf(pieces, sizeof pieces, "d4w %sb", dir[i].over);
		newgame(s, pieces, "");
		snprintf(jump, sizeof jump, "d4-%s", dir[i].to);
		const char *m = ok(s, "moves");
		ck_assert_msg(has_word(m, jump), "%s missing from %s", jump, m);
		ck_assert_msg(has_word(m, dir[i].back), "%s missing from %s",
			      dir[i].back, m);
		ck_assert_int_eq((int)strlen(m),
				 (int)(strlen(jump) + strlen(dir[i].back) + 6));
		snprintf(line, sizeof line, "play %s", jump);
		ok(s, line);
		/* the blue piece is captured, worth 3; one piece left: over */
		ck_assert_str_eq(ok(s, "score"), "3 0");
		ck_assert_str_eq(ok(s, "status"), "over 1");
		ck_assert_str_eq(ok(s, "moves"), "");
	}
	session_free(s);
}
END_TEST

START_TEST(test_chain_must_go_on)
{
	struct session *s = quiet_session();
	newgame(s, "a1w b2w d4r", "");
	ck_assert_str_eq(ok(s, "moves"), "drop a1-c3-e5");
	const char *e = bad(s, "play a1-c3");
	ck_assert_msg(strstr(e, "illegal move") &&
			      strstr(e, "c3 can still jump"),
		      "%s", e);
	ok(s, "play a1-c3-e5");
	ck_assert_str_eq(ok(s, "score"), "3 0");
	ck_assert_str_eq(ok(s, "status"), "over 1");
	session_free(s);
}
END_TEST

START_TEST(test_chains_branch)
{
	struct session *s = quiet_session();
	/* after a1-c3 the piece can take d4 (to e5, where it stops) or c4 (to
	 * c5, from where d4 is still in reach) */
	newgame(s, "a1w b2w c4w d4b", "");
	const char *m = ok(s, "moves");
	ck_assert_str_eq(m, "drop a1-c3-e5 a1-c3-c5-e3 c4-e4 d4-b4");
	ok(s, "play a1-c3-e5");
	ck_assert_str_eq(ok(s, "score"), "4 0");
	ck_assert_str_eq(ok(s, "status"), "over 1");
	newgame(s, "a1w b2w c4w d4b", "");
	ok(s, "play a1-c3-c5-e3");
	ck_assert_str_eq(ok(s, "score"), "5 0");
	session_free(s);
}
END_TEST

START_TEST(test_chain_may_revisit)
{
	struct session *s = quiet_session();
	/* a loop through the start square: a1-c1-c3-a1 takes b1, c2 and b2,
	 * then from a1 it goes on over a2 to a3 */
	newgame(s, "a1w b1w c2w b2r a2b", "");
	const char *m = ok(s, "moves");
	ck_assert_msg(has_word(m, "a1-c1-c3-a1-a3"), "%s", m);
	ok(s, "play a1-c1-c3-a1-a3");
	ck_assert_str_eq(ok(s, "score"), "7 0");
	session_free(s);
}
END_TEST

START_TEST(test_no_jump_off_board)
{
	struct session *s = quiet_session();
	/* b1 over a1 and g7 over h8 would leave the board */
	newgame(s, "a1w b1w h8w g7w", "nodrop");
	ck_assert_str_eq(ok(s, "moves"), "a1-c1 h8-f6");
	ck_assert(strstr(bad(s, "play b1-z1"), "illegal move"));
	session_free(s);
}
END_TEST

START_TEST(test_no_jump_over_empty)
{
	struct session *s = quiet_session();
	/* a1 has only empty neighbours; c1 and d1 can jump each other */
	newgame(s, "a1w c1w d1w", "nodrop");
	ck_assert_str_eq(ok(s, "moves"), "c1-e1 d1-b1");
	const char *e = bad(s, "play a1-c3");
	ck_assert_msg(strstr(e, "empty square"), "%s", e);
	/* pieces two apart with nothing between never jump */
	newgame(s, "a1w c3w e5w", "");
	ck_assert_str_eq(ok(s, "moves"), "");
	ck_assert_str_eq(ok(s, "status"), "over draw");
	session_free(s);
}
END_TEST

/* a1-c1 takes the blue b1; then player 2 drops and player 1, alone, takes
 * e6 with e5-e7, which leaves c1 (1), e7 (2), h1 (2) and h8 (3): 8. */
static void penalty_game(struct session *s, const char *opts)
{
	newgame(s, "a1w b1b e5r e6w h1r h8b", opts);
	ok(s, "play a1-c1");
	ck_assert_str_eq(ok(s, "score"), "3 0");
	ok(s, "play drop");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	/* no penalty before the end */
	ck_assert_str_eq(ok(s, "score"), "3 0");
	ck_assert_str_eq(ok(s, "moves"), "e5-e7 e6-e4");
	ok(s, "play e5-e7");
}

START_TEST(test_values_and_penalty)
{
	struct session *s = quiet_session();
	/* blue 3, red 2, white 1 */
	newgame(s, "a1w b1b d1r f1w", "players=3");
	ok(s, "play a1-c1-e1-g1");
	ck_assert_str_eq(ok(s, "score"), "6 0 0");

	penalty_game(s, "");
	ck_assert_str_eq(ok(s, "status"), "over 2");
	ck_assert_str_eq(ok(s, "score"), "-12 0"); /* 4 - 2 * 8 */
	penalty_game(s, "penalty=4");
	ck_assert_str_eq(ok(s, "score"), "-28 0"); /* 4 - 4 * 8 */
	ck_assert_str_eq(ok(s, "status"), "over 2");
	/* the showboard says who dropped */
	ck_assert(strstr(ok(s, "showboard"),
			 "player 2: captured 0W 0R 0B, score 0 (dropped)"));

	/* the game ending with both players in: the board counts against
	 * nobody */
	newgame(s, "a1w b1b e5r e6w h1r h8b", "");
	ok(s, "play a1-c1");
	ok(s, "play e5-e7");
	ck_assert_str_eq(ok(s, "status"), "over 1");
	ck_assert_str_eq(ok(s, "score"), "3 1");
	session_free(s);
}
END_TEST

START_TEST(test_plain_values)
{
	struct session *s = quiet_session();
	/* every piece is worth 1, whatever its letter; no dropping */
	newgame(s, "a1w b1b d1r f1w", "plain");
	ck_assert_str_eq(ok(s, "moves"), "a1-c1-e1-g1");
	ok(s, "play a1-c1-e1-g1");
	ck_assert_str_eq(ok(s, "score"), "3 0");
	/* the default plain board: 63 pieces, a8 empty, jumps at once */
	ok(s, "newgame takeitaway plain");
	ck_assert_str_eq(ok(s, "moves"), "a6-a8 c6-a8 c8-a8");
	ck_assert(strstr(bad(s, "play drop"), "off"));
	session_free(s);
}
END_TEST

/* The plain game's drop-out variation: the pieces left count against the
 * last player at their plain value, times the penalty. */
START_TEST(test_plain_dropout)
{
	static const struct {
		const char *opts, *score;
	} cases[] = {
		/* a1-c1 takes b1, player 2 drops, e5-e7 takes e6: 2 points,
		 * and c1, e7, h1, h8 stay: 4 pieces */
		{"plain nodrop=0", "-2 0"},           /* 2 - 4 */
		{"plain nodrop=0 penalty=2", "-6 0"}, /* 2 - 2 * 4 */
		{"plain nodrop=0 penalty=4", "-14 0"} /* 2 - 4 * 4 */
	};
	struct session *s = quiet_session();
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		newgame(s, "a1w b1b e5r e6w h1r h8b", cases[i].opts);
		ck_assert_str_eq(ok(s, "moves"), "drop a1-c1 e5-e7 e6-e4");
		ok(s, "play a1-c1");
		ok(s, "play drop");
		/* the penalty counts only at the end */
		ck_assert_str_eq(ok(s, "score"), "1 0");
		ck_assert_str_eq(ok(s, "moves"), "e5-e7 e6-e4");
		ck_assert(strstr(bad(s, "play drop"), "last player"));
		ok(s, "play e5-e7");
		ck_assert_str_eq(ok(s, "status"), "over 2");
		ck_assert_str_eq(ok(s, "score"), cases[i].score);
	}
	/* both still in at the end: nobody pays */
	newgame(s, "a1w b1b e5r e6w h1r h8b", "plain nodrop=0");
	ok(s, "play a1-c1");
	ok(s, "play e5-e7");
	ck_assert_str_eq(ok(s, "score"), "1 1");
	ck_assert_str_eq(ok(s, "status"), "over draw");
	/* the default plain board, with dropping out */
	ok(s, "newgame takeitaway plain nodrop=0");
	ck_assert_str_eq(ok(s, "moves"), "drop a6-a8 c6-a8 c8-a8");
	ok(s, "play drop");
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ck_assert(strstr(ok(s, "showboard"), "on the board 63; penalty 1x\n"
					     "player 1: captured 0, score 0 "
					     "(dropped)"));
	session_free(s);
}
END_TEST

/* Plays the first listed move that is not drop. */
static void play_any(struct session *s)
{
	char line[1100] = "play ";
	const char *m = ok(s, "moves");
	if (strncmp(m, "drop ", 5) == 0)
		m += 5;
	size_t n = strcspn(m, " ");
	ck_assert(n > 0 && n < 1000);
	memcpy(line + 5, m, n);
	line[5 + n] = '\0';
	ok(s, line);
}

START_TEST(test_turn_order_after_drop)
{
	struct session *s = quiet_session();
	/* many separate pairs: plenty of moves */
	static const char *pairs = "a1w b1w a3w b3w a5w b5w a7w b7w e1w f1w "
				   "e3w f3w e5w f5w e7w f7w";
	newgame(s, pairs, "players=3");
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ok(s, "play drop");
	ck_assert_str_eq(ok(s, "status"), "play 3");
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "play 1");
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "play 3"); /* 2 is skipped */
	ok(s, "play drop");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	/* player 1 is alone: no drop, and it plays on */
	ck_assert(!has_word(ok(s, "moves"), "drop"));
	const char *e = bad(s, "play drop");
	ck_assert_msg(strstr(e, "last player"), "%s", e);
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "play 1");

	newgame(s, pairs, "players=4");
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "play 2");
	play_any(s);
	ok(s, "play drop");
	ck_assert_str_eq(ok(s, "status"), "play 4");
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "play 1");
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ok(s, "play drop");
	ck_assert_str_eq(ok(s, "status"), "play 4");
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "play 1");
	ck_assert(strstr(ok(s, "showboard"),
			 "player 3: captured 0W 0R 0B, score 0 (dropped)"));
	session_free(s);
}
END_TEST

START_TEST(test_first_removal)
{
	struct session *s = quiet_session();
	ok(s, "newgame takeitaway seed=7 players=4");
	/* only white pieces may go, and only by name */
	const char *m = ok(s, "moves");
	ck_assert(strncmp(m, "drop ", 5) == 0 && !strchr(m, '-'));
	int n = 0;
	for (const char *p = m; *p; p++)
		n += *p == ' ';
	ck_assert_int_eq(n, 34); /* drop and 34 white pieces */
	/* player 1 drops at once: player 2 removes */
	ok(s, "play drop");
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ck_assert(!strchr(ok(s, "moves"), '-'));
	play_any(s);
	ck_assert_str_eq(ok(s, "score"), "0 1 0 0");
	ck_assert(strchr(ok(s, "moves"), '-'));
	ck_assert_str_eq(ok(s, "status"), "play 3");
	session_free(s);
}
END_TEST

START_TEST(test_open_removals)
{
	struct session *s = quiet_session();
	ok(s, "newgame takeitaway seed=3 open players=3");
	for (int i = 0; i < 8; i++) {
		const char *m = ok(s, "moves");
		ck_assert_msg(!strchr(m, '-'), "removal %d: %s", i + 1, m);
		if (i == 2) {
			/* a drop is not one of the 8: the next player removes
			 */
			ok(s, "play drop");
			ck_assert_str_eq(ok(s, "status"), "play 1");
			ck_assert(!strchr(ok(s, "moves"), '-'));
		}
		play_any(s);
	}
	/* 8 white pieces gone: players 1 and 2 took them in turn */
	ck_assert_str_eq(ok(s, "score"), "4 4 0");
	const char *m = ok(s, "moves");
	ck_assert_msg(strchr(m, '-'), "%s", m);
	/* a removal is no longer a move */
	const char *e = bad(s, "play a1");
	ck_assert_msg(strstr(e, "illegal move"), "%s", e);
	/* open needs a full board */
	ck_assert(strstr(bad(s, "newgame takeitaway open plain"), "plain"));
	char line[128];
	snprintf(line, sizeof line, "newgame takeitaway open board=%s",
		 board("a1w b1w"));
	ck_assert(strstr(bad(s, line), "full board"));
	session_free(s);
}
END_TEST

START_TEST(test_bad_move_texts)
{
	struct session *s = quiet_session();
	newgame(s, "a1w b2w d4r c3. c4w", "");
	static const char *bad_moves[] = {
		"c3-c3",
		"c3-",
		"z9",
		"a1-c3",
		"a1",
		"a1-",
		"-a1",
		"a1-c3-e5x",
		"a1--c3",
		"a1-b2",
		"a1-a9",
		"b2-d4",
		"a1-e5",
		"dro",
		"a1-c3-e5-g7",
		"b2",
		"i1-c3",
		"a1-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-"
		"c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-"
		"c3-e5-"
		"c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5-c3-e5",
	};
	const char *before = strdup(ok(s, "showboard"));
	for (size_t i = 0; i < sizeof bad_moves / sizeof *bad_moves; i++) {
		char line[1100];
		snprintf(line, sizeof line, "play %s", bad_moves[i]);
		const char *e = bad(s, line);
		ck_assert_msg(strncmp(e, "illegal move", 12) == 0, "%s: %s",
			      bad_moves[i], e);
	}
	ck_assert_str_eq(ok(s, "showboard"), before);
	free((void *)before);
	/* bad bytes are never echoed raw */
	ck_assert(!strchr(bad(s, "play a1-\xff\xfe"), '\xff'));
	ck_assert(!strchr(bad(s, "play a1-c3\xff"), '\xff'));
	/* the texts of the issue, through the game directly: a clean reason */
	char opts[80];
	snprintf(opts, sizeof opts, "board=%s", board("c3w d4r"));
	void *st = new_state(G, opts, 0);
	struct move mv;
	char err[GAME_ERR_MAX];
	static const char *texts[] = {"c3-c3", "c3-", "z9", "", "c3", "c3-e5-"};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		err[0] = '\0';
		ck_assert_int_eq(G->parse(st, texts[i], &mv, err), -1);
		ck_assert_msg(err[0], "no reason for %s", texts[i]);
	}
	free(st);
	session_free(s);
}
END_TEST

START_TEST(test_options)
{
	struct session *s = quiet_session();
	char line[256];
	/* boards built here: 64 characters exactly unless said otherwise */
	char x64[80], w35[80], b11[80], full[80], plain_ok[80];
	snprintf(x64, sizeof x64, "board=%.63sx", board("a1w"));
	memset(w35, 0, sizeof w35), memcpy(w35, "board=", 6),
		memset(w35 + 6, '.', 64);
	memcpy(b11, w35, sizeof b11), memcpy(full, w35, sizeof full);
	memset(w35 + 6, 'w', 35), memset(b11 + 6, 'b', 11);
	snprintf(full, sizeof full, "plain board=%.64s", board(""));
	memset(full + 12, 'w', 64);
	snprintf(plain_ok, sizeof plain_ok, "plain board=%.64s", board("h1b"));
	memset(plain_ok + 12, 'r', 62);
	const struct {
		const char *opts, *why;
	} refused[] = {
		{"players=5", "players"},
		{"players=1", "players"},
		{"penalty=3", "penalty"},
		{"plain open", "open"},
		{"plain players=3", "2 players"},
		{"board=www", "64"},
		{x64, "only"},
		{w35, "35 white"},
		{b11, "11 blue"},
		{full, "empty"}, /* plain needs an empty square */
		{"penalty=1", "plain"},
		{"plain penalty=3", "1, 2 or 4"},
		{"penalty=5", "2 or 4"},
		/* a penalty with nobody able to drop would do nothing */
		{"nodrop penalty=4", "leave out nodrop"},
		{"plain penalty=4", "nodrop=0"},
		{"plain nodrop penalty=2", "nodrop=0"},
	};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		snprintf(line, sizeof line, "newgame takeitaway %s",
			 refused[i].opts);
		const char *e = bad(s, line);
		ck_assert_msg(strstr(e, refused[i].why), "%s: %s",
			      refused[i].opts, e);
	}
	/* accepted */
	ok(s, "newgame takeitaway players=4 nodrop penalty=2");
	ck_assert(!has_word(ok(s, "moves"), "drop"));
	ok(s, "newgame takeitaway plain nodrop=0 penalty=4");
	ck_assert(has_word(ok(s, "moves"), "drop"));
	ok(s, "newgame takeitaway plain players=2 nodrop");
	snprintf(line, sizeof line, "newgame takeitaway %s", plain_ok);
	ok(s, line);
	ck_assert(has_word(ok(s, "moves"), "e1-g1"));
	session_free(s);
}
END_TEST

/* history rebuilds the same game: same board, same options, same score */
START_TEST(test_history_rebuilds)
{
	static const char *games[] = {
		"newgame takeitaway seed=11 players=3",
		"newgame takeitaway seed=12 open penalty=4",
		"newgame takeitaway plain",
	};
	for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
		struct session *s = quiet_session();
		ok(s, "set seed 5");
		ok(s, "set level 0");
		ok(s, games[g]);
		for (int i = 0;
		     i < 12 && strncmp(ok(s, "status"), "play", 4) == 0; i++)
			ok(s, "genmove");
		char *hist = strdup(ok(s, "history"));
		char *board1 = strdup(ok(s, "showboard"));
		struct session *t = quiet_session();
		for (char *line = strtok(hist, "\n"); line;
		     line = strtok(NULL, "\n"))
			ok(t, line);
		ck_assert_str_eq(ok(t, "showboard"), board1);
		free(hist);
		free(board1);
		session_free(s);
		session_free(t);
	}
}
END_TEST

/* Is mv one of the moves moves() lists in st? */
static int listed(const void *st, const struct move *mv)
{
	struct move *list = malloc(sizeof *list * (size_t)G->max_moves);
	int n = G->moves(st, list), found = 0;
	for (int i = 0; i < n && !found; i++)
		found = move_equal(&list[i], mv);
	free(list);
	return found;
}

/* Random games through struct game: every listed move formats, parses back
 * to the same bits, and undo by copy gives the same bytes. */
START_TEST(test_moves_round_trip)
{
	struct move *list = malloc(sizeof *list * (size_t)G->max_moves);
	struct rng r;
	rng_seed(&r, 99);
	for (int game = 0; game < 30; game++) {
		void *st = new_state(G, game % 3 == 2 ? "players=3 open" : "",
				     (uint64_t)game);
		for (;;) {
			struct game_status gs = G->status(st);
			int n = G->moves(st, list);
			if (gs.phase == GAME_OVER) {
				ck_assert_int_eq(n, 0);
				break;
			}
			ck_assert(n > 0 && n < G->max_moves);
			for (int i = 0; i < n; i++) {
				char buf[MOVE_TEXT_MAX], err[GAME_ERR_MAX];
				struct move mv;
				G->format(st, &list[i], buf);
				ck_assert_msg(G->parse(st, buf, &mv, err) == 0,
					      "%s: %s", buf, err);
				ck_assert_msg(move_equal(&mv, &list[i]), "%s",
					      buf);
			}
			struct move mv;
			ck_assert_int_eq(G->random_move(st, &r, &mv), 0);
			ck_assert(listed(st, &mv));
			/* mostly random chains; a drop now and then */
			if (rng_below(&r, 20) == 0)
				mv = list[0];
			G->play(st, &mv);
		}
		free(st);
	}
	free(list);
}
END_TEST

START_TEST(test_moves_capped)
{
	/* the piece on a1 alone can land on the 15 empty squares of its parity
	 * class, and the 48 pieces between them allow more chains than any
	 * list holds: moves() stops at max_moves, and every listed chain is
	 * legal and distinct from its neighbour */
	char b[65];
	for (int i = 0; i < 64; i++) {
		int x = i % 8, y = 7 - i / 8;
		b[i] = (x % 2 == 0 && y % 2 == 0 && (x || y)) ? '.' : 'w';
	}
	b[64] = '\0';
	char opts[128];
	snprintf(opts, sizeof opts, "plain board=%s", b);
	void *st = new_state(G, opts, 0);
	struct move *list = malloc(sizeof *list * (size_t)G->max_moves);
	int n = G->moves(st, list);
	ck_assert_int_eq(n, G->max_moves);
	/* the list says it was cut: the game knows, and `moves` ends so */
	ck_assert(G->moves_cut(st));
	struct session *s = quiet_session();
	char cmd[160];
	snprintf(cmd, sizeof cmd, "newgame takeitaway %s", opts);
	ok(s, cmd);
	const char *all = send_line(s, "moves"); /* "= ... ...\n\n" */
	ck_assert(strlen(all) > 6 &&
		  !strcmp(all + strlen(all) - 6, " ...\n\n"));
	ok(s, "newgame takeitaway seed=3");
	ok(s, "play a1");
	ck_assert(!strstr(ok(s, "moves"), "..."));
	session_free(s);
	for (int i = 0; i < n; i += n / 64) {
		char buf[MOVE_TEXT_MAX], err[GAME_ERR_MAX];
		struct move mv;
		G->format(st, &list[i], buf);
		ck_assert_msg(G->parse(st, buf, &mv, err) == 0, "%s: %s", buf,
			      err);
		ck_assert(move_equal(&mv, &list[i]));
		if (i)
			ck_assert(!move_equal(&list[i - 1], &list[i]));
	}
	/* a random chain is a legal one too */
	struct rng r;
	rng_seed(&r, 1);
	struct move mv;
	ck_assert_int_eq(G->random_move(st, &r, &mv), 0);
	char buf[MOVE_TEXT_MAX], err[GAME_ERR_MAX];
	G->format(st, &mv, buf);
	ck_assert_msg(G->parse(st, buf, &mv, err) == 0, "%s: %s", buf, err);
	free(list);
	free(st);
}
END_TEST

/* playout() is the loop of random_move and play, only faster: from the
 * same state with the same generator it plays the same game (same bytes,
 * same draws), also when cut short by max_plies. */
START_TEST(test_playout_is_random_moves)
{
	static const char *const opts[] = {"", "players=3 open", "plain",
					   "players=4"};
	for (int v = 0; v < 4; v++)
		for (int game = 0; game < 40; game++) {
			void *a = new_state(G, opts[v], (uint64_t)game);
			void *b = new_state(G, opts[v], (uint64_t)game);
			struct rng ra, rb;
			rng_seed(&ra, (uint64_t)game);
			rng_seed(&rb, (uint64_t)game);
			int max = game % 4 ? 1000 : game % 30, plies = 0;
			struct move mv;
			while (plies < max &&
			       G->random_move(a, &ra, &mv) == 0) {
				G->play(a, &mv);
				plies++;
			}
			ck_assert_int_eq(game_search(G)->playout(b, &rb, max),
					 plies);
			ck_assert(!memcmp(a, b, G->state_size));
			ck_assert(rng_next(&ra) == rng_next(&rb));
			if (max == 1000)
				ck_assert_int_eq(G->status(b).phase, GAME_OVER);
			free(a);
			free(b);
		}
}
END_TEST

/* key() leaves out only the colours of the captures: equal points, board,
 * mover and players in give equal keys; a change in any of them another
 * key. */
START_TEST(test_key)
{
	static const char *const same[] = {
		"captured=1:1:0,0:0:1 turn=2", /* 3 and 3 points */
		"captured=0:0:1,3:0:0 turn=2",
	};
	static const char *const other[] = {
		"captured=1:1:0,0:0:1 turn=1",
		"captured=1:1:0,0:0:2 turn=2",
		"captured=0:0:1,0:0:1 turn=2 dropped=1",
		"captured=1:1:0,0:0:1 turn=2 penalty=4",
		"captured=1:1:0,0:0:1,0:0:0 turn=2 players=3",
	};
	char opts[256];
	const char *pieces = board("a1w b1r c2b e5w e6w");
	uint64_t k[2];
	for (int i = 0; i < 2; i++) {
		snprintf(opts, sizeof opts, "board=%s %s", pieces, same[i]);
		void *st = new_state(G, opts, 0);
		k[i] = G->key(st);
		free(st);
	}
	ck_assert(k[0] == k[1]);
	for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
		snprintf(opts, sizeof opts, "board=%s %s", pieces, other[i]);
		void *st = new_state(G, opts, 0);
		ck_assert_msg(G->key(st) != k[0], "%s", other[i]);
		free(st);
	}
	/* another board: a piece moved */
	snprintf(opts, sizeof opts, "board=%s %s", board("a1w b1r c2b e5w e7w"),
		 same[0]);
	void *st = new_state(G, opts, 0);
	ck_assert(G->key(st) != k[0]);
	free(st);
}
END_TEST

/* The answers a frontend compares: a twin built from `position` must give
 * the same. */
static void same_answers(struct session *a, struct session *b)
{
	static const char *const cmds[] = {"status",    "moves",    "score",
					   "showboard", "geometry", "position"};
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		char *x = strdup(ok(a, cmds[i]));
		ck_assert_msg(!strcmp(x, ok(b, cmds[i])), "%s differs:\n%s\n%s",
			      cmds[i], x, ok(b, cmds[i]));
		free(x);
	}
}

/* A fresh session started from s's position. */
static struct session *twin(struct session *s)
{
	const char *pos = ok(s, "position");
	char line[512] = "newgame ";
	ck_assert(strlen(pos) < sizeof line - 8);
	strcat(line, pos);
	struct session *t = quiet_session();
	ok(t, line);
	same_answers(s, t);
	return t;
}

START_TEST(test_position_written)
{
	struct session *s = quiet_session();
	/* a1-c1 (blue b1 for player 1), player 2 drops, e5-e7 (white e6
	 * for player 3) */
	newgame(s, "a1w b1b e5r e6w g6w g7w h1r a8b", "players=3 penalty=4");
	ok(s, "play a1-c1");
	ok(s, "play drop");
	ok(s, "play e5-e7");
	char want[256];
	snprintf(want, sizeof want,
		 "takeitaway players=3 board=%s open=0 nodrop=0 penalty=4 "
		 "plain=0 captured=0:0:1,0:0:0,1:0:0 dropped=2 turn=1",
		 board("c1w e7r g6w g7w h1r a8b"));
	ck_assert_str_eq(ok(s, "position"), want);
	/* read back, the twin plays on alike: player 1 drops, player 3 is
	 * alone, takes g6 and pays 4 x 9 for c1, e7, g5, h1 and a8 */
	struct session *t = twin(s);
	ck_assert_str_eq(ok(t, "moves"), "drop g6-g8 g7-g5");
	for (int i = 0; i < 2; i++) {
		const char *line = i ? "play g7-g5" : "play drop";
		ok(s, line);
		ok(t, line);
		same_answers(s, t);
	}
	ck_assert_str_eq(ok(t, "score"), "3 0 -34");
	ck_assert_str_eq(ok(t, "status"), "over 1");
	session_free(t);

	/* the plain game writes counts of pieces */
	ok(s, "newgame takeitaway plain nodrop=0");
	ok(s, "play a6-a8");
	ok(s, "play drop");
	/* a6-a8 took a7: a6 and a7 are empty, a8 holds the jumper */
	char b[65];
	memset(b, 'w', 64);
	b[8] = b[16] = '.';
	b[64] = '\0';
	snprintf(want, sizeof want,
		 "takeitaway players=2 board=%s open=0 nodrop=0 penalty=1 "
		 "plain=1 captured=1,0 dropped=2 turn=1",
		 b);
	ck_assert_str_eq(ok(s, "position"), want);
	t = twin(s);
	session_free(t);

	/* the open game writes its removals, and a twin in the opening
	 * phase goes on removing */
	ok(s, "newgame takeitaway seed=4 open");
	play_any(s);
	play_any(s);
	ck_assert(strstr(ok(s, "position"), " turn=1 removals=2"));
	t = twin(s);
	for (int i = 0; i < 7; i++) {
		play_any(s);
		play_any(t);
		same_answers(s, t);
	}
	ck_assert(strchr(ok(t, "moves"), '-'));
	session_free(t);
	session_free(s);
}
END_TEST

START_TEST(test_position_keys)
{
	struct session *s = quiet_session();
	/* an open game in its opening phase with empty squares: fine as a
	 * position (a fresh open game needs a full board) */
	newgame(s, "a1w b1w c1r d1w e1b",
		"open removals=3 captured=2:0:0,1:0:0 turn=2");
	ck_assert_str_eq(ok(s, "status"), "play 2");
	ck_assert_str_eq(ok(s, "moves"), "drop a1 b1 d1");
	ck_assert(strstr(ok(s, "showboard"), "(open game: removal 4 of 8)"));
	ck_assert_str_eq(ok(s, "score"), "2 1");
	/* after the 8th removal, jumps */
	newgame(s, "a1w b1w c1r d1w e1b",
		"open removals=8 captured=6:0:0,2:1:0 turn=1");
	ck_assert_str_eq(ok(s, "moves"), "drop d1-f1");
	ck_assert_str_eq(ok(s, "score"), "6 4");
	/* a finished position with one player left: the penalty counts */
	newgame(s, "a1w c1r", "captured=3:0:1,2:2:0 dropped=2");
	ck_assert_str_eq(ok(s, "status"), "over 2");
	ck_assert_str_eq(ok(s, "score"), "0 6"); /* 6 - 2 x 3 */
	/* the turn of a 4-player game with two out */
	newgame(s, "a1w b1w", "players=4 dropped=1,3 turn=4");
	ck_assert_str_eq(ok(s, "status"), "play 4");
	play_any(s);
	ck_assert_str_eq(ok(s, "status"), "over 4");
	session_free(s);
}
END_TEST

START_TEST(test_bad_positions)
{
	struct session *s = quiet_session();
	char few[80], many[80], nowhite[80], full62[80];
	snprintf(few, sizeof few, "board=%s", board("a1w b1w c1r d1w e1b"));
	snprintf(many, sizeof many, "board=%s",
		 board("a1b b1b c1b d1b e1b f1b g1b h1b a2b b2b"));
	snprintf(nowhite, sizeof nowhite, "board=%s", board("a1r b1r"));
	snprintf(full62, sizeof full62, "board=..%.62s",
		 "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"
		 "w");
	const struct {
		const char *board, *opts, *why;
	} refused[] = {
		{few, "captured=1:0:0", "captured=2:1:0,1:0:1"},
		{few, "captured=1:0,0:0:0", "white, red and blue"},
		{few, "captured=1:0:0,0:0:0,0:0:0", "separated by commas"},
		{few, "captured=1:0:0,0:0:0x", "captured="},
		{few, "captured=1:0:0,0:0:999", "captured="},
		{few, "captured=1:-1:0,0:0:0", "captured="},
		{few, "plain captured=1:0:0,0:0:0", "captured=3,2"},
		{"", "captured=1:0:0,0:0:0",
		 "35 white pieces; the set has only "
		 "34"},
		{many, "captured=0:0:1,0:0:0", "11 blue"},
		{full62, "plain captured=1,1",
		 "64 pieces; the plain game has 63"},
		{few, "dropped=3", "players 1 to 2"},
		{few, "dropped=0", "players 1 to 2"},
		{few, "dropped=", "players 1 to 2"},
		{few, "dropped=1,1", "twice"},
		{few, "dropped=1,2", "every player"},
		{few, "nodrop dropped=1", "off"},
		{few, "plain dropped=1", "off"},
		{few, "turn=3", "turn must be a number from 1 to 2"},
		{few, "dropped=2 turn=2", "dropped out"},
		{few, "removals=3", "not open"},
		{few, "open", "full board"},
		{few, "open removals=9",
		 "removals must be a number from 0 to 8"},
		{few, "open removals=3 captured=1:0:0,1:0:0", "holds 2 pieces"},
		{few, "open removals=2 captured=1:1:0,0:0:0",
		 "just the 2 white pieces"},
		{few, "open removals=8 captured=3:0:0,2:0:0", "only 5"},
		{nowhite, "open removals=2 captured=1:0:0,1:0:0",
		 "no white piece"},
	};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		char line[256];
		snprintf(line, sizeof line, "newgame takeitaway %s %s",
			 refused[i].board, refused[i].opts);
		const char *e = bad(s, line);
		ck_assert_msg(strstr(e, refused[i].why), "%s: %s", line, e);
	}
	session_free(s);
}
END_TEST

START_TEST(test_geometry)
{
	struct session *s = quiet_session();
	ok(s, "newgame takeitaway");
	const char *g = ok(s, "geometry");
	/* 64 cells, a1 at the origin, h8 at (7, 7), row by row */
	ck_assert(!strncmp(g, "\ncell a1 0 0\ncell b1 1 0\n", 25));
	ck_assert(strstr(g, "\ncell h1 7 0\ncell a2 0 1\n"));
	ck_assert(strstr(g, "\ncell h8 7 7\nword drop\nsep -\npiece w 1\n"
			    "piece r 2\npiece b 3"));
	int cells = 0;
	for (const char *p = g; (p = strstr(p, "cell ")); p++)
		cells++;
	ck_assert_int_eq(cells, 64);
	/* no drop word where nobody may drop; plain pieces are worth 1 */
	ok(s, "newgame takeitaway plain");
	g = ok(s, "geometry");
	ck_assert(!strstr(g, "drop"));
	ck_assert(strstr(g, "\nsep -\npiece w 1\npiece r 1\npiece b 1"));
	ok(s, "newgame takeitaway plain nodrop=0");
	ck_assert(strstr(ok(s, "geometry"), "word drop"));
	session_free(s);
}
END_TEST

/* turn_info: the opening removal (counted in the open game), then jumps,
 * with drop beside them while dropping out is allowed; scoring: captures
 * by colour, and the pieces left against the last player at the end. */
START_TEST(test_turn_info_and_scoring)
{
	struct session *s = quiet_session();
	ok(s, "newgame takeitaway seed=5 players=3");
	ck_assert_str_eq(ok(s, "game_info"),
			 "game takeitaway\ntitle Take It Away\nplayers 3\n"
			 "player 1\nplayer 2\nplayer 3");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase remove\nplayer 1\nalso drop\nprompt player 1: "
			 "remove a white piece, or drop out");
	ok(s, "play a1");
	ck_assert_str_eq(
		ok(s, "scoring"),
		"unit capture player 1 points 1 pieces 1 colour white");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase jump\nplayer 2\nalso drop\nprompt player 2: "
			 "jump a piece over a neighbour onto an empty square; "
			 "it jumps on as long as it can, or drop out");
	ok(s, "newgame takeitaway seed=5 open nodrop");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase remove 1 8\nplayer 1\nprompt player 1: remove "
			 "a white piece (removal 1 of 8)");
	ok(s, "newgame takeitaway players=2 board=.......b"
	      "................................................w....... "
	      "captured=33:20:9,0:0:0 dropped=2 turn=1");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase over\nout 2\nprompt game over: player 1 wins "
			 "with 92 points");
	ck_assert_str_eq(
		ok(s, "scoring"),
		"unit capture player 1 points 33 pieces 33 colour "
		"white\n"
		"unit capture player 1 points 40 pieces 20 colour red\n"
		"unit capture player 1 points 27 pieces 9 colour blue\n"
		"unit penalty player 1 points -8 pieces 2 cells a1 h8");
	ck_assert_str_eq(ok(s, "score"), "92 0");
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("takeitaway");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_single_jump_each_direction);
	tcase_add_test(tc, test_chain_must_go_on);
	tcase_add_test(tc, test_chains_branch);
	tcase_add_test(tc, test_chain_may_revisit);
	tcase_add_test(tc, test_no_jump_off_board);
	tcase_add_test(tc, test_no_jump_over_empty);
	tcase_add_test(tc, test_values_and_penalty);
	tcase_add_test(tc, test_plain_values);
	tcase_add_test(tc, test_plain_dropout);
	tcase_add_test(tc, test_turn_order_after_drop);
	tcase_add_test(tc, test_first_removal);
	tcase_add_test(tc, test_open_removals);
	tcase_add_test(tc, test_bad_move_texts);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_history_rebuilds);
	tcase_add_test(tc, test_moves_round_trip);
	tcase_add_test(tc, test_moves_capped);
	tcase_add_test(tc, test_playout_is_random_moves);
	tcase_add_test(tc, test_key);
	tcase_add_test(tc, test_position_written);
	tcase_add_test(tc, test_position_keys);
	tcase_add_test(tc, test_bad_positions);
	tcase_add_test(tc, test_geometry);
	tcase_add_test(tc, test_turn_info_and_scoring);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN()
