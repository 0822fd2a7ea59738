/* SPDX-License-Identifier: MIT */
/*
 * The display of pmu stat's counts (and pmu report's, of saved counts), in
 * four formats: perf's text table with its per-row ratios (CPUs utilized,
 * insn per cycle, GHz, branch miss rate, events per second) and notes;
 * perf's -x CSV and -j JSON lines (one counter per line, perf's field order
 * and keys); and the libpmu-stat/1 JSON document
 * (tools/schemas/libpmu-stat-1.schema.json). Intervals (-I) in each.
 */
#ifndef PMU_TOOLS_STAT_PRINT_H
#define PMU_TOOLS_STAT_PRINT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <pmu.h>
#include "analysis.h"
#include "rows.h"
#include "stat-run.h"
#include "util.h"

enum stat_format {
	FMT_TEXT,         /* perf's table */
	FMT_JSON,         /* --json: the libpmu-stat/1 document */
	FMT_JSON_LINES,   /* -j: perf's JSON, one object per line */
	FMT_CSV,          /* -x SEP: perf's CSV */
};

/* How pmu stat prints, and what it adds to each interval. */
struct stat_printer {
	FILE *f;
	enum stat_format format;
	const char *sep;            /* FMT_CSV */
	bool metric_only;           /* --metric-only: the metrics, not the counts */
	bool no_big_num;            /* text: counts without thousands' separators (--no-big-num) */
	bool summary;               /* -I --summary: the lines of the total follow the intervals' */
	bool no_csv_summary;        /* ... without perf's "summary" field in CSV */
	bool cgroups;               /* -G, --for-each-cgroup: CSV and JSON lines have perf's cgroup field */
	double *table_ns;           /* --table: each run's time elapsed (ntable of them; owned), or NULL */
	int ntable;
	struct pmu_ctx *ctx;        /* the metrics of each interval are evaluated in it */
	const struct strv *metrics; /* -M */
	bool header_done;           /* FMT_TEXT intervals: the column header is out */
	double last_s;              /* the end of the last interval printed */
	json_object *intervals;     /* FMT_JSON: the intervals so far (owned) */
};

/* -I: the counts of the interval that ended @seconds after the start (a stat_run_opts on_interval). */
void stat_print_interval(void *printer, double seconds, const struct stat_counts *c);

/* The final counts in CSV or JSON lines, with @mv (@nmv metrics) after them (after -I: with --summary,
 * marked as perf marks them). */
void stat_print_lines(struct stat_printer *p, const struct stat_counts *c, const struct run_times *t,
		      const struct metric_value *mv, size_t nmv);

/* perf's table of @c for @cmdline (per thread or CPU when it has units), the times and the @notes, to
 * @p's file as @p says (its format aside). */
void stat_print_text(const struct stat_printer *p, const char *cmdline, const struct stat_counts *c, const struct run_times *t,
		     const struct strv *notes);

/* The notes of stat_print_text() alone (-I without --summary). */
void stat_print_notes(const struct stat_printer *p, const struct stat_counts *c, const struct strv *notes);

/* --per-socket and the like: the metrics of -M over each group's rows (@seconds counted), printed as a
 * "Metrics per socket:" block (text), or added to each group's entry of @units (the document's "units")
 * as "metrics"; nothing without groups or metrics. */
void stat_print_group_metrics(const struct stat_printer *p, const struct stat_counts *c, double seconds);
void stat_print_json_group_metrics(const struct stat_printer *p, json_object *units, const struct stat_counts *c,
				   double seconds);

/* The libpmu-stat/1 document: @cmd (@ncmd words) ran, exited @status. */
json_object *stat_print_json(char **cmd, int ncmd, const struct stat_counts *c, const struct run_times *t,
			     int status, const struct pmu_caps *caps, const struct strv *notes);

#endif
