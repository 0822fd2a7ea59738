/* SPDX-License-Identifier: MIT */
/*
 * pmu stat -G and --for-each-cgroup: the cgroups named, found in the
 * cgroup file system the kernel counts them in (a cgroup v1 hierarchy
 * with the perf_event controller, else cgroup2, as perf looks for them),
 * each opened, and the events each counts: with --for-each-cgroup every
 * event in each; with -G perf's pairing of names and events.
 */
#ifndef PMU_TOOLS_STAT_CGROUP_H
#define PMU_TOOLS_STAT_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include "stat-run.h"
#include "util.h"

/* -G as perf takes it, option by option: the k-th name given (over every -G) goes to the k-th event of the
 * list written so far ('' to none); while one name is all -G gave, every event written before it is in that
 * cgroup ("-e cycles -G A -e cycles": the first in A, the second everywhere). */
struct stat_cgroup_plan {
	struct strv assigned;  /* per event of -e (as written), its cgroup; "": every task */
	int names;             /* names -G gave so far, empty ones too */
};
/* One -G @names after the events @events (-e so far): 0, -1 out of memory, or 2 after saying why. */
int stat_cgroup_option(struct stat_cgroup_plan *pl, const char *events, const char *names);
void stat_cgroup_plan_free(struct stat_cgroup_plan *pl);

/* The cgroups of @pl (-G) or @each (--for-each-cgroup: every event in each, comma-separated) for the whole
 * list @events (-e's, then what -M and -d add, in no cgroup) into *@out (*@n of them; free with
 * stat_cgroups_free). 0, or 2 (a usage error) or 1 after saying why on stderr. */
int stat_cgroups_make(const struct stat_cgroup_plan *pl, const char *each, const char *events,
		      struct stat_cgroup **out, size_t *n);
void stat_cgroups_free(struct stat_cgroup *c, size_t n);

#endif
