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
 *
 * Hybrid tables: perf's Alder Lake files define some events and metrics once
 * for "Unit": "cpu_core" and once for "cpu_atom", with other codes and other
 * formulas. tests/tables/hybrid does the same with fixture events whose codes
 * differ per PMU; on the Alder Lake fixture (cpu_core type 4, cpu_atom type
 * 10) each PMU/NAME/ must give its own definition (codes from the table,
 * Intel layout by hand), a bare name defined twice must be refused naming
 * both, and each metric must be evaluated with its own PMU's formula and its
 * own PMU's references (values computed by hand below).
 *
 * ArchStdEvent metrics (arm64's sbsa.json): a CPU file's reference to an
 * architecture-level metric is that metric, with the CPU's MetricExpr where it
 * gives one; also when PMU_EVENTS_PATH names the CPU directory alone. #constants in any case (perf's files write #SMT_on), #has_pmem.
 * pmu_metric_events() with the exact buffer size it asked for.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <strings.h>
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

static void refused(struct pmu_ctx *ctx, const char *name, int want, const char *says, const char *says2)
{
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, name, &e);

	CHECK(r == want && strstr(pmu_strerror(r), says) && (!says2 || strstr(pmu_strerror(r), says2)),
	      "'%s': %d (type %u config 0x%llx) %s; expected %d saying '%s'", name, r, e.type,
	      (unsigned long long)e.config, pmu_strerror(r), want, says);
}

struct listing {
	int n;
	char pmus[128];
};

static int list_cb(const struct pmu_event_entry *e, void *data)
{
	struct listing *l = data;
	size_t o = strlen(l->pmus);

	if (e->kind == PMU_ENTRY_NATIVE) {
		l->n++;
		snprintf(l->pmus + o, sizeof(l->pmus) - o, "%s%s", o ? "," : "", e->pmu);
	}
	return 0;
}

static double metric(struct pmu_ctx *ctx, const char *what, const struct pmu_named_value *v, size_t n, int *r)
{
	double x = NAN;

	*r = pmu_metric_eval(ctx, what, v, n, &x);
	return x;
}

static void metric_is(struct pmu_ctx *ctx, const char *what, const struct pmu_named_value *v, size_t n, double want)
{
	int r;
	double x = metric(ctx, what, v, n, &r);

	CHECK(r == 0 && fabs(x - want) < 1e-12, "metric '%s' = %g (%d %s), expected %g", what, x, r,
	      r ? pmu_strerror(r) : "", want);
}

static void events_are(struct pmu_ctx *ctx, const char *what, const char *want)
{
	char buf[512];
	int r = pmu_metric_events(ctx, what, buf, sizeof(buf));

	CHECK(r >= 0 && !strcmp(buf, want), "events of '%s': '%s' (%d %s), expected '%s'", what, r >= 0 ? buf : "", r,
	      r < 0 ? pmu_strerror(r) : "", want);
}

static void hybrid(void)
{
	struct pmu_ctx *ctx = ctx_on("intel-adl-hybrid", "GenuineIntel-6-9A-3", "hybrid");
	/* counts as a hybrid run names them: each core type's own */
	const struct pmu_named_value all[] = {
		{ "cpu_core/INST_RETIRED.ANY/", 1000 }, { "cpu_core/CPU_CLK_UNHALTED.THREAD/", 400 },
		{ "cpu_atom/INST_RETIRED.ANY/", 600 },  { "cpu_atom/CPU_CLK_UNHALTED.CORE/", 800 },
		{ "cpu_core/FIXTURE.BOTH/", 40 },      { "cpu_atom/FIXTURE.BOTH/", 50 },
	};
	struct listing l;
	struct pmu_metric_info mi;
	int r, crossed = -1;

	if (!ctx)
		return;
	/* events: the PMU's own definition; types from the fixture (cpu_core 4, cpu_atom 10) */
	encodes(ctx, "hybrid", "cpu_core/FIXTURE.BOTH/", 4, 0x01a4);
	encodes(ctx, "hybrid", "cpu_atom/FIXTURE.BOTH/", 10, 0x0274);
	encodes(ctx, "hybrid", "cpu_core/INST_RETIRED.ANY/", 4, 0xc0);
	encodes(ctx, "hybrid", "cpu_atom/INST_RETIRED.ANY/", 10, 0xc0);
	encodes(ctx, "hybrid", "cpu_atom/FIXTURE.NO_UNIT/", 10, 0x412e);
	encodes(ctx, "hybrid", "cpu_core/FIXTURE.NO_UNIT/", 4, 0x412e);
	/* a name defined for one PMU only is that PMU's */
	encodes(ctx, "hybrid", "FIXTURE.CORE_ONLY", 4, 0x04a3);
	encodes(ctx, "hybrid", "FIXTURE.ATOM_ONLY", 10, 0x0871);
	/* never another PMU's definition */
	refused(ctx, "cpu_core/FIXTURE.ATOM_ONLY/", -EINVAL, "cpu_core", NULL);
	/* a bare name perf counts on both: refused, both spellings named */
	refused(ctx, "FIXTURE.BOTH", -EINVAL, "cpu_core/FIXTURE.BOTH/", "cpu_atom/FIXTURE.BOTH/");
	refused(ctx, "INST_RETIRED.ANY", -EINVAL, "cpu_core/INST_RETIRED.ANY/", "cpu_atom/INST_RETIRED.ANY/");
	refused(ctx, "FIXTURE.BOTH:c1", -EINVAL, "cpu_core/FIXTURE.BOTH/", "cpu_atom/FIXTURE.BOTH/");
	refused(ctx, "FIXTURE.NO_UNIT", -EINVAL, "cpu_core/FIXTURE.NO_UNIT/", "cpu_atom/FIXTURE.NO_UNIT/");
	/* both definitions are listed, each with its PMU */
	memset(&l, 0, sizeof(l));
	pmu_event_foreach(ctx, "FIXTURE.BOTH", list_cb, &l);
	CHECK(l.n == 2 && (!strcmp(l.pmus, "cpu_core,cpu_atom") || !strcmp(l.pmus, "cpu_atom,cpu_core")),
	      "pmu list FIXTURE.BOTH: %d entries on '%s'", l.n, l.pmus);

	/* metrics: each PMU's formula, and its references among its own PMU's metrics */
	metric_is(ctx, "cpu_core/M_IPC/", all, 6, 1000.0 / 400);
	metric_is(ctx, "cpu_atom/M_IPC/", all, 6, 600.0 / 800);
	metric_is(ctx, "cpu_core/M_DERIVED/", all, 6, 40.0 / 4 * 2);
	metric_is(ctx, "cpu_atom/M_DERIVED/", all, 6, 50.0 / 5 * 3);
	metric_is(ctx, "M_CORE_ONLY", all, 6, 40.0 / 4 * 2 + 1);
	metric_is(ctx, "M_BARE", all, 6, 40 + 1); /* a bare event inside a cpu_core metric is cpu_core's */
	{
		/* so is a generic event, which a set counts once per core type */
		const struct pmu_named_value cyc[] = { { "cpu_core/cycles/", 100 }, { "cpu_atom/cycles/", 60 } };
		metric_is(ctx, "M_CYCLES", cyc, 2, 100.0 / 2);
		events_are(ctx, "M_CYCLES", "cpu_core/cycles/");
	}
	/* a bare name: the definition whose counts were given */
	metric_is(ctx, "M_IPC", all, 2, 1000.0 / 400);
	metric_is(ctx, "M_IPC", all + 2, 2, 600.0 / 800);
	metric_is(ctx, "M_DERIVED", all + 5, 1, 50.0 / 5 * 3);
	metric(ctx, "M_IPC", all, 6, &r);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "cpu_core/M_IPC/") && strstr(pmu_strerror(r), "cpu_atom/M_IPC/"),
	      "M_IPC with both core types' counts: %d %s", r, pmu_strerror(r));
	metric(ctx, "M_IPC", all + 4, 2, &r);
	CHECK(r == -ENOENT, "M_IPC without its counts: %d %s", r, pmu_strerror(r));
	/* thresholds too */
	r = pmu_metric_threshold(ctx, "cpu_core/M_BASE/", all, 6, &crossed);
	CHECK(r == 0 && crossed == 1, "cpu_core/M_BASE/ > 9 with 10: %d %d %s", r, crossed, pmu_strerror(r));
	r = pmu_metric_threshold(ctx, "cpu_atom/M_BASE/", all, 6, &crossed);
	CHECK(r == 0 && crossed == 0, "cpu_atom/M_BASE/ > 11 with 10: %d %d %s", r, crossed, pmu_strerror(r));
	/* the events to count, spelled as an event list names them */
	events_are(ctx, "cpu_atom/M_IPC/", "cpu_atom/INST_RETIRED.ANY/,cpu_atom/CPU_CLK_UNHALTED.CORE/");
	events_are(ctx, "cpu_core/M_DERIVED/", "cpu_core/FIXTURE.BOTH/");
	events_are(ctx, "M_BARE", "cpu_core/FIXTURE.BOTH/");
	{
		char buf[256];
		r = pmu_metric_events(ctx, "M_IPC", buf, sizeof(buf));
		CHECK(r == -EINVAL && strstr(pmu_strerror(r), "cpu_core/M_IPC/"), "events of bare M_IPC: %d %s", r,
		      pmu_strerror(r));
	}
	r = pmu_metric_info(ctx, "cpu_atom/M_IPC/", &mi);
	CHECK(r == 0 && strstr(mi.expr, "cpu_atom@") && strstr(mi.desc, "E-cores"), "info cpu_atom/M_IPC/: %d %s", r,
	      r ? pmu_strerror(r) : mi.expr);
	r = pmu_metric_info(ctx, "M_IPC", &mi);
	CHECK(r == -EINVAL, "info of bare M_IPC: %d %s", r, pmu_strerror(r));
	r = pmu_metric_info(ctx, "cpu_atom/M_CORE_ONLY/", &mi);
	CHECK(r == -ENOENT, "info cpu_atom/M_CORE_ONLY/: %d %s", r, pmu_strerror(r));
	pmu_ctx_free(ctx);
}

static void problem(void *data, const char *file, const char *entry, const char *msg);

static void archstd_metrics(const char *tables)
{
	struct pmu_ctx *ctx = ctx_on("arm64-neoverse-n1", "0x00000000410fd0c0", tables);
	const struct pmu_named_value v[] = { { "FIXTURE_A", 30 }, { "FIXTURE_B", 120 } };
	struct pmu_metric_info mi;
	int r;

	if (!ctx)
		return;
	encodes(ctx, tables, "FIXTURE_A", 10, 0x11);
	encodes(ctx, tables, "FIXTURE_B", 10, 0x12);
	metric_is(ctx, "fixture_share", v, 2, 100.0 * 30 / 120);     /* the architecture's formula */
	metric_is(ctx, "fixture_sum", v, 2, 30 * 2);                 /* the CPU's own */
	r = pmu_metric_info(ctx, "fixture_share", &mi);
	CHECK(r == 0 && !strcmp(mi.scale_unit, "1percent of slots") && !strcmp(mi.group, "TopdownL1"),
	      "fixture_share's ScaleUnit/MetricGroup from the architecture: %d %s", r,
	      r ? pmu_strerror(r) : mi.scale_unit);
	{
		/* checking the directory alone finds the architecture's files as loading does */
		char path[1024];
		snprintf(path, sizeof(path), "%s/tests/tables/%s", src, tables);
		r = pmu_tables_check(ctx, path, problem, NULL);
		CHECK(r == 0, "check-tables %s: %d problems", tables, r);
	}
	pmu_ctx_free(ctx);
}

static void problem(void *data, const char *file, const char *entry, const char *msg)
{
	(void)data;
	fprintf(stderr, "problem: %s: %s: %s\n", file, entry ? entry : "-", msg);
}

static void constants_and_lists(void)
{
	struct pmu_ctx *ctx = ctx_on("intel-icx", "GenuineIntel-6-6A-6", "fixed-counters/perf");
	const struct pmu_named_value v[] = { { "INST_RETIRED.ANY", 7 } };
	char buf[64];
	int need, r;

	if (!ctx)
		return;
	CHECK(pmu_ctx_set_param(ctx, "smt_on", 1) == 0 && pmu_ctx_set_param(ctx, "num_cores", 4) == 0, "set params");
	metric_is(ctx, "#SMT_on * 10 + #Num_Cores", v, 1, 14);
	metric_is(ctx, "#has_pmem + 1", v, 1, 1); /* no ACPI NFIT table in the fixture */
	/* the exact size pmu_metric_events asked for holds a one-event list */
	need = pmu_metric_events(ctx, "INST_RETIRED.ANY * 2", NULL, 0);
	CHECK(need == (int)strlen("INST_RETIRED.ANY"), "size needed: %d", need);
	if (need > 0 && need < (int)sizeof(buf)) {
		memset(buf, 'x', sizeof(buf));
		r = pmu_metric_events(ctx, "INST_RETIRED.ANY * 2", buf, (size_t)need + 1);
		CHECK(r == need && !strcmp(buf, "INST_RETIRED.ANY"), "exact buffer: %d '%.*s'", r, need + 1, buf);
	}
	pmu_ctx_free(ctx);
	/* in a table: the checker knows them too (and a name defined once per PMU is no duplicate) */
	if ((ctx = ctx_on("intel-adl-hybrid", "GenuineIntel-6-9A-3", "hybrid"))) {
		const struct pmu_named_value b[] = { { "cpu_core/FIXTURE.BOTH/", 40 } };
		char path[1024];
		snprintf(path, sizeof(path), "%s/tests/tables/hybrid", src);
		r = pmu_tables_check(ctx, path, problem, NULL);
		CHECK(r == 0, "tests/tables/hybrid: %d problems", r);
		pmu_ctx_set_param(ctx, "smt_on", 1);
		metric_is(ctx, "M_SMT", b, 1, 2 * 40.0 / 4);
	}
	pmu_ctx_free(ctx);
}

struct kinds {
	int native, metric, other;
};

static int count_kinds(const struct pmu_event_entry *e, void *data)
{
	struct kinds *k = data;

	if (!strcasecmp(e->name, "FIX.BOTH"))
		e->kind == PMU_ENTRY_NATIVE ? k->native++ : e->kind == PMU_ENTRY_METRIC ? k->metric++ : k->other++;
	return 0;
}

/*
 * A name that is an event and a metric (perf's skylakex/cascadelakex/snowridgex uncore files: one
 * object with EventName and MetricName, LLC_MISSES.PCIE_READ; or an event and a metric of one name in
 * two files): perf's jevents.py makes it both, an event list counts the event, -M and a metric's
 * expression use the metric (metricgroup.c resolves a metric name first). tests/tables/event-and-metric
 * on the Ice Lake-SP fixture (format event config:0-7, umask config:8-15); values by hand.
 */
static void event_and_metric(void)
{
	struct pmu_ctx *ctx = ctx_on("intel-icx", "GenuineIntel-6-6A-6", "event-and-metric");
	const struct pmu_named_value v[] = { { "FIX.PART0", 100 }, { "FIX.PART1", 20 } };
	struct pmu_metric_info mi;
	struct kinds k = { 0, 0, 0 };
	char path[1024];
	int r;

	if (!ctx)
		return;
	encodes(ctx, "event and metric", "FIX.BOTH", 4, 0x83 | 0x4 << 8);
	encodes(ctx, "event and metric", "FIX.TWICE", 4, 0x85);
	metric_is(ctx, "FIX.BOTH", v, 2, 100 + 20);
	metric_is(ctx, "FIX.TWICE", v, 2, 100 * 3);
	metric_is(ctx, "m_uses_both", v, 2, 120 * 10 + 300);  /* the metrics, not counts of the events */
	events_are(ctx, "m_uses_both", "FIX.PART0,FIX.PART1");
	r = pmu_metric_info(ctx, "FIX.BOTH", &mi);
	CHECK(r == 0 && !strcmp(mi.expr, "FIX.PART0 + FIX.PART1"), "metric info of FIX.BOTH: %d %s", r,
	      r ? pmu_strerror(r) : mi.expr);
	pmu_event_foreach(ctx, "FIX.BOTH", count_kinds, &k);
	CHECK(k.native == 1 && k.metric == 1 && k.other == 0, "FIX.BOTH listed as %d events, %d metrics, %d other",
	      k.native, k.metric, k.other);
	snprintf(path, sizeof(path), "%s/tests/tables/event-and-metric", src);
	r = pmu_tables_check(ctx, path, problem, NULL);
	CHECK(r == 0, "tests/tables/event-and-metric: %d problems", r);
	pmu_ctx_free(ctx);
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
	hybrid();
	archstd_metrics("archstd-metrics");
	/* the CPU directory named alone (PMU_EVENTS_PATH=<tree>/vendor/core): the tree's
	 * architecture-level files are found above it, at the directory with the mapfile */
	archstd_metrics("archstd-metrics/vendor/core");
	constants_and_lists();
	event_and_metric();
	return test_done("test-perf-tables");
}
