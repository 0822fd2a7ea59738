/* SPDX-License-Identifier: MIT */
/* What the compatibility layers (LIKWID's marker API, PAPI's high-level API) share: their
 * configuration said once on stderr naming the variable, the report at close, and the calling
 * thread's counts of one region. Compiled into each layer's library; never installed. */
#ifndef PMU_COMPAT_H
#define PMU_COMPAT_H

#include <stdint.h>
#include <time.h>
#include <pmu.h>

#define COMPAT_MAX_VALUES 32

/* What the layers keep per thread and region beyond libpmu's counts: whether the thread is inside
 * it (PAPI_hl_read), the time inside (LIKWID's GetRegion gives it) and the counts at the last
 * likwid_markerResetRegion(). */
struct compat_tag {
	struct compat_tag *next;
	struct timespec start;
	double time;
	int open;
	uint64_t base_calls;
	double base[COMPAT_MAX_VALUES];
	char name[];
};

/* The calling thread's record of region @name; made where @make and it has none (NULL: none, or no
 * memory). Freed when the thread exits. */
struct compat_tag *compat_tag(const char *name, int make);

/* @layer ("libpmu-likwid") prefixes one line on stderr; the layers have no caller to tell. */
void compat_say(const char *layer, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* pmu_region_configure(@events) for the value @value of variable @var; a refusal is said once,
 * naming the variable, its value, libpmu's reason and @fix. Returns 0 or the negative errno. */
int compat_configure(const char *layer, const char *var, const char *value, const char *events, const char *fix);

/* The report now ($PMU_OUTPUT, $PMU_FORMAT, $PMU_PER_THREAD as at exit), then the regions cleared
 * so that the exit does not write it again. Returns 0 or a negative errno. */
int compat_close(const char *layer);

/* The calling thread's results of region @name: @cb called with them (once, or not at all where
 * the thread completed no call of it). Returns 1 where found, 0 where not, or a negative errno. */
int compat_thread_region(const char *name, pmu_region_cb cb, void *data);

#endif
