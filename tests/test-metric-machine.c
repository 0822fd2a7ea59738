/* SPDX-License-Identifier: MIT */
/*
 * Metric functions that ask the machine: perf's has_event(EVENT) (1 when
 * EVENT is an event of this machine, or was counted; else 0),
 * source_count(EVENT) (how many PMUs count it: each box of an uncore PMU)
 * and strcmp_cpuid_str(ID) (1 when the CPU is ID).
 * Two machines written here as sysfs trees: one with Intel's TSX events
 * (the kernel's cycles-t = event=0x3c,in_tx=1) and three CHA boxes
 * (uncore_cha_0..2), one with neither. Expected values worked out by hand
 * from tests/tables/machine-functions/events.json.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmu.h>
#include "fixture.h"
#include "harness.h"

/* A machine: an Intel core PMU (type 4), with TSX and @boxes CHA boxes. */
static void machine(const char *root, int tsx, int boxes)
{
	const char *dev = "sys/bus/event_source/devices";
	char rel[256], type[16];

	snprintf(rel, sizeof(rel), "%s/cpu/type", dev);
	fixture_put(root, rel, "4\n");
	snprintf(rel, sizeof(rel), "%s/cpu/format/event", dev);
	fixture_put(root, rel, "config:0-7\n");
	snprintf(rel, sizeof(rel), "%s/cpu/format/umask", dev);
	fixture_put(root, rel, "config:8-15\n");
	snprintf(rel, sizeof(rel), "%s/cpu/events/cpu-cycles", dev);
	fixture_put(root, rel, "event=0x3c\n");
	if (tsx) {
		snprintf(rel, sizeof(rel), "%s/cpu/format/in_tx", dev);
		fixture_put(root, rel, "config:32\n");
		snprintf(rel, sizeof(rel), "%s/cpu/events/cycles-t", dev);
		fixture_put(root, rel, "event=0x3c,in_tx=1");
	}
	snprintf(rel, sizeof(rel), "%s/software/type", dev);
	fixture_put(root, rel, "1\n");
	for (int b = 0; b < boxes; b++) {
		snprintf(rel, sizeof(rel), "%s/uncore_cha_%d/type", dev, b);
		snprintf(type, sizeof(type), "%d\n", 20 + b);
		fixture_put(root, rel, type);
		snprintf(rel, sizeof(rel), "%s/uncore_cha_%d/format/event", dev, b);
		fixture_put(root, rel, "config:0-7\n");
	}
	fixture_put(root, "sys/devices/system/cpu/online", "0-3\n");
	fixture_put(root, "proc/sys/kernel/perf_event_paranoid", "2\n");
}

static void value(struct pmu_ctx *ctx, const char *label, const char *what, const struct pmu_named_value *v, size_t n,
		  double want)
{
	double got = -1;
	int r = pmu_metric_eval(ctx, what, v, n, &got);

	CHECK(r == 0 && fabs(got - want) < 1e-12, "%s: %s = %g (%s), by hand %g", label, what, got,
	      r ? pmu_strerror(r) : "ok", want);
}

static void events(struct pmu_ctx *ctx, const char *label, const char *metric, const char *want)
{
	char buf[256] = "";
	int r = pmu_metric_events(ctx, metric, buf, sizeof(buf));

	CHECK(r >= 0 && !strcasecmp(buf, want), "%s: events of %s: '%s' (%s), expected '%s'", label, metric, buf,
	      r < 0 ? pmu_strerror(r) : "ok", want);
}

int main(void)
{
	char tmpl[] = "/tmp/libpmu-machine-XXXXXX", a[512], b[512], tables[1024];
	const char *src = getenv("PMU_TEST_SRCDIR");
	const struct pmu_named_value v[] = { { "FIX.CYCLES", 1000 }, { "cycles-t", 250 }, { "FIX.CHA_TICKS", 900 } };
	struct pmu_ctx *ctx;
	double x;
	int r;

	if (!mkdtemp(tmpl))
		return 1;
	snprintf(a, sizeof(a), "%s/tsx-cha", tmpl);
	snprintf(b, sizeof(b), "%s/plain", tmpl);
	snprintf(tables, sizeof(tables), "%s/tests/tables/machine-functions", src ? src : ".");
	machine(a, 1, 3);
	machine(b, 0, 0);

	/* the machine with TSX and three CHA boxes */
	ctx = root_ctx(a, "GenuineIntel-6-55-4", tables);
	CHECK(ctx != NULL, "context on %s", a);
	if (ctx) {
		value(ctx, "TSX", "m_tsx_share", v, 3, 250.0 / 1000);
		value(ctx, "TSX", "m_tsx_or_one", v, 3, 250.0 / 1000);
		value(ctx, "3 boxes", "m_cha_per_box", v, 3, 900.0 / 3);
		/* source_count(FIX.CYCLES) 1 (a core event), no iMC here, CHA here: 100 + 0 + 1 */
		value(ctx, "3 boxes", "m_sources", v, 3, 101);
		value(ctx, "3 boxes", "source_count(FIX.CHA_TICKS) + has_event(cycles\\-t)", v, 0, 4);
		value(ctx, "TSX", "has_event(@cycles-t@)", v, 0, 1);
		value(ctx, "TSX", "has_event(no_such_event)", v, 0, 0);
		/* only the branch the condition takes is counted, as perf counts it */
		events(ctx, "TSX", "m_tsx_share", "cycles-t,FIX.CYCLES");
		/* source_count's event is counted; has_event's is not */
		events(ctx, "3 boxes", "m_sources", "FIX.CYCLES");
		events(ctx, "3 boxes", "m_cha_per_box", "FIX.CHA_TICKS");
		pmu_ctx_free(ctx);
	}

	/* the machine with neither */
	ctx = root_ctx(b, "GenuineIntel-6-55-4", tables);
	CHECK(ctx != NULL, "context on %s", b);
	if (ctx) {
		value(ctx, "no TSX", "m_tsx_share", v + 0, 1, 0);
		value(ctx, "no TSX", "m_tsx_or_one", v + 0, 1, 1);
		value(ctx, "no boxes", "m_sources", v, 1, 100);
		events(ctx, "no TSX", "m_tsx_share", "");
		events(ctx, "no TSX", "m_tsx_or_one", "FIX.CYCLES");
		r = pmu_metric_eval(ctx, "m_cha_per_box", v, 3, &x);
		CHECK(r == -ENOENT && strstr(pmu_strerror(r), "source_count(FIX.CHA_TICKS)"),
		      "no CHA box: source_count is a value the metric lacks: %d %s", r, pmu_strerror(r));
		/* counts from a machine that had TSX: cycles-t was counted, so has_event() is 1 */
		value(ctx, "counted elsewhere", "m_tsx_share", v, 3, 250.0 / 1000);
		pmu_ctx_free(ctx);
	}
	/* strcmp_cpuid_str(): x86 ids as mapfile patterns, arm64 MIDRs with variant/revision at least */
	ctx = root_ctx(a, "GenuineIntel-6-55-4", tables);
	if (ctx) {
		value(ctx, "x86", "strcmp_cpuid_str(GenuineIntel\\-6\\-55\\-4)", v, 0, 1);
		value(ctx, "x86", "strcmp_cpuid_str(GenuineIntel\\-6\\-8F)", v, 0, 0);
		pmu_ctx_free(ctx);
	}
	{
		struct pmu_ctx_opts o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.cpuid = "0x00000000410fd493"; /* Arm, part 0xd49, r0p3 */
		o.events_path = tables;
		ctx = NULL;
		CHECK(pmu_ctx_new(&ctx, &o) == 0, "arm64 context");
		if (ctx) {
			value(ctx, "r0p3", "strcmp_cpuid_str(0x410fd490)", v, 0, 1);   /* r0p0 and later */
			value(ctx, "r0p3", "strcmp_cpuid_str(0x410fd493)", v, 0, 1);
			value(ctx, "r0p3", "strcmp_cpuid_str(0x410fd494)", v, 0, 0);   /* r0p4 and later */
			value(ctx, "r0p3", "strcmp_cpuid_str(0x411fd490)", v, 0, 0);   /* r1p0 and later */
			value(ctx, "r0p3", "strcmp_cpuid_str(0x410fd4a0)", v, 0, 0);   /* another part */
			/* perf's neoverse-n2-v2 condition: '|' below '^' */
			value(ctx, "r0p3", "strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ 1", v, 0, 1);
			pmu_ctx_free(ctx);
		}
	}
	fixture_remove(tmpl);
	return test_done("test-metric-machine");
}
