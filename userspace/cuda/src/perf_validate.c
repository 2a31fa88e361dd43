/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * perf-validate SCHEMA RESULTS.json...: schema + semantic checks
 * (results_check.h). Exit 0 if every file is valid, 1 if any is not,
 * 2 if the schema itself cannot be read.
 */
#include "results_check.h"

#include <jansson.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	json_error_t je;
	json_t *schema;
	int i, invalid = 0;
	static char err[8192];

	if (argc < 3) {
		fprintf(stderr, "usage: perf-validate SCHEMA.json RESULTS.json...\n");
		return 2;
	}
	schema = json_load_file(argv[1], JSON_REJECT_DUPLICATES, &je);
	if (!schema) {
		fprintf(stderr, "perf-validate: schema %s: %s (line %d)\n", argv[1],
			je.text, je.line);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		int n = results_validate_file(schema, argv[i], err, sizeof(err));

		if (n) {
			invalid++;
			printf("%s: INVALID (%d problem%s)\n%s", argv[i], n,
			       n == 1 ? "" : "s", err);
		} else {
			printf("%s: valid open-iov-perf/1\n", argv[i]);
		}
	}
	json_decref(schema);
	return invalid ? 1 : 0;
}
