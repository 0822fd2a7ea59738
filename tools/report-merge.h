/* SPDX-License-Identifier: MIT */
/*
 * pmu report's merge of region reports (libpmu-regions/1), each read and
 * checked by report-read.h. Functions return 0 or a negative errno with
 * *@err a malloc'd sentence (-EINVAL: the file's content is refused; -ENOMEM).
 */
#ifndef PMU_TOOLS_REPORT_MERGE_H
#define PMU_TOOLS_REPORT_MERGE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <pmu.h>
#include "util.h"
#include "report-spread.h"

/* Region reports merged: per region, calls and counts summed, min of minima, max of maxima;
 * and per region and event the spread of the files' counts (MPI ranks: the imbalance). */
struct rg_spread {
	uint64_t cur;            /* the count (its "scaled") of file cur_file, not yet folded in */
	int cur_file;            /* -1: none */
	int n;                   /* files folded in */
	uint64_t min, max;
	double sum;
	uint64_t isum;           /* the sum exact (report-spread.h), while isum_ok */
	bool isum_ok;
	struct spread_sq sq;     /* the sum of the squares, 128 bits */
	int min_file, max_file;  /* the file holding min, max: of equal counts the lowest rank's (files with a
				  * rank in decimal), else the first file's */
};
struct rg_cell {
	struct pmu_value v;
	uint64_t min, max;
	bool seen;
	struct rg_spread spread;
};
struct rg_row {
	char *name;
	uint64_t calls;
	struct rg_spread calls_spread; /* the files' calls of the region */
	struct rg_cell *cells;   /* one per event column (ncells, grown as columns are added) */
	size_t ncells;
};
/* A file merged: its name and its "rank" in decimal or as written (NULL when it has none or null). */
struct rg_file {
	char *name;
	char *rank;
	bool rank_is_number;
};
struct saved_regions {
	struct rg_file *filev;   /* files in the order added (files of them) */
	json_object *rank_index; /* "r:RANK" or "f:FILE" (no rank) -> first file of it */
	struct strv notes;       /* a rank (or a file) given twice */
	struct strv events;      /* event columns: each file's "events", then names only regions have */
	json_object *ev_index;   /* event name -> column */
	struct rg_row *rows;
	size_t nrows;
	json_object *row_index;  /* region name -> row */
	int files;
};
/* Add checked document @doc (REPORT_REGIONS) of file @name. */
int saved_regions_add(struct saved_regions *r, const char *name, json_object *doc, char **err);
/* A count across the files that have it: how many, their sum (exact, sum_ok; else its largest value),
 * min, mean, max, the population standard deviation (NAN where the sums do not fit: report-spread.h) and
 * the files holding min and max. The same as libpmu-mpi's job report computes inside the job. */
struct rg_dist {
	int n;
	uint64_t sum;
	bool sum_ok;
	uint64_t min, max;
	double mean, stddev;
	int min_file, max_file;
};
void rg_spread_dist(const struct saved_regions *r, const struct rg_spread *s, struct rg_dist *d);
/* Cell @c's count across the files that counted it. */
void rg_cell_spread(const struct saved_regions *r, const struct rg_cell *c, struct rg_dist *d);
/* File @i's label: its rank, or its name when it has none. */
const char *rg_file_label(const struct saved_regions *r, int i);
void saved_regions_free(struct saved_regions *r);

#endif
