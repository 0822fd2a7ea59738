/* SPDX-License-Identifier: MIT */
/* Event sets (lib/set.c), for the files that do not own a set's layout (set-layout.h): planning a set,
 * whether it is read after fork() or by its owner thread, and what its events are. Private. */
#ifndef PMU_SET_H
#define PMU_SET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_event_attr;
struct perf_event_mmap_page;
struct pmu_ctx;
struct pmu_event_info;
struct pmu_set;
struct pmu_set_opts;

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
/* Parse, resolve, arrange topdown and group @events without opening (tests use it). */
int pmu__set_plan(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *o, struct pmu_set **out);

/* What a set (planned or open) is made of, for the files that do not own its layout. @i is below
 * pmu_set_count(@s), @g below the number of groups; nothing is checked, nothing recorded. */
/* The context the set was planned in. */
struct pmu_ctx *pmu__set_ctx(const struct pmu_set *s);
/* Event @i as resolved and labelled (pmu_set_event() without the copy), owned by the set. */
const struct pmu_event_info *pmu__set_info(const struct pmu_set *s, size_t i);
/* The perf_event_attr event @i is (or would be) opened with, owned by the set. */
const struct perf_event_attr *pmu__set_attr(const struct pmu_set *s, size_t i);
/* Event @i's perf_event file descriptor; -1 when it has none (planned, a tool event, not supported). */
int pmu__set_fd(const struct pmu_set *s, size_t i);
/* Whether a modifier (:u, :k, :h, {group}:u) or PMU_SET_USER_ONLY chose event @i's mode. */
bool pmu__set_mode_written(const struct pmu_set *s, size_t i);
/* Event @i's user page of an open set (the one pmu_fast_read() reads), NULL when it has none. */
const struct perf_event_mmap_page *pmu__set_page(const struct pmu_set *s, size_t i);
/* Group @g's events: the first one's index into *@first, how many into *@n. */
void pmu__set_group_span(const struct pmu_set *s, unsigned g, size_t *first, size_t *n);
/* How many values are one core type's part of an event (pmu_fast_hybrid() gives their times). */
size_t pmu__set_hybrid_parts(const struct pmu_set *s);
#endif
