/* SPDX-License-Identifier: MIT */
/* The layout of an event set: its events, groups and read plan. Owned by the set's files (lib/README.md
 * names them: set.c, read.c and read.h, and the planning steps hybrid.c and topdown-group.c); every
 * other file uses set.h's functions. Private. */
#ifndef PMU_SET_LAYOUT_H
#define PMU_SET_LAYOUT_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "pmu.h"

struct pmu_ctx;
struct pmu_dev;
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
	uint32_t box, nboxes;   /* an event of an uncore unit's boxes (PMU_EVF_BOXES): its nboxes encodings
	                           are the set's box[box ...] (the first one its own); else nboxes 0 */
};

/* One box's encoding of an event counted on each box of an uncore unit (boxes.c): its PMU, type, config. */
struct pmu_box_enc {
	const struct pmu_dev *dev;
	uint32_t type;
	uint64_t config, config1, config2, config3;
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
	 * the group's when read, as perf stat sums the packages. A group of an uncore unit's boxes: its copy
	 * on each other box (that box's encodings), on each CPU of the box's cpumask in a task's set, added
	 * the same way, as perf sums the boxes. Replica r's member k: rep_fd[r * n + k]. */
	uint32_t nrep;
	int *rep_fd;
	uint64_t *rep_id;
	int cpu;                /* the CPU the group itself was opened on (-1: the set's task, any CPU) */
	int *rep_cpu;           /* each replica's CPU and box (pmu_set_read_copies()) */
	uint32_t *rep_box;
	uint32_t pbox;          /* an uncore unit's boxes: the box the group itself is opened on (0; in a set
	                           of a CPU, the first box whose cpumask has that CPU) */
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
	struct pmu_box_enc *box; /* the box encodings of the events of uncore units' boxes (pmu_ev.box) */
	size_t nbox;
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

#endif
