/* text.h: a growable string that responses and board drawings are built in.
 *
 * Handlers and games write into a struct text rather than to a FILE, so that
 * tests can drive them in memory and the engine can frame each response as a
 * whole. */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>

struct text {
	char *s;    /* always NUL-terminated once anything is written */
	size_t len; /* bytes in s, not counting the NUL */
	size_t cap; /* bytes allocated */
};

void text_init(struct text *t);
void text_free(struct text *t);
void text_clear(struct text *t);
void text_putc(struct text *t, char c);
void text_puts(struct text *t, const char *s);
void text_put(struct text *t, const char *s, size_t n);
void text_printf(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
