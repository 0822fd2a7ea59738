/* SPDX-License-Identifier: MIT */
/* Private layout of an event set, shared by set.c and read.c. */
#ifndef PMU_SET_H
#define PMU_SET_H
#include "internal.h"

struct pmu_tool;

struct pmu_ev {
	struct pmu_event_info info;
	struct perf_event_attr attr;
	int fd;
	uint64_t id;
	unsigned group;
	int part_of;            /* hybrid CPU: index of the listed event this is a part of, or -1 */
	bool mode_written;      /* a modifier (:u, :k, :h, {group}:u) or PMU_SET_USER_ONLY chose the mode:
	                           opened exactly so or not at all */
	struct pmu_tool *tool;  /* a tool event (duration_time, ...): measured by libpmu, fd -1; else NULL */
	bool per_core_name;     /* hybrid CPU: a table name each core PMU counts with its own event, not
	                           resolved yet: pmu__hybrid_split resolves it per core PMU */
};

struct pmu_grp {
	int leader_fd;
	uint32_t first, n;
	bool explicit_group;
	uint64_t *buf;          /* read(2) buffer of groups over 32 events: nr, enabled, running, {value, id} x n */
	size_t buflen;          /* bytes */
	pthread_mutex_t lock;   /* guards buf */
	/* A group of a PMU that counts CPUs (cpu-wide) in a task's set, its cpumask of several CPUs (a package
	 * or die each: a 2-socket RAPL): the same group opened on each other CPU of it, its counts added to
	 * the group's when read, as perf stat sums the packages. Replica r's member k: rep_fd[r * n + k]. */
	uint32_t nrep;
	int *rep_fd;
	uint64_t *rep_id;
};

/* One perf_event group of the set as the read by its owner thread (read.h) walks it. */
struct pmu_fast_group {
	uint32_t first;   /* index of its first value */
	uint32_t count;   /* number of values (members) */
	uint32_t fast;    /* 1 if every member has a user page worth trying */
	uint32_t reserved;
};

struct pmu_set {
	struct pmu_ctx *ctx;
	unsigned flags;
	pid_t pid;
	int cpu;
	int cgroup_fd;          /* PMU_SET_CGROUP: the cgroup whose tasks are counted (pid -1 stands for them),
				 * the caller's descriptor, used while opening only; else -1 */
	size_t n;
	struct pmu_ev *ev;
	size_t ngroups;
	struct pmu_grp *g;
	struct pmu_fast fast;   /* the public read plan (pmu_set_fast()); the library finds the set from it */
	struct pmu_fast_group *fgroups; /* per group (ngroups) */
	struct perf_event_mmap_page **pages;
	size_t npages;                  /* length of pages and fgroups: n once the plan is sized (resize_plan),
					 * the first n until then (planning may change n first) */
	uint32_t hybrid_parts;  /* values that are one core type's part of an event (pmu_fast_hybrid()) */
	/* A task's set on a machine of several core PMUs, with events of core PMUs: per core PMU, a pinned
	 * cycle counter whose running time is the time the task spent on that core type (hybrid.c). */
	size_t npresence;
	int presence_fd[8];
	const struct pmu_dev *presence_pmu[8];
	size_t page_size;
	bool enabled;           /* enabled by open (PMU_SET_ENABLE) or pmu_set_enable(), not since disabled */
	bool owned;             /* counts the opening thread itself: user-space reads possible */
	uintptr_t owner;        /* that thread's pmu_arch_thread() */
	pid_t opener;           /* getpid() at open: another process is a forked child */
	unsigned gen;           /* pmu__fork_gen at open */
	uintptr_t *guard_page;  /* MADV_WIPEONFORK page; word 0 is owner while reads may go to user space */
};

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
 * returns the length it needed. (context.c)
 */
int pmu__access_advice(const struct pmu_ctx *ctx, const struct pmu_access *a, char *buf, size_t len);

/* The set is read in a child of the process that opened it (forked). */
bool pmu__set_forked(const struct pmu_set *s);
/* The error of a set used after fork() in the child: -ECHILD, the message set. */
int pmu__set_forked_err(const struct pmu_set *s);
/* The calling thread is the one whose counters the set reads. */
bool pmu__set_mine(const struct pmu_set *s);

/* The name of the first event of @s (planned or open) whose PMU counts CPUs, not tasks (a cpumask: RAPL,
 * uncore), that PMU's name into *@pmu; NULL if none. */
const char *pmu__set_cpu_counted(const struct pmu_set *s, const char **pmu);
/* The caller's options @opts (NULL: the defaults) taken into @o and checked, each refusal said with its fix
 * naming @fn; with @target false (a plan's options: pmu_plan_new) pid and cpu are left unchecked. */
int pmu__set_opts_take(struct pmu_ctx *ctx, const struct pmu_set_opts *opts, struct pmu_set_opts *o, bool target,
		       const char *fn);
/* A set as planned set @t (pmu__set_plan), on @o's target (its pid, cpu and cgroup; its flags @t's), opened:
 * @t is only read (threads may open one at once). 0, or the error said with *@out NULL. */
int pmu__set_open_planned(const struct pmu_set *t, const struct pmu_set_opts *o, struct pmu_set **out);
/* The arrangement plan @p opens on CPU @cpu (-1: any target) into *@out (plan.c; tests compare it with
 * pmu__set_plan's for that CPU): 0; the error planning it gave, said again; -ENOENT when no arrangement is
 * made for that CPU (pmu_plan_open plans for it alone). */
struct pmu_plan;
int pmu__plan_planned(const struct pmu_plan *p, int cpu, const struct pmu_set **out);
/* Parse, resolve, arrange topdown and group @events without opening (tests use it). */
int pmu__set_plan(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *o, struct pmu_set **out);
#endif
