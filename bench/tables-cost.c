/* SPDX-License-Identifier: MIT */
/*
 * The cost of the built-in tables for one CPU (bench/tables-cost.sh counts the instructions under
 * callgrind): first_context() makes the first context of a CPU named by its id (PMU_CPUID's spelling, on
 * the fixture machine given as sysfs root) and resolves the 10 names of bench/startup-names.h (the
 * libpfm4 names where libpmu's built-in tables lack one: what a user types either way); lookup() resolves
 * one table event 1000 times more. Only those two functions are counted (--toggle-collect). It exits 1 unless
 * all 10 names resolve; it prints how many lookups gave the first one's encoding (1000, or 0 where the
 * event is not known), which bench/tables-cost.sh checks before it takes the lookup's figure.
 *   tables-cost CPUID SYSFS_ROOT TABLE_EVENT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "startup-names.h"

static struct pmu_ctx *ctx;
static int resolved;

__attribute__((noinline)) void first_context(const char *cpuid, const char *sysfs);
__attribute__((noinline)) void first_context(const char *cpuid, const char *sysfs)
{
	struct pmu_ctx_opts o;
	struct pmu_event_info e;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = cpuid;
	o.sysfs_root = sysfs;
	if (pmu_ctx_new(&ctx, &o) < 0)
		return;
	for (int i = 0; i < 10; i++)
		resolved += pmu_event_resolve(ctx, names[i], &e) == 0 || pmu_event_resolve(ctx, pfm_names[i], &e) == 0;
}

__attribute__((noinline)) int lookup(const char *name, unsigned long long *config);
__attribute__((noinline)) int lookup(const char *name, unsigned long long *config)
{
	struct pmu_event_info e;
	int same = 0;

	for (int i = 0; i < 1000; i++) {
		if (pmu_event_resolve(ctx, name, &e) < 0)
			return 0;
		same += i == 0 ? (*config = e.config, 1) : e.config == *config;
	}
	return same;
}

int main(int argc, char **argv)
{
	unsigned long long config = 0;
	char table[sizeof(((struct pmu_caps *)0)->events_table)] = "";
	struct pmu_caps c;
	int same;

	if (argc != 4) {
		fprintf(stderr, "usage: tables-cost CPUID SYSFS_ROOT TABLE_EVENT\n");
		return 2;
	}
	first_context(argv[1], argv[2]);
	if (!ctx || resolved != 10) {
		fprintf(stderr, "tables-cost: %s: %d of 10 names resolved: %s\n", argv[1], resolved, pmu_strerror(-1));
		return 1;
	}
	same = lookup(argv[3], &config); /* 1000: each lookup gave the first one's encoding; 0: not known here */
	if (pmu_caps(ctx, &c) == 0)
		snprintf(table, sizeof(table), "%s", c.events_table);
	printf("BENCH tables-cost cpuid=%s table=%s event=%s config=%#llx resolved=10 lookups=%d\n", argv[1],
	       table[0] ? table : "-", argv[3], config, same);
	pmu_ctx_free(ctx);
	return 0;
}
