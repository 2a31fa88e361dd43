/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ab-report: compares A (bare metal) and B (guest) open-iov-perf/1 results
 * and writes a Markdown table plus an SVG chart of oriented B-vs-A perf %
 * per metric (rules and targets: ab_metrics.h).
 *
 * usage: ab-report [--schema SCHEMA.json] [--strict] [--md OUT.md]
 *                  [--svg OUT.svg] [--devices-may-differ]
 *                  [--bound GLOB=LABEL]... [--ref LABEL=R.json]... A.json B.json
 * Refuses (exit 2) inputs that are invalid, or whose device or run_cfg
 * differ: such a ratio would compare different workloads. Exit 1 with
 * --strict when a metric misses its target or a side failed verification.
 * --devices-may-differ: A is bare metal (role host) and B a guest whose vGPU
 * presents another name than the GPU that runs its work; both names are
 * printed. --bound: relabel what bounds the matching metrics (the default
 * labels and their meaning: ab_metrics.h; first matching --bound wins).
 * --ref LABEL=R.json: another run of the same run_cfg (e.g. A with sparse
 * launches, "A-sparse") shown in a table of its own beside A and B; the
 * main table stays B vs A. A metric a side skipped is listed with the
 * harness's reason and counted as not measured, never as a pass.
 */
#define _POSIX_C_SOURCE 200809L
#include "ab_metrics.h"
#include "ab_svg.h"
#include "results_check.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void refuse(const char *fmt, const char *a, const char *b, const char *c)
{
	fprintf(stderr, "ab-report: refusing to compare: ");
	fprintf(stderr, fmt, a, b, c);
	fputc('\n', stderr);
	exit(2);
}

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "?";
}

static json_t *load(const char *path, const json_t *schema)
{
	json_error_t je;
	json_t *doc;
	static char err[8192];

	if (schema && results_validate_file(schema, path, err, sizeof(err))) {
		fprintf(stderr, "%s", err);
		refuse("%s is not a valid open-iov-perf/1 result%s%s", path, "", "");
	}
	doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!doc) {
		fprintf(stderr, "ab-report: %s: %s (line %d)\n", path, je.text, je.line);
		refuse("%s is not JSON%s%s", path, "", "");
	}
	if (strcmp(str(doc, "schema"), "open-iov-perf/1"))
		refuse("%s has schema \"%s\", not open-iov-perf/1%s", path, str(doc, "schema"), "");
	return doc;
}

/* Same device and identical run_cfg, key by key, or refuse. */
static void require_comparable(const json_t *a, const json_t *b, int devices_may_differ)
{
	const json_t *ca = json_object_get(a, "run_cfg"), *cb = json_object_get(b, "run_cfg"), *v;
	const char *k;

	if (strcmp(str(a, "device"), str(b, "device"))) {
		if (!devices_may_differ)
			refuse("devices differ (A: \"%s\", B: \"%s\")%s", str(a, "device"),
			       str(b, "device"), "");
		if (strcmp(str(a, "role"), "host") || strcmp(str(b, "role"), "guest"))
			refuse("devices differ (A: \"%s\", B: \"%s\") and --devices-may-differ "
			       "needs A role host, B role guest%s", str(a, "device"), str(b, "device"), "");
	}
	if (!json_is_object(ca) || !json_is_object(cb))
		refuse("a run_cfg is missing%s%s%s", "", "", "");
	json_object_foreach((json_t *)ca, k, v)
		if (!json_equal(v, json_object_get(cb, k)))
			refuse("run_cfg.%s differs (A: %s, B: %s)", k, str(ca, k),
			       json_object_get(cb, k) ? str(cb, k) : "absent");
	json_object_foreach((json_t *)cb, k, v)
		if (!json_object_get(ca, k))
			refuse("run_cfg.%s is only in B (%s)%s", k, str(cb, k), "");
}

static void side(const json_t *m, struct ab_side *s)
{
	s->n = (size_t)json_integer_value(json_object_get(m, "n"));
	s->median = json_number_value(json_object_get(m, "median"));
	s->min = json_number_value(json_object_get(m, "min"));
	s->max = json_number_value(json_object_get(m, "max"));
}

static void describe(FILE *f, const char *label, const char *path, const json_t *d)
{
	const json_t *env = json_object_get(d, "environment");
	const json_t *ver = json_object_get(d, "verification");

	fprintf(f, "| %s | `%s` | %s | %s | %s | %lld | %s (bad %lld) | `%s` |\n", label, path,
		str(d, "role"), str(d, "device"), str(d, "created"),
		json_integer_value(json_object_get(d, "runs")),
		str(ver, "status"), json_integer_value(json_object_get(ver, "bad")),
		str(env, "commit"));
}

/* Median (4 significant digits, no exponent for big numbers), n, and
 * +-half of the (max-min)/median spread. */
static void cell(FILE *f, const struct ab_side *s, double spread)
{
	if (s->median >= 1000.0)
		fprintf(f, " %.0f", s->median);
	else
		fprintf(f, " %.4g", s->median);
	fprintf(f, " (n=%zu, ±%.1f%%) |", s->n, spread / 2.0);
}

/* The reason B (or A) gave for not measuring name, or NULL. */
static const char *skip_reason(const json_t *d, const char *name)
{
	return json_string_value(json_object_get(json_object_get(d, "skipped"), name));
}

static void ref_cell(FILE *f, const json_t *m)
{
	struct ab_side s;

	side(m, &s);
	cell(f, &s, 100.0 * (s.max - s.min) / s.median);
}

/* Oriented perf % of r (b vs a), or a dash when no ratio can be formed. */
static void perf_cell(FILE *f, struct ab_row *r)
{
	if (ab_compute(r) != 0)
		fputs(" — |", f);
	else
		fprintf(f, " %.1f |", r->perf_pct);
}

/* One table per reference: A, the reference, B, and the oriented ratios. */
static void ref_table(FILE *md, const char *label, const char *path, const json_t *schema,
		      const json_t *A, const json_t *B)
{
	static char err[8192];
	json_error_t je;
	const json_t *ca, *cr, *m;
	const char *name;
	json_t *R;

	fprintf(md, "\n### Reference run: %s (`%s`)\n\n", label, path);
	if (schema && results_validate_file(schema, path, err, sizeof(err))) {
		fprintf(md, "Left out: not a valid open-iov-perf/1 result:\n\n```\n%s```\n", err);
		return;
	}
	R = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!R) {
		fprintf(md, "Left out: %s (line %d).\n", je.text, je.line);
		return;
	}
	ca = json_object_get(A, "run_cfg");
	cr = json_object_get(R, "run_cfg");
	if (!json_equal((json_t *)ca, (json_t *)cr)) {
		fprintf(md, "Left out: its run_cfg differs from A's.\n");
		json_decref(R);
		return;
	}
	fprintf(md, "role %s, device %s, %lld runs, verification %s, harness_args `%s`. "
		    "The main table above is B vs A; this one puts %s beside them "
		    "(perf %% oriented as above, 100%% = the left side's figure).\n\n",
		str(R, "role"), str(R, "device"), json_integer_value(json_object_get(R, "runs")),
		str(json_object_get(R, "verification"), "status"),
		str(json_object_get(R, "environment"), "harness_args"), label);
	fprintf(md, "| metric | A median | %s median | B median | %s vs A perf %% | "
		    "B vs A perf %% | B vs %s perf %% |\n|---|---|---|---|---|---|---|\n",
		label, label, label);
	json_object_foreach(json_object_get(A, "aggregate"), name, m) {
		const json_t *mr = json_object_get(json_object_get(R, "aggregate"), name);
		const json_t *mb = json_object_get(json_object_get(B, "aggregate"), name);
		struct ab_row ra = { 0 }, ba = { 0 }, br = { 0 };

		if (!mr)
			continue;
		ra.name = ba.name = br.name = name;
		side(m, &ra.a), side(mr, &ra.b);
		fprintf(md, "| `%s` |", name);
		ref_cell(md, m);
		ref_cell(md, mr);
		if (mb)
			ref_cell(md, mb);
		else
			fprintf(md, " %s |", skip_reason(B, name) ? "skipped" : "missing");
		perf_cell(md, &ra);
		if (mb) {
			side(m, &ba.a), side(mb, &ba.b);
			side(mr, &br.a), side(mb, &br.b);
			perf_cell(md, &ba);
			perf_cell(md, &br);
			fputc('\n', md);
		} else {
			fputs(" — | — |\n", md);
		}
	}
	json_decref(R);
}

int main(int argc, char **argv)
{
	const char *md_path = NULL, *svg_path = NULL, *pa = NULL, *pb = NULL, *name;
	json_t *schema = NULL, *A, *B, *m;
	struct ab_row *rows;
	size_t nrows = 0, flagged = 0, flagged_guest = 0, i, nbound = 0, k;
	const char *bounds[32], *refs[4];
	size_t nref = 0, nskip = 0;
	int strict = 0, a, unverified, devices_may_differ = 0;
	FILE *md = stdout;
	char title[512];

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--schema") && a + 1 < argc) {
			json_error_t je;

			schema = json_load_file(argv[++a], 0, &je);
			if (!schema) {
				fprintf(stderr, "ab-report: schema %s: %s\n", argv[a], je.text);
				return 2;
			}
		} else if (!strcmp(argv[a], "--md") && a + 1 < argc) {
			md_path = argv[++a];
		} else if (!strcmp(argv[a], "--svg") && a + 1 < argc) {
			svg_path = argv[++a];
		} else if (!strcmp(argv[a], "--strict")) {
			strict = 1;
		} else if (!strcmp(argv[a], "--devices-may-differ")) {
			devices_may_differ = 1;
		} else if (!strcmp(argv[a], "--bound") && a + 1 < argc) {
			struct ab_class probe;

			if (nbound == sizeof(bounds) / sizeof(bounds[0]) ||
			    ab_bound_override(argv[a + 1], "", &probe) < 0) {
				fprintf(stderr, "ab-report: --bound wants GLOB=LABEL (at most 32): %s\n",
					argv[a + 1]);
				return 2;
			}
			bounds[nbound++] = argv[++a];
		} else if (!strcmp(argv[a], "--ref") && a + 1 < argc) {
			const char *eq = strchr(argv[a + 1], '=');

			if (nref == sizeof(refs) / sizeof(refs[0]) || !eq || eq == argv[a + 1] || !eq[1]) {
				fprintf(stderr, "ab-report: --ref wants LABEL=FILE (at most 4): %s\n",
					argv[a + 1]);
				return 2;
			}
			refs[nref++] = argv[++a];
		} else if (argv[a][0] != '-' && !pa) {
			pa = argv[a];
		} else if (argv[a][0] != '-' && !pb) {
			pb = argv[a];
		} else {
			pa = NULL;
			break;
		}
	}
	if (!pa || !pb) {
		fprintf(stderr, "usage: ab-report [--schema S.json] [--strict] [--md OUT.md] "
				"[--svg OUT.svg] [--devices-may-differ] [--bound GLOB=LABEL]... "
				"[--ref LABEL=R.json]... A.json B.json\n");
		return 2;
	}
	A = load(pa, schema);
	B = load(pb, schema);
	require_comparable(A, B, devices_may_differ);

	rows = calloc(json_object_size(json_object_get(A, "aggregate")) + 1, sizeof(*rows));
	json_object_foreach(json_object_get(A, "aggregate"), name, m) {
		json_t *mb = json_object_get(json_object_get(B, "aggregate"), name);
		struct ab_row *r = &rows[nrows];

		if (!mb)
			continue; /* listed below as missing */
		r->name = name;
		side(m, &r->a);
		side(mb, &r->b);
		if (ab_compute(r) != 0) {
			fprintf(stderr, "ab-report: %s: a non-positive value, no ratio\n", name);
			continue;
		}
		for (k = 0; k < nbound; k++)
			if (ab_bound_override(bounds[k], name, &r->cls) == 1)
				break;
		flagged += (size_t)r->flagged;
		flagged_guest += (size_t)(r->flagged && r->cls.guest_cpu_bound);
		nrows++;
	}
	unverified = strcmp(str(json_object_get(A, "verification"), "status"), "OK") ||
		     strcmp(str(json_object_get(B, "verification"), "status"), "OK");

	if (md_path && !(md = fopen(md_path, "w"))) {
		perror(md_path);
		return 2;
	}
	snprintf(title, sizeof(title), "%s: B (%s) vs A (%s)", str(A, "device"),
		 str(B, "role"), str(A, "role"));
	fprintf(md, "# A/B report — %s\n\n", title);
	if (unverified)
		fprintf(md, "**WARNING: a side failed verification; its numbers are not "
			    "evidence.**\n\n");
	fputs("| side | file | role | device | created | runs | verification | commit |\n"
	      "|---|---|---|---|---|---|---|---|\n", md);
	describe(md, "A", pa, A);
	describe(md, "B", pb, B);
	if (strcmp(str(A, "device"), str(B, "device")))
		fprintf(md, "\nThe devices' names differ (--devices-may-differ): B's is the name "
			    "the vGPU presents to the guest, A's the GPU's.\n");
	fprintf(md, "\nrun_cfg (identical on both sides): n_warm %s, n_malloc %s, n_thru %s, "
		    "sizes %s.\n\n", str(json_object_get(A, "run_cfg"), "n_warm"),
		str(json_object_get(A, "run_cfg"), "n_malloc"),
		str(json_object_get(A, "run_cfg"), "n_thru"),
		str(json_object_get(A, "run_cfg"), "sizes"));
	fprintf(md, "Clocks — A host: %s\n\nClocks — B host: %s; B guest: %s\n\n",
		str(json_object_get(A, "environment"), "host_gpu_clocks"),
		str(json_object_get(B, "environment"), "host_gpu_clocks"),
		str(json_object_get(B, "environment"), "guest_gpu_clocks"));
	fputs("**How to read.** *B/A* is the plain ratio of medians. *perf* is oriented "
	      "so that 100% = native and below 100% = B worse for every metric "
	      "(A/B for times, latencies and cycles; B/A for GB/s, GFLOP/s, kernels/s). "
	      "*range* is perf from the run extremes (worst B vs best A .. best B vs worst A); "
	      "a range containing 100% means the difference is within run-to-run spread. "
	      "Each median shows n and ±half its (max−min)/median spread. "
	      "Targets (contract §3.3): initialization ≤ 2× native (perf ≥ 50%), bulk copies "
	      "(≥ 1 MiB) and compute ≥ 95%; other classes have no agreed target yet.\n\n", md);
	fputs("**Bound** says what dominates B's number when the guest's CPU is emulated "
	      "(QEMU TCG): *" AB_BOUND_GPU "* — GPU execution time (comparable with bare metal); "
	      "*" AB_BOUND_DATA "* — the bytes moved (copies ≥ 1 MiB: PCIe/copy engine on A, the "
	      "vGPU's copy path on B); *" AB_BOUND_FWD "* — GPU-timed around an empty kernel, on B "
	      "the forwarding round trip; *" AB_BOUND_GUEST "* — per-call CPU work in the guest's "
	      "driver (init, contexts, JIT, allocations, host-timed launches, small copies): under "
	      "TCG these measure the emulator, not the vGPU.\n\n", md);
	fputs("| metric | class | target | bound | A median | B median | B/A % | perf % | range % | verdict |\n"
	      "|---|---|---|---|---|---|---|---|---|---|\n", md);
	for (i = 0; i < nrows; i++) {
		const struct ab_row *r = &rows[i];

		fprintf(md, "| `%s` | %s | %s | %s |", r->name, r->cls.klass, r->cls.target_text,
			r->cls.bound);
		cell(md, &r->a, r->spread_a_pct);
		cell(md, &r->b, r->spread_b_pct);
		fprintf(md, " %.1f | %.1f%s | %.1f–%.1f | %s%s |\n", r->ratio_pct, r->perf_pct,
			r->cls.dir ? "" : " (unoriented)", r->perf_lo, r->perf_hi,
			r->flagged ? "**MISSES TARGET**" :
			r->cls.target_perf_pct > 0 ? "meets target" : "reported",
			r->within_spread ? " (within spread)" : "");
	}
	json_object_foreach(json_object_get(A, "aggregate"), name, m) {
		struct ab_class c;

		if (json_object_get(json_object_get(B, "aggregate"), name))
			continue;
		ab_classify(name, &c);
		if (skip_reason(B, name)) {
			nskip++;
			fprintf(md, "| `%s` | %s | %s | %s | present | **skipped in B**: %s | | | | "
				    "not measured |\n", name, c.klass, c.target_text, c.bound,
				skip_reason(B, name));
		} else {
			fprintf(md, "| `%s` | — | — | — | present | **missing in B** | | | | |\n", name);
		}
	}
	json_object_foreach(json_object_get(B, "aggregate"), name, m) {
		if (json_object_get(json_object_get(A, "aggregate"), name))
			continue;
		if (skip_reason(A, name)) {
			nskip++;
			fprintf(md, "| `%s` | — | — | — | **skipped in A**: %s | present | | | | "
				    "not measured |\n", name, skip_reason(A, name));
		} else {
			fprintf(md, "| `%s` | — | — | — | **missing in A** | present | | | | |\n", name);
		}
	}
	fprintf(md, "\n**Summary:** %zu metrics compared, %zu miss their target", nrows, flagged);
	for (i = 0, a = 0; i < nrows; i++)
		if (rows[i].flagged)
			fprintf(md, "%s`%s` (%.1f%%)", a++ ? ", " : ": ", rows[i].name, rows[i].perf_pct);
	fputs(".\n", md);
	if (nskip)
		fprintf(md, "%zu metrics measured on one side only were skipped on the other (the "
			    "harness's reason is in their row): not measured, so neither a pass nor a "
			    "miss.\n", nskip);
	if (flagged)
		fprintf(md, "Of the misses, %zu are bound by the guest's CPU (" AB_BOUND_GUEST
			    ": they measure the emulator) and %zu by what the vGPU forwards or "
			    "executes.\n", flagged_guest, flagged - flagged_guest);
	for (k = 0; k < nref; k++) {
		char label[64];
		const char *eq = strchr(refs[k], '=');

		snprintf(label, sizeof(label), "%.*s", (int)(eq - refs[k]), refs[k]);
		ref_table(md, label, eq + 1, schema, A, B);
	}
	if (svg_path) {
		FILE *sf = fopen(svg_path, "w");
		const char *base = strrchr(svg_path, '/');

		if (!sf) {
			perror(svg_path);
			return 2;
		}
		ab_svg_write(sf, title, rows, nrows);
		fclose(sf);
		fprintf(md, "\n![perf %% per metric](%s)\n", base ? base + 1 : svg_path);
	}
	if (md != stdout)
		fclose(md);
	free(rows);
	json_decref(A);
	json_decref(B);
	json_decref(schema);
	return strict && (flagged || unverified) ? 1 : 0;
}
