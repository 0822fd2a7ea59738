/* SPDX-License-Identifier: MIT */
/* pmu report: saved 'pmu stat --json' runs (summed) and region reports (merged). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cli.h"
#include "opts.h"
#include "report-read.h"
#include "stat-print.h"
#include "util.h"

/* Merged region reports as a table: the columns as wide as the longest name in them. */
static void print_regions(FILE *f, const struct saved_regions *r)
{
	int w = 28;

	for (size_t j = 0; j < r->nrows; j++)
		if ((int)strlen(r->rows[j].name) > w)
			w = (int)strlen(r->rows[j].name);
	fprintf(f, "\n Regions from %d file%s (counts summed)\n\n %-*s %10s", r->files, r->files == 1 ? "" : "s", w,
		"region", "calls");
	for (size_t k = 0; k < r->events.n; k++)
		fprintf(f, " %18s", r->events.v[k]);
	fprintf(f, "\n");
	for (size_t j = 0; j < r->nrows; j++) {
		const struct rg_row *row = &r->rows[j];
		fprintf(f, " %-*s %10" PRIu64, w, row->name, row->calls);
		for (size_t k = 0; k < r->events.n; k++) {
			const struct rg_cell *c = k < row->ncells ? &row->cells[k] : NULL;
			int cw = strlen(r->events.v[k]) > 18 ? (int)strlen(r->events.v[k]) : 18;
			char num[48];
			if (!c || !c->seen) {
				fprintf(f, " %*s", cw, "<not counted>");
				continue;
			}
			group_digits(pmu_scale(&c->v), num, sizeof(num));
			fprintf(f, " %*s%s", cw - 1, num, pmu_confidence(&c->v) < 1.0 ? "*" : " ");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

static const char *kind_words(enum report_kind k)
{
	return k == REPORT_STAT ? "'pmu stat --json' file" : "region report";
}

static int cmd_report(int argc, char **argv, struct cli *cli);

static const struct opt report_opts[] = {
	ANALYSIS_OPTS,
	{ 'D', NULL, NULL, "NAME=VALUE", NULL },  /* the old spelling of --param: refused, said; not shown */
	{ 0 },
};
static const char *const report_synopsis[] = { "[-M METRICS] [--topdown] [--param NAME=VALUE] FILE.json...",
					       NULL };
const struct command report_command = {
	"report", cmd_report, "Print saved 'pmu stat --json' results and region reports", report_synopsis,
	"Saved stat results are summed over the files, with metrics and topdown evaluated for the CPU\n"
	"they came from; region reports (PMU_FORMAT=json) are merged per region.\n"
	"Exit status: 0; 1 when a file cannot be read or a metric computed; 2 when a file is "
	"refused for its content\n(one line naming the file and the key) or on a usage error.\n", report_opts, false,
};

static int on_opt(void *st, int id, const char *arg)
{
	if (id == 'D')
		return analysis_old_param("report", arg);
	return analysis_opt(st, "report", id, arg) == 0 ? 0 : -1;
}

/* Load files argv[first..argc) into @st or @rg (one kind), their names joined into *@title. 0 or the exit status. */
static int load_all(int argc, char **argv, int first, struct saved_stat *st, struct saved_regions *rg,
		    enum report_kind *kind0, char **title)
{
	for (int i = first; i < argc; i++) {
		enum report_kind kind = 0;
		json_object *doc;
		char *err = NULL;
		int r = report_load(argv[i], &doc, &kind, &err);
		if (r == 0 && *kind0 && kind != *kind0) {
			r = -EINVAL;
			if (asprintf(&err, "'%s' is a %s and '%s' a %s: report one kind at a time", argv[first],
				     kind_words(*kind0), argv[i], kind_words(kind)) < 0)
				err = NULL;
		}
		if (r == 0)
			r = kind == REPORT_STAT ? saved_stat_add(st, argv[i], doc, &err) :
						  saved_regions_add(rg, argv[i], doc, &err);
		json_object_put(doc);
		if (r < 0) {
			fprintf(stderr, "pmu report: %s\n", err ? err : strerror(-r));
			free(err);
			return r == -EINVAL ? 2 : 1;
		}
		*kind0 = kind;
		if (str_append(title, " + ", argv[i]) < 0)
			return fprintf(stderr, "pmu report: out of memory\n"), 1;
	}
	return 0;
}

/* The notes on saved counts: summed, from different CPUs. */
static int stat_notes(const struct saved_stat *st, struct strv *notes)
{
	char *n = NULL;
	int r = 0;

	if (st->files > 1)
		r = strv_add(notes, "counts summed over the files", 28);
	if (r == 0 && st->other_cpuid) {
		if (asprintf(&n, "the files come from different CPUs (%s, %s): metrics use the event tables of %s",
			     st->cpuid, st->other_cpuid, st->cpuid) < 0)
			return -1;
		r = strv_add(notes, n, strlen(n));
		free(n);
	}
	if (r == 0 && st->constants_differ) {
		static const char differ[] = "the files' metric constants differ (machines of another topology, or a "
					     "file without them): metrics use the first file's";
		r = strv_add(notes, differ, strlen(differ));
	}
	return r;
}

/* Saved stat runs: the table, and the analysis for the CPU the counts came from. */
static int report_stat(const struct saved_stat *st, const char *title, const struct analysis_opts *a,
		       struct cli *cli)
{
	struct strv notes = { NULL, 0 };
	struct counted c = { st->rows.v, st->rows.n, st->times.elapsed_ns / 1e9 };
	struct pmu_ctx *ctx;
	int code = 0;

	if (stat_notes(st, &notes) < 0) {
		strv_free(&notes);
		return fprintf(stderr, "pmu report: out of memory\n"), 1;
	}
	stat_print_text(stdout, title, &(struct stat_counts){ st->rows, NULL, 0 }, &st->times, &notes);
	strv_free(&notes);
	if (!a->metrics.n && !a->topdown)
		return 0;
	if (cli_open_ctx(cli, st->cpuid, &ctx) < 0)
		return 1;
	/* the counted machine's constants, then --param over them */
	if (constants_apply(st->constants, ctx) < 0)
		code = 2;
	else if (params_apply(&a->params, ctx) < 0)
		code = 2;
	else if (metrics_expand(ctx, "report", (struct strv *)&a->metrics) < 0)
		code = 1;
	else
		code = analysis(stdout, ctx, &a->metrics, a->topdown, &c, NULL);
	pmu_ctx_free(ctx);
	return code;
}

/* Saved stat runs (summed) or region reports (merged). Exit 2 when a file is
 * refused for its content, 1 when one cannot be read or a metric computed. */
static int cmd_report(int argc, char **argv, struct cli *cli)
{
	struct analysis_opts a;
	struct saved_stat st;
	struct saved_regions rg;
	enum report_kind kind0 = 0;
	char *title = NULL;
	int code, first;

	memset(&a, 0, sizeof(a));
	memset(&st, 0, sizeof(st));
	memset(&rg, 0, sizeof(rg));
	first = opts_parse(&report_command, argc, argv, cli, on_opt, &a);
	if (first < 0)
		code = first == OPTS_EXIT_OK ? 0 : 2;
	else if (first >= argc)
		code = opts_error(&report_command, "name one or more files written by 'pmu stat --json' or region "
				  "reports");
	else if ((code = load_all(argc, argv, first, &st, &rg, &kind0, &title)) == 0 && kind0 == REPORT_REGIONS) {
		if (a.metrics.n || a.topdown)
			fprintf(stderr, "pmu report: -M and --topdown apply to 'pmu stat --json' files; region reports "
				"carry their metrics: not applied\n");
		print_regions(stdout, &rg);
	} else if (code == 0) {
		code = report_stat(&st, title, &a, cli);
	}
	free(title);
	analysis_opts_free(&a);
	saved_stat_free(&st);
	saved_regions_free(&rg);
	return code;
}
