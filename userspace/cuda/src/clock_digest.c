/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Digest of nvidia-smi's CLOCK query; see clock_digest.h. */
#define _POSIX_C_SOURCE 200809L
#include "clock_digest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

static size_t indent_of(const char *s)
{
	size_t n = 0;

	while (s[n] == ' ')
		n++;
	return n;
}

static void append(char *out, size_t outlen, const char *s)
{
	size_t n = strlen(out);

	if (n + 1 < outlen)
		snprintf(out + n, outlen - n, "%s", s);
}

/* A value is worth keeping if it carries a digit (skips N/A, Not Found). */
static int has_digit(const char *s)
{
	for (; *s; s++)
		if (isdigit((unsigned char)*s))
			return 1;
	return 0;
}

int clock_digest_file(const char *path, char *out, size_t outlen)
{
	FILE *f = fopen(path, "r");
	char line[512], section[512] = "", pending[540] = "";
	int values = 0, in_section_values = 0;

	if (!f || outlen == 0)
		return -1;
	out[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *colon, *key, *val;
		size_t ind;

		trim(line);
		ind = indent_of(line);
		colon = strchr(line, ':');
		if (!strncmp(line, "Driver Version", 14) && colon) {
			val = colon + 1;
			while (*val == ' ')
				val++;
			append(out, outlen, "driver ");
			append(out, outlen, val);
		} else if (!strncmp(line, "GPU ", 4) && ind == 0) {
			append(out, outlen, out[0] ? " | " : "");
			append(out, outlen, line);
		} else if (ind == 4 && line[4] && !colon) {
			snprintf(section, sizeof(section), "%s", line + 4);
			in_section_values = 0;
		} else if (ind >= 8 && colon && section[0]) {
			*colon = '\0';
			key = line + ind;
			trim(key);
			val = colon + 1;
			while (*val == ' ')
				val++;
			if (!has_digit(val))
				continue;
			if (!in_section_values) {
				snprintf(pending, sizeof(pending), " | %s: ", section);
				append(out, outlen, pending);
			} else {
				append(out, outlen, ", ");
			}
			append(out, outlen, key);
			append(out, outlen, "=");
			append(out, outlen, val);
			in_section_values = 1;
			values++;
		}
	}
	fclose(f);
	return values ? 0 : -1;
}
