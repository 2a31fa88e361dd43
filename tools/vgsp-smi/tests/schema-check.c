// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * schema-check: validate JSON documents against tools/vgsp-smi/schema.json
 * with jansson. Implements the JSON Schema keywords that schema uses:
 * type, enum, const, required, properties, additionalProperties, items,
 * minimum, $ref (#/$defs/NAME), oneOf, allOf.
 *
 *   schema-check SCHEMA [--def NAME] [--lines] FILE
 *   schema-check [SCHEMA] --get PATH FILE   print one value: PATH is .a.b[2].c
 *
 * --def validates against #/$defs/NAME instead of the root; --lines takes
 * one document per line (dmon --json). Prints "ok N" or the first
 * violation with its JSON path; exit 0 valid, 1 invalid, 2 usage/IO.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *root_schema;
static char why[8192];

static int type_is(json_t *v, const char *t)
{
	if (!strcmp(t, "object")) return json_is_object(v);
	if (!strcmp(t, "array")) return json_is_array(v);
	if (!strcmp(t, "string")) return json_is_string(v);
	if (!strcmp(t, "integer")) return json_is_integer(v);
	if (!strcmp(t, "number")) return json_is_number(v);
	if (!strcmp(t, "boolean")) return json_is_boolean(v);
	if (!strcmp(t, "null")) return json_is_null(v);
	return 0;
}

static const char *type_of(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "object";
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "integer";
	case JSON_REAL: return "number";
	case JSON_TRUE: case JSON_FALSE: return "boolean";
	default: return "null";
	}
}

static int bad(const char *path, const char *fmt, const char *a, const char *b)
{
	char m[512];

	snprintf(m, sizeof(m), fmt, a, b);
	snprintf(why, sizeof(why), "%s: %s", *path ? path : "$", m);
	return 0;
}

static int valid(json_t *v, json_t *s, const char *path);

static json_t *deref(const char *ref)
{
	if (strncmp(ref, "#/$defs/", 8))
		return NULL;
	return json_object_get(json_object_get(root_schema, "$defs"), ref + 8);
}

static int valid(json_t *v, json_t *s, const char *path)
{
	json_t *k, *x, *sub;
	const char *key;
	size_t i;
	char p[1024];

	if ((k = json_object_get(s, "$ref"))) {
		sub = deref(json_string_value(k));
		if (!sub)
			return bad(path, "unresolvable $ref %s%s", json_string_value(k), "");
		if (!valid(v, sub, path))
			return 0;
	}
	if ((k = json_object_get(s, "allOf")))
		json_array_foreach(k, i, sub)
			if (!valid(v, sub, path))
				return 0;
	if ((k = json_object_get(s, "oneOf"))) {
		int n = 0;
		char first[4096] = "";

		json_array_foreach(k, i, sub) {
			if (valid(v, sub, path))
				n++;
			else if (!*first)
			{
				memcpy(first, why, sizeof(first) - 1);
				first[sizeof(first) - 1] = 0;
			}
		}
		if (n != 1) {
			if (n == 0)
				snprintf(why, sizeof(why), "matches no oneOf branch (first: %s)", first);
			else
				bad(path, "matches %s oneOf branches%s", "several", "");
			return 0;
		}
	}
	if ((k = json_object_get(s, "type"))) {
		int ok = 0;

		if (json_is_string(k))
			ok = type_is(v, json_string_value(k));
		else
			json_array_foreach(k, i, x)
				ok |= type_is(v, json_string_value(x));
		if (!ok)
			return bad(path, "type %s not allowed (want %s)", type_of(v),
				   json_is_string(k) ? json_string_value(k) : "one of the listed types");
	}
	if ((k = json_object_get(s, "const")) && !json_equal(v, k))
		return bad(path, "value is not the constant %s%s",
			   json_is_string(k) ? json_string_value(k) : "?", "");
	if ((k = json_object_get(s, "enum"))) {
		int ok = 0;

		json_array_foreach(k, i, x)
			ok |= json_equal(v, x);
		if (!ok)
			return bad(path, "value %s not in enum%s", json_is_string(v) ? json_string_value(v) : "?", "");
	}
	if ((k = json_object_get(s, "minimum")) && json_is_number(v) &&
	    json_number_value(v) < json_number_value(k))
		return bad(path, "below minimum%s%s", "", "");
	if (json_is_object(v)) {
		json_array_foreach(json_object_get(s, "required"), i, x)
			if (!json_object_get(v, json_string_value(x)))
				return bad(path, "required field '%s' missing%s", json_string_value(x), "");
		json_object_foreach(v, key, x) {
			snprintf(p, sizeof(p), "%s.%s", *path ? path : "$", key);
			sub = json_object_get(json_object_get(s, "properties"), key);
			if (!sub)
				sub = json_object_get(s, "additionalProperties");
			if (json_is_false(sub))
				return bad(p, "field not allowed%s%s", "", "");
			if (json_is_object(sub) && !valid(x, sub, p))
				return 0;
		}
	}
	if (json_is_array(v) && (sub = json_object_get(s, "items")))
		json_array_foreach(v, i, x) {
			snprintf(p, sizeof(p), "%s[%zu]", *path ? path : "$", i);
			if (!valid(x, sub, p))
				return 0;
		}
	return 1;
}

/* --get: the value at .key / [n] steps; strings unquoted, "null" if absent. */
static int get(const char *path, const char *file)
{
	json_error_t e;
	json_t *v = json_load_file(file, 0, &e);
	const char *p = path;
	char key[256];

	if (!v) {
		fprintf(stderr, "schema-check: %s: %s\n", file, e.text);
		return 2;
	}
	while (v && *p) {
		if (*p == '.') {
			size_t n = strcspn(p + 1, ".[");

			snprintf(key, sizeof(key), "%.*s", (int)n, p + 1);
			v = json_object_get(v, key);
			p += 1 + n;
		} else if (*p == '[') {
			v = json_array_get(v, strtoul(p + 1, NULL, 10));
			p = strchr(p, ']');
			p = p ? p + 1 : "";
		} else {
			fprintf(stderr, "schema-check: bad path %s\n", path);
			return 2;
		}
	}
	if (!v)
		printf("absent\n");
	else if (json_is_string(v))
		printf("%s\n", json_string_value(v));
	else if (json_is_array(v) || json_is_object(v))
		printf("%zu\n", json_is_array(v) ? json_array_size(v) : json_object_size(v));
	else {
		char *d = json_dumps(v, JSON_ENCODE_ANY);

		printf("%s\n", d);
		free(d);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *def = NULL, *file = NULL;
	json_t *schema, *doc;
	json_error_t e;
	int i, lines = 0, n = 0;

	if (argc == 4 && !strcmp(argv[1], "--get"))
		return get(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[2], "--get"))	/* SCHEMA --get: the VM wrapper's form */
		return get(argv[3], argv[4]);
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--def") && i + 1 < argc)
			def = argv[++i];
		else if (!strcmp(argv[i], "--lines"))
			lines = 1;
		else
			file = argv[i];
	}
	if (argc < 3 || !file) {
		fprintf(stderr, "usage: schema-check SCHEMA [--def NAME] [--lines] FILE\n");
		return 2;
	}
	root_schema = json_load_file(argv[1], 0, &e);
	if (!root_schema) {
		fprintf(stderr, "schema-check: %s: %s (line %d)\n", argv[1], e.text, e.line);
		return 2;
	}
	schema = def ? json_object_get(json_object_get(root_schema, "$defs"), def) : root_schema;
	if (!schema) {
		fprintf(stderr, "schema-check: no $defs/%s\n", def);
		return 2;
	}
	if (lines) {
		FILE *f = fopen(file, "r");
		char buf[1 << 16];

		if (!f) {
			perror(file);
			return 2;
		}
		while (fgets(buf, sizeof(buf), f)) {
			doc = json_loads(buf, 0, &e);
			if (!doc) {
				printf("invalid: line %d: not JSON: %s\n", n + 1, e.text);
				return 1;
			}
			if (!valid(doc, schema, "")) {
				printf("invalid: line %d: %s\n", n + 1, why);
				return 1;
			}
			json_decref(doc);
			n++;
		}
		fclose(f);
	} else {
		doc = json_load_file(file, 0, &e);
		if (!doc) {
			printf("invalid: not JSON: %s (line %d)\n", e.text, e.line);
			return 1;
		}
		if (!valid(doc, schema, "")) {
			printf("invalid: %s\n", why);
			return 1;
		}
		n = 1;
	}
	printf("ok %d\n", n);
	return 0;
}
