/* SPDX-License-Identifier: MIT */
/* A context for a fixture machine of tests/fixtures/ (its sys/ and proc/ trees, a CPU identity),
 * or NULL if it cannot be created. */
#ifndef PMU_TEST_FIXTURE_H
#define PMU_TEST_FIXTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>

static struct pmu_ctx *fixture_ctx(const char *machine, const char *cpuid)
{
	const char *src = getenv("PMU_TEST_SRCDIR");
	char sys[1024], proc[1024];
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;

	snprintf(sys, sizeof(sys), "%s/tests/fixtures/%s/sys", src ? src : ".", machine);
	snprintf(proc, sizeof(proc), "%s/tests/fixtures/%s/proc", src ? src : ".", machine);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = sys;
	o.procfs_root = proc;
	o.cpuid = cpuid;
	if (pmu_ctx_new(&ctx, &o) < 0)
		return NULL;
	return ctx;
}
#endif
