/* SPDX-License-Identifier: MIT */
/* Tracepoints: "SYS:NAME" counted as PERF_TYPE_TRACEPOINT with the id that
 * tracefs gives the tracepoint (events/SYS/NAME/id). Private to lib/. */
#ifndef PMU_TRACEPOINT_H
#define PMU_TRACEPOINT_H
#include <stdbool.h>

struct pmu_ctx;
struct pmu_event_info;

/* The modifier letters libpmu takes, with their meanings, for messages (resolve.c, beside the modifiers). */

/*
 * Resolve @spec ("sched:sched_switch", its modifiers already split off;
 * @name is the name as written, for messages). Returns 0 with @out filled;
 * 1 when @spec is not written like a tracepoint (the caller goes on); or a
 * negative errno with the message: tracefs not mounted or not readable (with
 * the fix), an unknown subsystem or tracepoint (with the closest names), or
 * EVENT:X where EVENT is an event and X no modifier: @is_event (the
 * resolver's, so that this file does not call back into it) says whether X of
 * an X:Y that is no tracepoint resolves as an event, quietly.
 */
int pmu__tracepoint_resolve(struct pmu_ctx *ctx, const char *name, const char *spec, struct pmu_event_info *out,
			    bool (*is_event)(struct pmu_ctx *ctx, const char *x));

/* Is list item @item a tracepoint glob ("sched:sched_*", "*:irq_handler_entry:u")? */
bool pmu__tracepoint_is_glob(const char *item);

/*
 * Call @fn with "SYS:NAME" (plus @item's modifiers) for every tracepoint the
 * glob @item matches, sorted by subsystem, then name. Returns the number of
 * tracepoints, the first non-zero value @fn returned (negative), or a
 * negative errno with the message (-ENOENT: none matches).
 */
int pmu__tracepoint_glob(struct pmu_ctx *ctx, const char *item, int (*fn)(void *data, const char *name),
			 void *data);
#endif
