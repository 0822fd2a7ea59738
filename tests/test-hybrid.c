/* SPDX-License-Identifier: MIT */
/*
 * Intel hybrid CPUs (Alder Lake fixture: cpu_core type 4 on CPUs 0-7,
 * cpu_atom type 10 on CPUs 8-15). The kernel gives a generic hardware event
 * whose config has no PMU type in bits 32-63 to cpu_core only
 * (include/uapi/linux/perf_event.h: "If the PMU type ID is 0, the
 * PERF_TYPE_RAW will be applied"), so a set must open such an event once
 * per core PMU. Checked here without opening anything: the names, order,
 * groups and attr.config the set would hand to perf_event_open, the
 * PMU/generic-name/ syntax, one-CPU counting, and metrics over the parts.
 * The expected encodings are written from the kernel's layout
 * (type << 32 | generic id), not taken from libpmu's output.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <pmu.h>
#include "error.h"
#include "resolve.h"
#include "set.h"
#include "harness.h"
#include "plan-check.h"
#include "fixture.h"

static void plan(struct pmu_ctx *ctx, const char *events, int cpu, const char *want_order, const char *want_groups,
		 const unsigned long long *want_config)
{
	struct pmu_set_opts o;
	struct pmu_set *s;
	size_t want_n = 1;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	if (cpu >= 0) {
		o.flags = PMU_SET_CPU;
		o.pid = -1;
		o.cpu = cpu;
	}
	for (const char *c = want_order; *c; c++)
		want_n += *c == ',';
	s = plan_check(ctx, events, &o, want_order, want_groups);
	for (size_t i = 0; s && i < pmu_set_count(s) && i < want_n; i++) {
		const struct pmu_event_info *e = pmu__set_info(s, i);
		const struct perf_event_attr *a = pmu__set_attr(s, i);
		CHECK(a->config == want_config[i], "'%s' event %zu (%s): config 0x%llx, expected 0x%llx",
		      events, i, e->name, (unsigned long long)a->config, want_config[i]);
		/* a part is a generic event the list did not name as such */
		CHECK(!!(e->flags & PMU_EVF_HYBRID_PART) ==
		      (!strstr(events, e->name) && (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE)),
		      "'%s': part flag of %s", events, e->name);
	}
	pmu_set_close(s);
}

/* A table name each core type counts with its own event, written without a PMU: every event of
 * the plan a part (PMU_EVF_HYBRID_PART), of the core PMU's type (cpu_core 4, cpu_atom 10: the
 * fixture's sysfs), with the core type's own config. */
static void per_core(struct pmu_ctx *ctx, const char *events, const char *want_order, const char *want_groups,
		     const unsigned *want_type, const unsigned long long *want_config, const unsigned *want_part)
{
	struct pmu_set_opts o;
	struct pmu_set *s;
	size_t want_n = 1;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	for (const char *c = want_order; *c; c++)
		want_n += *c == ',';
	s = plan_check(ctx, events, &o, want_order, want_groups);
	for (size_t i = 0; s && i < pmu_set_count(s) && i < want_n; i++) {
		const struct pmu_event_info *e = pmu__set_info(s, i);
		const struct perf_event_attr *a = pmu__set_attr(s, i);
		CHECK(a->type == want_type[i] && a->config == want_config[i],
		      "'%s' event %zu (%s): type %u config 0x%llx, expected %u 0x%llx", events, i, e->name,
		      a->type, (unsigned long long)a->config, want_type[i], want_config[i]);
		CHECK(!!(e->flags & PMU_EVF_HYBRID_PART) == !!want_part[i], "'%s': part flag of %s", events, e->name);
	}
	pmu_set_close(s);
}

int main(void)
{
	struct pmu_ctx *ctx = fixture_ctx("intel-adl-hybrid", "GenuineIntel-6-9A-3");
	struct pmu_event_info info;
	int r;

	CHECK(ctx != NULL, "Alder Lake fixture context");
	if (!ctx)
		return test_done("test-hybrid");

	/* a generic event alone: one event per core type, each its own group */
	plan(ctx, "cycles", -1, "cpu_core/cycles/,cpu_atom/cycles/", "0,1",
	     (const unsigned long long[]){ 0x400000000ull, 0xa00000000ull });
	/* cache events carry the type the same way */
	plan(ctx, "L1-dcache-load-misses", -1, "cpu_core/L1-dcache-load-misses/,cpu_atom/L1-dcache-load-misses/",
	     "0,1", (const unsigned long long[]){ 0x400010000ull, 0xa00010000ull });
	/* a group repeated per core type, modifiers kept; software events stay out of the split */
	plan(ctx, "{cycles,instructions:u},task-clock", -1,
	     "cpu_core/cycles/,cpu_core/instructions/:u,cpu_atom/cycles/,cpu_atom/instructions/:u,task-clock",
	     "0,0,1,1,2", (const unsigned long long[]){ 0x400000000ull, 0x400000001ull, 0xa00000000ull,
							 0xa00000001ull, 1 });
	/* a group with a software event and an event of one core PMU: each goes where it counts */
	plan(ctx, "{cycles,task-clock,cpu_atom/cpu-cycles/}", -1,
	     "cpu_core/cycles/,task-clock,cpu_atom/cycles/,cpu_atom/cpu-cycles/", "0,0,1,1",
	     (const unsigned long long[]){ 0x400000000ull, 1, 0xa00000000ull, 0x3c });
	/* standard names that map to generic events split too: CACHE.L1D.WR is neither core type's
	 * table event (x86/alderlake), so the kernel's L1-dcache-stores (L1D 0, write 1 << 8, access 0) */
	plan(ctx, "CACHE.L1D.WR", -1, "cpu_core/CACHE.L1D.WR/,cpu_atom/CACHE.L1D.WR/", "0,1",
	     (const unsigned long long[]){ 0x400000100ull, 0xa00000100ull });
	/* one core type's table maps it (CACHE.L1D.RD: the P-core's MEM_INST_RETIRED.ALL_LOADS, event 0xd0
	 * umask 0x81), the other's does not: that one counts the kernel's L1-dcache-loads (L1D 0, read 0,
	 * access 0) on its PMU (type 10 in bits 32-63), as a CPU of one core type would; both parts of the
	 * bare name (refused before: the E-core part had no event) */
	per_core(ctx, "CACHE.L1D.RD", "cpu_core/CACHE.L1D.RD/,cpu_atom/CACHE.L1D.RD/", "0,1",
		 (const unsigned[]){ 4, PERF_TYPE_HW_CACHE }, (const unsigned long long[]){ 0x81d0, 0xa00000000ull },
		 (const unsigned[]){ 1, 1 });
	r = pmu_event_resolve(ctx, "cpu_atom/CACHE.L1D.RD/", &info);
	CHECK(r == 0 && info.type == PERF_TYPE_HW_CACHE && info.config == 0xa00000000ull &&
	      strstr(info.origin, "standard CACHE.L1D.RD") && strstr(info.origin, "kernel generic event") &&
	      !strcmp(info.pmu, "cpu_atom"), "cpu_atom/CACHE.L1D.RD/: %d, type %u config 0x%llx, pmu %s, origin %s", r,
	      info.type, (unsigned long long)info.config, info.pmu, info.origin);
	/* planning that fails after the hybrid split changed the number of events (TOPDOWN twice: its
	 * group cannot take the same events again) frees the set by the new number, the read plan by the
	 * old (pmu_set_close read past the user-page array: ASan, the eventlist fuzzer at 3.1 million) */
	{
		struct pmu_set *s = NULL;
		struct pmu_set_opts o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		r = pmu__set_plan(ctx, "topdown,topdown,cycles", &o, &s);
		CHECK(r < 0 && !s, "'topdown,topdown,cycles' planned: %d %s", r, pmu_strerror(r));
		/* Intel's :u<mask> makes slots:u131 umask 0x83, PERF_METRICS' backend-bound field: marked by that
		 * encoding (a metric event), not the table entry's role (slots); both marks once put it in the
		 * topdown group twice and the plan's names were freed twice (the eventlist fuzzer, 1.4 million) */
		r = pmu__set_plan(ctx, "TOPDOWN:u131", &o, &s);
		CHECK(r == 0 && s, "'TOPDOWN:u131' planned: %d %s", r, pmu_strerror(r));
		for (size_t i = 0; r == 0 && s && i < pmu_set_count(s); i++) {
			const struct pmu_event_info *e = pmu__set_info(s, i);
			CHECK(!((e->flags & PMU_EVF_TOPDOWN_SLOTS) && (e->flags & PMU_EVF_TOPDOWN_METRIC)),
			      "'%s' marked both slots and metric", e->name);
		}
		pmu_set_close(s);
	}
	/* mapped for one core type and without a generic event (INST.LDST.RET: the P-core's
	 * MEM_INST_RETIRED.ANY): refused on the other, naming the spelling that counts */
	r = pmu_event_resolve(ctx, "cpu_atom/INST.LDST.RET/", &info);
	CHECK(r == -ENOENT && strstr(pmu_strerror(r), "cannot be counted on the cpu_atom cores") &&
	      strstr(pmu_strerror(r), "cpu_core/INST.LDST.RET/"), "cpu_atom/INST.LDST.RET/: %d %s", r, pmu_strerror(r));
	r = pmu_event_resolve(ctx, "cpu_core/CACHE.L1D.RD/", &info);
	CHECK(r == 0 && info.config == 0x81d0 && (info.flags & PMU_EVF_APPROX), "cpu_core/CACHE.L1D.RD/: %d, config "
	      "0x%llx, approximate %d", r, (unsigned long long)info.config, !!(info.flags & PMU_EVF_APPROX));
	/* a standard name that each core type's table maps to its own event (INST.RET: INST_RETIRED.ANY,
	 * event 0xc0 as perf's jevents.py encodes it) is named per PMU, each that PMU's raw event ... */
	plan(ctx, "cpu_core/INST.RET/,cpu_atom/INST.RET/", -1, "cpu_core/INST.RET/,cpu_atom/INST.RET/", "0,1",
	     (const unsigned long long[]){ 0xc0, 0xc0 });
	/* ... and bare in a set it is counted on each core type with that type's event, as perf counts
	 * it (one encoding alone would count a part as the whole: pmu_event_resolve() refuses it) */
	per_core(ctx, "INST.RET", "cpu_core/INST.RET/,cpu_atom/INST.RET/", "0,1", (const unsigned[]){ 4, 10 },
		 (const unsigned long long[]){ 0xc0, 0xc0 }, (const unsigned[]){ 1, 1 });
	/* modifiers kept, a {group} repeated per core type with its generic member split too */
	per_core(ctx, "{INST.RET:u,cycles}", "cpu_core/INST.RET/:u,cpu_core/cycles/,cpu_atom/INST.RET/:u,cpu_atom/cycles/",
		 "0,0,1,1", (const unsigned[]){ 4, 0, 10, 0 },
		 (const unsigned long long[]){ 0xc0, 0x400000000ull, 0xc0, 0xa00000000ull }, (const unsigned[]){ 1, 1, 1, 1 });
	/* Intel's modifiers of a table event (c<N> counter mask, i1 invert, e1 edge) on a name defined for
	 * both core PMUs: each part the core PMU's event with them, as "cpu_core/NAME,cmask=1,inv=1/u" would
	 * be. By hand from perf's alderlake pipeline.json (INST_RETIRED.ANY event 0xc0, BR_MISP_RETIRED.
	 * ALL_BRANCHES 0xc5, both PMUs) and the x86 format (cmask bits 24-31, inv 23, edge 18): 0x10000c0 |
	 * 0x800000 = 0x18000c0; 0xc5 | 0x40000 = 0x400c5. They were refused, naming the spellings. */
	per_core(ctx, "INST_RETIRED.ANY:c1:i1:u,BR_MISP_RETIRED.ALL_BRANCHES:e1",
		 "cpu_core/INST_RETIRED.ANY:c1:i1/:u,cpu_atom/INST_RETIRED.ANY:c1:i1/:u,"
		 "cpu_core/BR_MISP_RETIRED.ALL_BRANCHES:e1/,cpu_atom/BR_MISP_RETIRED.ALL_BRANCHES:e1/", "0,1,2,3",
		 (const unsigned[]){ 4, 10, 4, 10 }, (const unsigned long long[]){ 0x18000c0, 0x18000c0, 0x400c5, 0x400c5 },
		 (const unsigned[]){ 1, 1, 1, 1 });
	{
		struct pmu_set *s = NULL;
		struct pmu_set_opts o = { sizeof(o), 0, 0, -1 };
		r = pmu__set_plan(ctx, "INST_RETIRED.ANY:c999", &o, &s);
		CHECK(r == -EINVAL && strstr(pmu_strerror(r), "'c999' is not a modifier"), "INST_RETIRED.ANY:c999: %d %s",
		      r, pmu_strerror(r));
		pmu_set_close(s);
	}
	/* counting one CPU: only its core type's event (CPU 9 is a cpu_atom CPU) */
	{
		struct pmu_set *s = NULL;
		struct pmu_set_opts o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.flags = PMU_SET_CPU;
		o.pid = -1;
		o.cpu = 9;
		r = pmu__set_plan(ctx, "INST.RET", &o, &s);
		CHECK(r == 0 && pmu_set_count(s) == 1 && !strcmp(pmu__set_info(s, 0)->name, "cpu_atom/INST.RET/") &&
		      pmu__set_attr(s, 0)->type == 10,
		      "INST.RET on CPU 9: %d %s %s", r, r ? pmu_strerror(r) : "", r ? "" : pmu__set_info(s, 0)->name);
		pmu_set_close(s);
	}
	/* a single encoding (pmu_event_resolve) still refuses it, naming both spellings */
	r = pmu_event_resolve(ctx, "INST.RET", &info);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "name the PMU: cpu_core/INST.RET/ or cpu_atom/INST.RET/"),
	      "bare INST.RET resolved alone on the hybrid CPU: %d %s", r, pmu_strerror(r));
	/* ... and lists every spelling that resolves: a core type's generic event too (CACHE.L1D.RD on
	 * cpu_atom: L1-dcache-loads; the message named cpu_core alone before) ... */
	r = pmu_event_resolve(ctx, "CACHE.L1D.RD", &info);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "name the PMU: cpu_core/CACHE.L1D.RD/ or cpu_atom/CACHE.L1D.RD/"),
	      "bare CACHE.L1D.RD resolved alone: %d %s", r, pmu_strerror(r));
	/* ... and a name only one core type counts is said to be a part (INST.LDST.RET: no E-core event,
	 * no generic one; the message said each core PMU counts it before) */
	r = pmu_event_resolve(ctx, "INST.LDST.RET", &info);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "only 1 of the 2 core PMUs") &&
	      strstr(pmu_strerror(r), "name the PMU: cpu_core/INST.LDST.RET/") &&
	      !strstr(pmu_strerror(r), "cpu_atom/INST.LDST.RET/"), "bare INST.LDST.RET resolved alone: %d %s", r,
	      pmu_strerror(r));
	/* that message probes the spellings quietly, also inside a quiet probe (pmu list asks whether the
	 * bare name counts): the thread's later messages are whole (the nested probe's undo added a level
	 * of quiet, and every later message of the thread was the short one, without suggestions) */
	CHECK(pmu__name_countable(ctx, "INST.LDST.RET"), "bare INST.LDST.RET, which an event list counts on the "
	      "core type that has it (cpu_core), not countable");
	CHECK(!pmu__err_is_quiet(), "messages quiet after probing bare INST.LDST.RET");
	r = pmu_event_resolve(ctx, "cyclez", &info);
	CHECK(r == -ENOENT && strstr(pmu_strerror(r), "did you mean"), "after the spellings' probes: %d %s", r,
	      pmu_strerror(r));
	/* an event that names its PMU is not split */
	plan(ctx, "cpu_core/cycles/,cpu_atom/L1-icache-load-misses/", -1,
	     "cpu_core/cycles/,cpu_atom/L1-icache-load-misses/", "0,1",
	     (const unsigned long long[]){ 0x400000000ull, 0xa00010001ull });
	/* topdown stays on cpu_core with slots leading; the cycles parts leave its group. Both core
	 * PMUs have a topdown-retiring (the fixture's events/): the labels say whose was counted */
	plan(ctx, "{slots,topdown-retiring,cycles}", -1,
	     "cpu_core/slots/,cpu_core/topdown-retiring/,cpu_core/cycles/,cpu_atom/cycles/", "0,0,1,2",
	     (const unsigned long long[]){ 0x400, 0x8000, 0x400000000ull, 0xa00000000ull });
	/* a raw code names no PMU: counted on each core PMU, the same code (as perf counts a raw event
	 * on every core PMU): the type of each core PMU (the fixture's cpu_core 4, cpu_atom 10), each a part */
	per_core(ctx, "r01c2,task-clock", "cpu_core/r01c2/,cpu_atom/r01c2/,task-clock", "0,1,2",
		 (const unsigned[]){ 4, 10, 1 }, (const unsigned long long[]){ 0x1c2, 0x1c2, 1 },
		 (const unsigned[]){ 1, 1, 0 });
	/* one CPU: only the core PMU it belongs to (cpus files: cpu_core 0-7, cpu_atom 8-15) */
	plan(ctx, "cycles", 3, "cpu_core/cycles/", "0", (const unsigned long long[]){ 0x400000000ull });
	plan(ctx, "cycles,instructions", 9, "cpu_atom/cycles/,cpu_atom/instructions/", "0,1",
	     (const unsigned long long[]){ 0xa00000000ull, 0xa00000001ull });

	/* PMU/generic-name/: the generic event on that PMU; named events of the PMU (sysfs) win */
	r = pmu_event_resolve(ctx, "cpu_atom/dTLB-load-misses/:u", &info);
	CHECK(r == 0 && info.type == 3 && info.config == 0xa00010003ull && !strcmp(info.pmu, "cpu_atom") &&
	      (info.flags & PMU_EVF_EXCL_KERNEL), "cpu_atom/dTLB-load-misses/:u: %d type %u config 0x%llx", r,
	      info.type, (unsigned long long)info.config);
	r = pmu_event_resolve(ctx, "cpu_atom/instructions/", &info);
	CHECK(r == 0 && info.type == 10 && info.config == 0xc0, "cpu_atom/instructions/ is the PMU's own event: %d type %u config 0x%llx",
	      r, info.type, (unsigned long long)info.config);
	r = pmu_event_resolve(ctx, "cpu_core/LLC-load-misses/", &info);
	CHECK(r == 0 && info.type == 3 && info.config == 0x400010002ull, "cpu_core/LLC-load-misses/: type %u config 0x%llx",
	      info.type, (unsigned long long)info.config);
	r = pmu_event_resolve(ctx, "cpu_atom/nosuch/", &info);
	CHECK(r == -ENOENT && strstr(pmu_strerror(r), "'nosuch' is no event of the cpu_atom PMU"), "unknown: %s",
	      pmu_strerror(r));
	r = pmu_event_resolve(ctx, "cpu_core/task-clock/", &info);
	CHECK(r == -EINVAL, "software events do not take a core PMU: %d", r);

	/* the parts' times: a thread on a P-core is not counted by cpu_atom, which is not multiplexing */
	{
		struct pmu_set *s = NULL;
		struct pmu_set_opts o;
		struct pmu_value v[5];
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		r = pmu__set_plan(ctx, "cycles,task-clock,instructions", &o, &s);
		CHECK(r == 0 && pmu_set_count(s) == 5 && pmu__set_hybrid_parts(s) == 4, "plan: %d", r);
		if (r == 0 && pmu_set_count(s) == 5) {
			/* A: 60% of the time on P-cores, 40% on E-cores, nothing multiplexed */
			v[0] = (struct pmu_value){ 3000, 1000, 600 };   /* cpu_core/cycles/ */
			v[1] = (struct pmu_value){ 5000, 1000, 400 };   /* cpu_atom/cycles/ */
			v[2] = (struct pmu_value){ 1000, 1000, 1000 };  /* task-clock */
			v[3] = (struct pmu_value){ 6000, 1000, 600 };   /* cpu_core/instructions/ */
			v[4] = (struct pmu_value){ 2000, 1000, 400 };   /* cpu_atom/instructions/ */
			pmu_fast_hybrid(pmu_set_fast(s), v);
			CHECK(v[0].enabled == 600 && v[1].enabled == 400 && v[3].enabled == 600 && v[4].enabled == 400,
			      "each part enabled for its core type's time: %llu %llu %llu %llu",
			      (unsigned long long)v[0].enabled, (unsigned long long)v[1].enabled,
			      (unsigned long long)v[3].enabled, (unsigned long long)v[4].enabled);
			CHECK(pmu_scale(&v[0]) == 3000 && pmu_scale(&v[1]) == 5000 && pmu_confidence(&v[1]) == 1.0,
			      "raw counts, not extrapolated: %llu %llu", (unsigned long long)pmu_scale(&v[0]),
			      (unsigned long long)pmu_scale(&v[1]));
			CHECK(v[2].enabled == 1000 && v[2].running == 1000, "task-clock untouched");
			/* B: also multiplexed, half of the time on a counter: 300 + 200 of 1000 */
			v[0] = (struct pmu_value){ 1500, 1000, 300 };
			v[1] = (struct pmu_value){ 2500, 1000, 200 };
			pmu_fast_hybrid(pmu_set_fast(s), v);
			CHECK(v[0].enabled == 600 && v[1].enabled == 400, "multiplexed parts: %llu %llu",
			      (unsigned long long)v[0].enabled, (unsigned long long)v[1].enabled);
			CHECK(pmu_scale(&v[0]) == 3000 && pmu_scale(&v[1]) == 5000 && pmu_confidence(&v[0]) == 0.5,
			      "scaled for multiplexing only: %llu %llu %g", (unsigned long long)pmu_scale(&v[0]),
			      (unsigned long long)pmu_scale(&v[1]), pmu_confidence(&v[0]));
			/* C: never on a counter: confidence stays 0 */
			v[0] = (struct pmu_value){ 0, 1000, 0 };
			v[1] = (struct pmu_value){ 0, 1000, 0 };
			pmu_fast_hybrid(pmu_set_fast(s), v);
			CHECK(pmu_confidence(&v[0]) == 0.0 && pmu_confidence(&v[1]) == 0.0, "never counted: %g %g",
			      pmu_confidence(&v[0]), pmu_confidence(&v[1]));
		}
		pmu_set_close(s);
	}

	/* metrics over the parts: a name the metric uses sums its parts.
	 * instructions 600 + 200, cycles 300 + 500: IPC 1.0 (cpu_core alone would give 2.0) */
	{
		const struct pmu_named_value v[] = {
			{ "cpu_core/instructions/", 600 }, { "cpu_atom/instructions/", 200 },
			{ "cpu_core/cycles/", 300 }, { "cpu_atom/cycles/", 500 },
		};
		double ipc = 0;
		r = pmu_metric_eval(ctx, "instructions / cycles", v, 4, &ipc);
		CHECK(r == 0 && fabs(ipc - 1.0) < 1e-12, "IPC over both core types: %d %g", r, ipc);
	}
	/* pmu_set_total_of: the name each part adds up to, and the index of its last part (where pmu stat and
	 * region reports put the total). Written by hand from the list: the group {INST.RET:u,cycles} is one
	 * copy per core type (values 0-3), instructions two parts (4, 5), task-clock none (6). With
	 * PMU_SET_USER_ONLY the parts' labels end "/u" ("cpu_core/cycles/u"): the total is "cycles:u" (the
	 * command's own rule gave "cyclesu" before). */
	{
		static const struct {
			unsigned flags;
			int last[7];
			const char *name[7];
		} want[] = {
			{ 0, { 2, 3, 2, 3, 5, 5, -1 }, { "INST.RET:u", "cycles", "INST.RET:u", "cycles", "instructions",
							   "instructions", "" } },
			{ PMU_SET_USER_ONLY, { 2, 3, 2, 3, 5, 5, -1 }, { "INST.RET:u", "cycles:u", "INST.RET:u", "cycles:u",
									 "instructions:u", "instructions:u", "" } },
		};
		for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
			struct pmu_set_opts o = { sizeof(o), want[w].flags, 0, -1 };
			struct pmu_set *s = NULL;
			char name[PMU_NAME_MAX], tiny[4];
			r = pmu__set_plan(ctx, "{INST.RET:u,cycles},instructions,task-clock", &o, &s);
			CHECK(r == 0 && pmu_set_count(s) == 7, "plan for pmu_set_total_of: %d %s, %zu values", r,
			      r ? pmu_strerror(r) : "", r ? 0 : pmu_set_count(s));
			for (size_t i = 0; r == 0 && i < pmu_set_count(s) && i < 7; i++) {
				int last = pmu_set_total_of(s, i, name, sizeof(name));
				CHECK(last == want[w].last[i] && (last < 0 || !strcmp(name, want[w].name[i])),
				      "flags %u value %zu (%s): total_of %d '%s', expected %d '%s'", want[w].flags, i,
				      pmu__set_info(s, i)->name, last, last < 0 ? "" : name, want[w].last[i],
				      want[w].name[i]);
				CHECK(pmu_set_total_of(s, i, NULL, 0) == want[w].last[i], "value %zu without a name buffer", i);
			}
			if (r == 0) {
				CHECK(pmu_set_total_of(s, 7, name, sizeof(name)) == -EINVAL, "index past the set");
				CHECK(pmu_set_total_of(NULL, 0, name, sizeof(name)) == -EINVAL, "NULL set");
				CHECK(pmu_set_total_of(s, 0, tiny, sizeof(tiny)) == -ENAMETOOLONG, "4 bytes for 'INST.RET:u'");
			}
			pmu_set_close(s);
		}
	}
	pmu_ctx_free(ctx);

	/* not hybrid: nothing split, no type bits */
	ctx = fixture_ctx("intel-icx", "GenuineIntel-6-6A-6");
	CHECK(ctx != NULL, "Ice Lake fixture context");
	if (ctx) {
		plan(ctx, "cycles,{instructions,branch-misses}", -1, "cycles,instructions,branch-misses", "0,1,1",
		     (const unsigned long long[]){ 0, 1, 5 });
		r = pmu_event_resolve(ctx, "cpu/cycles/", &info);
		CHECK(r == 0 && info.type == 0 && info.config == 0, "cpu/cycles/ on one core PMU: %d 0x%llx", r,
		      (unsigned long long)info.config);
		pmu_ctx_free(ctx);
	}

	/* Arm big.LITTLE (tests/fixtures/arm64-biglittle: A55 type 10 on CPUs 0-3, A76 type 11 on CPUs 4-7,
	 * each cluster its MIDR; a written tree: the kernel is not asked for the extended type, so generic
	 * events are each PMU's own). Every kind of name on both clusters, each part from its cluster's table
	 * (numbers: Arm's INST_RETIRED 0x08 and CPU_CYCLES 0x11; perf's cortex-a55 BR_RETURN_RETIRED 0x0e,
	 * cortex-a76 BR_RETURN_SPEC 0x79 and L1D_TLB_RD 0x4e); the clusters' own contexts made and freed with
	 * the context (valgrind and ASan run this) */
	ctx = fixture_ctx("arm64-biglittle", NULL);
	CHECK(ctx != NULL, "big.LITTLE fixture context");
	if (ctx) {
		per_core(ctx, "{INST.RET:u,cycles},r08,INST.BRJMP.RETURN.RET,L1D_TLB_RD,task-clock",
			 "armv8_cortex_a55/INST.RET/:u,armv8_cortex_a55/cycles/,armv8_cortex_a76/INST.RET/:u,"
			 "armv8_cortex_a76/cycles/,armv8_cortex_a55/r08/,armv8_cortex_a76/r08/,"
			 "armv8_cortex_a55/INST.BRJMP.RETURN.RET/,armv8_cortex_a76/INST.BRJMP.RETURN.RET/,"
			 "armv8_cortex_a76/L1D_TLB_RD/,task-clock",
			 "0,0,1,1,2,3,4,5,6,7",
			 (const unsigned[]){ 10, 10, 11, 11, 10, 11, 10, 11, 11, 1 },
			 (const unsigned long long[]){ 0x08, 0x11, 0x08, 0x11, 0x08, 0x08, 0x0e, 0x79, 0x4e, 1 },
			 (const unsigned[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 });
		/* a name no core type gives a meaning: refused, not opened as nothing */
		{
			struct pmu_set *s = NULL;
			struct pmu_set_opts o = { sizeof(o), 0, 0, -1 };
			r = pmu__set_plan(ctx, "L1-dcache-store-misses", &o, &s);
			CHECK(r == -ENOENT && strstr(pmu_strerror(r), "no meaning on any of the 2 core PMUs"),
			      "L1-dcache-store-misses on big.LITTLE: %d %s", r, pmu_strerror(r));
			pmu_set_close(s);
		}
		/* Intel's modifiers are Intel's: on Arm cores refused as such, not split */
		{
			struct pmu_set *s = NULL;
			struct pmu_set_opts o = { sizeof(o), 0, 0, -1 };
			r = pmu__set_plan(ctx, "INST_RETIRED:c1", &o, &s);
			CHECK(r == -EINVAL && strstr(pmu_strerror(r), "apply to Intel events"), "INST_RETIRED:c1 on Arm: %d %s",
			      r, pmu_strerror(r));
			pmu_set_close(s);
		}
		/* A metric per core type: "PMU/NAME/" of a core PMU, NAME a metric of no PMU of its own (libpmu's
		 * standard PRD_RETIRED.CONTROL_FLOW.MPKI = PRD_RETIRED.CONTROL_FLOW.MISPRED / RETIRED.INST * 1000),
		 * takes that core type's parts. By hand: A55 30 / 10,000 x 1000 = 3.0; A76 5 / 50,000 x 1000 =
		 * 0.1; the name alone, both: 35 / 60,000 x 1000 = 0.58333. Before, either PMU's spelling gave
		 * 0.58333. A core type whose part of a name is missing has no value (not the other's). */
		{
			const struct pmu_named_value v[] = {
				{ "armv8_cortex_a55/PRD_RETIRED.CONTROL_FLOW.MISPRED/:u", 30 },
				{ "armv8_cortex_a76/PRD_RETIRED.CONTROL_FLOW.MISPRED/:u", 5 },
				{ "armv8_cortex_a55/RETIRED.INST/:u", 10000 },
				{ "armv8_cortex_a76/RETIRED.INST/:u", 50000 },
			};
			static const struct {
				const char *metric;
				size_t n;
				int r;
				double want;
			} cases[] = {
				{ "armv8_cortex_a55/PRD_RETIRED.CONTROL_FLOW.MPKI/", 4, 0, 3.0 },
				{ "armv8_cortex_a76/PRD_RETIRED.CONTROL_FLOW.MPKI/", 4, 0, 0.1 },
				{ "PRD_RETIRED.CONTROL_FLOW.MPKI", 4, 0, 35.0 / 60000 * 1000 },
				/* without the A76's MISPRED part: the A76 has no value, the A55 still its own */
				{ "armv8_cortex_a55/PRD_RETIRED.CONTROL_FLOW.MPKI/", 3, 0, 3.0 },
				{ "armv8_cortex_a76/PRD_RETIRED.CONTROL_FLOW.MPKI/", 3, -ENOENT, 0 },
			};
			const struct pmu_named_value v3[] = { v[0], v[2], v[3] };
			char need[512];
			for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
				double got = -1;
				r = pmu_metric_eval(ctx, cases[i].metric, cases[i].n == 4 ? v : v3, cases[i].n, &got);
				CHECK(r == cases[i].r && (r < 0 || fabs(got - cases[i].want) < 1e-9),
				      "%s over %zu values: %d %g (%s), expected %d %g", cases[i].metric, cases[i].n, r, got,
				      r < 0 ? pmu_strerror(r) : "", cases[i].r, cases[i].want);
			}
			/* its events are the name's, counted on each core PMU: the set's parts are what it takes */
			r = pmu_metric_events(ctx, "armv8_cortex_a76/PRD_RETIRED.CONTROL_FLOW.MPKI/", need, sizeof(need));
			CHECK(r > 0 && !strcmp(need, "PRD_RETIRED.CONTROL_FLOW.MISPRED,RETIRED.INST"),
			      "events of the A76's MPKI: %d '%s'", r, r > 0 ? need : pmu_strerror(r));
		}
		pmu_ctx_free(ctx);
	}
	return test_done("test-hybrid");
}
