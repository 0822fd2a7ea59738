/* SPDX-License-Identifier: MIT */
/* The analysis pmu stat and pmu report share: metrics (of the tables, or
 * expressions) and the topdown tree evaluated over counted rows, printed as
 * text or added to a JSON document; the events metrics need; the metric
 * parameters given on the command line. */
#ifndef PMU_TOOLS_ANALYSIS_H
#define PMU_TOOLS_ANALYSIS_H

#include <json-c/json.h>
#include <stdio.h>
#include <pmu.h>
#include "opts.h"
#include "rows.h"
#include "util.h"

/* Metric parameters NAME=NUMBER, applied to a context before evaluation. */
#define METRIC_PARAMS_MAX 32
struct metric_params {
	const char *v[METRIC_PARAMS_MAX];  /* "NAME=NUMBER", pointing into argv */
	int n;
};
/* Add @arg; on a malformed one or too many, say so on stderr and return -1. */
int params_add(struct metric_params *p, const char *arg);
/* Set each on @ctx; on a refusal, say so on stderr and return -1. */
int params_apply(const struct metric_params *p, struct pmu_ctx *ctx);

/* The metric #constants of @ctx's machine and the parameters set (pmu_constant_foreach), as the
 * key "constants" of @doc (pmu stat --json): 0 or a negative errno. */
int constants_record(struct pmu_ctx *ctx, json_object *doc);
/* A file's "constants" (checked against the schema) set on @ctx as parameters, so that metrics
 * use the counted machine's topology; NULL: none. On a refusal, said on stderr: -1. */
int constants_apply(json_object *constants, struct pmu_ctx *ctx);

/* The options that ask for analysis, pmu stat's and pmu report's alike. */
enum { OPT_TOPDOWN = OPT_LONG + 64, OPT_TD_LEVEL, OPT_PARAM };
#define ANALYSIS_OPTS \
	{ 'M', "metrics", NULL, "METRICS", "metrics to compute: names of the tables' metrics or metric groups, " \
	  "or expressions (comma-separated; repeatable)" }, \
	{ OPT_TOPDOWN, "topdown", NULL, NULL, "the topdown tree: level 1, and level 2 where the CPU counts it" }, \
	{ OPT_TD_LEVEL, "td-level", NULL, "N", "the topdown tree to level N (1 or 2; 0: every level counted)" }, \
	{ OPT_PARAM, "param", NULL, "NAME=VALUE", "set metric parameter #NAME (MetricParams; repeatable)" }
/* The levels of the topdown tree printed: 0 none; N: levels 1 to N (with a note where the CPU's
 * counters give fewer); TOPDOWN_COUNTED: those the counters give (--topdown) */
#define TOPDOWN_COUNTED 99
struct analysis_opts {
	struct strv metrics;    /* -M, split into metrics */
	int topdown;            /* as TOPDOWN_COUNTED says */
	struct metric_params params;
};
/* Take option @id (of ANALYSIS_OPTS) of command @cmd: 0, -1 after saying why, or 1 when @id is another option. */
int analysis_opt(struct analysis_opts *a, const char *cmd, int id, const char *arg);
void analysis_opts_free(struct analysis_opts *a);
/* Why -D NAME=VALUE is refused now, on stderr; returns -1. */
int analysis_old_param(const char *cmd, const char *arg);

/* Counted values as the analysis reads them. */
struct counted {
	const struct stat_row *rows;
	size_t n;
	double seconds;    /* wall time of the run, for perf's duration_time; 0 if unknown */
	bool counted;      /* the rows' info are the events this run counted (pmu stat), not only the
	                      names a report gives: metrics match them by encoding, no name resolved again */
};

/* One metric's value. */
struct metric_value {
	const char *name;      /* as asked for */
	double value;          /* scaled by its ScaleUnit; NaN when it has none */
	const char *unit;      /* the ScaleUnit's unit ("%"), or "" */
	int crossed;           /* its MetricThreshold holds */
	char *why;             /* why it has no value, or NULL */
};
/* Evaluate @ms over @c into @out (ms->n entries). Returns how many have no value, or -ENOMEM. */
int metrics_eval(struct pmu_ctx *ctx, const struct strv *ms, const struct counted *c, struct metric_value *out);
/* Free @n values at @v (and @v). */
void metric_values_free(struct metric_value *v, size_t n);
/* {name, value, unit, threshold_crossed[, error]}, as the libpmu-stat/1 document has a metric. */
json_object *metric_json(const struct metric_value *m);

/* The metrics @metrics and (@topdown: its levels, as TOPDOWN_COUNTED says) the topdown tree over @c: printed to
 * @f, or added to @json ("metrics", "topdown") when it is not NULL. Returns
 * 1 if something could not be computed, else 0. */
int analysis(FILE *f, struct pmu_ctx *ctx, const struct strv *metrics, int topdown, const struct counted *c,
	     json_object *json);

/* -M's names checked and groups expanded, in place: a metric of the tables stays, a metric group
 * (perf's MetricGroup) becomes its metrics, an expression stays; a name that is none of these
 * (only letters, digits, '_' and '.', or PMU/NAME/) is said to be unknown: -1 (said on stderr). */
int metrics_expand(struct pmu_ctx *ctx, const char *cmd, struct strv *ms);

/* Append the events metrics @ms need to the list *@events (malloc'd), skipping names already
 * there, and with @topdown (the list also has the TOPDOWN keyword) the SLOTS and PERF_METRICS
 * events that keyword counts (named twice, the set would refuse them); an event that cannot be
 * counted here (its PMU absent, its name unknown to this machine's tables) is left out with a
 * sentence in @notes, and its metric says n/a. 0, or -1 said on stderr. */
int add_metric_events(struct pmu_ctx *ctx, const struct strv *ms, int topdown, char **events, struct strv *notes);

#endif
