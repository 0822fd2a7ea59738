/* SPDX-License-Identifier: MIT */
/* pmu report: saved 'pmu stat --json' runs (summed) and region reports (merged). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "cli.h"
#include "opts.h"
#include "report-merge.h"
#include "report-read.h"
#include "report-sum.h"
#include "stat-print.h"
#include "util.h"
#include "outtext.h"

/* Merged region reports as a table: the columns as wide as the longest name in them. */
static void print_regions(FILE *f, const struct saved_regions *r)
{
	int longest = 0, w;

	for (size_t j = 0; j < r->nrows; j++)
		if ((int)strlen(r->rows[j].name) > longest)
			longest = (int)strlen(r->rows[j].name);
	w = pmu__text_name_width(longest);
	fprintf(f, "\n Regions from %d file%s (counts summed)\n\n %-*s %10s", r->files, r->files == 1 ? "" : "s", w,
		"region", "calls");
	for (size_t k = 0; k < r->events.n; k++)
		fprintf(f, " %*s", pmu__text_col_width(strlen(r->events.v[k])), r->events.v[k]);
	fprintf(f, "\n");
	for (size_t j = 0; j < r->nrows; j++) {
		const struct rg_row *row = &r->rows[j];
		char shown[4 * 256 + 1];
		fprintf(f, " %-*s %10" PRIu64, w, pmu__printable(shown, sizeof(shown), row->name), row->calls);
		for (size_t k = 0; k < r->events.n; k++) {
			const struct rg_cell *c = k < row->ncells ? &row->cells[k] : NULL;
			pmu__text_count_cell(f, pmu__text_col_width(strlen(r->events.v[k])), c && c->seen ? &c->v : NULL);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

/* Do all the files have a rank (MPI jobs)? Then the spread is across ranks (unless one repeats), else files. */
static bool all_ranked(const struct saved_regions *r)
{
	for (int i = 0; i < r->files; i++)
		if (!r->filev[i].rank)
			return false;
	return true;
}

/* Where the max is: "rank 3", or the file's name when it has no rank. */
static void max_at(const struct saved_regions *r, int i, char *buf, size_t len)
{
	snprintf(buf, len, r->filev[i].rank ? "rank %s" : "%s", rg_file_label(r, i));
}

/* The spread of the files' counts per region and event (each file an MPI rank, typically): min, mean,
 * max, where the max is, and the imbalance max / mean. Nothing with one file. */
static void print_spread(FILE *f, const struct saved_regions *r)
{
	bool ranks = all_ranked(r) && !r->notes.n;
	int wr = 6, we = 5, wa = 6;
	char at[256];

	if (r->files < 2)
		return;
	for (size_t j = 0; j < r->nrows; j++)
		if ((int)strlen(r->rows[j].name) > wr)
			wr = (int)strlen(r->rows[j].name);
	for (size_t k = 0; k < r->events.n; k++)
		if ((int)strlen(r->events.v[k]) > we)
			we = (int)strlen(r->events.v[k]);
	for (int i = 0; i < r->files; i++) {
		max_at(r, i, at, sizeof(at));
		if ((int)strlen(at) > wa)
			wa = (int)strlen(at);
	}
	fprintf(f, " Across the %d %s (each %s count): min, mean, max; imbalance = max / mean\n\n", r->files,
		ranks ? "ranks" : "files", ranks ? "rank's" : "file's");
	fprintf(f, " %-*s %-*s %18s %18s %18s  %-*s  %9s\n", wr, "region", we, "event", "min", "mean", "max", wa,
		"max at", "imbalance");
	for (size_t j = 0; j < r->nrows; j++) {
		const struct rg_row *row = &r->rows[j];
		for (size_t k = 0; k < row->ncells; k++) {
			struct rg_dist d;
			char mn[48], me[48], mx[48], imb[32];
			if (!row->cells[k].seen)
				continue;
			rg_cell_spread(r, &row->cells[k], &d);
			pmu__group_digits(d.min, mn, sizeof(mn));
			pmu__group_digits(d.mean >= 0x1p64 - 1024 ? d.max : (uint64_t)(d.mean + 0.5), me, sizeof(me));
			pmu__group_digits(d.max, mx, sizeof(mx));
			max_at(r, d.max_file, at, sizeof(at));
			if (d.mean > 0)
				snprintf(imb, sizeof(imb), "%.2f", d.max / d.mean);
			else
				snprintf(imb, sizeof(imb), "n/a");
			char shown[4 * 256 + 1];
			fprintf(f, " %-*s %-*s %18s %18s %18s  %-*s  %9s", wr, pmu__printable(shown, sizeof(shown), row->name),
				we, r->events.v[k], mn, me, mx, wa, at, imb);
			if (d.n < r->files)
				fprintf(f, "  (in %d of the %d)", d.n, r->files);
			fprintf(f, "\n");
		}
	}
	fprintf(f, "\n");
}

/* A number of calls or a count for JSON, null when unknown (UINT64_MAX: no file had it). */
static json_object *jcount(uint64_t v)
{
	return v == UINT64_MAX ? NULL : json_object_new_uint64(v);
}

/* File @i's rank as JSON: a number when it is one, else the string; NULL (null) when it has none. */
static json_object *file_rank(const struct saved_regions *r, int i)
{
	if (!r->filev[i].rank)
		return NULL;
	return r->filev[i].rank_is_number ? json_object_new_int64(strtoll(r->filev[i].rank, NULL, 10)) :
					    json_object_new_string(r->filev[i].rank);
}

/* The spread of @s across the files: {files, sum, min, mean, max, stddev, min_rank, max_rank, min_file,
 * max_file, imbalance}, as libpmu-mpi's job report has it (mpi/pmu-mpi.h); @calls: a region's calls
 * (files, min, max and where). */
static json_object *spread_json(const struct saved_regions *r, const struct rg_spread *s, bool calls)
{
	json_object *sp = json_object_new_object();
	struct rg_dist d;

	if (!sp)
		return NULL;
	rg_spread_dist(r, s, &d);
	json_object_object_add(sp, "files", json_object_new_int(d.n));
	if (!calls)
		json_object_object_add(sp, "sum", d.sum_ok ? json_object_new_uint64(d.sum) : NULL);
	json_object_object_add(sp, "min", json_object_new_uint64(d.min));
	if (!calls)
		json_object_object_add(sp, "mean", jnum(d.mean));
	json_object_object_add(sp, "max", json_object_new_uint64(d.max));
	if (!calls)
		json_object_object_add(sp, "stddev", jnum(d.stddev));
	json_object_object_add(sp, "min_rank", file_rank(r, d.min_file));
	json_object_object_add(sp, "max_rank", file_rank(r, d.max_file));
	json_object_object_add(sp, "min_file", json_object_new_string(r->filev[d.min_file].name));
	json_object_object_add(sp, "max_file", json_object_new_string(r->filev[d.max_file].name));
	if (!calls)
		json_object_object_add(sp, "imbalance", d.mean > 0 ? jnum((double)d.max / d.mean) : NULL);
	return sp;
}

/* One event of a merged region: the sums (as libpmu-regions/1 has them) and, from two files on, "spread". */
static json_object *cell_json(const struct saved_regions *r, const struct rg_cell *c)
{
	json_object *e = json_object_new_object();

	if (!e)
		return NULL;
	json_object_object_add(e, "value", json_object_new_uint64(c->v.value));
	json_object_object_add(e, "scaled", json_object_new_uint64(pmu_scale(&c->v)));
	json_object_object_add(e, "enabled_ns", json_object_new_uint64(c->v.enabled));
	json_object_object_add(e, "running_ns", json_object_new_uint64(c->v.running));
	json_object_object_add(e, "confidence", jnum(pmu_confidence(&c->v)));
	json_object_object_add(e, "min", jcount(c->min));
	json_object_object_add(e, "max", json_object_new_uint64(c->max));
	if (r->files > 1)
		json_object_object_add(e, "spread", spread_json(r, &c->spread, false));
	return e;
}

/* Merged region reports as one document, schema libpmu-report-regions/1 (tools/schemas/). */
static json_object *regions_json(const struct saved_regions *r)
{
	json_object *o = json_object_new_object(), *files = json_object_new_array(), *evs = json_object_new_array(),
		    *regs = json_object_new_array(), *notes = json_object_new_array();

	if (!o || !files || !evs || !regs || !notes) {
		json_object_put(o), json_object_put(files), json_object_put(evs), json_object_put(regs);
		json_object_put(notes);
		return NULL;
	}
	json_object_object_add(o, "schema", json_object_new_string("libpmu-report-regions/1"));
	json_object_object_add(o, "version", json_object_new_string(pmu_version()));
	for (int i = 0; i < r->files; i++) {
		json_object *fo = json_object_new_object(), *rank = NULL;
		if (r->filev[i].rank)
			rank = r->filev[i].rank_is_number ? json_object_new_int64(strtoll(r->filev[i].rank, NULL, 10)) :
							    json_object_new_string(r->filev[i].rank);
		json_object_object_add(fo, "file", json_object_new_string(r->filev[i].name));
		json_object_object_add(fo, "rank", rank);
		json_object_array_add(files, fo);
	}
	json_object_object_add(o, "files", files);
	json_object_object_add(o, "events", strv_json(evs, &r->events));
	for (size_t j = 0; j < r->nrows; j++) {
		const struct rg_row *row = &r->rows[j];
		json_object *ro = json_object_new_object(), *ev = json_object_new_object();
		json_object_object_add(ro, "name", json_object_new_string(row->name));
		json_object_object_add(ro, "calls", json_object_new_uint64(row->calls));
		if (r->files > 1)
			json_object_object_add(ro, "calls_spread", spread_json(r, &row->calls_spread, true));
		for (size_t k = 0; k < r->events.n; k++) {
			const struct rg_cell *c = k < row->ncells ? &row->cells[k] : NULL;
			json_object_object_add(ev, r->events.v[k], c && c->seen ? cell_json(r, c) : NULL);
		}
		json_object_object_add(ro, "events", ev);
		json_object_array_add(regs, ro);
	}
	json_object_object_add(o, "regions", regs);
	json_object_object_add(o, "notes", strv_json(notes, &r->notes));
	return o;
}

/* Region reports merged: the table and the spread across the files, or (@json) the document. */
static int report_regions(const struct saved_regions *r, bool json)
{
	if (json) {
		json_object *o = regions_json(r);
		if (!o)
			return fprintf(stderr, "pmu report: out of memory\n"), 1;
		json_write(stdout, o);
		json_object_put(o);
		return 0;
	}
	print_regions(stdout, r);
	print_spread(stdout, r);
	for (size_t i = 0; i < r->notes.n; i++)
		fprintf(stdout, " note: %s\n\n", r->notes.v[i]);
	return 0;
}

static const char *kind_words(enum report_kind k)
{
	return k == REPORT_STAT ? "'pmu stat --json' file" : "region report";
}

static int cmd_report(int argc, char **argv, struct cli *cli);

enum { OPT_JSON = OPT_LONG };
static const struct opt report_opts[] = {
	ANALYSIS_OPTS,
	{ OPT_JSON, "json", NULL, NULL, "region reports merged as one JSON document (schema libpmu-report-regions/1)" },
	{ 'D', NULL, NULL, "NAME=VALUE", NULL },  /* the old spelling of --param: refused, said; not shown */
	{ 0 },
};
static const char *const report_synopsis[] = { "[-M METRICS] [--topdown] [--param NAME=VALUE] FILE.json...",
					       "[--json] REGIONS.json...", NULL };
const struct command report_command = {
	"report", cmd_report, "Print saved 'pmu stat --json' results and region reports", report_synopsis,
	"Saved stat results are summed over the files that counted the same events the same number of\n"
	"times (others reported apart), with metrics and topdown evaluated for the CPU they came from;\n"
	"region reports (PMU_FORMAT=json) are merged per region, with the spread of each\n"
	"region's counts across the files (MPI ranks: min, mean, max, the rank of the max, max / mean).\n"
	"Exit status: 0; 1 when a file cannot be read or a metric computed; 2 when a file is "
	"refused for its content\n(one line naming the file and the key) or on a usage error.\n", report_opts, false,
};

struct report_opts {
	struct analysis_opts a;
	bool json;
};

static int on_opt(void *st, int id, const char *arg)
{
	struct report_opts *o = st;

	if (id == 'D')
		return analysis_old_param("report", arg);
	if (id == OPT_JSON) {
		o->json = true;
		return 0;
	}
	return analysis_opt(&o->a, "report", id, arg) == 0 ? 0 : -1;
}

/* Saved stat files that can be summed: the same events and number of runs (saved_stat_signature). */
struct stat_group {
	char *sig;
	struct saved_stat st;
	char *files;            /* their names, " + " between */
	json_object **docs;
	size_t ndocs;
};

struct stat_groups {
	struct stat_group *v;
	size_t n;
};

static void stat_groups_free(struct stat_groups *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->v[i].sig);
		saved_stat_free(&gs->v[i].st);
		free(gs->v[i].files);
		for (size_t k = 0; k < gs->v[i].ndocs; k++)
			json_object_put(gs->v[i].docs[k]);
		free(gs->v[i].docs);
	}
	free(gs->v);
	memset(gs, 0, sizeof(*gs));
}

/* The group of @doc (made if it is the first of its kind); NULL when out of memory. */
static struct stat_group *group_of(struct stat_groups *gs, json_object *doc)
{
	char *sig = saved_stat_signature(doc);
	struct stat_group *v, *g;
	json_object **d;

	if (!sig)
		return NULL;
	for (size_t i = 0; i < gs->n; i++)
		if (!strcmp(gs->v[i].sig, sig)) {
			free(sig);
			g = &gs->v[i];
			goto add;
		}
	if (!(v = realloc(gs->v, (gs->n + 1) * sizeof(*v)))) {
		free(sig);
		return NULL;
	}
	gs->v = v;
	g = &v[gs->n++];
	memset(g, 0, sizeof(*g));
	g->sig = sig;
add:
	if (!(d = realloc(g->docs, (g->ndocs + 1) * sizeof(*d))))
		return NULL;
	g->docs = d;
	d[g->ndocs++] = json_object_get(doc);
	return g;
}

/* Load files argv[first..argc) into @gs (saved stat runs, grouped) or @rg (one kind). 0 or the exit status. */
static int load_all(int argc, char **argv, int first, struct stat_groups *gs, struct saved_regions *rg,
		    enum report_kind *kind0)
{
	for (int i = first; i < argc; i++) {
		enum report_kind kind = 0;
		struct stat_group *g = NULL;
		json_object *doc;
		char *err = NULL;
		int r = report_load(argv[i], &doc, &kind, &err);
		if (r == 0 && *kind0 && kind != *kind0) {
			r = -EINVAL;
			if (asprintf(&err, "'%s' is a %s and '%s' a %s: report one kind at a time", argv[first],
				     kind_words(*kind0), argv[i], kind_words(kind)) < 0)
				err = NULL;
		}
		if (r == 0 && kind == REPORT_STAT && !(g = group_of(gs, doc)))
			r = -ENOMEM;
		if (r == 0)
			r = kind == REPORT_STAT ? saved_stat_add(&g->st, argv[i], doc, &err) :
						  saved_regions_add(rg, argv[i], doc, &err);
		json_object_put(doc);
		if (r < 0) {
			fprintf(stderr, "pmu report: %s\n", err ? err : strerror(-r));
			free(err);
			return r == -EINVAL ? 2 : 1;
		}
		*kind0 = kind;
		if (g && str_append(&g->files, " + ", argv[i]) < 0)
			return fprintf(stderr, "pmu report: out of memory\n"), 1;
	}
	return 0;
}

/* The notes on saved counts: which files were summed and how their time was taken, which were reported
 * apart (@others: the other groups' files), from different CPUs. */
static int stat_notes(struct saved_stat *st, const char *files, const char *others, struct strv *notes)
{
	char *n = NULL;
	bool overlapped;
	int r = 0;

	if (st->files > 1) {
		bool covered = saved_stat_covered(st, &overlapped);
		if (asprintf(&n, "counts summed over %d files (%s); elapsed: %s", st->files, files,
			     !covered ? "the files' elapsed times added (some file does not say when it counted)" :
			     overlapped ? "the time their runs covered together (some ran at the same time)" :
					  "their elapsed times added (they ran one after another)") < 0)
			return -1;
		r = strv_add(notes, n, strlen(n));
		free(n);
		n = NULL;
	}
	if (r == 0 && others) {
		if (asprintf(&n, "reported apart from %s: files are summed only when they counted the same events the "
			     "same number of times (-r)", others) < 0)
			return -1;
		r = strv_add(notes, n, strlen(n));
		free(n);
		n = NULL;
	}
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

/*
 * The rows of a PMU that counts CPUs (cpu_wide: each file holds every task's count on the package) whose
 * sum would count something twice: files that counted one at once on one machine leave it unsummed
 * (<not summed>, kept out of metrics), with a note naming them; files that do not say where and when
 * they counted get a note. 0, or -1 when out of memory.
 */
static int cpu_wide_sums(struct saved_stat *st, struct strv *notes)
{
	for (size_t i = 0; i < st->rows.n; i++) {
		struct stat_row *row = &st->rows.v[i];
		const char *name = row->info.name;
		char *n = NULL;
		int a, b, r = 0;

		if (!(row->info.flags & PMU_EVF_CPU_WIDE))
			continue;
		switch (saved_stat_overlap(st, name, &a, &b)) {
		case SUM_OVERLAP:
			row->not_summed = true;
			r = asprintf(&n, "%s: not summed: '%s' and '%s' counted it at the same time on %s, and each "
				     "holds the whole package's count (its PMU counts CPUs, not tasks), so their sum "
				     "would count it twice; report the files one at a time, or count it once per machine "
				     "(pmu stat -a -e %s)", name, st->filev[a].name, st->filev[b].name,
				     st->filev[a].host, name);
			break;
		case SUM_UNKNOWN:
			r = asprintf(&n, "%s: summed over files of which some do not say where and when they counted "
				     "(written before pmu stat --json recorded it): its PMU counts CPUs, not tasks, so "
				     "files counted at the same time on one machine each hold the whole package's count, "
				     "and the sum counts it once per such file", name);
			break;
		case SUM_OK:
			continue;
		}
		if (r < 0 || strv_add(notes, n, strlen(n)) < 0) {
			free(n);
			return -1;
		}
		free(n);
	}
	return 0;
}

/* Saved stat runs of one group: the table (titled with their command when they share one), and the
 * analysis for the CPU the counts came from. */
static int report_stat(struct stat_group *g, const char *others, const struct analysis_opts *a, struct cli *cli)
{
	struct saved_stat *st = &g->st;
	struct strv notes = { NULL, 0 };
	struct counted c;
	struct pmu_ctx *ctx;
	char *command = NULL;
	const char *title;
	int code = 0;

	if (saved_stat_command(g->docs, g->ndocs, &command) < 0 || stat_notes(st, g->files, others, &notes) < 0 ||
	    cpu_wide_sums(st, &notes) < 0) {
		strv_free(&notes);
		free(command);
		return fprintf(stderr, "pmu report: out of memory\n"), 1;
	}
	title = command ? command : g->files;
	c = (struct counted){ st->rows.v, st->rows.n, st->times.elapsed_ns / 1e9, false };
	if (!command && strv_add(&notes, "the files counted different commands: titled with their names", 62) < 0) {
		strv_free(&notes);
		return fprintf(stderr, "pmu report: out of memory\n"), 1;
	}
	stat_print_text(&(struct stat_printer){ .f = stdout }, title, &(struct stat_counts){ st->rows, NULL, 0 }, &st->times, &notes);
	strv_free(&notes);
	free(command);
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

/* Each group of saved stat runs, the others named in its notes. The worst exit status. */
static int report_stats(struct stat_groups *gs, const struct analysis_opts *a, struct cli *cli)
{
	int code = 0;

	for (size_t i = 0; i < gs->n; i++) {
		char *others = NULL;
		int c;
		for (size_t j = 0; j < gs->n; j++)
			if (j != i && str_append(&others, " and ", gs->v[j].files) < 0) {
				free(others);
				return fprintf(stderr, "pmu report: out of memory\n"), 1;
			}
		c = report_stat(&gs->v[i], others, a, cli);
		free(others);
		code = c > code ? c : code;
	}
	return code;
}

/* Saved stat runs (summed where comparable) or region reports (merged). Exit 2 when a file is
 * refused for its content, 1 when one cannot be read or a metric computed. */
static int cmd_report(int argc, char **argv, struct cli *cli)
{
	struct report_opts o;
	struct stat_groups gs = { NULL, 0 };
	struct saved_regions rg;
	enum report_kind kind0 = 0;
	int code, first;

	memset(&o, 0, sizeof(o));
	memset(&rg, 0, sizeof(rg));
	first = opts_parse(&report_command, argc, argv, cli, on_opt, &o);
	if (first < 0)
		code = first == OPTS_EXIT_OK ? 0 : 2;
	else if (first >= argc)
		code = opts_error(&report_command, "name one or more files written by 'pmu stat --json' or region "
				  "reports");
	else if ((code = load_all(argc, argv, first, &gs, &rg, &kind0)) == 0 && kind0 == REPORT_REGIONS) {
		if (o.a.metrics.n || o.a.topdown)
			fprintf(stderr, "pmu report: -M and --topdown apply to 'pmu stat --json' files; region reports "
				"carry their metrics: not applied\n");
		code = report_regions(&rg, o.json);
	} else if (code == 0 && o.json) {
		code = opts_error(&report_command, "--json merges region reports; 'pmu stat --json' files are JSON "
				  "already, and their sum is printed as text (without --json)");
	} else if (code == 0) {
		code = report_stats(&gs, &o.a, cli);
	}
	analysis_opts_free(&o.a);
	stat_groups_free(&gs);
	saved_regions_free(&rg);
	return code;
}
