/* SPDX-License-Identifier: MIT */
/* pmu stat -g GROUP: a performance group's counts and metrics (LIKWID's group files, libpmu's own), printed
 * as likwid-perfctr prints them (the event table, the metric table, and for several CPUs or sockets their
 * STAT tables), added to the --json document ("group"), and as CSV rows. */
#ifndef PMU_TOOLS_STAT_LIKWID_H
#define PMU_TOOLS_STAT_LIKWID_H

#include <json-c/json.h>
#include <stdio.h>
#include <pmu.h>
#include "stat-run.h"

/* likwid-perfctr's tables of group @g over @c (each unit a column; no units: one column, "Total"),
 * the run's time @seconds. 0, or -1 when memory ran out. */
int stat_likwid_text(FILE *f, struct pmu_ctx *ctx, const struct pmu_group *g, const struct stat_counts *c,
		     double seconds);
/* The group as the --json document's "group": name, arch, file, its events (counter, LIKWID's event,
 * libpmu's, value) and metrics (name, unit, formula, expression, value), the total's and each unit's. */
json_object *stat_likwid_json(struct pmu_ctx *ctx, const struct pmu_group *g, const struct stat_counts *c,
			      double seconds);
/* CSV (@sep): "metric<sep>unit<sep>value<sep>column" a line per metric and column. */
void stat_likwid_csv(FILE *f, const char *sep, struct pmu_ctx *ctx, const struct pmu_group *g,
		     const struct stat_counts *c, double seconds);

#endif
