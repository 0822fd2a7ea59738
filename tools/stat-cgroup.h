/* SPDX-License-Identifier: MIT */
/*
 * pmu stat -G and --for-each-cgroup: the cgroups named, found in the
 * cgroup file system the kernel counts them in (a cgroup v1 hierarchy
 * with the perf_event controller, else cgroup2, as perf looks for them),
 * each opened, and the events each counts: with --for-each-cgroup every
 * event in each; with -G one name for every event, or (perf's rule) the
 * i-th name for the i-th event, an empty name for every task.
 */
#ifndef PMU_TOOLS_STAT_CGROUP_H
#define PMU_TOOLS_STAT_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include "stat-run.h"

/* @names (comma-separated, as written) for @events into *@out (*@n of them; free with
 * stat_cgroups_free). 0, or 2 (a usage error) or 1 after saying why on stderr. */
int stat_cgroups_make(const char *names, bool each, const char *events, struct stat_cgroup **out, size_t *n);
void stat_cgroups_free(struct stat_cgroup *c, size_t n);

#endif
