/* SPDX-License-Identifier: MIT */
/* Tool events: perf's duration_time, user_time and system_time, which no
 * perf_event counts; libpmu measures them while a set is enabled. Private. */
#ifndef PMU_TOOL_H
#define PMU_TOOL_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pmu_ctx;
struct pmu_event_info;
struct pmu_tool;
struct pmu_value;

/* The name of tool event @k (0, 1, ...), NULL past the last: for listing them. */
const char *pmu__tool_name(size_t k);

/* 0 with @out filled when @spec names a tool event (any case), 1 when it does not. */
int pmu__tool_resolve(struct pmu_ctx *ctx, const char *spec, struct pmu_event_info *out);

/* Can tool event @e be part of a set opened with @flags (PMU_SET_*)? 0, or -EINVAL with the message. */
int pmu__tool_check(struct pmu_ctx *ctx, const struct pmu_event_info *e, unsigned flags);

/*
 * Start measuring tool event @e for a set opened with @flags and @pid (the
 * set's target): running at once when @running (PMU_SET_ENABLE), else from
 * pmu__tool_enable() (with PMU_SET_ENABLE_ON_EXEC: pmu_set_enable_before_exec()).
 * 0 or a negative errno with the message.
 */
int pmu__tool_open(struct pmu_ctx *ctx, const struct pmu_event_info *e, unsigned flags, pid_t pid, bool running,
		   struct pmu_tool **out);
void pmu__tool_close(struct pmu_tool *t);
void pmu__tool_enable(struct pmu_tool *t);
void pmu__tool_disable(struct pmu_tool *t);
/* Zero the value and the enabled time; a running tool goes on from now. */
void pmu__tool_reset(struct pmu_tool *t);
/* The value (ns) over the enabled periods so far; enabled = running = the wall-clock ns enabled. */
void pmu__tool_read(struct pmu_tool *t, struct pmu_value *out);
#endif
