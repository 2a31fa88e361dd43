/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * perf-results: aggregates perf-harness run outputs into one open-iov-perf/1
 * results.json (shape: docs/READ-ME-FIRST.md, schema/). perf.sh calls it;
 * every number comes from the run files, nothing is typed in.
 *
 * usage: perf-results --role host|guest [--created ISO8601Z] [-o FILE]
 *          [--env FIELD=TEXT]... [--clocks FIELD=NVIDIA_SMI_CLOCK_FILE]...
 *          [--debugfs-before DIR] [--debugfs-after DIR] RUN_FILE...
 */
#define _POSIX_C_SOURCE 200809L
#include "clock_digest.h"
#include "debugfs_read.h"
#include "metric_names.h"
#include "run_parse.h"
#include "stats_json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Fields the template's "environment" must carry (perf.sh fills them). */
static const char *const env_required[] = {
	"module_sha256", "insmod_args", "host_gpu_clocks", "guest_gpu_clocks",
	"commit",
};

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "perf-results: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(2);
}

static void usage(void)
{
	die("usage: perf-results --role host|guest [--created TS] [-o FILE] "
	    "[--env F=TEXT]... [--clocks F=FILE]... [--debugfs-before DIR] "
	    "[--debugfs-after DIR] RUN_FILE...", NULL);
}

/* Appends every metric name seen in the runs that is not yet in names. */
static void add_name(const char ***names, size_t *n, const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return;
	*names = realloc(*names, (*n + 1) * sizeof(**names));
	if (!*names)
		die("out of memory", NULL);
	(*names)[(*n)++] = name;
}

/* Output order: template metrics, copies per size, clock64, extras, rest. */
static const char **metric_order(const struct run_result *runs, size_t nruns,
				 const char *sizes, size_t *count)
{
	const char **names = NULL;
	size_t n = 0, i, r, m;
	char buf[256], *tok, *save = NULL;
	static char copy_names[64][RUN_NAME_LEN];
	size_t ncopy = 0;

	for (i = 0; i + 1 < metric_required_count; i++)
		add_name(&names, &n, metric_required[i]);
	snprintf(buf, sizeof(buf), "%s", sizes);
	for (tok = strtok_r(buf, ",", &save); tok && ncopy + 3 <= 64;
	     tok = strtok_r(NULL, ",", &save)) {
		snprintf(copy_names[ncopy], RUN_NAME_LEN, "copy_htod_%s_gbps", tok);
		add_name(&names, &n, copy_names[ncopy++]);
		snprintf(copy_names[ncopy], RUN_NAME_LEN, "copy_dtoh_%s_gbps", tok);
		add_name(&names, &n, copy_names[ncopy++]);
		snprintf(copy_names[ncopy], RUN_NAME_LEN, "copy_dtod_%s_gbps", tok);
		add_name(&names, &n, copy_names[ncopy++]);
	}
	add_name(&names, &n, metric_required[metric_required_count - 1]);
	for (i = 0; i < metric_extra_count; i++)
		add_name(&names, &n, metric_extra[i]);
	for (r = 0; r < nruns; r++)
		for (m = 0; m < runs[r].nm; m++)
			add_name(&names, &n, runs[r].m[m].name);
	*count = n;
	return names;
}

static json_t *aggregate(const struct run_result *runs, size_t nruns,
			 const char *sizes)
{
	json_t *agg = json_object();
	size_t nnames, i, r;
	const char **names = metric_order(runs, nruns, sizes, &nnames);
	double *v = malloc(nruns * sizeof(*v));

	for (i = 0; i < nnames; i++) {
		size_t n = 0;
		json_t *s;

		for (r = 0; r < nruns; r++) {
			const double *x = run_metric_get(&runs[r], names[i]);
			if (x)
				v[n++] = *x;
		}
		s = stats_json(v, n);
		if (s)
			json_object_set_new(agg, names[i], s);
		/* a metric no run produced is left out; the validator flags it */
	}
	free(v);
	free(names);
	return agg;
}

/*
 * { metric: reason } for every metric a run skipped, so a metric that was
 * not measured says why instead of only being absent. A metric skipped in
 * one run and measured in another is in both places (the validator flags it).
 */
static json_t *skipped(const struct run_result *runs, size_t nruns)
{
	json_t *o = json_object();
	size_t r, i;

	for (r = 0; r < nruns; r++)
		for (i = 0; i < runs[r].nskipped; i++)
			if (!json_object_get(o, runs[r].skipped[i].name))
				json_object_set_new(o, runs[r].skipped[i].name,
						    json_string(runs[r].skipped[i].reason));
	return o;
}

static json_t *host_gr(const char *after_dir)
{
	char why[512];
	json_t *launches = debugfs_gr_launches(after_dir, why, sizeof(why));
	json_t *o = json_object(), *x;
	double *el, *sub;
	size_t n, i;

	if (!launches) {
		json_object_set_new(o, "launches", json_array());
		json_object_set_new(o, "reason", json_string(why));
		return o;
	}
	n = json_array_size(launches);
	el = malloc(n * sizeof(*el));
	sub = malloc(n * sizeof(*sub));
	json_array_foreach(launches, i, x) {
		el[i] = json_number_value(json_object_get(x, "elapsed_ms"));
		sub[i] = json_number_value(json_object_get(x, "submit_to_ok_ms"));
	}
	json_object_set_new(o, "launches", launches);
	json_object_set_new(o, "elapsed_ms", stats_json(el, n));
	json_object_set_new(o, "submit_to_ok_ms", stats_json(sub, n));
	free(el);
	free(sub);
	return o;
}

static json_t *counters(const char *before_dir, const char *after_dir)
{
	char why_b[512] = "", why_a[512] = "";
	json_t *b = debugfs_counters(before_dir, why_b, sizeof(why_b));
	json_t *a = debugfs_counters(after_dir, why_a, sizeof(why_a));
	json_t *o = json_object();

	if (!a || !b) {
		char why[1100];

		/* one reason when both snapshots are missing for the same cause */
		if (!a && !b && strcmp(why_a, why_b))
			snprintf(why, sizeof(why), "before: %s; after: %s", why_b, why_a);
		else
			snprintf(why, sizeof(why), "%s", !b ? why_b : why_a);
		json_object_set_new(o, "before", json_object());
		json_object_set_new(o, "after", json_object());
		json_object_set_new(o, "delta", json_object());
		json_object_set_new(o, "reason", json_string(why));
		json_decref(a);
		json_decref(b);
		return o;
	}
	json_object_set_new(o, "before", b);
	json_object_set_new(o, "after", a);
	json_object_set_new(o, "delta", debugfs_counters_delta(b, a));
	return o;
}

/* Sets env[field] from "field=value"; the value may be empty. */
static void env_set(json_t *env, const char *arg, int clocks)
{
	const char *eq = strchr(arg, '=');
	char field[128], digest[4096];

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(field))
		die("expected FIELD=VALUE", arg);
	memcpy(field, arg, (size_t)(eq - arg));
	field[eq - arg] = '\0';
	if (!clocks) {
		json_object_set_new(env, field, json_string(eq + 1));
		return;
	}
	if (clock_digest_file(eq + 1, digest, sizeof(digest)) != 0)
		snprintf(digest, sizeof(digest),
			 "unavailable: no clock values in %s", eq + 1);
	json_object_set_new(env, field, json_string(digest));
}

int main(int argc, char **argv)
{
	const char *role = NULL, *out = NULL, *created = NULL;
	const char *dbg_before = NULL, *dbg_after = NULL;
	json_t *env = json_object(), *root, *cfg, *ver;
	struct run_result *runs;
	size_t nruns = 0, nfiles = 0, r, i;
	unsigned long long bad = 0, checks = 0;
	unsigned runs_ok = 0;
	const struct run_result *ref = NULL;
	char now[32];
	int a;

	runs = calloc((size_t)argc, sizeof(*runs));
	if (!runs)
		die("out of memory", NULL);
	for (a = 1; a < argc; a++) {
		const char *o = argv[a];
		const char *v = a + 1 < argc ? argv[a + 1] : NULL;
		int takes = 1;

		if (!strcmp(o, "--role") && v)
			role = v;
		else if (!strcmp(o, "-o") && v)
			out = v;
		else if (!strcmp(o, "--created") && v)
			created = v;
		else if (!strcmp(o, "--env") && v)
			env_set(env, v, 0);
		else if (!strcmp(o, "--clocks") && v)
			env_set(env, v, 1);
		else if (!strcmp(o, "--debugfs-before") && v)
			dbg_before = v;
		else if (!strcmp(o, "--debugfs-after") && v)
			dbg_after = v;
		else if (o[0] == '-')
			usage();
		else {
			char err[600];

			takes = 0;
			nfiles++;
			if (run_parse_file(o, &runs[nruns], err, sizeof(err)) != 0) {
				/* counted as a failed run, not silently dropped */
				fprintf(stderr, "perf-results: run failed: %s\n", err);
				continue;
			}
			nruns++;
		}
		a += takes;
	}
	if (!role || (strcmp(role, "host") && strcmp(role, "guest")))
		usage();
	if (!nfiles)
		die("no run files", NULL);
	if (!nruns)
		die("no run produced output", NULL);
	for (i = 0; i < sizeof(env_required) / sizeof(env_required[0]); i++)
		if (!json_is_string(json_object_get(env, env_required[i])))
			die("missing --env/--clocks field", env_required[i]);

	for (r = 0; r < nruns; r++) {
		const struct run_result *x = &runs[r];

		if (!ref && x->device[0])
			ref = x;
		if (ref && x->device[0] && strcmp(x->device, ref->device))
			die("runs disagree on the device", x->device);
		if (strcmp(x->n_warm, runs[0].n_warm) || strcmp(x->n_malloc, runs[0].n_malloc) ||
		    strcmp(x->n_thru, runs[0].n_thru) || strcmp(x->sizes, runs[0].sizes))
			die("runs disagree on run_cfg", NULL);
		if (x->has_verify) {
			bad += x->bad;
			checks += x->checks;
		}
		runs_ok += x->status_ok && x->has_verify && x->bad == 0;
	}
	if (!ref)
		die("no run reached the device query", NULL);
	if (!created) {
		time_t t = time(NULL);

		strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
		created = now;
	}
	if (ref->driver_api_version && !json_object_get(env, "cuda_driver_api_version"))
		json_object_set_new(env, "cuda_driver_api_version",
				    json_integer(ref->driver_api_version));

	root = json_object();
	json_object_set_new(root, "schema", json_string("open-iov-perf/1"));
	json_object_set_new(root, "created", json_string(created));
	json_object_set_new(root, "role", json_string(role));
	json_object_set_new(root, "runs", json_integer((json_int_t)nfiles));
	json_object_set_new(root, "device", json_string(ref->device));
	cfg = json_object();
	json_object_set_new(cfg, "n_warm", json_string(runs[0].n_warm));
	json_object_set_new(cfg, "n_malloc", json_string(runs[0].n_malloc));
	json_object_set_new(cfg, "n_thru", json_string(runs[0].n_thru));
	json_object_set_new(cfg, "sizes", json_string(runs[0].sizes));
	json_object_set_new(root, "run_cfg", cfg);
	ver = json_object();
	json_object_set_new(ver, "status",
			    json_string(runs_ok == nfiles ? "OK" : "FAIL"));
	json_object_set_new(ver, "bad", json_integer((json_int_t)bad));
	json_object_set_new(ver, "checks", json_integer((json_int_t)checks));
	json_object_set_new(ver, "runs_ok", json_integer(runs_ok));
	json_object_set_new(ver, "runs_failed", json_integer((json_int_t)(nfiles - runs_ok)));
	json_object_set_new(root, "verification", ver);
	json_object_set_new(root, "aggregate", aggregate(runs, nruns, runs[0].sizes));
	json_object_set_new(root, "skipped", skipped(runs, nruns));
	json_object_set_new(root, "host_gr", host_gr(dbg_after));
	json_object_set_new(root, "counters", counters(dbg_before, dbg_after));
	json_object_set_new(root, "environment", env);

	if (out ? json_dump_file(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))
		: json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)))
		die("cannot write", out ? out : "stdout");
	if (!out)
		putchar('\n');
	json_decref(root);
	free(runs);
	return runs_ok == nfiles ? 0 : 1;
}
