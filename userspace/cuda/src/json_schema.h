/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A small JSON Schema validator (a subset of draft 2020-12) on jansson, so CI
 * needs no Python. Keywords: type, properties, required,
 * additionalProperties (bool or schema), patternProperties (POSIX ERE),
 * items, minItems, maxItems, enum, const, minimum, maximum, minLength,
 * pattern (POSIX ERE), anyOf, $ref ("#/$defs/NAME"). Annotation keywords
 * ($schema, $id, $comment, title, description, $defs) are skipped; any other
 * keyword is reported as an error rather than silently ignored.
 */
#ifndef PERF_JSON_SCHEMA_H
#define PERF_JSON_SCHEMA_H

#include <jansson.h>
#include <stddef.h>

/*
 * Returns the number of violations (0 = valid). The first few messages,
 * one a line as "PATH: what", go to err.
 */
int json_schema_validate(const json_t *schema, const json_t *instance,
			 char *err, size_t errlen);

#endif
