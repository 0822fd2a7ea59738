/* SPDX-License-Identifier: MIT */
/*
 * pmu stat's runner: what is counted (a command it forks, running processes
 * or threads, CPUs), for how long (until the command or the processes end, a
 * signal, --timeout), from when (-D), and the counts of every interval
 * (-I) meanwhile. Signals are passed on to the command. The counts come
 * back as rows: summed per event, and per thread or CPU when asked. Also
 * the mean of repeated runs (-r). Functions return 0, or the exit status
 * to give up with (said on stderr).
 */
#ifndef PMU_TOOLS_STAT_RUN_H
#define PMU_TOOLS_STAT_RUN_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <pmu.h>
#include "rows.h"
#include "stat-control.h"
#include "topology.h"

struct aggr_map;
struct aggr_group;

/* A list of numbers (-p, -t, -C). */
struct intv {
	int *v;
	size_t n;
};
/* Parse "1,2,5-7" (@ranges: a-b allowed) into @l, each within [min, max]; -1 if malformed. */
int intv_parse(struct intv *l, const char *s, bool ranges, int min, int max);
/* The first number @l holds twice (-C 0,0-1: 0), or -1 if each once. */
int intv_dup(const struct intv *l);
bool intv_has(const struct intv *l, int v);
/* @l written with each number once (malloc'd; NULL if empty or out of memory): in its order ("12,34"),
 * or with @ranges sorted into ranges ("0-1,4") */
char *intv_text(const struct intv *l, bool ranges);

/* A cgroup whose tasks the sets of CPUs count (-G, --for-each-cgroup), and which events. */
struct stat_cgroup {
	char *name;            /* as named (under the cgroup file system); NULL: every task of the CPU */
	int fd;                /* its directory, open; -1 for NULL */
	char *events;          /* the events counted in it */
};

/* What to count. With no pids, tids or CPUs: the command (with its
 * children unless !inherit). Otherwise the command, if any, runs meanwhile
 * uncounted and its end ends the count. */
struct stat_target {
	char **cmd;            /* NULL-terminated; cmd[0] NULL: none */
	struct intv pids;      /* -p: every thread of each */
	struct intv tids;      /* -t: these threads */
	struct intv cpus;      /* -a or -C: these CPUs, every task */
	struct stat_cgroup *cgroups;  /* with CPUs: a set per CPU per cgroup, each of its events, in place
	                                 of the events of stat_run_opts (ncgroups; 0: none) */
	size_t ncgroups;
	bool inherit;          /* children (threads, processes) created meanwhile counted too */
	bool per_unit;         /* keep each thread's or CPU's counts apart (--per-thread, -A, --per-X) */
	const struct aggr_map *aggr;  /* --per-socket and the like: the CPUs' counts summed per group of it
	                                 (stat-aggr.h); NULL: none */
};

/* The counts of one thread, CPU, or group of CPUs (--per-socket and the like). */
struct stat_unit {
	int cpu;               /* -1 unless a CPU */
	enum aggr_mode mode;   /* a group's: AGGR_SOCKET, ...; AGGR_NONE otherwise */
	const struct aggr_group *group;  /* the group of CPUs (its rows' cpus: how many counted each), or NULL */
	int tid;               /* 0 unless a thread */
	char comm[32];         /* the thread's name */
	struct stat_rows rows;
};

/* Counts: summed per event, and (per_unit) per thread or CPU. */
struct stat_counts {
	struct stat_rows total;
	struct stat_unit *units;
	size_t nunits;
};

/* How to run. */
struct stat_run_opts {
	const char *events;    /* NULL or "": none (-n), only the time elapsed */
	unsigned set_flags;    /* added to every set's (PMU_SET_USER_ONLY for --all-user) */
	int interval_ms;       /* -I; 0: none */
	int interval_count;    /* --interval-count: counting ends after this many intervals; 0: no limit */
	int timeout_ms;        /* --timeout; 0: none */
	int delay_ms;          /* -D; 0: none; -1: until 'enable' on the control */
	struct stat_control *control; /* --control, or NULL */
	/* -I: called with the counts of each interval, the last one partial, stamped with its end */
	void (*on_interval)(void *data, double seconds, const struct stat_counts *delta);
	void *data;
};

/* What one run gives. */
struct stat_result {
	struct stat_counts counts;
	struct run_times times;
	int status;            /* the command's wait status; 0 without a command */
	bool timed_out;        /* --timeout ended it (the command got SIGTERM) */
	bool intervals_done;   /* --interval-count ended the count (the command ran on, uncounted) */
};

/* Before counting: SIGPIPE ignored (the command gets it as pmu got it), no signal received yet. */
void stat_run_begin(void);
/* The last of SIGINT, SIGQUIT, SIGTERM, SIGHUP received while counting, or 0. */
int stat_run_signal(void);
/* "SIGTERM", or "signal 40" for one without a name, in @buf. */
const char *sig_name(int sig, char *buf, size_t len);

/* Count @tg as @o says into @res (free it with stat_result_free). */
int stat_run(struct pmu_ctx *ctx, const struct stat_target *tg, const struct stat_run_opts *o,
	     struct stat_result *res);
void stat_counts_free(struct stat_counts *c);
void stat_result_free(struct stat_result *res);

/* Repeated runs (-r): sums, then means with perf's "+-" (the standard error of the mean, relative). */
struct stat_repeat {
	double *sum, *sumsq;
	struct pmu_value *acc;
	size_t n;
	struct run_times total;
	double *elapsed_ns;    /* each run's time elapsed (--table) */
	int runs;
};
int stat_repeat_add(struct stat_repeat *r, const struct stat_result *res);
/* @res (the last run) gets the means over the runs, and the time elapsed its standard error. */
void stat_repeat_mean(const struct stat_repeat *r, struct stat_result *res);
void stat_repeat_free(struct stat_repeat *r);

#endif
