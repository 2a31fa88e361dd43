/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Plain SVG 1.1 written by hand; no fonts or scripts needed to view it. */
#include "ab_svg.h"

#include <math.h>

#define ROW_H 22
#define LEFT 300
#define PLOT_W 520
#define RIGHT 170
#define TOP 74

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void ab_svg_write(FILE *f, const char *title, const struct ab_row *rows, size_t n)
{
	double xmax = 150.0, step;
	int width = LEFT + PLOT_W + RIGHT, height = TOP + (int)n * ROW_H + 40;
	size_t i;

	/*
	 * Scale to the longest bar (not whisker: one cold outlier run would
	 * squash every bar), in steps of 25 %, capped at 400 %. Whiskers that
	 * run off the scale end in an arrow head.
	 */
	for (i = 0; i < n; i++)
		if (rows[i].perf_pct > xmax)
			xmax = rows[i].perf_pct;
	xmax = fmin(400.0, ceil(xmax / 25.0) * 25.0);
	step = xmax > 200.0 ? 50.0 : 25.0;
#define X(p) (LEFT + clampd((p), 0.0, xmax) / xmax * PLOT_W)

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		width, height, width, height);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height);
	fputs("<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", f);
	xml_text(f, title);
	fputs("</text>\n<text x=\"10\" y=\"38\" fill=\"#444\">perf % = B vs A, oriented: "
	      "100 = native, lower = B worse (latency: A/B, throughput: B/A). "
	      "Whisker: run extremes.</text>\n", f);
	fputs("<text x=\"10\" y=\"54\" fill=\"#444\">[bound of B]: GPU, data path (copies), "
	      "forwarding, TCG = the guest's emulated CPU (its bar measures the emulator).</text>\n", f);
	for (double g = 0.0; g <= xmax + 1e-9; g += step)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
			   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#666\">%g%%</text>\n",
			X(g), TOP - 4, X(g), TOP + (int)n * ROW_H, X(g), TOP + (int)n * ROW_H + 16, g);
	for (i = 0; i < n; i++) {
		const struct ab_row *r = &rows[i];
		int y = TOP + (int)i * ROW_H;
		const char *color = r->flagged ? "#d62728" :
				    r->cls.target_perf_pct > 0 ? "#2ca02c" : "#8c8c8c";

		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + 15);
		xml_text(f, r->name);
		/* what bounds B (ab_metrics.h), so a TCG-bound bar is not read as the vGPU's */
		if (r->cls.bound) {
			fputs(" [", f);
			xml_text(f, r->cls.guest_cpu_bound ? "TCG" : r->cls.bound);
			fputc(']', f);
		}
		fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
			LEFT, y + 4, X(r->perf_pct) - LEFT, ROW_H - 8, color);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n",
			X(r->perf_lo), y + ROW_H / 2, X(r->perf_hi), y + ROW_H / 2);
		if (r->perf_hi > xmax)
			fprintf(f, "<path d=\"M%.1f %d l-6 -4 v8 z\" fill=\"black\"/>\n",
				X(xmax), y + ROW_H / 2);
		if (r->cls.target_perf_pct > 0)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d62728\" "
				   "stroke-dasharray=\"3,2\"/>\n",
				X(r->cls.target_perf_pct), y + 1, X(r->cls.target_perf_pct), y + ROW_H - 1);
		fprintf(f, "<text x=\"%d\" y=\"%d\">%.1f%%%s%s</text>\n", LEFT + PLOT_W + 8, y + 15,
			r->perf_pct, r->perf_pct > xmax ? " (off scale)" : "",
			r->flagged ? " MISSES TARGET" : "");
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\" stroke-width=\"2\"/>\n",
		X(100.0), TOP - 4, X(100.0), TOP + (int)n * ROW_H);
	fputs("</svg>\n", f);
#undef X
}
