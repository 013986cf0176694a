/* engine_web.c: the engine's main in the WebAssembly build (make web).
 *
 * The same protocol loop as the native program (engine_run_io, engine.h),
 * with input and output that JavaScript provides (library.js): in a
 * browser's Web Worker, messages from the page; under Node, stdin and
 * stdout.  While the computer thinks the loop asks for input about once a
 * millisecond without waiting; library.js then lets the host's event loop
 * run now and then (Asyncify unwinds the stack and rewinds it), so that a
 * `stop` or the line that ends an analyze stream can arrive. */
#include <stdio.h>
#include <stdlib.h>

#include "../engine.h"

/* Provided by library.js. */
extern long web_read(char *buf, size_t n, int wait);
extern long web_write(const char *buf, size_t n);

static long io_read(void *ctx, char *buf, size_t n, int wait)
{
	(void)ctx;
	return web_read(buf, n, wait);
}

static long io_write(void *ctx, const char *buf, size_t n)
{
	(void)ctx;
	return web_write(buf, n);
}

int main(void)
{
	static const struct engine_io io = {NULL, io_read, io_write};
	struct session *s = session_new();
	int r = engine_run_io(s, &io);
	session_free(s);
	exit(r < 0 ? 1 : 0);
}
