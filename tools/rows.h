/* SPDX-License-Identifier: MIT */
/*
 * The pmu command's rows: one counted event each (a row of pmu stat's table, or a name's sum over saved
 * files), kept by name, and the times of a run. Counting (stat-run.c), printing (stat-print.c,
 * analysis.c) and pmu report's sums share them; nothing here reads a file.
 */
#ifndef PMU_TOOLS_ROWS_H
#define PMU_TOOLS_ROWS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <pmu.h>

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
	int cpus;               /* pmu stat --per-socket and the like: the CPUs whose counts it sums (perf's
	                           "aggregate-number"); 0: not a sum over CPUs */
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
/* The index's keys by position: @rs->n pointers into the index (valid while @rs is), or NULL when out of
 * memory (free() the array). */
const char **stat_rows_keys(struct stat_rows *rs);
/* Does @info count what every unit (thread, CPU) counts alike, so that units are not summed: wall-clock
 * time (duration_time), a package's count that each task's unit counted on its PMU's CPU (cpu-wide)? */
bool row_same_in_units(const struct pmu_event_info *info);
/* A unit's count @v of event @info added to @row: summed, or where row_same_in_units(@info) the unit
 * enabled longest kept (whatever its count: 0 where no energy is read in a VM is one). */
void stat_row_add(struct stat_row *row, const struct pmu_event_info *info, const struct pmu_value *v);
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

/* The position of @name in *@index (made when NULL), else @next after adding it (*@added). -ENOMEM. */
int64_t index_pos(json_object **index, const char *name, size_t next, bool *added);

#endif
