/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Statistics <-> JSON; the numbers come from stats.c only. */
#include "stats_json.h"
#include "stats.h"

#include <stdlib.h>

json_t *stats_json(const double *v, size_t n)
{
	struct stats s;
	json_t *o, *vals;
	size_t i;

	if (stats_compute(v, n, &s) != 0)
		return NULL;
	vals = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(vals, json_real(v[i]));
	o = json_object();
	json_object_set_new(o, "n", json_integer((json_int_t)s.n));
	json_object_set_new(o, "mean", json_real(s.mean));
	json_object_set_new(o, "median", json_real(s.median));
	json_object_set_new(o, "p50", json_real(s.p50));
	json_object_set_new(o, "p95", json_real(s.p95));
	json_object_set_new(o, "min", json_real(s.min));
	json_object_set_new(o, "max", json_real(s.max));
	json_object_set_new(o, "values", vals);
	return o;
}

double *stats_json_values(const json_t *obj, size_t *n)
{
	json_t *vals = json_object_get(obj, "values");
	double *v;
	size_t i;

	if (!json_is_array(vals) || json_array_size(vals) == 0)
		return NULL;
	*n = json_array_size(vals);
	v = malloc(*n * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < *n; i++) {
		json_t *x = json_array_get(vals, i);

		if (!json_is_number(x)) {
			free(v);
			return NULL;
		}
		v[i] = json_number_value(x);
	}
	return v;
}
