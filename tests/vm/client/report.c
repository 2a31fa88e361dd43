/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Result lines in the rig's protocol; stdout is line buffered by main. */
#include <stdarg.h>
#include <stdio.h>
#include "rig.h"

int n_pass, n_fail, n_skip;

void pass(const char *name)
{
	n_pass++;
	printf("PASS %s\n", name);
}

static void vline(const char *tag, const char *name, const char *fmt, va_list ap)
{
	printf("%s %s: ", tag, name);
	vprintf(fmt, ap);
	putchar('\n');
}

void fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	n_fail++;
	va_start(ap, fmt);
	vline("FAIL", name, fmt, ap);
	va_end(ap);
}

void skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	n_skip++;
	va_start(ap, fmt);
	vline("SKIP", name, fmt, ap);
	va_end(ap);
}

bool check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		pass(name);
		return true;
	}
	n_fail++;
	va_start(ap, fmt);
	vline("FAIL", name, fmt, ap);
	va_end(ap);
	return false;
}

void info(const char *fmt, ...)
{
	va_list ap;

	fputs("  ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}
