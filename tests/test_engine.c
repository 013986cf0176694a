/* test_engine.c: the protocol's framing and its generic commands, driven in
 * memory (engine_line) and through file descriptors (engine_run). */
#include <fcntl.h>
#include <unistd.h>

#include "test_util.h"

START_TEST(test_framing_ids)
{
	struct session *s = quiet_session();
	ck_assert_str_eq(send_line(s, "protocol_version"), "= 2\n\n");
	ck_assert_str_eq(send_line(s, "7 protocol_version"), "=7 2\n\n");
	ck_assert_str_eq(send_line(s, "0 name"), "=0 " ENGINE_NAME "\n\n");
	ck_assert_str_eq(send_line(s, "2147483647 version"),
			 "=2147483647 " ENGINE_VERSION "\n\n");
	/* ids must be valid numbers below 2^31; a bad id gets no id back */
	ck_assert(strncmp(send_line(s, "2147483648 name"), "? ", 2) == 0);
	ck_assert(strncmp(send_line(s, "123456789012345678901234567890 name"),
			  "? ", 2) == 0);
	ck_assert(strncmp(send_line(s, "12x name"), "? ", 2) == 0);
	/* an id alone is a failure that keeps the id */
	ck_assert(strncmp(send_line(s, "5"), "?5 ", 3) == 0);
	/* empty success still has the space */
	ck_assert_str_eq(send_line(s, "3 newgame checkertoe"), "=3 \n\n");
	/* an id is repeated as a number: without its leading zeros */
	ck_assert(!strncmp(send_line(s, "01 status"), "=1 play", 7));
	session_free(s);
}
END_TEST

START_TEST(test_framing_blank_comments_control)
{
	struct session *s = quiet_session();
	ck_assert_str_eq(send_line(s, ""), "");
	ck_assert_str_eq(send_line(s, "   \t "), "");
	ck_assert_str_eq(send_line(s, "# just a comment"), "");
	ck_assert_str_eq(send_line(s, "name # trailing comment"),
			 "= " ENGINE_NAME "\n\n");
	ck_assert_str_eq(send_line(s, "name\r"), "= " ENGINE_NAME "\n\n");
	ck_assert_str_eq(send_line(s, "\tknown_command\tname\t"), "= true\n\n");
	/* control bytes, NUL included, are dropped before the line is read */
	const char nul[] = "pro\0tocol_ver\001sion";
	struct text out;
	text_init(&out);
	engine_line(s, nul, sizeof nul - 1, 0, &out);
	ck_assert_str_eq(out.s, "= 2\n\n");
	text_free(&out);
	/* bytes from 0x80 up stay and fail normally, never echoed raw */
	const char *r = send_line(s, "\xff\xfe name");
	ck_assert(strncmp(r, "? unknown command", 17) == 0);
	ck_assert(strchr(r, '\xff') == NULL);
	/* nor when a game's own message quotes the bad move */
	ok(s, "newgame checkertoe");
	r = send_line(s, "play \xe9\xff"
			 "3");
	ck_assert(strncmp(r, "? illegal move", 14) == 0);
	for (const char *p = r; *p; p++)
		ck_assert(*p == '\n' || (*p >= ' ' && *p <= '~'));
	session_free(s);
}
END_TEST

START_TEST(test_commands_table)
{
	struct session *s = quiet_session();
	const char *list = ok(s, "list_commands");
	static const char *required[] = {"protocol_version",
					 "name",
					 "version",
					 "known_command",
					 "list_commands",
					 "quit",
					 "list_games",
					 "newgame",
					 "status",
					 "moves",
					 "play",
					 "genmove",
					 "roll",
					 "undo",
					 "score",
					 "showboard",
					 "history",
					 "set",
					 NULL};
	char copy[4096] = "\n";
	keep(copy + 1, sizeof copy - 2, list);
	strcat(copy, "\n");
	for (int i = 0; required[i]; i++) {
		char pat[64];
		snprintf(pat, sizeof pat, "\n%s\n", required[i]);
		ck_assert_msg(strstr(copy, pat), "list_commands lacks %s",
			      required[i]);
	}
	/* known_command agrees with list_commands, both ways */
	for (char *p = strtok(copy, "\n"); p; p = strtok(NULL, "\n")) {
		char line[128];
		snprintf(line, sizeof line, "known_command %s", p);
		ck_assert_str_eq(send_line(s, line), "= true\n\n");
	}
	ck_assert_str_eq(ok(s, "known_command frobnicate"), "false");
	ck_assert(strstr(bad(s, "frobnicate"), "unknown command frobnicate"));
	/* arity is checked centrally, with the usage */
	ck_assert(strstr(bad(s, "play"), "usage: play [PLAYER] MOVE"));
	ck_assert(strstr(bad(s, "name extra"), "usage: name"));
	ck_assert(strstr(bad(s, "set movetime"), "usage: set NAME VALUE"));
	ck_assert(strstr(ok(s, "help"), "newgame NAME"));
	session_free(s);
}
END_TEST

START_TEST(test_no_game_yet)
{
	struct session *s = quiet_session();
	static const char *cmds[] = {"status",  "moves", "play c3", "genmove",
				     "roll",    "undo",  "score",   "showboard",
				     "history", NULL};
	for (int i = 0; cmds[i]; i++)
		ck_assert(strstr(bad(s, cmds[i]), "no game yet"));
	ck_assert(strstr(ok(s, "list_games"), "checkertoe "));
	session_free(s);
}
END_TEST

START_TEST(test_newgame_errors_keep_game)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=3 first=2");
	ok(s, "play c3");
	char before[4096];
	keep(before, sizeof before, ok(s, "history"));
	ck_assert(strstr(bad(s, "newgame nosuchgame"),
			 "unknown game nosuchgame"));
	ck_assert(strstr(bad(s, "newgame checkertoe colour=red"),
			 "unknown option colour"));
	ck_assert_str_eq(bad(s, "newgame checkertoe first = 1"),
			 "bad option first: write key=value with no spaces "
			 "around =\n\n");
	ck_assert_str_eq(bad(s, "Play c3"),
			 "unknown command Play: command names are lowercase, "
			 "write play\n\n");
	ck_assert(strstr(bad(s, "newgame checkertoe first=3"), "first"));
	ck_assert(strstr(bad(s, "newgame checkertoe first=x"), "first"));
	ck_assert(strstr(bad(s, "newgame checkertoe seed=-1"), "seed"));
	ck_assert(strstr(bad(s, "newgame checkertoe seed=99999999999999999999"),
			 "seed"));
	ck_assert(strstr(bad(s, "newgame checkertoe seed=1 seed=2"), "twice"));
	ck_assert(strstr(bad(s, "newgame checkertoe =3"), "bad option"));
	ck_assert_str_eq(ok(s, "history"), before);
	session_free(s);
}
END_TEST

START_TEST(test_bad_input_changes_nothing)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=1 first=1");
	ok(s, "play c3");
	char board[4096], hist[4096];
	keep(board, sizeof board, ok(s, "showboard"));
	keep(hist, sizeof hist, ok(s, "history"));
	static const char *bad_cmds[] = {"play c3",
					 "play f1",
					 "play a6",
					 "play a0",
					 "play c33",
					 "play cc",
					 "play 1 d4",
					 "play 3 d4",
					 "play x d4",
					 "genmove 1",
					 "roll",
					 "roll 3",
					 "set movetime 0",
					 "set movetime 3600001",
					 "set movetime 99999999999999999999999",
					 "set movetime ten",
					 "set nosuch 1",
					 "newgame",
					 NULL};
	for (int i = 0; bad_cmds[i]; i++) {
		bad(s, bad_cmds[i]);
		ck_assert_str_eq(ok(s, "showboard"), board);
		ck_assert_str_eq(ok(s, "history"), hist);
	}
	ck_assert(strncmp(bad(s, "play c3"), "illegal move", 12) == 0);
	ck_assert(strstr(bad(s, "play 1 d4"), "player 2"));
	/* the next valid command works as if nothing happened */
	ok(s, "play 2 d4");
	ok(s, "play b e5");
	ok(s, "play w a1");
	session_free(s);
}
END_TEST

START_TEST(test_undo_and_history_replay)
{
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe seed=11");
	ck_assert(strstr(bad(s, "undo"), "nothing to undo"));
	ok(s, "set seed 5");
	ok(s, "set level 0");
	char boards[30][1024];
	int n = 0;
	while (strncmp(ok(s, "status"), "play", 4) == 0) {
		keep(boards[n++], sizeof boards[0], ok(s, "showboard"));
		ok(s, "genmove");
	}
	ck_assert_int_eq(n, 24);
	ck_assert(strstr(bad(s, "genmove"), "over"));
	ck_assert(strstr(bad(s, "play a1"), "over"));
	ck_assert(strstr(bad(s, "roll"), "no roll"));
	ck_assert_str_eq(ok(s, "moves"), "");

	/* history rebuilds the same game in a fresh engine */
	char hist[8192], board[1024], score[64], status[64];
	keep(hist, sizeof hist, ok(s, "history"));
	keep(board, sizeof board, ok(s, "showboard"));
	keep(score, sizeof score, ok(s, "score"));
	keep(status, sizeof status, ok(s, "status"));
	struct session *t = quiet_session();
	int lines = 0;
	for (char *p = strtok(hist, "\n"); p; p = strtok(NULL, "\n"), lines++)
		ok(t, p);
	ck_assert_int_eq(lines, 25);
	ck_assert_str_eq(ok(t, "showboard"), board);
	ck_assert_str_eq(ok(t, "score"), score);
	ck_assert_str_eq(ok(t, "status"), status);
	session_free(t);

	/* undo walks back through exactly the same boards */
	for (int i = n - 1; i >= 0; i--) {
		ok(s, "undo");
		ck_assert_str_eq(ok(s, "showboard"), boards[i]);
	}
	ck_assert(strstr(bad(s, "undo"), "nothing to undo"));
	session_free(s);
}
END_TEST

START_TEST(test_seeds_reproduce)
{
	/* same seed, same commands: same responses (playouts fixed) */
	char a[8192], b[8192];
	for (int k = 0; k < 2; k++) {
		struct session *s = quiet_session();
		ok(s, "newgame checkertoe seed=42");
		ok(s, "set playouts 200");
		for (int i = 0; i < 6; i++)
			ok(s, "genmove");
		keep((k ? b : a), sizeof a, ok(s, "history"));
		session_free(s);
	}
	ck_assert_str_eq(a, b);
	/* after set seed, every newgame starts the streams from it again:
	 * the same game and commands answer the same the second time */
	struct session *r = quiet_session();
	char roll[64];
	ok(r, "set seed 5");
	ok(r, "newgame takebacktoe seed=1 first=1");
	KEEP(roll, ok(r, "roll"));
	ok(r, "newgame takebacktoe seed=1 first=1");
	ck_assert_str_eq(ok(r, "roll"), roll);
	/* and seed= may follow a position */
	ok(r, "newgame takebacktoe board=0,0,0,0/10,10,10,10/0,0,0,0 "
	      "turns=0 maxturns=1000 first=1 player=1 die=0 last=none seed=9");
	ck_assert(strstr(ok(r, "history"), " seed=9 board="));
	session_free(r);
	/* without seed=, history writes the seed the engine picked */
	struct session *s = quiet_session();
	ok(s, "newgame checkertoe");
	ck_assert(strstr(ok(s, "history"), "newgame checkertoe seed="));
	session_free(s);
}
END_TEST

START_TEST(test_settings)
{
	struct session *s = quiet_session();
	const char *list = ok(s, "list_settings");
	ck_assert(strstr(list,
			 "movetime type int default 1000 min 1 max 3600000"));
	ck_assert(strstr(list, "playouts type int"));
	ck_assert(strstr(list, "seed type int min 0 max 9223372036854775807"));
	ck_assert(strstr(list, "level type int"));
	/* protocol.md, "Settings": the threads a search runs on */
	ck_assert(strstr(list, "threads type int default 1 min 1 max 1024"));
	bad(s, "set threads 0");
	bad(s, "set threads 1025");
	ok(s, "set threads 2");
	ok(s, "set threads 1");
	ok(s, "set movetime 1");
	ok(s, "set playouts 0");
	ok(s, "set seed 18446744");
	ok(s, "newgame checkertoe");
	ok(s, "set movetime 5");
	ck_assert_int_eq(strlen(ok(s, "genmove")), 2);
	ck_assert_int_eq(strlen(ok(s, "hint")), 2);
	/* with a fixed budget, hint names the move genmove then plays */
	ok(s, "set playouts 300");
	for (int i = 0; i < 10; i++) {
		char hint[16];
		KEEP(hint, ok(s, "hint"));
		ck_assert_str_eq(ok(s, "genmove"), hint);
	}
	session_free(s);
}
END_TEST

/* Runs input through engine_run on files; returns its output (malloc'd). */
static char *run_fd(const char *input, size_t len, int *ret)
{
	char in_name[] = "/tmp/engine-in-XXXXXX",
	     out_name[] = "/tmp/engine-out-XXXXXX";
	int in = mkstemp(in_name), out = mkstemp(out_name);
	ck_assert(in >= 0 && out >= 0);
	ck_assert(write(in, input, len) == (ssize_t)len);
	lseek(in, 0, SEEK_SET);
	struct session *s = quiet_session();
	*ret = engine_run(s, in, out);
	session_free(s);
	off_t n = lseek(out, 0, SEEK_END);
	char *buf = calloc(1, (size_t)n + 1);
	lseek(out, 0, SEEK_SET);
	ck_assert(read(out, buf, (size_t)n) == n);
	close(in), close(out);
	unlink(in_name), unlink(out_name);
	return buf;
}

START_TEST(test_run_loop)
{
	int ret;
	/* EOF acts as quit; a last line without a newline still counts */
	const char *text = "name\r\n\n# c\n1 protocol_version";
	char *o = run_fd(text, strlen(text), &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(o, "= " ENGINE_NAME "\n\n=1 2\n\n");
	free(o);
	/* quit answers, then nothing more is read */
	o = run_fd("quit\nname\n", 10, &ret);
	ck_assert_str_eq(o, "= \n\n");
	free(o);
	/* a 1 MB line is refused once, and the next line works */
	size_t big = 1 << 20;
	char *in = malloc(big + 64);
	memcpy(in, "4 name ", 7);
	memset(in + 7, 'x', big);
	memcpy(in + 7 + big, "\nversion\n", 9);
	o = run_fd(in, big + 16, &ret);
	ck_assert_str_eq(
		o, "?4 line too long (at most 65535 bytes)\n\n= " ENGINE_VERSION
		   "\n\n");
	free(o);
	/* binary garbage, NULs included, never stops the engine */
	for (size_t i = 0; i < big; i++)
		in[i] = (char)(i * 7919 % 251);
	memcpy(in + big, "\n9 version\n", 11);
	o = run_fd(in, big + 11, &ret);
	ck_assert(strstr(o, "=9 " ENGINE_VERSION "\n\n"));
	free(o);
	free(in);
}
END_TEST

/* game_info answers for a game not started (the new-game dialog's seats)
 * as for the current one, refuses what newgame refuses, and keeps the
 * current game; turn_info and scoring need a game. */
START_TEST(test_game_info)
{
	struct session *s = quiet_session();
	ck_assert(strstr(bad(s, "game_info"), "no game yet"));
	ck_assert(strstr(bad(s, "turn_info"), "no game yet"));
	ck_assert(strstr(bad(s, "scoring"), "no game yet"));
	ck_assert(strstr(ok(s, "game_info takeitaway players=4"),
			 "\nplayers 4\nplayer 1\nplayer 2\nplayer 3\n"
			 "player 4"));
	ck_assert(strstr(bad(s, "game_info takeitaway players=9"),
			 "players must be"));
	ck_assert(strstr(bad(s, "game_info chess"), "unknown game chess"));
	ok(s, "newgame tiptoe seed=1");
	const char *a = ok(s, "game_info abstractoe players=1");
	ck_assert(strstr(a, "players 1\n") && strstr(a, "side 2"));
	ck_assert(strstr(ok(s, "game_info"), "game tiptoe\n"));
	ck_assert_str_eq(ok(s, "known_command turn_info"), "true");
	ck_assert_str_eq(ok(s, "known_command scoring"), "true");
	ck_assert_str_eq(ok(s, "known_command contents"), "true");
	ck_assert_str_eq(ok(s, "known_command option_info"), "true");
	session_free(s);
}
END_TEST

/* A player is named by number, by the name or colour game_info gives it
 * (Tiptoe's white is player 1, checkertoe's black player 2), or else by
 * GTP's b and w (players 1 and 2). */
START_TEST(test_player_words)
{
	struct session *s = quiet_session();
	ok(s, "newgame tiptoe size=5 seed=1");
	ok(s, "play white c3");
	ck_assert(strstr(bad(s, "play white d4"), "player 2's turn"));
	ok(s, "play black d4");
	ok(s, "play w a1");
	ck_assert(strstr(bad(s, "play black a2"), "player 1's turn"));
	ok(s, "play b a2");
	ok(s, "newgame checkertoe first=1 seed=1");
	ok(s, "play red c3");
	ck_assert(strstr(bad(s, "play red d4"), "player 2's turn"));
	ok(s, "play black d4");
	ok(s, "play b e5");
	ok(s, "play white a1"); /* no checkertoe player is white: GTP's 2 */
	session_free(s);
}
END_TEST

/* Every game answers contents at every moment and turn_info marks a
 * free-form turn; options refused with the reason the generic rules
 * promise (a game whose rules fix the first player says so). */
START_TEST(test_contents_and_free_turns)
{
	struct session *s = quiet_session();
	ck_assert(strstr(bad(s, "contents"), "no game yet"));
	for (int i = 0; game_table[i]; i++) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "newgame %s seed=2",
			 game_table[i]->name);
		ok(s, cmd);
		ok(s, "contents");
	}
	ok(s, "newgame abstractoe draw=1 seed=2");
	ck_assert(strstr(ok(s, "turn_info"), "\nmoves free\n"));
	ck_assert_str_eq(ok(s, "moves"), "");
	ok(s, "genmove");
	ck_assert(!strstr(ok(s, "turn_info"), "moves free"));
	ck_assert(strstr(bad(s, "newgame takeitaway first=1"),
			 "takeitaway has no first= option: its rules fix who "
			 "starts (player 1)"));
	ck_assert(strstr(bad(s, "newgame takeitaway plain penalty=2"),
			 "nodrop=0"));
	ok(s, "newgame takeitaway plain penalty=1");
	session_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("engine");
	TCase *tc = tcase_create("protocol");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_framing_ids);
	tcase_add_test(tc, test_framing_blank_comments_control);
	tcase_add_test(tc, test_commands_table);
	tcase_add_test(tc, test_no_game_yet);
	tcase_add_test(tc, test_newgame_errors_keep_game);
	tcase_add_test(tc, test_bad_input_changes_nothing);
	tcase_add_test(tc, test_undo_and_history_replay);
	tcase_add_test(tc, test_seeds_reproduce);
	tcase_add_test(tc, test_settings);
	tcase_add_test(tc, test_run_loop);
	tcase_add_test(tc, test_game_info);
	tcase_add_test(tc, test_player_words);
	tcase_add_test(tc, test_contents_and_free_turns);
	suite_add_tcase(su, tc);
	return su;
}

TEST_MAIN()
