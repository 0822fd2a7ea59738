/* SPDX-License-Identifier: MIT */
/*
 * A PMU that is not a core PMU has its format/ and events/ read at the first
 * need, not when the context is created (a server has hundreds of uncore
 * PMUs; a program counting cycles reads none of them). Seen from outside: an
 * event file written after the context was created is found on an uncore
 * PMU (read later) and not on the core PMU (read at creation). A fresh
 * context shared by 16 threads that all resolve uncore events at once (the
 * first of them reads the files; TSan's run of this test watches the lock)
 * gives each the encoding written here by hand. An event's .unit is read
 * where the listing has one and only there. A named event's own file, of the
 * core PMU too, is read at that event's first use and once: rewritten after
 * the context was made, its new text is what the first use encodes; removed,
 * its first use fails with -ENOENT naming the file.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "fixture.h"
#include "harness.h"

static char root[] = "/tmp/pmu-sysfs-lazy-XXXXXX";
static struct pmu_ctx *shared;

#define DEV "sys/bus/event_source/devices/"

static void machine(void)
{
	fixture_put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n"
		    "stepping\t: 6\n\n");
	fixture_put(root, "proc/sys/kernel/perf_event_paranoid", "2\n");
	fixture_put(root, DEV "cpu/type", "4\n");
	fixture_put(root, DEV "cpu/format/event", "config:0-7\n");
	fixture_put(root, DEV "cpu/format/umask", "config:8-15\n");
	fixture_put(root, DEV "cpu/events/cpu-cycles", "event=0x3c\n");
	fixture_put(root, DEV "cpu/events/ref-cycles", "event=0x00,umask=0x03\n");
	fixture_put(root, DEV "cpu/events/gone", "event=0x07\n");
	fixture_put(root, DEV "uncore_imc_0/type", "20\n");
	fixture_put(root, DEV "uncore_imc_0/format/event", "config:0-7\n");
	fixture_put(root, DEV "uncore_imc_0/format/umask", "config:8-15\n");
	fixture_put(root, DEV "uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x0f\n");
	fixture_put(root, DEV "uncore_imc_0/events/cas_count_read.unit", "MiB\n");
	fixture_put(root, DEV "uncore_imc_0/events/cas_count_read.scale", "6.103515625e-5\n");
	fixture_put(root, DEV "uncore_imc_0/events/clockticks", "event=0x00,umask=0x00\n");
	fixture_put(root, DEV "power/type", "12\n");
	fixture_put(root, DEV "power/format/event", "config:0-7\n");
	fixture_put(root, DEV "power/events/energy-pkg", "event=0x02\n");
	fixture_put(root, DEV "power/events/energy-pkg.unit", "Joules\n");
}

/* @name resolves on @ctx to @config with @unit ("" or NULL: none) */
static int is(struct pmu_ctx *ctx, const char *name, uint64_t config, const char *unit)
{
	struct pmu_event_info e;

	if (pmu_event_resolve(ctx, name, &e) < 0)
		return 0;
	return e.config == config && !strcmp(e.unit ? e.unit : "", unit);
}

static void *racer(void *arg)
{
	long bad = 0;

	(void)arg;
	for (int i = 0; i < 20; i++)
		bad += !is(shared, "uncore_imc_0/cas_count_read/", 0x0f04, "MiB") + !is(shared, "cpu/ref-cycles/", 0x300, "") +
		       !is(shared, "power/energy-pkg/", 0x2, "Joules") +
		       !is(shared, "uncore_imc_0/event=0x7,umask=0x1/", 0x107, "") +
		       !is(shared, "uncore_imc_0/clockticks/", 0, "");
	return (void *)bad;
}

int main(void)
{
	struct pmu_pmu_info pi;
	struct pmu_ctx *ctx;
	pthread_t th[16];
	long bad = 0;

	if (!mkdtemp(root))
		SKIP("cannot make a directory under /tmp");
	machine();
	ctx = root_ctx(root, NULL, NULL);
	CHECK(ctx != NULL, "a context over the written machine: %s", pmu_strerror(-1));
	if (!ctx)
		goto out;
	/* written after the context was made: an uncore PMU's events are read now, the core PMU's were read */
	fixture_put(root, DEV "uncore_imc_0/events/added", "event=0x05\n");
	fixture_put(root, DEV "cpu/events/added", "event=0x06\n");
	CHECK(is(ctx, "uncore_imc_0/added/", 0x05, ""), "an uncore event file written after the context was made is "
	      "found (the PMU's events are read at the first need)");
	CHECK(!is(ctx, "cpu/added/", 0x06, ""), "the core PMU's events were listed when the context was made");
	/* the core PMU's named events: listed at creation, each file read at its first use, once */
	fixture_put(root, DEV "cpu/events/cpu-cycles", "event=0x3d\n");
	CHECK(is(ctx, "cpu/cpu-cycles/", 0x3d, ""), "cpu/cpu-cycles/ = 0x3d, its file as rewritten before its first use");
	fixture_put(root, DEV "cpu/events/cpu-cycles", "event=0x3e\n");
	CHECK(is(ctx, "cpu/cpu-cycles/", 0x3d, ""), "cpu/cpu-cycles/ still 0x3d: the file is read once");
	{
		char path[512];
		struct pmu_event_info e;
		int r;
		snprintf(path, sizeof(path), "%s/" DEV "cpu/events/gone", root);
		CHECK(unlink(path) == 0, "remove %s", path);
		r = pmu_event_resolve(ctx, "cpu/gone/", &e);
		CHECK(r == -ENOENT && strstr(pmu_strerror(r), "cpu/events/gone") && strstr(pmu_strerror(r), "has gone"),
		      "cpu/gone/, listed at creation and removed before its first use: %d (%s)", r, pmu_strerror(r));
	}
	pmu_ctx_free(ctx);
	fixture_put(root, DEV "cpu/events/cpu-cycles", "event=0x3c\n");

	/* a fresh context, its first uncore resolution from 16 threads at once */
	shared = root_ctx(root, NULL, NULL);
	CHECK(shared != NULL, "a second context");
	if (!shared)
		goto out;
	for (int i = 0; i < 16; i++)
		CHECK(pthread_create(&th[i], NULL, racer, NULL) == 0, "thread %d", i);
	for (int i = 0; i < 16; i++) {
		void *r = NULL;
		pthread_join(th[i], &r);
		bad += (long)r;
	}
	CHECK(bad == 0, "16 threads x 20 x 4 uncore resolutions on a fresh shared context: %ld not as written", bad);
	/* the PMU list reads the rest: uncore_imc_0 has 2 formats and 3 events (cas_count_read, clockticks, added) */
	for (size_t i = 0; i < pmu_pmu_count(shared); i++)
		if (pmu_pmu_get(shared, i, &pi) == 0 && !strcmp(pi.name, "uncore_imc_0"))
			CHECK(pi.n_formats == 2 && pi.n_events == 3, "uncore_imc_0: %u formats, %u events (2, 3)",
			      pi.n_formats, pi.n_events);
	pmu_ctx_free(shared);
out:
	fixture_remove(root);
	return test_done("test-sysfs-lazy");
}
