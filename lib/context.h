/* SPDX-License-Identifier: MIT */
/* A context's layout: its CPU, PMUs, tables and access settings; and the advice on access
 * (lib/context.c). Private. */
#ifndef PMU_CONTEXT_H
#define PMU_CONTEXT_H
#include <pthread.h>
#include <stdbool.h>
#include "pmu.h"
#include "cpu.h"
#include "tables.h"

struct pmu_dev;

struct pmu_ctx {
	pmu_log_fn log_fn;
	void *log_data;
	int log_level;
	char sysfs_root[256];
	char procfs_root[256];
	char *events_path;
	struct pmu_cpu cpu;
	struct pmu_dev *pmus;
	size_t n_pmus;
	struct pmu_caps caps;
	struct { char name[64]; double value; } params[32]; /* pmu_ctx_set_param */
	size_t nparams;
	pthread_mutex_t tables_lock;
	struct pmu_tables tables;   /* loaded on first use (pmu__tables_load) */
	bool core_child;            /* the context of one core PMU's tables (pmu__core_ctx): makes none itself */
	struct pmu_ctx *live_prev, *live_next; /* the contexts of the process (context.c: fork takes their locks) */
	bool live;
};

/* The context whose event tables are core PMU @d's: on arm64, where @d's CPUs are another core than
 * CPU 0 (a big.LITTLE cluster), a context of its own, made at the first need with @d's identity (and
 * the same roots, tables path and log), kept with @ctx and freed with it; else @ctx. NULL when out of
 * memory or that context cannot be made (said). Thread-safe. pmu_ctx_free frees it with @ctx. */
struct pmu_ctx *pmu__core_ctx(struct pmu_ctx *ctx, const struct pmu_dev *d);
/* Whether the kernel of @ctx's procfs root is release @major.@minor or later, by its sys/kernel/osrelease
 * ("6.1.0-18-arm64": 6.1): a written tree states its kernel there. False where the file is absent or
 * does not begin with MAJOR.MINOR. */
bool pmu__kernel_at_least(const struct pmu_ctx *ctx, int major, int minor);

/* What perf_event_open() was asked for, to explain a refusal (EACCES, EPERM). */
struct pmu_access {
	const char *name;       /* the event's label */
	bool kernel;            /* counts kernel mode (exclude_kernel clear) */
	bool tracepoint;        /* fires in kernel mode only: counting it in user mode counts nothing */
	bool cpu_wide;          /* every task of one CPU (pid -1) */
	int cpu;
	bool other_process;     /* a process given by pid, other than the caller */
};

/*
 * The sentence for perf_event_open() refusing @a with EACCES or EPERM under
 * @ctx's settings (kernel.perf_event_paranoid, capabilities): the cause and a
 * fix that allows what was asked: a paranoid level low enough for it, a
 * user-mode label only where that would be allowed and counts something, and
 * never a modifier the name already has. Written into @buf like snprintf;
 * returns the length it needed.
 */
int pmu__access_advice(const struct pmu_ctx *ctx, const struct pmu_access *a, char *buf, size_t len);

#endif
