/* SPDX-License-Identifier: MIT */
/*
 * fork() from a threaded process: the handlers that take every lock of the library before the fork and
 * give them back after it (fork.h), registered once when the library is loaded.
 */
#include <pthread.h>
#include "fork.h"

unsigned pmu__fork_gen;

/* The modules' locks, outermost first. */
static void (*const fork_locks[])(bool take) = {
	pmu__region_fork_lock, pmu__ctx_fork_lock, pmu__tables_fork_lock,
	pmu__cpumap_fork_lock, pmu__sysfs_fork_lock, pmu__pfm_fork_lock,
};
#define NLOCKS (sizeof(fork_locks) / sizeof(fork_locks[0]))

static void prepare(void)
{
	for (unsigned i = 0; i < NLOCKS; i++)
		fork_locks[i](true);
}

static void give_back(void)
{
	for (unsigned i = NLOCKS; i-- > 0;)
		fork_locks[i](false);
}

static void child(void)
{
	give_back();
	__atomic_fetch_add(&pmu__fork_gen, 1, __ATOMIC_RELAXED);
	pmu__region_fork_child();
}

/* At load: no lock can have been taken yet. A library that dlclose() unloads has its handlers removed
 * by glibc (they are registered under its DSO handle). */
__attribute__((constructor)) static void fork_handlers(void)
{
	pthread_atfork(prepare, give_back, child);
}
