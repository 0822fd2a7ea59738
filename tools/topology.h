/* SPDX-License-Identifier: MIT */
/*
 * A CPU's place in the machine as perf stat's aggregation modes read it from sysfs (the context's root:
 * PMU_SYSFS_ROOT, else /sys): its socket (topology/physical_package_id), die (die_id), cluster
 * (cluster_id), core (core_id), NUMA node (the node*'s cpulist that lists it) and cache instance (the
 * first CPU of cache/indexN/shared_cpu_list, perf's cache id). The id of a mode holds the fields perf's
 * holds for it; perf's order and perf's text ("S0-D0-C3"). Nothing here counts.
 */
#ifndef PMU_TOOLS_TOPOLOGY_H
#define PMU_TOOLS_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

/* pmu stat's aggregation over CPUs: none (a sum, or -A's row per CPU), or perf's --per-X */
enum aggr_mode {
	AGGR_NONE,
	AGGR_SOCKET,   /* --per-socket */
	AGGR_DIE,      /* --per-die */
	AGGR_CLUSTER,  /* --per-cluster */
	AGGR_CACHE,    /* --per-cache[=LEVEL] */
	AGGR_CORE,     /* --per-core */
	AGGR_NODE,     /* --per-node */
};

/* The highest cache level perf takes (its MAX_CACHE_LVL): --per-cache=L1 .. L4 */
#define AGGR_CACHE_LEVEL_MAX 4

/* An aggregation unit's id: the fields of its mode, the others -1 (as perf's struct aggr_cpu_id). */
struct aggr_id {
	int socket, die, cluster, core, node;
	int cache_level, cache;        /* the cache's level; its id: the first CPU that shares it */
};

/* "socket", "die", "cluster", "cache", "core", "node": perf's word for the mode (its -j key, its CSV
 * header); "" for AGGR_NONE. */
const char *aggr_mode_word(enum aggr_mode m);
/* The width perf gives the id in its text rows (aggr_header_lens): 6 for S0, 18 for S0-D0-C3, ... */
int aggr_mode_width(enum aggr_mode m);

/* --per-cache's LEVEL ("L3" or "l3", 1 to AGGR_CACHE_LEVEL_MAX; NULL: 0, the highest level each CPU
 * has) into *@level: 0, or -1 when it is not one. */
int aggr_cache_level(const char *arg, int *level);

/* What a CPU's id was made of where the kernel says less than perf reads (a kernel before dies or
 * clusters): the file absent, taken as perf takes it (0). */
struct aggr_guess {
	bool no_die, no_cluster;       /* topology/die_id, topology/cluster_id absent */
	int cpu;                       /* the first CPU it was so for */
};

/*
 * The id of @cpu for @mode (not AGGR_NONE) under sysfs root @root; for AGGR_CACHE, @cache_level (0:
 * the highest the CPU has). 0; or -1 with a sentence in @err (@len bytes) naming the file missing or
 * malformed and what to do. A missing die_id or cluster_id is taken as 0, as perf does, and said in
 * *@guess (which may be NULL).
 */
int aggr_id_of(const char *root, int cpu, enum aggr_mode mode, int cache_level, struct aggr_id *out,
	       struct aggr_guess *guess, char *err, size_t len);

/* The id as perf prints it: "S0", "S0-D1", "S0-D0-CLS2", "S0-D0-L3-ID0", "S0-D0-C3", "N0". */
void aggr_id_text(enum aggr_mode m, const struct aggr_id *id, char *buf, size_t len);
/* perf's order of ids (node, socket, die, cluster, cache level, cache, core); 0: the same unit. */
int aggr_id_cmp(const struct aggr_id *a, const struct aggr_id *b);

/* The smallest CPU of a kernel CPU list ("4-7,12"), or -1 when it has none or is malformed. */
int cpulist_first(const char *list);
/* Does kernel CPU list @list name @cpu? */
bool cpulist_has(const char *list, int cpu);

#endif
