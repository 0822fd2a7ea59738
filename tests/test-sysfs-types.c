/* SPDX-License-Identifier: MIT */
/*
 * A PMU's type file is read when the context is made only where the PMU could be a core PMU: the
 * kernel's own PMUs take their types from the ABI (software 1, tracepoint 2, breakpoint 5), and PMUs
 * whose drivers register a type given at boot (uncore_*, power, msr, ...: a server has hundreds) have
 * theirs read at the first need. Seen from outside: type files rewritten after the context was made
 * give the new number for a deferred PMU and the old one for a PMU read at the scan; a lookup by a
 * type nobody has read yet finds its PMU (pmu__pmu_by_type reads the rest); a deferred PMU without a
 * type file is refused with the file named, and pmu_pmu_get and the event listing go on without it.
 * Every type is written here by hand.
 */
#include <stdint.h>
#include <stdlib.h>
#include "fixture.h"
#include "harness.h"
#include "sysfs.h"

static char root[] = "/tmp/pmu-sysfs-types-XXXXXX";

#define DEV "sys/bus/event_source/devices/"

static void machine(void)
{
	fixture_put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n"
		    "stepping\t: 6\n\n");
	fixture_put(root, "proc/sys/kernel/perf_event_paranoid", "2\n");
	fixture_put(root, DEV "cpu/type", "4\n");
	fixture_put(root, DEV "cpu/format/event", "config:0-7\n");
	fixture_put(root, DEV "software/type", "1\n");
	fixture_put(root, DEV "uncore_imc_0/type", "20\n");
	fixture_put(root, DEV "uncore_imc_0/format/event", "config:0-7\n");
	fixture_put(root, DEV "power/type", "12\n");
	fixture_put(root, DEV "power/format/event", "config:0-7\n");
	fixture_put(root, DEV "weird0/type", "30\n"); /* a driver the scan does not know: read at once */
	fixture_put(root, DEV "weird0/format/event", "config:0-7\n");
	fixture_put(root, DEV "uncore_gone/format/event", "config:0-7\n"); /* no type file */
}

static const struct pmu_dev *dev(struct pmu_ctx *ctx, const char *name)
{
	return pmu__pmu_by_name(ctx, name);
}

/* The type @name resolves to on @ctx, -1 if it does not resolve. */
static long long type_of(struct pmu_ctx *ctx, const char *name)
{
	struct pmu_event_info e;

	return pmu_event_resolve(ctx, name, &e) == 0 ? (long long)e.type : -1;
}

static int count_entry(const struct pmu_event_entry *e, void *data)
{
	(void)e;
	(*(size_t *)data)++;
	return 0;
}

int main(void)
{
	struct pmu_ctx *ctx;
	const struct pmu_dev *d;
	struct pmu_event_info e;

	if (!mkdtemp(root))
		SKIP("cannot make a directory under /tmp");
	machine();
	ctx = root_ctx(root, NULL, NULL);
	CHECK(ctx != NULL, "a context over the written machine: %s", pmu_strerror(-1));
	if (!ctx)
		goto out;
	CHECK(pmu_pmu_count(ctx) == 6, "6 PMUs listed (the one without a type file too): %zu", pmu_pmu_count(ctx));
	/* what the scan read */
	CHECK((d = dev(ctx, "cpu")) && d->typed && d->type == 4 && d->is_core, "cpu: type 4 at the scan, core");
	CHECK((d = dev(ctx, "weird0")) && d->typed && d->type == 30 && !d->is_core, "weird0: type 30 at the scan");
	CHECK((d = dev(ctx, "software")) && d->typed && d->type == 1, "software: type 1 (the ABI's)");
	CHECK((d = dev(ctx, "uncore_imc_0")) && !d->typed, "uncore_imc_0: type not read yet");
	CHECK((d = dev(ctx, "power")) && !d->typed, "power: type not read yet");
	CHECK((d = dev(ctx, "uncore_gone")) && !d->typed, "uncore_gone: listed, type not read");

	/* rewritten after the context was made */
	fixture_put(root, DEV "uncore_imc_0/type", "21\n");
	fixture_put(root, DEV "power/type", "13\n");
	fixture_put(root, DEV "weird0/type", "31\n");
	CHECK(type_of(ctx, "uncore_imc_0/event=0x7/") == 21, "uncore_imc_0: type 21, read at its first use: %lld",
	      type_of(ctx, "uncore_imc_0/event=0x7/"));
	CHECK(type_of(ctx, "weird0/event=0x1/") == 30, "weird0: type 30, read at the scan: %lld",
	      type_of(ctx, "weird0/event=0x1/"));
	CHECK(type_of(ctx, "cpu/event=0x3c/") == 4, "cpu: type 4");

	/* by type: the fixed types answer from what the scan knows; another reads the unread ones */
	CHECK(pmu__pmu_by_type(ctx, PERF_TYPE_HARDWARE) == NULL, "no PMU has PERF_TYPE_HARDWARE");
	CHECK((d = pmu__pmu_by_type(ctx, PERF_TYPE_SOFTWARE)) && !strcmp(d->name, "software"), "type 1: software");
	CHECK((d = pmu__pmu_by_type(ctx, PERF_TYPE_RAW)) && !strcmp(d->name, "cpu"), "type 4: cpu");
	CHECK(!dev(ctx, "power")->typed, "power still unread after lookups of fixed types");
	CHECK((d = pmu__pmu_by_type(ctx, 13)) && !strcmp(d->name, "power"), "type 13: power, read by the lookup");
	CHECK(pmu__pmu_by_type(ctx, 12) == NULL, "type 12: nobody (power's file says 13)");
	CHECK((d = pmu__pmu_by_type(ctx, 21)) && !strcmp(d->name, "uncore_imc_0"), "type 21: uncore_imc_0");
	CHECK(pmu__pmu_by_type(ctx, 31) == NULL, "type 31: nobody (weird0 was read as 30)");
	CHECK(pmu__pmu_by_type(ctx, PMU_NO_TYPE) == NULL && !dev(ctx, "uncore_gone")->typed,
	      "uncore_gone has no type, and no lookup finds it");

	/* a deferred PMU whose type cannot be read: refused, the file named */
	{
		int r = pmu_event_resolve(ctx, "uncore_gone/event=0x1/", &e);
		const char *msg = pmu_strerror(r);
		CHECK(r == -ENOENT && strstr(msg, "uncore_gone/type") && strstr(msg, "cannot read its type"),
		      "uncore_gone/event=0x1/: %d %s", r, msg);
	}
	/* the PMU list and the event listing go on without it */
	{
		struct pmu_pmu_info pi;
		size_t listed = 0;
		for (size_t i = 0; i < pmu_pmu_count(ctx); i++) {
			int r = pmu_pmu_get(ctx, i, &pi);
			if (r == 0)
				listed++;
			else
				CHECK(r == -ENOENT && strstr(pmu_strerror(r), "uncore_gone"), "PMU %zu refused: %d %s", i,
				      r, pmu_strerror(r));
		}
		CHECK(listed == 5, "pmu_pmu_get describes the 5 PMUs with a type: %zu", listed);
		{
			size_t seen = 0;
			int r = pmu_event_foreach(ctx, "uncore_imc_0/", count_entry, &seen);
			CHECK(r >= 0 && (size_t)r == seen, "pmu_event_foreach goes past uncore_gone: %d %s", r,
			      r < 0 ? pmu_strerror(r) : "");
		}
	}
	pmu_ctx_free(ctx);
out:
	fixture_remove(root);
	return test_done("test-sysfs-types");
}
