/* SPDX-License-Identifier: MIT */
/*
 * fork() from a threaded process (private): every lock of the library is taken before the fork, in
 * one order, and given back after it in the parent and the child, so that the child never finds a lock
 * held by a thread it does not have. fork.c registers the handlers once, when the library is loaded
 * (and glibc removes them when it is unloaded); each module that owns a lock hands fork.c one function.
 */
#ifndef PMU_FORK_H
#define PMU_FORK_H

#include <pthread.h>
#include <stdbool.h>

/* The generation: each fork's child sees one more (a set or region state of an older one is the
 * parent's). */
extern unsigned pmu__fork_gen;
static inline unsigned pmu__fork_generation(void)
{
	return __atomic_load_n(&pmu__fork_gen, __ATOMIC_RELAXED);
}

/* Take (@take) or give back one lock around fork: given back in the parent and in the child alike,
 * whose one thread is the one that took it. */
static inline void pmu__fork_mutex(pthread_mutex_t *m, bool take)
{
	if (take)
		pthread_mutex_lock(m);
	else
		pthread_mutex_unlock(m);
}

/* Each module's locks, taken (@take) in fork.c's order and given back in the reverse one. Their
 * order is the order in which the library nests them (an outer lock before any it holds while
 * taking another). */
void pmu__region_fork_lock(bool take);          /* region-setup.c: the set-up, then the region state */
void pmu__ctx_fork_lock(bool take);             /* context.c: core contexts, every context's tables */
void pmu__tables_fork_lock(bool take);          /* tables.c: the built-in tables' caches and blocks */
void pmu__cpumap_fork_lock(bool take);          /* tables-cpumap.c: the built-in mapfile's answers */
void pmu__sysfs_fork_lock(bool take);           /* sysfs.c: the PMUs' lazy loading */
void pmu__pfm_fork_lock(bool take);             /* pfm.c: libpfm4's set-up */
/* region-setup.c: the child's regions start empty (its locks given back first) */
void pmu__region_fork_child(void);

#endif
