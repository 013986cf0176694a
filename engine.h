/* engine.h: the protocol engine as a library, so that main.c and the tests
 * drive the same code.  See protocol.md for the protocol itself. */
#ifndef ENGINE_H
#define ENGINE_H

#include <stddef.h>
#include <stdio.h>

#include "games/util/text.h"

#define ENGINE_NAME "quintet"
#define ENGINE_VERSION "0.2.0"
#define LINE_MAX_BYTES                                                         \
	65536 /* longest command line, control bytes not counted */

struct session;

/* A session with no game, the default settings and a seed from the clock. */
struct session *session_new(void);
void session_free(struct session *s);

/* Where search information goes (stderr by default; NULL for none). */
void session_set_log(struct session *s, FILE *log);

/* Executes one command line (without its '\n'; control bytes are dropped
 * here) and appends the framed response, if any, to out.  `too_long` says the
 * line was cut at LINE_MAX_BYTES.  Returns 1 after `quit`, else 0.  Driven
 * this way, with no input to watch, the computer thinks its full time and
 * an analyze stream ends at once. */
int engine_line(struct session *s, const char *line, size_t len, int too_long,
		struct text *out);

/* Reads commands from in_fd until quit or end of input, answering on
 * out_fd.  Output is flushed whenever the engine is about to wait for input
 * (and as an analyze stream goes).  While the computer thinks it reads
 * ahead: a `stop` waiting as the next line ends the thinking.  Returns 1
 * after quit, 0 at the end of input, -1 when out_fd cannot be written. */
int engine_run(struct session *s, int in_fd, int out_fd);

/* Where engine_run_io reads its input and writes its answers, for a
 * frontend that is no pair of file descriptors (the WebAssembly build's
 * worker, web/).  read takes up to n bytes: with `wait` it waits for them,
 * without it takes only what is there already (0 when nothing is); it
 * returns the bytes taken, or -1 at the end of input.  write returns the
 * bytes written, or -1 when nothing more can be written. */
struct engine_io {
	void *ctx;
	long (*read)(void *ctx, char *buf, size_t n, int wait);
	long (*write)(void *ctx, const char *buf, size_t n);
};

/* engine_run over io. */
int engine_run_io(struct session *s, const struct engine_io *io);

/* The computer player's typed results (games/ai/ai.h, struct ai_result) as
 * text, appended to out: the search line of a genmove or hint that took
 * ms milliseconds (the log's `ai: ...`), and an analyze line (protocol.md,
 * "analyze"), for the search of the position st of game g. */
struct game;
struct ai_result;
void engine_search_line(const struct game *g, const void *st,
			const struct ai_result *res, double ms,
			struct text *out);
void engine_info_line(const struct game *g, const void *st,
		      const struct ai_result *res, struct text *out);

#endif
