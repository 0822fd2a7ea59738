/* SPDX-License-Identifier: MIT */
/* One error convention: negative errno + a sentence per thread. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "error.h"
#include "common.h"
#include "context.h"

static __thread int last_err;
static __thread char last_msg[1024];
static __thread char generic_msg[128];
static __thread unsigned quiet; /* nesting depth of pmu__err_quiet(true) */

static void emit(struct pmu_ctx *ctx, int level, const char *msg)
{
	int max = ctx && ctx->log_level ? ctx->log_level : PMU_LOG_WARN;

	if (ctx && ctx->log_fn && level <= max)
		ctx->log_fn(ctx->log_data, level, msg);
}

void pmu__log(struct pmu_ctx *ctx, int level, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!ctx || !ctx->log_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	emit(ctx, level, buf);
}

static void record(int err, const char *fmt, va_list ap)
{
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	last_err = err;
}

int pmu__err(struct pmu_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(err, fmt, ap);
	va_end(ap);
	if (!quiet)
		emit(ctx, PMU_LOG_ERR, last_msg);
	return err;
}

int pmu__err_hold(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(err, fmt, ap);
	va_end(ap);
	return err;
}

void pmu__err_quiet(bool on)
{
	if (on)
		quiet++;
	else if (quiet)
		quiet--;
}

bool pmu__err_is_quiet(void)
{
	return quiet != 0;
}

void pmu__err_emit(struct pmu_ctx *ctx, int level)
{
	if (last_msg[0])
		emit(ctx, level, last_msg);
}

void pmu__err_clear(void)
{
	last_err = 0;
	last_msg[0] = 0;
}

const char *pmu__err_msg(void)
{
	return last_msg;
}

PMU_EXPORT const char *pmu_strerror(int err)
{
	if (err == 0)
		return "success";
	if (err == last_err && last_msg[0])
		return last_msg;
	if (err == -ECHILD)
		return "the set was opened by the parent process before fork(); open a new set in the child";
	/* -INT_MIN does not exist: strerror() names that one as it is */
	snprintf(generic_msg, sizeof(generic_msg), "%s", strerror(err < 0 && err != INT_MIN ? -err : err));
	return generic_msg;
}

PMU_EXPORT const char *pmu_version(void)
{
	return PMU_VERSION_STRING;
}
