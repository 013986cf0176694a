/* fuzz_engine.c: a libFuzzer target over a whole engine session (`make fuzz`).
 *
 * Built with clang -fsanitize=fuzzer,address,undefined; not a Check test, so
 * its name stays out of the Makefile's tests/test_*.c wildcard.  Each input
 * is a session's worth of input bytes and goes through the engine twice:
 *
 * 1. Line by line through engine_line, cut and cleaned the way engine_run
 *    reads the pipe.  Every answer must be framed (`=` or `?`, the id echoed,
 *    a space, no empty line inside, one empty line at the end), and a failed
 *    command must leave `history` exactly as it was.  After each line the
 *    AI is put back on a tiny fixed budget, so genmove stays fast whatever
 *    the input set.
 * 2. Whole through engine_run from a file to a file, the way main.c runs,
 *    when the input names no command that thinks (genmove or hint, which
 *    could think for up to an hour under an input's own `set movetime`).  The
 * output must be a sequence of framed answers.
 *
 * Any violation aborts, which libFuzzer reports as a crash with the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine.h"

static void die(const char *what, const char *line, const char *detail)
{
	fprintf(stderr, "fuzz_engine: %s\nline: [%s]\n%s\n", what, line,
		detail);
	abort();
}

/* The id the engine must echo for this line ("" for none), or NULL when the
 * line is answered without an id (a bad id).  The line is cleaned: no
 * control bytes, comment cut. */
static const char *expected_id(const char *line, char *buf, size_t size)
{
	const char *p = line;
	while (*p == ' ')
		p++;
	buf[0] = '\0';
	if (*p < '0' || *p > '9')
		return buf;
	size_t n = strspn(p, "0123456789");
	if (p[n] && p[n] != ' ')
		return NULL;
	while (n > 1 && *p == '0')
		p++, n--;
	if (n > 10 || (n == 10 && strncmp(p, "2147483648", 10) >= 0))
		return NULL;
	if (n >= size)
		return NULL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

/* Checks one framed answer of length n at r; returns its length. */
static size_t check_answer(const char *r, size_t n, const char *line)
{
	if (n < 4 || (r[0] != '=' && r[0] != '?'))
		die("answer does not start with = or ?", line, r);
	const char *end = strstr(r, "\n\n");
	if (!end)
		die("answer without the empty line", line, r);
	size_t len = (size_t)(end - r) + 2;
	const char *sp = memchr(r, ' ', len);
	if (!sp)
		die("no space after =/?[id]", line, r);
	for (const char *p = r + 1; p < sp; p++)
		if (*p < '0' || *p > '9')
			die("junk between =/? and the space", line, r);
	for (const char *p = r; p < end; p++)
		if ((unsigned char)*p < 32 && *p != '\n')
			die("a control byte in an answer", line, r);
	return len;
}

static void text_reset(struct text *t)
{
	text_clear(t);
	text_puts(t, "");
}

static void run_lines(const uint8_t *data, size_t size)
{
	struct session *s = session_new();
	session_set_log(s, NULL);
	struct text out, before, after;
	text_init(&out);
	text_init(&before);
	text_init(&after);
	char *line = malloc(LINE_MAX_BYTES);
	char *clean = malloc(LINE_MAX_BYTES);
	size_t pos = 0;
	int quit = 0;
	while (pos < size && !quit) {
		/* read a line as engine_run does: control bytes other than tab
		 * dropped, cut at LINE_MAX_BYTES - 1 */
		size_t len = 0;
		int too_long = 0;
		for (; pos < size && data[pos] != '\n'; pos++) {
			unsigned char c = data[pos];
			if (c < 32 && c != '\t')
				continue;
			if (len < LINE_MAX_BYTES - 1)
				line[len++] = (char)c;
			else
				too_long = 1;
		}
		pos++;
		line[len] = '\0';
		/* what engine_line will see: tabs as spaces, DEL dropped, the
		 * comment cut */
		size_t k = 0;
		for (size_t i = 0; i < len && line[i] != '#'; i++)
			if (line[i] != 127)
				clean[k++] = line[i] == '\t' ? ' ' : line[i];
		clean[k] = '\0';
		int blank = strspn(clean, " ") == k;

		text_reset(&before);
		engine_line(s, "history", 7, 0, &before);
		text_reset(&out);
		quit = engine_line(s, line, len, too_long, &out);
		if (blank) {
			if (out.len)
				die("an answer to an empty line", clean, out.s);
			continue;
		}
		if (!out.len)
			die("no answer", clean, "");
		size_t n = check_answer(out.s, out.len, clean);
		if (n != out.len)
			die("more than one answer to a line", clean, out.s);
		char idbuf[16];
		const char *id = expected_id(clean, idbuf, sizeof idbuf);
		if (!id && !too_long && (out.s[0] != '?' || out.s[1] != ' '))
			die("a bad id, yet not '? ' without an id", clean,
			    out.s);
		if (id && (strncmp(out.s + 1, id, strlen(id)) ||
			   out.s[1 + strlen(id)] != ' '))
			die("the id is not echoed", clean, out.s);
		if (out.s[0] == '?') {
			text_reset(&after);
			engine_line(s, "history", 7, 0, &after);
			if (strcmp(before.s, after.s))
				die("a failed command changed the game", clean,
				    out.s);
		}
		/* keep genmove and hint quick, whatever the input set */
		text_reset(&out);
		engine_line(s, "set playouts 4", 14, 0, &out);
	}
	free(line);
	free(clean);
	text_free(&out);
	text_free(&before);
	text_free(&after);
	session_free(s);
}

/* The input whole through engine_run, from one temporary file to another. */
static void run_whole(const uint8_t *data, size_t size)
{
	static FILE *in, *out;
	if (!in) {
		in = tmpfile();
		out = tmpfile();
		if (!in || !out)
			abort();
	}
	int ifd = fileno(in), ofd = fileno(out);
	if (ftruncate(ifd, 0) < 0 || ftruncate(ofd, 0) < 0 ||
	    pwrite(ifd, data, size, 0) != (ssize_t)size ||
	    lseek(ifd, 0, SEEK_SET) < 0 || lseek(ofd, 0, SEEK_SET) < 0)
		abort();
	struct session *s = session_new();
	session_set_log(s, NULL);
	if (engine_run(s, ifd, ofd) < 0)
		die("engine_run could not write", "", "");
	session_free(s);
	off_t n = lseek(ofd, 0, SEEK_CUR);
	char *buf = malloc((size_t)n + 1);
	if (!buf || pread(ofd, buf, (size_t)n, 0) != n)
		abort();
	buf[n] = '\0';
	for (size_t at = 0; at < (size_t)n;)
		at += check_answer(buf + at, (size_t)n - at, "(engine_run)");
	free(buf);
}

/* Does the input, as the engine will read it, name genmove or hint? */
static int thinks(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	size_t k = 0;
	for (size_t i = 0; i < size; i++)
		if (data[i] >= 32 && data[i] != 127)
			t[k++] = (char)data[i];
		else if (data[i] == '\t' || data[i] == '\n')
			t[k++] = ' ';
	t[k] = '\0';
	int r = strstr(t, "genmove") || strstr(t, "hint") ||
		strstr(t, "solve") || strstr(t, "analy");
	free(t);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run_lines(data, size);
	if (!thinks(data, size))
		run_whole(data, size);
	return 0;
}
