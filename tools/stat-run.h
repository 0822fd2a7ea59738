/* SPDX-License-Identifier: MIT */
/* pmu stat's runner: it forks the command (or attaches to a process, or
 * opens every CPU), counts until the end, passes signals on, and returns
 * the counts as rows. Each function returns 0, or the exit status to give
 * up with (said on stderr). */
#ifndef PMU_TOOLS_STAT_RUN_H
#define PMU_TOOLS_STAT_RUN_H

#include <stdio.h>
#include <sys/types.h>
#include <pmu.h>
#include "report-read.h"

/* Before counting: SIGPIPE ignored (the command gets it as pmu got it), no signal received yet. */
void stat_run_begin(void);
/* The last of SIGINT, SIGQUIT, SIGTERM, SIGHUP received while counting, or 0. */
int stat_run_signal(void);
/* "SIGTERM", or "signal 40" for one without a name, in @buf. */
const char *sig_name(int sig, char *buf, size_t len);

/* One run of @cmd counted with @events (-I @interval_ms > 0: counts of each
 * interval to @ilog meanwhile): @rs (made on the first run) gets the counts,
 * @t the times, @status the command's wait status. */
int stat_once(struct pmu_ctx *ctx, const char *events, char **cmd, int interval_ms, FILE *ilog,
	      struct stat_rows *rs, struct run_times *t, int *status);
/* -p: process @pid until it ends, a signal, or @cmd (if cmd[0]) ends. */
int stat_attach(struct pmu_ctx *ctx, const char *events, pid_t pid, char **cmd, struct stat_rows *rs,
		struct run_times *t, int *status);
/* -a: every CPU until a signal or @cmd (if cmd[0]) ends. */
int stat_system(struct pmu_ctx *ctx, const char *events, char **cmd, struct stat_rows *rs,
		struct run_times *t, int *status);

#endif
