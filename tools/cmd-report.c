/* SPDX-License-Identifier: MIT */
/* pmu report: saved 'pmu stat --json' runs (summed) and region reports (merged). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cli.h"
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

/* Saved stat runs (summed) or region reports (merged). Exit 2 when a file is
 * refused for its content, 1 when one cannot be read or a metric computed. */
int cmd_report(int argc, char **argv, const struct cli *cli)
{
	struct strv metrics = { NULL, 0 }, notes = { NULL, 0 };
	struct saved_stat st;
	struct saved_regions rg;
	struct metric_params params = { { NULL }, 0 };
	enum report_kind kind0 = 0;
	char *title = NULL;
	int code = 0, topdown = 0, first = 1;

	memset(&st, 0, sizeof(st));
	memset(&rg, 0, sizeof(rg));
	for (; first < argc && argv[first][0] == '-'; first++) {
		if (!strcmp(argv[first], "-M") && first + 1 < argc) {
			if (strv_add_metrics(&metrics, argv[++first]) < 0)
				goto nomem;
		} else if (!strcmp(argv[first], "--topdown")) {
			topdown = 1;
		} else if (!strcmp(argv[first], "-D") && first + 1 < argc) {
			if (params_add(&params, argv[++first]) < 0) {
				code = 2;
				goto out;
			}
		} else {
			fprintf(stderr, "pmu report: unknown option '%s'%s\n", argv[first],
				first + 1 == argc && (!strcmp(argv[first], "-M") || !strcmp(argv[first], "-D")) ?
					" without its argument" : "");
			code = 2;
			goto out;
		}
	}
	if (first >= argc) {
		fprintf(stderr, "pmu report: name one or more files written by 'pmu stat --json' or region reports\n");
		code = 2;
		goto out;
	}
	for (int i = first; i < argc; i++) {
		enum report_kind kind = 0;
		json_object *doc;
		char *err = NULL;
		int r = report_load(argv[i], &doc, &kind, &err);
		if (r == 0 && kind0 && kind != kind0) {
			r = -EINVAL;
			if (asprintf(&err, "'%s' is a %s and '%s' a %s: report one kind at a time", argv[first],
				     kind_words(kind0), argv[i], kind_words(kind)) < 0)
				err = NULL;
		}
		if (r == 0)
			r = kind == REPORT_STAT ? saved_stat_add(&st, argv[i], doc, &err) :
						  saved_regions_add(&rg, argv[i], doc, &err);
		json_object_put(doc);
		if (r < 0) {
			fprintf(stderr, "pmu report: %s\n", err ? err : strerror(-r));
			free(err);
			code = r == -EINVAL ? 2 : 1;
			goto out;
		}
		kind0 = kind;
		if (str_append(&title, " + ", argv[i]) < 0)
			goto nomem;
	}
	if (kind0 == REPORT_REGIONS) {
		if (metrics.n || topdown)
			fprintf(stderr, "pmu report: -M and --topdown apply to 'pmu stat --json' files; region reports "
				"carry their metrics: not applied\n");
		print_regions(stdout, &rg);
		goto out;
	}
	if (st.files > 1 && strv_add(&notes, "counts summed over the files", 28) < 0)
		goto nomem;
	if (st.other_cpuid) {
		char *n = NULL;
		if (asprintf(&n, "the files come from different CPUs (%s, %s): metrics use the event tables of %s",
			     st.cpuid, st.other_cpuid, st.cpuid) < 0)
			goto nomem;
		if (strv_add(&notes, n, strlen(n)) < 0) {
			free(n);
			goto nomem;
		}
		free(n);
	}
	stat_print_text(stdout, title, st.rows.v, st.rows.n, &st.times, &notes);
	if (metrics.n || topdown) {
		/* evaluate for the CPU the counts came from */
		struct counted c = { st.rows.v, st.rows.n, st.times.elapsed_ns / 1e9 };
		struct pmu_ctx *ctx;
		if (cli_open_ctx(cli, st.cpuid, &ctx) < 0) {
			code = 1;
			goto out;
		}
		if (params_apply(&params, ctx) < 0) {
			pmu_ctx_free(ctx);
			code = 2;
			goto out;
		}
		code = analysis(stdout, ctx, &metrics, topdown, &c, NULL);
		pmu_ctx_free(ctx);
	}
	goto out;
nomem:
	fprintf(stderr, "pmu report: out of memory\n");
	code = 1;
out:
	free(title);
	strv_free(&metrics);
	strv_free(&notes);
	saved_stat_free(&st);
	saved_regions_free(&rg);
	return code;
}
