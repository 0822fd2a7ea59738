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
#include "report-read.h"
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

/* Counted values as the analysis reads them. */
struct counted {
	const struct stat_row *rows;
	size_t n;
	double seconds;    /* wall time of the run, for perf's duration_time; 0 if unknown */
};

/* The metrics @metrics and (@topdown) the topdown tree over @c: printed to
 * @f, or added to @json ("metrics", "topdown") when it is not NULL. Returns
 * 1 if something could not be computed, else 0. */
int analysis(FILE *f, struct pmu_ctx *ctx, const struct strv *metrics, int topdown, const struct counted *c,
	     json_object *json);

/* Append the events metrics @ms need to the list *@events (malloc'd),
 * skipping names already there. 0, or -1 said on stderr. */
int add_metric_events(struct pmu_ctx *ctx, const struct strv *ms, char **events);

#endif
