/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* JSON Schema subset validator; the keyword list is in json_schema.h. */
#define _POSIX_C_SOURCE 200809L
#include "json_schema.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct ctx {
	const json_t *root;
	char *err;
	size_t errlen;
	int quiet; /* inside an anyOf branch: count, don't print */
	int depth;
};

static int fail(struct ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (c->quiet || !c->err)
		return 1;
	n = strlen(c->err);
	if (n + 2 >= c->errlen)
		return 1;
	n += (size_t)snprintf(c->err + n, c->errlen - n, "%s: ", *path ? path : "/");
	if (n + 2 >= c->errlen)
		return 1;
	va_start(ap, fmt);
	n += (size_t)vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	if (n + 2 < c->errlen)
		strcat(c->err, "\n");
	return 1;
}

static int validate(struct ctx *c, const json_t *s, const json_t *v, const char *path);

static int type_ok(const char *t, const json_t *v)
{
	if (!strcmp(t, "object"))
		return json_is_object(v);
	if (!strcmp(t, "array"))
		return json_is_array(v);
	if (!strcmp(t, "string"))
		return json_is_string(v);
	if (!strcmp(t, "number"))
		return json_is_number(v);
	if (!strcmp(t, "integer"))
		return json_is_integer(v) ||
		       (json_is_real(v) && floor(json_real_value(v)) == json_real_value(v));
	if (!strcmp(t, "boolean"))
		return json_is_boolean(v);
	if (!strcmp(t, "null"))
		return json_is_null(v);
	return 0;
}

static int regex_match(struct ctx *c, const char *pat, const char *s,
		       const char *path, int *errs)
{
	regex_t re;
	int m;

	if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB)) {
		*errs += fail(c, path, "schema pattern does not compile: %s", pat);
		return 0;
	}
	m = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return m;
}

static const json_t *resolve_ref(struct ctx *c, const char *ref)
{
	const char *pre = "#/$defs/";

	if (strncmp(ref, pre, strlen(pre)))
		return NULL;
	return json_object_get(json_object_get(c->root, "$defs"), ref + strlen(pre));
}

static void child_path(char *out, size_t len, const char *path, const char *key)
{
	snprintf(out, len, "%s/%s", path, key);
}

static int check_object(struct ctx *c, const json_t *s, const json_t *v,
			const char *path)
{
	const json_t *props = json_object_get(s, "properties");
	const json_t *pprops = json_object_get(s, "patternProperties");
	const json_t *addl = json_object_get(s, "additionalProperties");
	const json_t *req = json_object_get(s, "required"), *x;
	const char *key;
	char sub[1024];
	int errs = 0;
	size_t i;

	json_array_foreach(req, i, x)
		if (!json_object_get(v, json_string_value(x)))
			errs += fail(c, path, "missing required \"%s\"", json_string_value(x));
	json_object_foreach((json_t *)v, key, x) {
		const json_t *ps = json_object_get(props, key), *pv;
		const char *pk;
		int matched = ps != NULL;

		child_path(sub, sizeof(sub), path, key);
		if (ps)
			errs += validate(c, ps, x, sub);
		json_object_foreach((json_t *)pprops, pk, pv) {
			if (regex_match(c, pk, key, path, &errs)) {
				matched = 1;
				errs += validate(c, pv, x, sub);
			}
		}
		if (matched || !addl)
			continue;
		if (json_is_false(addl))
			errs += fail(c, path, "unexpected property \"%s\"", key);
		else if (json_is_object(addl))
			errs += validate(c, addl, x, sub);
	}
	return errs;
}

static int validate(struct ctx *c, const json_t *s, const json_t *v, const char *path)
{
	const char *kw;
	const json_t *arg;
	int errs = 0;

	if (++c->depth > 64) {
		c->depth--;
		return fail(c, path, "schema nests too deep ($ref loop?)");
	}
	if (json_is_true(s)) {
		c->depth--;
		return 0;
	}
	if (!json_is_object(s)) {
		c->depth--;
		return fail(c, path, "schema is not an object");
	}
	json_object_foreach((json_t *)s, kw, arg) {
		if (!strcmp(kw, "$schema") || !strcmp(kw, "$id") || !strcmp(kw, "$comment") ||
		    !strcmp(kw, "title") || !strcmp(kw, "description") || !strcmp(kw, "$defs") ||
		    !strcmp(kw, "properties") || !strcmp(kw, "patternProperties") ||
		    !strcmp(kw, "additionalProperties") || !strcmp(kw, "required")) {
			continue; /* annotations, or handled in check_object */
		} else if (!strcmp(kw, "type")) {
			int ok = 0;
			size_t i;
			const json_t *t;

			if (json_is_string(arg))
				ok = type_ok(json_string_value(arg), v);
			json_array_foreach(arg, i, t)
				ok |= type_ok(json_string_value(t), v);
			if (!ok)
				errs += fail(c, path, "wrong type (want %s)",
					     json_is_string(arg) ? json_string_value(arg) : "one of several");
		} else if (!strcmp(kw, "const")) {
			if (!json_equal((json_t *)arg, (json_t *)v))
				errs += fail(c, path, "value differs from the required constant");
		} else if (!strcmp(kw, "enum")) {
			size_t i;
			const json_t *e;
			int ok = 0;

			json_array_foreach(arg, i, e)
				ok |= json_equal((json_t *)e, (json_t *)v);
			if (!ok)
				errs += fail(c, path, "value not in enum");
		} else if (!strcmp(kw, "minimum") || !strcmp(kw, "maximum")) {
			if (json_is_number(v)) {
				double x = json_number_value(v), lim = json_number_value(arg);
				int lo = kw[1] == 'i';

				if (lo ? x < lim : x > lim)
					errs += fail(c, path, "%g is %s %g", x,
						     lo ? "below the minimum" : "above the maximum", lim);
			}
		} else if (!strcmp(kw, "minLength")) {
			if (json_is_string(v) &&
			    json_string_length(v) < (size_t)json_integer_value(arg))
				errs += fail(c, path, "string shorter than %lld",
					     (long long)json_integer_value(arg));
		} else if (!strcmp(kw, "pattern")) {
			if (json_is_string(v) &&
			    !regex_match(c, json_string_value(arg), json_string_value(v), path, &errs))
				errs += fail(c, path, "\"%s\" does not match %s",
					     json_string_value(v), json_string_value(arg));
		} else if (!strcmp(kw, "items")) {
			size_t i;
			const json_t *e;
			char sub[1024];

			json_array_foreach(v, i, e) {
				snprintf(sub, sizeof(sub), "%s/%zu", path, i);
				errs += validate(c, arg, e, sub);
			}
		} else if (!strcmp(kw, "minItems") || !strcmp(kw, "maxItems")) {
			if (json_is_array(v)) {
				size_t n = json_array_size(v), lim = (size_t)json_integer_value(arg);
				int lo = kw[1] == 'i';

				if (lo ? n < lim : n > lim)
					errs += fail(c, path, "array has %zu items, %s %zu", n,
						     lo ? "fewer than" : "more than", lim);
			}
		} else if (!strcmp(kw, "anyOf")) {
			size_t i;
			const json_t *br;
			int ok = 0, q = c->quiet;

			c->quiet = 1;
			json_array_foreach(arg, i, br)
				ok |= validate(c, br, v, path) == 0;
			c->quiet = q;
			if (!ok)
				errs += fail(c, path, "matches none of the anyOf alternatives");
		} else if (!strcmp(kw, "$ref")) {
			const json_t *t = resolve_ref(c, json_string_value(arg));

			if (!t)
				errs += fail(c, path, "unresolvable $ref %s",
					     json_string_value(arg) ? json_string_value(arg) : "?");
			else
				errs += validate(c, t, v, path);
		} else {
			errs += fail(c, path, "schema keyword \"%s\" is not supported", kw);
		}
	}
	if (json_is_object(v))
		errs += check_object(c, s, v, path);
	c->depth--;
	return errs;
}

int json_schema_validate(const json_t *schema, const json_t *instance,
			 char *err, size_t errlen)
{
	struct ctx c = { schema, err, errlen, 0, 0 };

	if (err && errlen)
		err[0] = '\0';
	return validate(&c, schema, instance, "");
}
