/* SPDX-License-Identifier: MIT */
/* Errors and logging: a negative errno and one sentence per thread (lib/error.c). Private. */
#ifndef PMU_ERROR_H
#define PMU_ERROR_H
#include <stdbool.h>
#include "common.h"

struct pmu_ctx;

/* Log at @level; for PMU_LOG_ERR also remembers the text for pmu_strerror(err). */
void pmu__log(struct pmu_ctx *ctx, int level, const char *fmt, ...) PMU_PRINTF(3, 4);
/* Record a failure: message for pmu_strerror() and the log; returns @err (< 0). */
int pmu__err(struct pmu_ctx *ctx, int err, const char *fmt, ...) PMU_PRINTF(3, 4);
/* pmu__err() without logging: the caller logs it with pmu__err_emit() at the
 * level it chooses (a failure it may tolerate is a warning), or not at all. */
int pmu__err_hold(int err, const char *fmt, ...) PMU_PRINTF(2, 3);
/* Log the recorded message at @level. */
void pmu__err_emit(struct pmu_ctx *ctx, int level);
/* While on, pmu__err() records without logging (probes whose failure is an
 * answer: pmu__resolve_quiet()). Calls nest: each pmu__err_quiet(true) is
 * undone by one pmu__err_quiet(false). */
void pmu__err_quiet(bool on);
bool pmu__err_is_quiet(void);
/* Forget the calling thread's last failure (call on entry of public functions). */
void pmu__err_clear(void);
/* The calling thread's last message, "" if none. */
const char *pmu__err_msg(void);

#endif
