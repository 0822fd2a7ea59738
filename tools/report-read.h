/* SPDX-License-Identifier: MIT */
/*
 * pmu report's reader: saved 'pmu stat --json' files (libpmu-stat/1) and
 * region reports (libpmu-regions/1). A file is read up to REPORT_MAX_BYTES,
 * parsed as strict JSON and every key it has is checked against the schema
 * in tools/schemas/ (compiled in): type, range, pattern. A refusal names the
 * file, the key and what was expected. Apart from the command so that a fuzz
 * target (tests/fuzz/fuzz-report.c) links it. Functions return 0 or a
 * negative errno with *@err a malloc'd sentence (-EINVAL: the file's content
 * is refused; other values: it could not be read).
 */
#ifndef PMU_TOOLS_REPORT_READ_H
#define PMU_TOOLS_REPORT_READ_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <pmu.h>
#include "util.h"

/* far above any report libpmu writes; bounds what a FIFO or /dev/zero costs */
#define REPORT_MAX_BYTES (64u << 20)

/* One counted event: a row of pmu stat's table, or the sum of a name's rows over saved files. */
struct stat_row {
	struct pmu_event_info info;
	struct pmu_value v;
	bool supported;
	bool not_summed;        /* pmu report: files counted it at once on one machine (saved_stat_overlap) */
	double stddev_pct;      /* -r: standard error of the mean over the runs, % of the mean */
	double unit_scale;      /* a count times this is in info.unit (pmu_event_scale(); RAPL's 2^-32
	                           Joules); 0 or 1: the count is */
	char cgroup[128];       /* pmu stat -G, --for-each-cgroup: the cgroup whose tasks it counted, as
	                           named; "": every task of the target */
};

/* Rows by name; the index makes each lookup cost the same however many rows there are. */
struct stat_rows {
	struct stat_row *v;
	size_t n;
	json_object *index;     /* name -> position in v */
};
/* The row named @name, appended (zeroed, *@added set) if there is none; NULL when out of memory. */
struct stat_row *stat_rows_named(struct stat_rows *rs, const char *name, bool *added);
/* The row of event @name counted in @cgroup ("" or NULL: not a cgroup's), as stat_rows_named() (the
 * same name in two cgroups is two rows); its cgroup set when it is added. */
struct stat_row *stat_rows_of(struct stat_rows *rs, const char *name, const char *cgroup, bool *added);
void stat_rows_free(struct stat_rows *rs);
/* Is row label @label event @name, with or without modifiers ("cycles:u", "cpu_core/cycles/u")? */
bool label_is(const char *label, const char *name);

/* wall time of the run and the CPU time the kernel charged the command (with its waited-for children) */
struct run_times {
	double elapsed_ns, user_ns, sys_ns;   /* means over the runs; user/sys < 0: unknown (-p) */
	double elapsed_se_ns;                 /* -r: the standard error of the mean elapsed; 0 otherwise */
	int runs;                             /* -r; 1 otherwise */
	double wall_start_ns, wall_end_ns;    /* CLOCK_REALTIME when counting began (the first run's) and ended
	                                         (the last run's): when the counts were taken; 0: unknown */
};

enum report_kind { REPORT_STAT = 1, REPORT_REGIONS = 2 };

/* Read @path (a FIFO or process substitution too, up to REPORT_MAX_BYTES) and check it: *@doc, *@kind. */
int report_load(const char *path, json_object **doc, enum report_kind *kind, char **err);
/* The same for @len bytes at @text, named @name in messages. */
int report_parse(const char *name, const char *text, size_t len, json_object **doc, enum report_kind *kind,
		 char **err);

/* Where and when one 'pmu stat --json' file counted, and its rows of a PMU that counts CPUs. */
struct saved_file {
	char *name;
	char *host, *boot;       /* "host", "boot_id"; NULL where the file does not say */
	uint64_t start, end;     /* "wall_start_ns", "wall_end_ns"; 0 where the file does not say */
	struct strv cpu_wide;    /* the names of its rows with cpu_wide */
};

/* 'pmu stat --json' files summed: counts per event name, times, the CPU of the first file. */
struct saved_stat {
	struct stat_rows rows;
	struct run_times times;  /* sums; user_ns/sys_ns < 0 unless every file has them */
	char *cpuid;             /* the first file's; NULL if none */
	char *other_cpuid;       /* a later file's, when it differs */
	json_object *constants;  /* the first file's "constants" (the counted machine's), or NULL */
	bool constants_differ;   /* a later file has other constants */
	json_object *units;      /* the units of counts in fractions of them (unit_scale): the rows point here */
	struct saved_file *filev; /* each file's (nfilev: those made; one more than files after a refused file) */
	int nfilev;
	int files;
};
/* Add checked document @doc (REPORT_STAT) of file @name; refuses sums beyond 64 bits. */
int saved_stat_add(struct saved_stat *s, const char *name, json_object *doc, char **err);
/* What files must share to be summed: the same events (names, in any order) and the same number of
 * runs (-r: their counts are means). A malloc'd string ("runs=1\ncycles\ntask-clock"), NULL when out
 * of memory. */
char *saved_stat_signature(json_object *doc);
/* After the last file: the elapsed time of the sum, from the time the files' runs covered together
 * (files run at once, MPI ranks, are not one after another). *@overlapped: some files ran at the same
 * time. false when some file does not say when it counted (then the elapsed times are summed). */
bool saved_stat_covered(struct saved_stat *s, bool *overlapped);
/* The command the files counted in *@out, when every file names the same one (malloc'd), else NULL.
 * 0; -ENOMEM (*@out NULL). */
int saved_stat_command(json_object *const *docs, size_t n, char **out);
void saved_stat_free(struct saved_stat *s);
/*
 * Whether the sum of row @name (a PMU that counts CPUs: a package's energy, an uncore) counts something
 * twice: SUM_OVERLAP when two of the files that have it counted it on one machine (the same boot_id,
 * else the same host) over spans that intersect, each then holding the whole package's count (*@a and
 * *@b: those files' indices); SUM_UNKNOWN when two or more have it and one does not say where or when
 * it counted (a file from before libpmu wrote it); SUM_OK otherwise (one file, other machines, one
 * after another).
 */
enum sum_verdict { SUM_OK, SUM_OVERLAP, SUM_UNKNOWN };
enum sum_verdict saved_stat_overlap(const struct saved_stat *s, const char *name, int *a, int *b);

/* Region reports merged: per region, calls and counts summed, min of minima, max of maxima;
 * and per region and event the spread of the files' counts (MPI ranks: the imbalance). */
struct rg_spread {
	uint64_t cur;            /* the count (its "scaled") of file cur_file, not yet folded in */
	int cur_file;            /* -1: none */
	int n;                   /* files folded in */
	uint64_t min, max;
	double sum;
	int max_file;            /* the first file holding max */
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
/* Cell @c's count across the files that counted it: how many, min, mean, max and the file with the max. */
struct rg_dist {
	int n;
	uint64_t min, max;
	double mean;
	int max_file;
};
void rg_cell_spread(const struct rg_cell *c, struct rg_dist *d);
/* File @i's label: its rank, or its name when it has none. */
const char *rg_file_label(const struct saved_regions *r, int i);
void saved_regions_free(struct saved_regions *r);

#endif
