/* SPDX-License-Identifier: MIT */
/*
 * pmu stat --per-socket, --per-die, --per-cluster, --per-cache, --per-core, --per-node: the CPUs counted
 * (-a, -C) grouped by their socket (die, ...; topology.h reads where each CPU is) in perf's order, and
 * each CPU's counts summed into its group's, a row per group and event with the number of CPUs it sums
 * (perf's aggregate-number). A PMU that counts CPUs (uncore, power) is counted on its cpumask's CPUs
 * only: its count lands in the group of that CPU.
 */
#ifndef PMU_TOOLS_STAT_AGGR_H
#define PMU_TOOLS_STAT_AGGR_H

#include <stddef.h>
#include "stat-run.h"
#include "topology.h"
#include "util.h"

/* One aggregation unit: a socket (die, ...) and the CPUs counted in it. */
struct aggr_group {
	struct aggr_id id;
	char text[48];         /* perf's id: "S0", "S0-D0-C3" */
	int *cpus;             /* ascending */
	size_t ncpus;
};

/* The groups of the CPUs counted, for one mode. */
struct aggr_map {
	enum aggr_mode mode;
	int cache_level;       /* AGGR_CACHE: the level asked for (0: each CPU's highest) */
	struct aggr_group *groups;   /* in perf's order (aggr_id_cmp) */
	size_t ngroups;
	int *cpu;              /* cpu[k]: the group of CPU k (-1: not counted); ncpu entries */
	size_t ncpu;
};

/* The map of @mode (@cache_level) over @cpus (@n CPUs; each online, as @root's devices/system/cpu/online
 * lists them, is placed: an offline one opens no set) read under sysfs root @root. 0; -1 with a
 * sentence on stderr (the file missing and what to do) or out of memory. A topology file taken as perf
 * takes it (die_id, cluster_id absent) is said in @notes. */
int aggr_map_make(struct aggr_map *m, const char *root, enum aggr_mode mode, int cache_level, const int *cpus,
		  size_t n, struct strv *notes);
/* A map made from ids given (tests, and where they are known already): @ids[k] is CPU @cpus[k]'s. */
int aggr_map_of_ids(struct aggr_map *m, enum aggr_mode mode, const int *cpus, const struct aggr_id *ids, size_t n);
void aggr_map_free(struct aggr_map *m);

/* @c's units of CPUs replaced by a unit per group of @m (in its order; each unit's group set, cpu -1),
 * every row the sum of its CPUs' rows (rows.h's stat_row_add: a wall-clock time the longest) and its
 * cpus the number of CPUs that counted it (all the group's where none did). The total is left as it
 * is. 0, -ENOMEM, or -EINVAL (said on stderr) when a unit's CPU is in no group. */
int aggr_fold(const struct aggr_map *m, struct stat_counts *c);

#endif
