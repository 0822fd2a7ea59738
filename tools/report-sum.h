/* SPDX-License-Identifier: MIT */
/*
 * pmu report's sums of saved 'pmu stat --json' files (libpmu-stat/1), each
 * read and checked by report-read.h: one row per event name (rows.h), the
 * files' times, and whether a sum counts a package twice. Functions return 0
 * or a negative errno with *@err a malloc'd sentence (-EINVAL: the file's
 * content is refused; -ENOMEM).
 */
#ifndef PMU_TOOLS_REPORT_SUM_H
#define PMU_TOOLS_REPORT_SUM_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include "rows.h"
#include "util.h"

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

#endif
