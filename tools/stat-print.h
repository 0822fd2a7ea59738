/* SPDX-License-Identifier: MIT */
/* The display of pmu stat's counts (and pmu report's, of saved counts):
 * perf's text table with its per-row ratios (CPUs utilized, insn per cycle,
 * GHz, branch miss rate, K/sec), the notes, and the libpmu-stat/1 JSON
 * document (tools/schemas/libpmu-stat-1.schema.json). */
#ifndef PMU_TOOLS_STAT_PRINT_H
#define PMU_TOOLS_STAT_PRINT_H

#include <json-c/json.h>
#include <stdio.h>
#include <pmu.h>
#include "report-read.h"
#include "util.h"

/* The table of @rows for @cmdline, the times and the @notes, to @f. */
void stat_print_text(FILE *f, const char *cmdline, const struct stat_row *rows, size_t n, const struct run_times *t,
		     const struct strv *notes);

/* The libpmu-stat/1 document: @cmd (@ncmd words) ran, exited @status. */
json_object *stat_print_json(char **cmd, int ncmd, const struct stat_row *rows, size_t n, const struct run_times *t,
			     int status, const struct pmu_caps *c, const struct strv *notes);

#endif
