/* test_takebacktoe.c: Take-Back-Toe's rules, through struct game and through
 * the protocol.
 *
 * Positions are built by playing real turns from the start (the state is
 * private to the game), so each test also checks that the turns leading to
 * it were legal. */
#include "test_util.h"

#include <math.h>

#define g (game_find("takebacktoe"))

/* The legal moves of st as one line, as `moves` writes them. */
static const char *moves_text(const void *st)
{
	static char buf[4096];
	struct move list[64];
	char mv[MOVE_TEXT_MAX];
	ck_assert_int_le(g->max_moves, 64);
	int n = g->moves(st, list);
	ck_assert_int_le(n, g->max_moves);
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		g->format(st, &list[i], mv);
		if (i)
			strcat(buf, " ");
		strcat(buf, mv);
	}
	return buf;
}

/* Plays whole turns on st: "5 a2-a1 6 pass ..." (a roll, then its move). */
static void turns(void *st, const char *script)
{
	char buf[1024], *save = NULL;
	snprintf(buf, sizeof buf, "%s", script);
	for (char *die = strtok_r(buf, " ", &save); die;
	     die = strtok_r(NULL, " ", &save)) {
		char *mv = strtok_r(NULL, " ", &save);
		ck_assert_ptr_nonnull(mv);
		ck_assert_int_eq(g->status(st).phase, GAME_ROLL);
		g->roll(st, die[0] - '0');
		ck_assert_int_eq(g->status(st).phase, GAME_PLAY);
		play_text(g, st, mv);
	}
}

/* The same through the protocol: "roll N" and "play MOVE" for each turn. */
static void session_turns(struct session *s, const char *script)
{
	char buf[1024], cmd[64], *save = NULL;
	snprintf(buf, sizeof buf, "%s", script);
	for (char *die = strtok_r(buf, " ", &save); die;
	     die = strtok_r(NULL, " ", &save)) {
		char *mv = strtok_r(NULL, " ", &save);
		ck_assert_ptr_nonnull(mv);
		snprintf(cmd, sizeof cmd, "roll %s", die);
		ok(s, cmd);
		snprintf(cmd, sizeof cmd, "play %s", mv);
		ok(s, cmd);
	}
}

static void expect_status(const void *st, enum game_phase phase, int player)
{
	struct game_status s = g->status(st);
	ck_assert_int_eq(s.phase, phase);
	ck_assert_int_eq(s.player, player);
}

static void expect_score(const void *st, int p1, int p2)
{
	int pts[2] = {-1, -1};
	g->score(st, pts);
	ck_assert_int_eq(pts[0], p1);
	ck_assert_int_eq(pts[1], p2);
}

/* Whether parse() accepts text on st. */
static int accepts(const void *st, const char *text)
{
	struct move mv;
	char err[GAME_ERR_MAX] = "";
	return g->parse(st, text, &mv, err) == 0;
}

/* Every stack 5: a2 a1 c1 c2 by player 1, b2 b3 d2 d3 by player 2, whose
 * last move was d2-d3.  Player 1 is to roll. */
#define ALL_FIVES "5 a2-a1 5 b2-b3 5 c2-c1 5 d2-d3"

START_TEST(start_position)
{
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=3 first=2");
	ck_assert_str_eq(ok(s, "status"), "roll 2");
	ck_assert_str_eq(ok(s, "moves"), "");
	ck_assert_str_eq(ok(s, "score"), "0 0");
	ck_assert_str_eq(ok(s, "showboard"),
			 "\n     a   b   c   d\n"
			 "3    0   0   0   0   player 2's row\n"
			 "2   10  10  10  10   neutral row\n"
			 "1    0   0   0   0   player 1's row\n"
			 "turn 1 of 1000: player 2 to roll");
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame takebacktoe seed=3 first=2 maxturns=1000");
	ck_assert_ptr_nonnull(strstr(bad(s, "play b2-b1"), "must roll"));
	ck_assert_ptr_nonnull(strstr(bad(s, "genmove"), "must roll"));
	ck_assert_ptr_nonnull(strstr(bad(s, "play pass"), "must roll"));
	session_free(s);

	/* the seed picks the first player; both happen */
	int seen[3] = {0};
	for (uint64_t seed = 1; seed <= 40; seed++) {
		void *st = new_state(g, "", seed);
		int p = g->status(st).player;
		ck_assert(p == 1 || p == 2);
		seen[p]++;
		free(st);
	}
	ck_assert_int_gt(seen[1], 0);
	ck_assert_int_gt(seen[2], 0);
}
END_TEST

START_TEST(options)
{
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=9 first=1 maxturns=50");
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame takebacktoe seed=9 first=1 maxturns=50");
	bad(s, "newgame takebacktoe first=3");
	bad(s, "newgame takebacktoe first=0");
	bad(s, "newgame takebacktoe maxturns=0");
	bad(s, "newgame takebacktoe maxturns=x");
	bad(s, "newgame takebacktoe colour=red");
	ck_assert_ptr_nonnull(strstr(bad(s, "newgame takebacktoe players=3"),
				     "for 2 players"));
	/* failed newgames keep the game */
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame takebacktoe seed=9 first=1 maxturns=50");
	session_free(s);
}
END_TEST

START_TEST(every_first_roll_has_14_moves)
{
	static const char *const expect =
		"a2-a1 a2-b2 a2-a3 b2-b1 b2-a2 b2-c2 b2-b3 "
		"c2-c1 c2-b2 c2-d2 c2-c3 d2-d1 d2-c2 d2-d3";
	struct session *s = quiet_session();
	for (int first = 1; first <= 2; first++) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "newgame takebacktoe seed=1 first=%d",
			 first);
		ok(s, cmd);
		for (int d = 1; d <= 6; d++) {
			snprintf(cmd, sizeof cmd, "roll %d", d);
			ck_assert_str_eq(ok(s, cmd), cmd + 5);
			ck_assert_str_eq(ok(s, "moves"), expect);
			ok(s, "undo");
			ck_assert_str_eq(ok(s, "moves"), "");
		}
	}
	session_free(s);
}
END_TEST

START_TEST(bad_rolls)
{
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=1 first=1");
	bad(s, "roll 0");
	bad(s, "roll 7");
	bad(s, "roll x");
	bad(s, "roll -1");
	bad(s, "roll 3x");
	ck_assert_str_eq(ok(s, "status"), "roll 1");
	ck_assert_str_eq(ok(s, "roll 3"), "3");
	/* no second roll before the move */
	bad(s, "roll");
	bad(s, "roll 3");
	ok(s, "undo");
	ck_assert_str_eq(ok(s, "status"), "roll 1");
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame takebacktoe seed=1 first=1 maxturns=1000");
	/* the engine's own rolls are faces of the die */
	int seen[7] = {0};
	for (int i = 0; i < 120; i++) {
		const char *v = ok(s, "roll");
		ck_assert(strlen(v) == 1 && v[0] >= '1' && v[0] <= '6');
		seen[v[0] - '0']++;
		ok(s, "undo");
	}
	for (int v = 1; v <= 6; v++)
		ck_assert_int_gt(seen[v], 0);
	session_free(s);
}
END_TEST

START_TEST(six_with_no_stack_of_six_passes)
{
	void *st = new_state(g, "first=1", 1);
	turns(st, ALL_FIVES);
	expect_status(st, GAME_ROLL, 1);
	g->roll(st, 6);
	ck_assert_str_eq(moves_text(st), "pass");
	ck_assert(!accepts(st, "a1-a2"));
	play_text(g, st, "pass");
	expect_status(st, GAME_ROLL, 2);
	/* with a move possible, pass is refused */
	g->roll(st, 5);
	ck_assert(!accepts(st, "pass"));
	ck_assert(accepts(st, "a1-b1"));
	/* the refusal says how many moves there are and names one */
	struct move mv;
	char err[GAME_ERR_MAX];
	ck_assert_int_eq(g->parse(st, "pass", &mv, err), -1);
	ck_assert_str_eq(err, "pass is legal only when no move is (24 are, "
			      "a1-b1 among them)");
	free(st);

	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=1 first=1");
	session_turns(s, ALL_FIVES);
	ok(s, "roll 6");
	ck_assert_str_eq(ok(s, "moves"), "pass");
	ck_assert_str_eq(ok(s, "genmove"), "pass");
	ck_assert_str_eq(ok(s, "status"), "roll 2");
	session_free(s);
}
END_TEST

START_TEST(take_back_forbids_only_the_reverse)
{
	void *st = new_state(g, "first=1", 1);
	turns(st, "5 a2-a1");
	/* a1 and a2 hold 5, b2 c2 d2 10.  Player 2 rolls the same 5: of the
	 * 16 moves of 5 chips exactly a1-a2 is gone */
	void *t = malloc(g->state_size);
	memcpy(t, st, g->state_size);
	g->roll(t, 5);
	ck_assert_str_eq(moves_text(t), "a1-b1 a2-a1 a2-b2 a2-a3 "
					"b2-b1 b2-a2 b2-c2 b2-b3 "
					"c2-c1 c2-b2 c2-d2 c2-c3 "
					"d2-d1 d2-c2 d2-d3");
	ck_assert(!accepts(t, "a1-a2"));
	ck_assert(accepts(t, "a2-a1")); /* the same move again is fine */
	ck_assert(accepts(t, "a1-b1"));

	/* another roll: moving 4 chips back between the same spaces is
	 * legal */
	memcpy(t, st, g->state_size);
	g->roll(t, 4);
	ck_assert_str_eq(moves_text(t), "a1-b1 a1-a2 a2-a1 a2-b2 a2-a3 "
					"b2-b1 b2-a2 b2-c2 b2-b3 "
					"c2-c1 c2-b2 c2-d2 c2-c3 "
					"d2-d1 d2-c2 d2-d3");
	ck_assert(accepts(t, "a1-a2"));

	/* only the last move counts: after player 2 moves elsewhere, player
	 * 1 may move a1-a2 back (it is player 1's own move anyway), and
	 * player 2's earlier move is forgotten one turn later */
	memcpy(t, st, g->state_size);
	turns(t, "5 b2-b3");
	g->roll(t, 5);
	ck_assert(accepts(t, "a1-a2"));
	ck_assert(!accepts(t, "b3-b2"));
	play_text(g, t, "c2-c1");
	g->roll(t, 5);
	ck_assert(!accepts(t, "c1-c2"));
	ck_assert(accepts(t, "b3-b2"));

	/* a pass forbids nothing: after d2-d3 and player 1's pass, player 2
	 * may reverse d2-d3, and player 1's move before the pass (c2-c1)
	 * forbids nothing either */
	memcpy(t, st, g->state_size);
	turns(t, "5 b2-b3 5 c2-c1 5 d2-d3");
	g->roll(t, 5);
	ck_assert(!accepts(t, "d3-d2"));
	memcpy(t, st, g->state_size);
	turns(t, "5 b2-b3 5 c2-c1 5 d2-d3 6 pass");
	g->roll(t, 5);
	ck_assert(accepts(t, "d3-d2"));
	ck_assert(accepts(t, "c1-c2"));
	ck_assert_ptr_nonnull(strstr(moves_text(t), "d3-d2"));
	free(t);
	free(st);
}
END_TEST

START_TEST(three_equal_stacks_win)
{
	void *st = new_state(g, "first=1", 1);
	turns(st, "2 d2-d1 5 b2-b3 5 a2-a1 1 d2-d3 5 c2-c1 2 c2-c3");
	/* row 1 is 5 0 5 2 */
	expect_status(st, GAME_ROLL, 1);
	expect_score(st, 0, 0);
	turns(st, "5 b2-b1");
	/* row 1 is 5 5 5 2 */
	expect_status(st, GAME_OVER, 1);
	expect_score(st, 5, 0);
	struct move list[64];
	ck_assert_int_eq(g->moves(st, list), 0);
	free(st);
}
END_TEST

START_TEST(four_equal_stacks_win)
{
	void *st = new_state(g, "first=1", 1);
	turns(st, "2 a2-a1 1 a2-a3 2 b2-b1 1 b2-b3 4 d2-d1 3 c2-c3");
	/* row 1 is 2 2 0 4 */
	expect_status(st, GAME_ROLL, 1);
	turns(st, "2 d1-c1");
	expect_status(st, GAME_OVER, 1);
	expect_score(st, 2, 0);
	free(st);
}
END_TEST

START_TEST(empty_spaces_do_not_win)
{
	void *st = new_state(g, "first=1", 1);
	turns(st, "5 a2-a1");
	/* row 1 is 5 0 0 0 and row 3 0 0 0 0 */
	expect_status(st, GAME_ROLL, 2);
	turns(st, "3 b2-b3 4 c2-c1 3 d2-d3");
	/* row 1 is 5 0 4 0, row 3 0 3 0 3 */
	expect_status(st, GAME_ROLL, 1);
	/* emptying a row back: row 1 0 0 4 0, three empty spaces again */
	turns(st, "5 a1-a2");
	expect_status(st, GAME_ROLL, 2);
	expect_score(st, 0, 0);
	free(st);
}
END_TEST

START_TEST(move_can_hand_the_opponent_the_win)
{
	void *st = new_state(g, "first=1", 1);
	turns(st, "1 a2-a3 1 b2-b3");
	expect_status(st, GAME_ROLL, 1);
	/* player 1 completes three stacks of 1 in player 2's row */
	turns(st, "1 c2-c3");
	expect_status(st, GAME_OVER, 2);
	expect_score(st, 0, 1);
	free(st);

	/* the same through the protocol */
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=1 first=1");
	ok(s, "roll 1");
	ok(s, "play a2-a3");
	ok(s, "roll 1");
	ok(s, "play b2-b3");
	ok(s, "roll 1");
	ok(s, "play 1 c2-c3");
	ck_assert_str_eq(ok(s, "status"), "over 2");
	ck_assert_str_eq(ok(s, "score"), "0 1");
	ck_assert_str_eq(ok(s, "moves"), "");
	ck_assert_ptr_nonnull(strstr(bad(s, "roll"), "over"));
	bad(s, "play a3-a2");
	bad(s, "genmove");
	ck_assert_ptr_nonnull(strstr(ok(s, "showboard"), "player 2 wins"));
	ok(s, "undo");
	ck_assert_str_eq(ok(s, "status"), "play 1");
	session_free(s);
}
END_TEST

START_TEST(maxturns_draw)
{
	void *st = new_state(g, "first=2 maxturns=4", 1);
	turns(st, "1 a2-a1 1 b2-b1 6 a2-a3");
	expect_status(st, GAME_ROLL, 1);
	turns(st, "2 c2-c3");
	expect_status(st, GAME_OVER, 0);
	expect_score(st, 0, 0);
	free(st);

	/* a win on the last turn stays a win */
	st = new_state(g, "first=1 maxturns=3", 1);
	turns(st, "1 a2-a3 1 b2-b3 1 c2-c3");
	expect_status(st, GAME_OVER, 2);
	expect_score(st, 0, 1);
	free(st);

	/* passes count as turns */
	st = new_state(g, "first=1 maxturns=5", 1);
	turns(st, ALL_FIVES " 6 pass");
	expect_status(st, GAME_OVER, 0);
	free(st);
}
END_TEST

START_TEST(move_text)
{
	void *st = new_state(g, "first=1", 1);
	g->roll(st, 3);
	static const char *const refused[] = {
		"",       "pass",   "b2",    "b2-",   "b2-b2",
		"b2-c3",  "b2-b4",  "e2-d2", "a2-a0", "b2b1",
		"b2-b1x", "b2--b1", "b1-b2", "a1-b1", "z9-z8",
		"-",      "a10-a9", "b2-d2", "b2 b1", "a2-a12"};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
		ck_assert_msg(!accepts(st, refused[i]), "accepted %s",
			      refused[i]);
	struct move mv;
	char err[GAME_ERR_MAX] = "", buf[MOVE_TEXT_MAX];
	ck_assert_int_eq(g->parse(st, "c2-d2", &mv, err), 0);
	g->format(st, &mv, buf);
	ck_assert_str_eq(buf, "c2-d2");
	ck_assert_int_eq(g->parse(st, "a1-b1", &mv, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "fewer"));
	ck_assert_int_eq(g->parse(st, "b2-c3", &mv, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "adjacent"));
	free(st);

	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=1 first=1");
	ok(s, "roll 2");
	ck_assert_str_eq(
		bad(s, "play B2-C3"),
		"illegal move: b2 and c3 are not orthogonally adjacent\n\n");
	ok(s, "play B2-B1");
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame takebacktoe seed=1 first=1 maxturns=1000\n"
			 "roll 2\nplay b2-b1");
	session_free(s);
}
END_TEST

START_TEST(showboard_shows_die_and_take_back)
{
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=1 first=1 maxturns=30");
	ok(s, "roll 4");
	ok(s, "play c2-c3");
	ok(s, "roll 4");
	ck_assert_str_eq(ok(s, "showboard"),
			 "\n     a   b   c   d\n"
			 "3    0   0   4   0   player 2's row\n"
			 "2   10  10   6  10   neutral row\n"
			 "1    0   0   0   0   player 1's row\n"
			 "turn 2 of 30: player 2 to move 4 chips "
			 "(die shows 4)\n"
			 "no take-back: c3-c2 is forbidden on a roll of 4");
	session_free(s);
}
END_TEST

START_TEST(random_games_keep_40_chips)
{
	struct rng r;
	rng_seed(&r, 42);
	struct move list[64];
	for (int game = 0; game < 200; game++) {
		const char *opts = game % 2 ? "maxturns=200" : "first=2";
		void *st = new_state(g, opts, (uint64_t)game);
		for (int step = 0; g->status(st).phase != GAME_OVER; step++) {
			ck_assert_int_lt(step, 2100);
			if (g->status(st).phase == GAME_ROLL) {
				g->roll(st, 1 + (int)rng_below(&r, 6));
				continue;
			}
			int n = g->moves(st, list);
			ck_assert_int_ge(n, 1);
			ck_assert_int_le(n, g->max_moves);
			for (int i = 0; i < n; i++) {
				char buf[MOVE_TEXT_MAX];
				struct move back;
				char err[GAME_ERR_MAX];
				g->format(st, &list[i], buf);
				ck_assert_int_eq(g->parse(st, buf, &back, err),
						 0);
				ck_assert(move_equal(&back, &list[i]));
			}
			g->play(st, &list[rng_below(&r, (uint32_t)n)]);
		}
		/* the board drawing adds up to 40 chips */
		struct text t;
		text_init(&t);
		g->show(st, &t);
		int sum = 0, v;
		const char *p = strchr(t.s, '\n') + 1;
		for (int row = 0; row < 3; row++) {
			p += 2;
			for (int c = 0; c < 4; c++) {
				int used;
				ck_assert_int_eq(sscanf(p, "%d%n", &v, &used),
						 1);
				sum += v;
				p += used;
			}
			p = strchr(p, '\n') + 1;
		}
		ck_assert_int_eq(sum, 40);
		text_free(&t);
		free(st);
	}
}
END_TEST

/* The state after ALL_FIVES then 6 pass, as position writes it. */
#define FIVES_PASS                                                             \
	"board=0,5,0,5/5,5,5,5/5,0,5,0 turns=5 maxturns=1000 first=1 "         \
	"player=2 die=0 last=pass"

START_TEST(position_written_and_read_back)
{
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=5 first=2 maxturns=300");
	ck_assert_str_eq(ok(s, "position"),
			 "takebacktoe board=0,0,0,0/10,10,10,10/0,0,0,0 "
			 "turns=0 maxturns=300 first=2 player=2 die=0 "
			 "last=none");
	ok(s, "newgame takebacktoe seed=1 first=1");
	session_turns(s, ALL_FIVES);
	ok(s, "roll 6");
	ok(s, "play pass");
	ck_assert_str_eq(ok(s, "position"), "takebacktoe " FIVES_PASS);
	ok(s, "roll 5");
	ck_assert_str_eq(ok(s, "position"),
			 "takebacktoe board=0,5,0,5/5,5,5,5/5,0,5,0 turns=5 "
			 "maxturns=1000 first=1 player=2 die=5 last=pass");
	ok(s, "play d3-d2");
	ck_assert_str_eq(ok(s, "position"),
			 "takebacktoe board=0,5,0,0/5,5,5,10/5,0,5,0 turns=6 "
			 "maxturns=1000 first=1 player=1 die=0 "
			 "last=d3-d2:5");
	char board[512], moves[512];
	ok(s, "roll 5");
	KEEP(board, ok(s, "showboard"));
	KEEP(moves, ok(s, "moves"));
	/* d2-d3 takes back player 2's move */
	ck_assert_ptr_null(strstr(moves, "d2-d3"));

	/* a fresh game from that position answers the same */
	struct session *t = quiet_session();
	ok(t, "newgame takebacktoe seed=77 board=0,5,0,0/5,5,5,10/5,0,5,0 "
	      "turns=6 maxturns=1000 first=1 player=1 die=0 last=d3-d2:5");
	ck_assert_str_eq(ok(t, "status"), "roll 1");
	ok(t, "roll 5");
	ck_assert_str_eq(ok(t, "showboard"), board);
	ck_assert_str_eq(ok(t, "moves"), moves);
	bad(t, "play d2-d3");
	ok(t, "play d2-c2");
	ck_assert_str_eq(ok(t, "history"),
			 "\nnewgame takebacktoe seed=77 "
			 "board=0,5,0,0/5,5,5,10/5,0,5,0 turns=6 "
			 "maxturns=1000 first=1 player=1 die=0 last=d3-d2:5\n"
			 "roll 5\nplay d2-c2");
	session_free(t);
	session_free(s);
}
END_TEST

START_TEST(position_keys_are_optional)
{
	/* player= alone tells who went first, from the turns played */
	void *st = new_state(g, "turns=3 player=2", 9);
	expect_status(st, GAME_ROLL, 2);
	struct text t;
	text_init(&t);
	g->position(st, &t);
	ck_assert_str_eq(t.s, "board=0,0,0,0/10,10,10,10/0,0,0,0 turns=3 "
			      "maxturns=1000 first=1 player=2 die=0 last=pass");
	text_free(&t);
	free(st);

	/* a die showing, nothing forbidden: the 14 opening moves */
	st = new_state(g, "first=2 die=6", 9);
	expect_status(st, GAME_PLAY, 2);
	ck_assert_int_eq(strlen(moves_text(st)), 14 * 6 - 1);
	free(st);

	/* equal stacks in a home row: the game is over, won at that height */
	st = new_state(g, "board=0,0,0,0/10,10,5,0/0,5,5,5 turns=7", 9);
	expect_status(st, GAME_OVER, 1);
	expect_score(st, 5, 0);
	free(st);
	st = new_state(g, "board=1,0,1,1/9,10,9,9/0,0,0,0 turns=7", 9);
	expect_status(st, GAME_OVER, 2);
	expect_score(st, 0, 1);
	free(st);
	/* every turn played: a draw */
	st = new_state(g, "turns=50 maxturns=50", 9);
	expect_status(st, GAME_OVER, 0);
	free(st);
}
END_TEST

START_TEST(bad_positions_refused_with_the_reason)
{
	static const char *const cases[][2] = {
		{"board=0,0,0,0/10,10,10,10/0,0,0", "3 rows from row 3 down"},
		{"board=0,0,0,0/10,10,10,10/0,0,0,0,0", "3 rows from row 3"},
		{"board=0,0,0,0/10,10,10,10", "3 rows from row 3 down"},
		{"board=0,0,0,0/10,10,10,10/0,0,0,0/0,0,0,0", "3 rows"},
		{"board=0,0,0,0/10,10,10,10/0,0,0,x", "4 chip counts"},
		{"board=0,0,0,0/10,10,10,100/0,0,0,0", "4 chip counts"},
		{"board=0,0,0,0/10,10,10,-1/0,0,0,1", "4 chip counts"},
		{"board=0,0,0,0/10,10,10,10/0,0,0,1", "holds 41 chips"},
		{"board=0,0,0,0/10,10,10,9/0,0,0,0", "holds 39 chips"},
		{"board=5,5,5,0/10,0,0,0/5,5,5,0", "both home rows"},
		{"turns=1001", "turns=1001 is more than maxturns=1000"},
		{"turns=5 maxturns=4", "more than maxturns=4"},
		{"turns=-1", "turns must be a number"},
		{"player=3", "player must be a number from 1 to 2"},
		{"turns=2 player=2 first=1", "player 1 is to move"},
		{"die=7", "die must be a number from 0 to 6"},
		{"turns=9 maxturns=9 die=3", "the game is over: write die=0"},
		{"board=0,0,0,0/10,10,5,0/0,5,5,5 die=2", "game is over"},
		{"last=pass", "last=pass follows no turn (turns=0)"},
		{"turns=3 last=none", "no turn was played, but turns=3"},
		{"turns=3 last=a1-b2:3", "such as last=b2-b1:5"},
		{"turns=3 last=a2-a1:7", "chips it moved (1 to 6)"},
		{"turns=3 last=a2-a1", "such as last=b2-b1:5"},
		{"turns=3 last=a2-e2:1", "such as last=b2-b1:5"},
		{"turns=3 last=b2", "such as last=b2-b1:5"},
		{"turns=3 last=a2-a1:3",
		 "moved 3 chips to a1, which holds only 0"},
		{"last=a1-a2:3", "follows no turn (turns=0)"},
		{"first=3", "first must be a number from 1 to 2"},
	};
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=2 first=1");
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char line[256];
		snprintf(line, sizeof line, "newgame takebacktoe %s",
			 cases[i][0]);
		const char *why = bad(s, line);
		ck_assert_msg(strstr(why, cases[i][1]) != NULL,
			      "'%s' refused with '%s', not '%s'", line, why,
			      cases[i][1]);
	}
	/* the game before them is kept */
	ck_assert_str_eq(ok(s, "history"),
			 "\nnewgame takebacktoe seed=2 first=1 maxturns=1000");
	session_free(s);
}
END_TEST

START_TEST(geometry_names_cells_and_rows)
{
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=1");
	ck_assert_str_eq(ok(s, "geometry"),
			 "\ncell a1 0 0\ncell b1 1 0\ncell c1 2 0\n"
			 "cell d1 3 0\ncell a2 0 1\ncell b2 1 1\n"
			 "cell c2 2 1\ncell d2 3 1\ncell a3 0 2\n"
			 "cell b3 1 2\ncell c3 2 2\ncell d3 3 2\n"
			 "word pass\nsep -\n"
			 "home 1 a1 b1 c1 d1\nneutral a2 b2 c2 d2\n"
			 "home 2 a3 b3 c3 d3");
	ck_assert_str_eq(ok(s, "list_options takebacktoe"),
			 "seed type int min 0 max 9223372036854775807\n"
			 "first type int min 1 max 2\n"
			 "maxturns type int default 1000 min 1 max 1000000");
	session_free(s);
}
END_TEST

/* Plays one random turn on st: a roll when one is due, then a listed
 * move. */
static void random_turn(void *st, struct rng *r)
{
	struct move list[64];
	if (g->status(st).phase == GAME_ROLL)
		g->roll(st, 1 + (int)rng_below(r, 6));
	int n = g->moves(st, list);
	g->play(st, &list[rng_below(r, (uint32_t)n)]);
}

/* The index of the listed move of st that leads to the state `after`, or
 * -1 when none does. */
static int move_index(const void *st, const void *after)
{
	struct move list[64];
	int n = g->moves(st, list), found = -1;
	void *t = malloc(g->state_size);
	for (int i = 0; i < n && found < 0; i++) {
		memcpy(t, st, g->state_size);
		g->play(t, &list[i]);
		if (!memcmp(t, after, g->state_size))
			found = i;
	}
	free(t);
	return found;
}

/* For every move X-Y, a position whose previous turn moved 3 chips X-Y:
 * on a roll of 3 exactly Y-X is gone from the moves, on a 2 nothing is. */
START_TEST(take_back_of_every_edge)
{
	static const char *const names[12] = {"a1", "b1", "c1", "d1",
					      "a2", "b2", "c2", "d2",
					      "a3", "b3", "c3", "d3"};
	void *st = new_state(g, "board=3,4,4,3/3,3,3,3/4,3,3,4 die=3", 1);
	char all[512];
	KEEP(all, moves_text(st));
	free(st);
	int edges = 0;
	for (int a = 0; a < 12; a++)
		for (int b = 0; b < 12; b++) {
			char mv[8], back[8], opts[128];
			snprintf(mv, sizeof mv, "%s-%s", names[a], names[b]);
			snprintf(back, sizeof back, " %s-%s ", names[b],
				 names[a]);
			snprintf(opts, sizeof opts,
				 "board=3,4,4,3/3,3,3,3/4,3,3,4 turns=1 "
				 "last=%s:3 die=3",
				 mv);
			char err[GAME_ERR_MAX];
			st = game_new_state(g, opts, 1, err);
			/* a position names only neighbours */
			ck_assert_int_eq(st != NULL, strstr(all, mv) != NULL);
			if (!st)
				continue;
			edges++;
			char expect[600], got[600];
			snprintf(expect, sizeof expect, " %s ", all);
			char *p = strstr(expect, back);
			ck_assert_ptr_nonnull(p);
			memmove(p, p + 6, strlen(p + 6) + 1);
			snprintf(got, sizeof got, " %s ", moves_text(st));
			ck_assert_str_eq(got, expect);
			g->roll(st, 2); /* only the die: a test shortcut */
			ck_assert_str_eq(moves_text(st), all);
			free(st);
		}
	ck_assert_int_eq(edges, 34);
}
END_TEST

/* One ply of playout() is a roll and a legal move (or the pass) as roll()
 * and play() make them, and a whole playout ends the game. */
START_TEST(playout_plays_legal_turns)
{
	struct rng r;
	rng_seed(&r, 7);
	void *a = malloc(g->state_size), *b = malloc(g->state_size);
	for (int game = 0; game < 40; game++) {
		void *st = new_state(g, "maxturns=300", (uint64_t)game);
		while (g->status(st).phase != GAME_OVER) {
			/* one ply from here matches one of the turns */
			memcpy(a, st, g->state_size);
			ck_assert_int_eq(game_search(g)->playout(a, &r, 1), 1);
			int found = 0;
			int roll = g->status(st).phase == GAME_ROLL;
			for (int d = 1; d <= (roll ? 6 : 1) && !found; d++) {
				memcpy(b, st, g->state_size);
				if (roll)
					g->roll(b, d);
				found = move_index(b, a) >= 0;
			}
			ck_assert_msg(found, "playout's ply is no legal turn");
			random_turn(st, &r);
		}
		free(st);
		/* a few plies leave a state whose position reads back (the
		 * player to move agrees with the turns played) */
		st = new_state(g, "maxturns=300", (uint64_t)game);
		ck_assert_int_eq(game_search(g)->playout(st, &r, 1 + game % 5),
				 1 + game % 5);
		struct text t;
		text_init(&t);
		g->position(st, &t);
		void *back = new_state(g, t.s, 1);
		ck_assert(!memcmp(back, st, g->state_size));
		free(back);
		text_free(&t);
		int plies = game_search(g)->playout(st, &r, 1 << 30);
		ck_assert_int_eq(g->status(st).phase, GAME_OVER);
		ck_assert_int_le(plies, 300);
		free(st);
	}
	free(a);
	free(b);
}
END_TEST

/* How often playout()'s first ply from the position opts played each
 * listed move, in `tries` playouts: into count[], by the moves' order; a
 * ply that is no listed move fails.  Returns how many moves there are. */
static int first_plies(const char *opts, int tries, int *count)
{
	void *st = new_state(g, opts, 1), *t = malloc(g->state_size);
	struct move list[64];
	int n = g->moves(st, list);
	struct rng r;
	rng_seed(&r, 5);
	memset(count, 0, sizeof *count * (size_t)n);
	for (int k = 0; k < tries; k++) {
		memcpy(t, st, g->state_size);
		ck_assert_int_eq(game_search(g)->playout(t, &r, 1), 1);
		int i = move_index(st, t);
		ck_assert_int_ge(i, 0);
		count[i]++;
	}
	free(t);
	free(st);
	return n;
}

/* The index of the move named text in the position opts. */
static int index_of(const char *opts, const char *text)
{
	void *st = new_state(g, opts, 1);
	struct move list[64], mv;
	char err[GAME_ERR_MAX] = "";
	ck_assert_int_eq(g->parse(st, text, &mv, err), 0);
	int n = g->moves(st, list), found = -1;
	for (int i = 0; i < n; i++)
		if (move_equal(&list[i], &mv))
			found = i;
	ck_assert_int_ge(found, 0);
	free(st);
	return found;
}

/* A playout takes a win on the spot, never completes the other's row
 * while it has another move, and when every move does, still moves. */
START_TEST(playout_takes_wins_and_refuses_gifts)
{
	/* row 1 is 5 5 0 0, and 5 chips c2-c1 make it 5 5 5 0 */
	const char *win = "board=0,0,0,0/10,10,10,0/5,5,0,0 die=5 player=1";
	const char *gift = "board=0,0,0,0/10,10,10,0/5,5,0,0 die=5 player=2";
	int count[64], n = first_plies(win, 200, count);
	ck_assert_int_gt(n, 5);
	ck_assert_int_eq(count[index_of(win, "c2-c1")], 200);
	n = first_plies(gift, 50 * n, count);
	int given = index_of(gift, "c2-c1");
	for (int i = 0; i < n; i++)
		if (i == given)
			ck_assert_int_eq(count[i], 0);
		else
			ck_assert_int_gt(count[i], 0);
	/* 5 chips out of c1 (3 3 8 1) make 3 3 3 _ either way but back to
	 * b1, which undoes player 1's last move */
	const char *forced = "board=4,3,2,0/4,4,4,4/3,3,8,1 die=5 player=2 "
			     "turns=1 last=b1-c1:5";
	n = first_plies(forced, 100, count);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(count[0] + count[1], 100);
	ck_assert_int_gt(count[0], 0);
	ck_assert_int_gt(count[1], 0);
	void *st = new_state(g, forced, 1);
	struct rng r;
	rng_seed(&r, 9);
	game_search(g)->playout(st, &r, 1);
	struct game_status gs = g->status(st);
	ck_assert(gs.phase == GAME_OVER && gs.player == 1);
	free(st);
}
END_TEST

/* playout() and random_move() pick every legal move equally often where
 * no move ends the game: from a state with a die showing, over 100 tries
 * a move, each move's count is within 5 standard deviations of its
 * share. */
START_TEST(random_moves_are_uniform)
{
	void *st = new_state(g,
			     "board=0,5,0,3/4,6,5,7/5,0,3,2 turns=10 die=4 "
			     "last=b2-a2:4",
			     1);
	struct move list[64];
	int n = g->moves(st, list);
	ck_assert_int_eq(n, 18);
	for (int i = 0; i < n; i++) {
		void *t = malloc(g->state_size);
		memcpy(t, st, g->state_size);
		g->play(t, &list[i]);
		ck_assert_int_ne(g->status(t).phase, GAME_OVER);
		free(t);
	}
	struct rng r;
	rng_seed(&r, 3);
	for (int way = 0; way < 2; way++) {
		int count[64] = {0}, tries = 100 * n;
		void *t = malloc(g->state_size);
		for (int k = 0; k < tries; k++) {
			memcpy(t, st, g->state_size);
			if (way == 0) {
				game_search(g)->playout(t, &r, 1);
			} else {
				struct move mv;
				ck_assert_int_eq(g->random_move(t, &r, &mv), 0);
				g->play(t, &mv);
			}
			int i = move_index(st, t);
			ck_assert_int_ge(i, 0);
			count[i]++;
		}
		double sd = sqrt(100.0 * (1 - 1.0 / n));
		for (int i = 0; i < n; i++)
			ck_assert_msg(fabs(count[i] - 100.0) < 5 * sd,
				      "move %d picked %d times of %d", i,
				      count[i], tries);
		free(t);
	}
	free(st);
}
END_TEST

/* evaluate()'s value for player p of the position opts. */
static double value_of(const char *opts, int p)
{
	void *st = new_state(g, opts, 1);
	double v[2] = {-1, -1};
	game_search(g)->evaluate(st, v);
	ck_assert(v[0] >= 0 && v[0] <= 1 && fabs(v[0] + v[1] - 1) < 1e-12);
	free(st);
	return v[p - 1];
}

/* A die that completes the mover's home row is a sure win, whichever edge
 * the winning move takes (into the row, along it, out of it); a die that
 * does not is not, nor is one whose only winning move is a take-back. */
START_TEST(evaluate_sees_wins_on_the_die)
{
	static const struct {
		const char *opts;
		int player;
		int sure;
	} cases[] = {
		/* c2-c1 makes 5 5 5 0 */
		{"board=0,0,0,0/10,10,10,0/5,5,0,0 die=5", 1, 1},
		{"board=0,0,0,0/10,10,10,0/5,5,0,0 die=4", 1, 0},
		{"board=0,0,0,0/10,10,10,0/5,5,0,0 die=5 turns=1 "
		 "last=c1-c2:5",
		 1, 0},
		/* c1-d1 makes 5 5 0 5 */
		{"board=0,0,0,0/10,10,5,0/5,5,2,3 die=2", 1, 1},
		/* a1-a2 makes 5 5 5 0, and nothing else wins */
		{"board=0,0,0,0/10,10,3,0/7,5,5,0 die=2", 1, 1},
		{"board=0,0,0,0/10,10,3,0/7,5,5,0 die=2 turns=1 "
		 "last=a2-a1:2",
		 1, 0},
		/* player 2's row: c2-c3, and d3-d2 */
		{"board=5,5,0,0/10,10,10,0/0,0,0,0 die=5", 2, 1},
		{"board=0,5,5,7/10,10,3,0/0,0,0,0 die=2", 2, 1},
		{"board=0,5,5,7/10,10,3,0/0,0,0,0 die=1", 2, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char opts[256];
		snprintf(opts, sizeof opts, "%s player=%d", cases[i].opts,
			 cases[i].player);
		double v = value_of(opts, cases[i].player);
		ck_assert_msg((v == 1) == cases[i].sure, "%s: %g", opts, v);
	}
}
END_TEST

/* In random games, for every face of the die: evaluate() says a sure win
 * exactly when one of the listed moves wins at once for the mover. */
START_TEST(evaluate_sure_win_iff_a_move_wins)
{
	struct rng r;
	rng_seed(&r, 11);
	struct move list[64];
	void *t = malloc(g->state_size), *u = malloc(g->state_size);
	int sure = 0;
	for (int game = 0; game < 60; game++) {
		void *st = new_state(g, "maxturns=200", (uint64_t)game);
		for (; g->status(st).phase == GAME_ROLL; random_turn(st, &r)) {
			int mover = g->status(st).player;
			for (int d = 1; d <= 6; d++) {
				memcpy(t, st, g->state_size);
				g->roll(t, d);
				int n = g->moves(t, list), wins = 0;
				for (int i = 0; i < n && !wins; i++) {
					memcpy(u, t, g->state_size);
					g->play(u, &list[i]);
					struct game_status gs = g->status(u);
					wins = gs.phase == GAME_OVER &&
					       gs.player == mover;
				}
				double v[2];
				game_search(g)->evaluate(t, v);
				ck_assert_int_eq(v[mover - 1] == 1, wins);
				sure += wins;
			}
		}
		free(st);
	}
	ck_assert_int_gt(sure, 100);
	free(t);
	free(u);
}
END_TEST

/* Before the roll: threats (faces that would win at once) count for
 * whoever holds them, more for the player about to roll; finished games
 * are valued exactly. */
START_TEST(evaluate_counts_threats)
{
	/* player 1's row 5 5 0 0 wins on a 5 (c2-c1), player 2 has none */
	const char *b1 = "board=0,0,0,0/10,10,10,0/5,5,0,0";
	/* the mirror: player 2 wins on a 5 */
	const char *b2 = "board=5,5,0,0/10,10,10,0/0,0,0,0";
	char o[128];
	snprintf(o, sizeof o, "%s player=1", b1);
	double rolls = value_of(o, 1);
	snprintf(o, sizeof o, "%s player=2", b1);
	double waits = value_of(o, 1);
	ck_assert(rolls > waits && waits > 0.5);
	snprintf(o, sizeof o, "%s player=2", b2);
	ck_assert(fabs(value_of(o, 2) - rolls) < 1e-12);
	/* no threats: near even */
	ck_assert(fabs(value_of("player=1", 1) - 0.5) < 0.1);
	/* more faces, more value: 5 5 0 0 with c2 and d2 full wins on 5,
	 * and 4 4 0 0 next to it too on a 4 */
	ck_assert(value_of("board=0,0,0,0/10,10,10,2/4,4,0,0 player=1", 1) >
		  0.5);
	ck_assert(value_of("board=0,0,0,0/6,6,10,10/4,4,0,0 player=1", 1) >
		  value_of("board=0,0,0,0/6,6,10,10/4,3,1,0 player=1", 1));
	ck_assert(value_of("board=0,0,0,0/10,10,5,0/5,5,5,0 turns=9", 1) == 1);
	ck_assert(value_of("turns=30 maxturns=30", 2) == 0.5);
}
END_TEST

/* turn_info: a roll, then a move of as many chips as the die shows, or the
 * pass when no pile is high enough; scoring: the winning stacks, which go
 * to the row's owner whoever moved. */
START_TEST(test_turn_info_and_scoring)
{
	struct session *s = quiet_session();
	ok(s, "newgame takebacktoe seed=11 first=1");
	ck_assert_str_eq(ok(s, "game_info"),
			 "game takebacktoe\ntitle Take-Back-Toe\nplayers 2\n"
			 "player 1\nplayer 2\n"
			 "roll faces 1 2 3 4 5 6 weights 1 1 1 1 1 1");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase roll\nplayer 1\nprompt player 1: roll the die "
			 "(turn 1 of 1000)");
	ok(s, "roll 1");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase move\nplayer 1\nprompt player 1: move 1 chip "
			 "from one space to a neighbouring one (turn 1 of "
			 "1000)");
	ok(s, "newgame takebacktoe board=4,4,2,0/5,5,5,5/3,2,1,4 turns=4 "
	      "maxturns=1000 first=1 player=1 die=6 last=pass");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase pass\nplayer 1\nprompt player 1: no pile of 6 "
			 "chips may move: pass (turn 5 of 1000)");
	ok(s, "newgame takebacktoe board=3,3,1,0/10,10,2,11/0,0,0,0 turns=4 "
	      "maxturns=1000 first=1 player=1 die=2 last=pass");
	ck_assert_str_eq(ok(s, "scoring"), "");
	ok(s, "play c2-c3");
	ck_assert_str_eq(ok(s, "turn_info"),
			 "phase over\nprompt game over after 5 turns: player 2 "
			 "wins with stacks of 3");
	ck_assert_str_eq(ok(s, "scoring"),
			 "unit stack player 2 points 3 cells a3 b3 c3");
	ck_assert_str_eq(ok(s, "score"), "0 3");
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("takebacktoe");
	TCase *tc = tcase_create("rules");
	/* hundreds of random games: seconds under the sanitizers on a busy
	 * machine, more than Check's default 4 */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, start_position);
	tcase_add_test(tc, options);
	tcase_add_test(tc, every_first_roll_has_14_moves);
	tcase_add_test(tc, bad_rolls);
	tcase_add_test(tc, six_with_no_stack_of_six_passes);
	tcase_add_test(tc, take_back_forbids_only_the_reverse);
	tcase_add_test(tc, three_equal_stacks_win);
	tcase_add_test(tc, four_equal_stacks_win);
	tcase_add_test(tc, empty_spaces_do_not_win);
	tcase_add_test(tc, move_can_hand_the_opponent_the_win);
	tcase_add_test(tc, maxturns_draw);
	tcase_add_test(tc, move_text);
	tcase_add_test(tc, showboard_shows_die_and_take_back);
	tcase_add_test(tc, random_games_keep_40_chips);
	tcase_add_test(tc, position_written_and_read_back);
	tcase_add_test(tc, position_keys_are_optional);
	tcase_add_test(tc, bad_positions_refused_with_the_reason);
	tcase_add_test(tc, geometry_names_cells_and_rows);
	tcase_add_test(tc, take_back_of_every_edge);
	tcase_add_test(tc, playout_plays_legal_turns);
	tcase_add_test(tc, playout_takes_wins_and_refuses_gifts);
	tcase_add_test(tc, random_moves_are_uniform);
	tcase_add_test(tc, evaluate_sees_wins_on_the_die);
	tcase_add_test(tc, evaluate_sure_win_iff_a_move_wins);
	tcase_add_test(tc, evaluate_counts_threats);
	tcase_add_test(tc, test_turn_info_and_scoring);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN()
