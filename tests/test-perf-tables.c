/* SPDX-License-Identifier: MIT */
/*
 * Tables in perf's conventions encode what perf encodes.
 *
 * Fixed-counter events: Intel's perfmon files write INST_RETIRED.ANY,
 * CPU_CLK_UNHALTED.THREAD and .THREAD_ANY as EventCode 0x00 with UMask
 * 1/2/2+AnyThread (pseudo-encodings Linux takes only from Ice Lake on, umask
 * 2 on no CPU); perf's files leave EventCode out. perf's jevents.py encodes a
 * missing EventCode as event=0 and those names by name (real_event():
 * event=0xc0, event=0x3c, event=0x3c,any=1, CPU_CLK_UNHALTED.REF
 * event=0x0,umask=0x03). The expected configs below are computed by hand
 * from those rules and the Intel layout (event bits 0-7, umask 8-15, any 21),
 * once through a fixture's format files (Ice Lake-SP) and once through the
 * architectural layout (no core PMU in sysfs).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static char src[512];

static struct pmu_ctx *ctx_on(const char *machine, const char *cpuid, const char *tables)
{
	char sys[1024], proc[1024], events[1024];
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;

	snprintf(sys, sizeof(sys), "%s/tests/fixtures/%s/sys", src, machine);
	snprintf(proc, sizeof(proc), "%s/tests/fixtures/%s/proc", src, machine);
	snprintf(events, sizeof(events), "%s/tests/tables/%s", src, tables);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = sys;
	o.procfs_root = proc;
	o.cpuid = cpuid;
	o.events_path = events;
	CHECK(pmu_ctx_new(&ctx, &o) == 0, "context on %s with %s", machine, tables);
	return ctx;
}

static void encodes(struct pmu_ctx *ctx, const char *where, const char *name, uint32_t type, uint64_t config)
{
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, name, &e);

	CHECK(r == 0, "%s: '%s': %s", where, name, pmu_strerror(r));
	if (r == 0)
		CHECK(e.type == type && e.config == config && e.config1 == 0 && e.source == PMU_SRC_TABLE,
		      "%s: '%s' type %u config 0x%llx config1 0x%llx (%s), expected type %u config 0x%llx", where, name,
		      e.type, (unsigned long long)e.config, (unsigned long long)e.config1, e.origin, type,
		      (unsigned long long)config);
}

static void fixed_counters(void)
{
	static const struct { const char *name; uint64_t config; } want[] = {
		{ "INST_RETIRED.ANY", 0xc0 },                         /* perf: event=0xc0 */
		{ "CPU_CLK_UNHALTED.THREAD", 0x3c },                  /* perf: event=0x3c */
		{ "CPU_CLK_UNHALTED.THREAD_ANY", 0x3c | 1u << 21 },   /* perf: event=0x3c,any=1 */
		{ "CPU_CLK_UNHALTED.REF_TSC", 0x03 << 8 },            /* event 0 (missing), umask 3 */
		{ "TOPDOWN.SLOTS", 0x04 << 8 },                       /* event 0 (missing), umask 4 */
		{ "INST_RETIRED.ANY_P", 0xc0 },                       /* perf: event=0xc0, the umask dropped */
	};
	/* the same names in perf's spelling, and two more of perf's files */
	static const struct { const char *name; uint64_t config; } perf_only[] = {
		{ "INST_RETIRED.PREC_DIST", 0x01 << 8 },              /* event 0 (missing), umask 1 */
		{ "CPU_CLK_UNHALTED.REF", 0x03 << 8 },                /* perf: event=0x0,umask=0x03 */
	};
	static const char *const tables[] = { "fixed-counters/perfmon", "fixed-counters/perf" };

	for (size_t t = 0; t < 2; t++) {
		/* Ice Lake-SP: the cpu PMU's format files place the fields (it has no 'any') */
		struct pmu_ctx *icx = ctx_on("intel-icx", "GenuineIntel-6-6A-6", tables[t]);
		/* no core PMU in sysfs: the architectural PERF_CTL layout, type PERF_TYPE_RAW */
		struct pmu_ctx *bare = ctx_on("vm-nopmu", "GenuineIntel-6-6A-6", tables[t]);
		char where[128];

		for (size_t i = 0; i < N_OF(want); i++) {
			snprintf(where, sizeof(where), "%s on intel-icx", tables[t]);
			if (icx && !(want[i].config & 1u << 21))
				encodes(icx, where, want[i].name, 4, want[i].config);
			snprintf(where, sizeof(where), "%s, architectural layout", tables[t]);
			if (bare)
				encodes(bare, where, want[i].name, PERF_TYPE_RAW, want[i].config);
		}
		for (size_t i = 0; t == 1 && i < N_OF(perf_only); i++) {
			if (icx)
				encodes(icx, "perf's spelling on intel-icx", perf_only[i].name, 4, perf_only[i].config);
			if (bare)
				encodes(bare, "perf's spelling, architectural layout", perf_only[i].name, PERF_TYPE_RAW,
					perf_only[i].config);
		}
		if (icx) {
			/* the fixture has no 'any' format term: said, not dropped */
			struct pmu_event_info e;
			int r = pmu_event_resolve(icx, "CPU_CLK_UNHALTED.THREAD_ANY", &e);
			CHECK(r == -EINVAL && strstr(pmu_strerror(r), "any"), "THREAD_ANY on a PMU without 'any': %d %s", r,
			      pmu_strerror(r));
		}
		pmu_ctx_free(icx);
		pmu_ctx_free(bare);
	}
}

int main(void)
{
	const char *s = getenv("PMU_TEST_SRCDIR");

	if (!s) {
		fprintf(stderr, "test-perf-tables: PMU_TEST_SRCDIR is not set; run it through meson test\n");
		return 1;
	}
	snprintf(src, sizeof(src), "%s", s);
	fixed_counters();
	return test_done("test-perf-tables");
}
