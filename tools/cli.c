/* SPDX-License-Identifier: MIT */
/* What the subcommands share (cli.h says what each is for). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static void log_stderr(void *data, int level, const char *msg)
{
	(void)data;
	if (level <= PMU_LOG_ERR)
		return; /* failures are printed once, from pmu_strerror(), by the caller */
	fprintf(stderr, "pmu: %s%s\n", level <= PMU_LOG_WARN ? "warning: " : "", msg);
}

const char *cli_sysfs_root(void)
{
	const char *root = secure_getenv("PMU_SYSFS_ROOT"); /* as the library reads it */

	return root && *root ? root : "/sys";
}

int cli_open_ctx(const struct cli *cli, const char *cpuid, struct pmu_ctx **ctx)
{
	struct pmu_ctx_opts o;
	int r;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = cli_sysfs_root(); /* what the commands read themselves (-C's online CPUs) is the context's */
	o.log_fn = log_stderr;
	o.log_level = cli->verbose ? PMU_LOG_DEBUG : cli->quiet ? PMU_LOG_ERR : PMU_LOG_WARN;
	o.cpuid = cpuid;
	r = pmu_ctx_new(ctx, &o);
	if (r < 0)
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
	return r;
}

json_object *cli_jhex(uint64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "0x%" PRIx64, v);
	return json_object_new_string(b);
}
