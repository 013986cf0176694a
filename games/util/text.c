/* text.c: the growable string of text.h.  Out of memory is fatal: the engine
 * cannot answer anything sensible without memory, and saying so on stderr is
 * better than a silent crash. */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(struct text *t, size_t extra)
{
	if (t->len + extra + 1 <= t->cap)
		return;
	size_t cap = t->cap ? t->cap : 256;
	while (cap < t->len + extra + 1)
		cap *= 2;
	char *s = realloc(t->s, cap);
	if (!s) {
		fputs("engine: out of memory\n", stderr);
		exit(1);
	}
	t->s = s;
	t->cap = cap;
}

void text_init(struct text *t)
{
	t->s = NULL;
	t->len = t->cap = 0;
	reserve(t, 0);
	t->s[0] = '\0';
}

void text_free(struct text *t)
{
	free(t->s);
	t->s = NULL;
	t->len = t->cap = 0;
}

void text_clear(struct text *t)
{
	t->len = 0;
	if (t->s)
		t->s[0] = '\0';
}

void text_put(struct text *t, const char *s, size_t n)
{
	reserve(t, n);
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

void text_putc(struct text *t, char c)
{
	text_put(t, &c, 1);
}

void text_puts(struct text *t, const char *s)
{
	text_put(t, s, strlen(s));
}

void text_printf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	reserve(t, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}
