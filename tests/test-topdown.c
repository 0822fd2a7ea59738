/* SPDX-License-Identifier: MIT */
/*
 * Topdown: decoding with hand-computed vectors (slot weighting, rounding of
 * the 8-bit fields, zero deltas, a reset between readings, level 2 and its
 * derived values), decoding kernel-scaled counts, the user-space sample
 * against a simulated page, and how a set arranges topdown events (SLOTS
 * leads, metric events join it, other events leave), planned for an Ice Lake
 * server and a Sapphire Rapids from fixture trees without opening anything;
 * on Skylake, AMD Zen 4 and Neoverse N2 (no slots counter) the TOPDOWN keyword's events
 * from the level-1 formulas and the fractions from hand-computed counts; on CPUs without any
 * topdown (Neoverse N1, Cortex-A72/A76, Zen 2, SiFive U74) the sentence that says why.
 */
#include <math.h>
#include <string.h>
#define PMU_ARCH_CUSTOM
#define PMU_ARCH_FAST 1
#include <stdint.h>
static uint64_t sim_slots, sim_metrics;
static uint32_t seen_idx[4];
static int nseen;
static inline uint64_t pmu_arch_counter(void *arg, uint32_t index)
{
	(void)arg;
	if (nseen < 4)
		seen_idx[nseen++] = index;
	return index == (1u << 29) + 1 ? sim_metrics : sim_slots;
}
static inline uint64_t pmu_arch_time(void *arg) { (void)arg; return 0; }
#include <pmu.h>
#include "set.h"
#include "harness.h"
#include "plan-check.h"
#include "fixture.h"

static uint64_t m8(int b0, int b1, int b2, int b3, int b4, int b5, int b6, int b7)
{
	return (uint64_t)b0 | (uint64_t)b1 << 8 | (uint64_t)b2 << 16 | (uint64_t)b3 << 24 | (uint64_t)b4 << 32 |
	       (uint64_t)b5 << 40 | (uint64_t)b6 << 48 | (uint64_t)b7 << 56;
}

#define EQ(a, b) (fabs((a) - (b)) < 1e-12)

static void plan(struct pmu_ctx *ctx, const char *events, const char *want_order, const char *want_groups)
{
	struct pmu_set_opts o;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	pmu_set_close(plan_check(ctx, events, &o, want_order, want_groups));
}

int main(void)
{
	struct pmu_topdown t;
	struct pmu_topdown_sample a, b;
	int r;

	/* 1. slot weighting: a = 510 slots at (0.4,0.2,0.2,0.2); a->b adds 1020 slots.
	 *    parts a: 102*510/255=204, 51*2=102 x3; parts b (1530 slots, 170,34,34,17): 1020, 204, 204, 102
	 *    deltas 816,102,102,0 over 1020 -> 0.8, 0.1, 0.1, 0.0 */
	a = (struct pmu_topdown_sample){ 510, m8(102, 51, 51, 51, 0, 0, 0, 0), 7 };
	b = (struct pmu_topdown_sample){ 1530, m8(170, 34, 34, 17, 0, 0, 0, 0), 7 };
	r = pmu_topdown_decode(&a, &b, 1, &t);
	CHECK(r == 0 && t.slots == 1020 && EQ(t.retiring, 0.8) && EQ(t.bad_spec, 0.1) && EQ(t.fe_bound, 0.1) &&
	      EQ(t.be_bound, 0.0) && !(t.flags & PMU_TOPDOWN_RESET) && t.level == 1 && isnan(t.heavy_ops),
	      "weighted: %d %g %g %g %g", r, t.retiring, t.bad_spec, t.fe_bound, t.be_bound);

	/* 2. rounding: fields that do not divide evenly.
	 *    a 1000 slots (100,50,55,50), b 2000 slots (128,40,47,40): retiring (256000-100000)/255/1000 = 156/255 */
	a = (struct pmu_topdown_sample){ 1000, m8(100, 50, 55, 50, 0, 0, 0, 0), 1 };
	b = (struct pmu_topdown_sample){ 2000, m8(128, 40, 47, 40, 0, 0, 0, 0), 1 };
	r = pmu_topdown_decode(&a, &b, 1, &t);
	CHECK(r == 0 && EQ(t.retiring, 156.0 / 255) && EQ(t.bad_spec, 30.0 / 255) && EQ(t.fe_bound, 39.0 / 255) &&
	      EQ(t.be_bound, 30.0 / 255), "rounding: %.15g %.15g %.15g %.15g", t.retiring, t.bad_spec, t.fe_bound,
	      t.be_bound);
	CHECK(EQ(t.retiring + t.bad_spec + t.fe_bound + t.be_bound, 1.0), "fractions sum to 1");

	/* 3. no slots elapsed */
	CHECK(pmu_topdown_decode(&b, &b, 1, &t) == -ENODATA, "zero delta is -ENODATA");

	/* 4. a reset in between (epoch changed): only b's own period, flagged */
	a = (struct pmu_topdown_sample){ 5000, m8(10, 20, 30, 195, 0, 0, 0, 0), 3 };
	b = (struct pmu_topdown_sample){ 1000, m8(51, 51, 102, 51, 0, 0, 0, 0), 4 };
	r = pmu_topdown_decode(&a, &b, 1, &t);
	CHECK(r == 0 && (t.flags & PMU_TOPDOWN_RESET) && t.slots == 1000 && EQ(t.retiring, 0.2) &&
	      EQ(t.fe_bound, 0.4), "reset (epoch): %d %x %g", r, t.flags, t.retiring);
	/* ... or detected by slots going down with the same epoch */
	b.epoch = 3;
	r = pmu_topdown_decode(&a, &b, 1, &t);
	CHECK(r == 0 && (t.flags & PMU_TOPDOWN_RESET), "reset (slots down)");

	/* 5. level 2 from zero: L1 (0.4,0.2,0.2,0.2), L2 heavy 51, br 25, fetch_lat 26, mem 40 (of 255) */
	a = (struct pmu_topdown_sample){ 0, 0, 9 };
	b = (struct pmu_topdown_sample){ 2550, m8(102, 51, 51, 51, 51, 25, 26, 40), 9 };
	r = pmu_topdown_decode(&a, &b, 2, &t);
	CHECK(r == 0 && t.level == 2 && EQ(t.heavy_ops, 0.2) && EQ(t.light_ops, 0.2) && EQ(t.br_mispredict, 25.0 / 255) &&
	      EQ(t.machine_clears, 26.0 / 255) && EQ(t.fetch_lat, 26.0 / 255) && EQ(t.fetch_bw, 25.0 / 255) &&
	      EQ(t.mem_bound, 40.0 / 255) && EQ(t.core_bound, 11.0 / 255), "level 2: %g %g %g %g %g %g %g %g",
	      t.heavy_ops, t.light_ops, t.br_mispredict, t.machine_clears, t.fetch_lat, t.fetch_bw, t.mem_bound,
	      t.core_bound);
	CHECK(pmu_topdown_decode(&a, &b, 3, &t) == -EINVAL, "level 3 refused");

	/* 6. kernel-scaled counts (read(2) of the topdown events) */
	{
		struct pmu_topdown_counts c = { 1000, 400, 100, 300, 200, 150, 60, 200, 120, 2 };
		r = pmu_topdown_from_counts(&c, &t);
		CHECK(r == 0 && EQ(t.retiring, 0.4) && EQ(t.bad_spec, 0.1) && EQ(t.fe_bound, 0.3) && EQ(t.be_bound, 0.2) &&
		      EQ(t.light_ops, 0.25) && EQ(t.machine_clears, 0.04) && EQ(t.fetch_bw, 0.1) && EQ(t.core_bound, 0.08),
		      "counts: %g %g %g %g", t.light_ops, t.machine_clears, t.fetch_bw, t.core_bound);
		c.slots = 0;
		CHECK(pmu_topdown_from_counts(&c, &t) == -ENODATA, "no slots");
	}

	/* 7. the user-space sample: SLOTS through the page's index, PERF_METRICS through selector bit 29 */
	{
		struct perf_event_mmap_page pg;
		struct pmu_topdown_sample smp;
		memset(&pg, 0, sizeof(pg));
		pg.cap_user_rdpmc = 1;
		pg.index = (1u << 30 | 3) + 1; /* fixed counter 3, as the kernel publishes it */
		pg.offset = 4242;
		sim_slots = 123456;
		sim_metrics = m8(1, 2, 3, 4, 5, 6, 7, 8);
		r = pmu_topdown_page_sample(&pg, &smp);
		CHECK(r == 0 && smp.slots == 123456 && smp.metrics == sim_metrics && smp.epoch == 4242, "sample");
		CHECK(nseen == 2 && seen_idx[0] == pg.index && seen_idx[1] == (1u << 29) + 1,
		      "rdpmc selectors: 0x%x then 0x%x", seen_idx[0] - 1, seen_idx[1] - 1);
		pg.index = 0;
		CHECK(pmu_topdown_page_sample(&pg, &smp) == 1, "index 0 falls back");
		/* the exported twin (the library's copy of the loop), given the same counter source */
		pg.index = (1u << 30 | 3) + 1;
		nseen = 0;
		memset(&smp, 0, sizeof(smp));
		r = pmu_topdown_page_sample_with_fn(&pg, pmu_arch_counter, NULL, &smp);
		CHECK(r == 0 && smp.slots == 123456 && smp.metrics == sim_metrics && smp.epoch == 4242 && nseen == 2 &&
		      seen_idx[0] == pg.index && seen_idx[1] == (1u << 29) + 1, "pmu_topdown_page_sample_with_fn: %d", r);
		pg.index = 0;
		CHECK(pmu_topdown_page_sample_with_fn(&pg, pmu_arch_counter, NULL, &smp) == 1,
		      "pmu_topdown_page_sample_with_fn: index 0 falls back");
	}

	/* 8. arrangement on an Ice Lake server (fixture sysfs) and Sapphire Rapids */
	{
		const char *src = getenv("PMU_TEST_SRCDIR");
		char sys[1024];
		struct pmu_ctx_opts o;
		struct pmu_ctx *ctx;
		snprintf(sys, sizeof(sys), "%s/tests/fixtures/intel-icx/sys", src ? src : ".");
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.sysfs_root = sys;
		o.cpuid = "GenuineIntel-6-6A-6";
		if (pmu_ctx_new(&ctx, &o) == 0) {
			/* out of order, split over braces, slots last: slots leads, metrics follow in order, others leave */
			plan(ctx, "cycles,{topdown-retiring,instructions},topdown-be-bound,slots,topdown-bad-spec",
			     "cycles,slots,topdown-retiring,topdown-be-bound,topdown-bad-spec,instructions", "0,1,1,1,1,2");
			/* slots added when missing */
			plan(ctx, "topdown-fe-bound,task-clock", "slots,topdown-fe-bound,task-clock", "0,0,1");
			/* the keyword: level 1 on Ice Lake */
			plan(ctx, "TOPDOWN", "slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound",
			     "0,0,0,0,0");
			{
				struct pmu_set *s;
				struct pmu_set_opts so;
				memset(&so, 0, sizeof(so));
				so.size = sizeof(so);
				r = pmu__set_plan(ctx, "slots,topdown-retiring,slots", &so, &s);
				CHECK(r == -EINVAL && strstr(pmu_strerror(r), "once"), "two slots refused: %s", pmu_strerror(r));
			}
			pmu_ctx_free(ctx);
		}
		o.cpuid = "GenuineIntel-6-8F-8";
		if (pmu_ctx_new(&ctx, &o) == 0) {
			plan(ctx, "TOPDOWN:u",
			     "slots:u,topdown-retiring:u,topdown-bad-spec:u,topdown-fe-bound:u,topdown-be-bound:u,"
			     "topdown-heavy-ops:u,topdown-br-mispredict:u,topdown-fetch-lat:u,topdown-mem-bound:u",
			     "0,0,0,0,0,0,0,0,0");
			pmu_ctx_free(ctx);
		}
		/* Skylake-X with a PMU that advertises no topdown events (the PMU-less VM fixture) */
		snprintf(sys, sizeof(sys), "%s/tests/fixtures/vm-nopmu/sys", src ? src : ".");
		o.cpuid = "GenuineIntel-6-55-4";
		if (pmu_ctx_new(&ctx, &o) == 0) {
			struct pmu_set *s;
			struct pmu_set_opts so;
			memset(&so, 0, sizeof(so));
			so.size = sizeof(so);
			r = pmu__set_plan(ctx, "TOPDOWN", &so, &s);
			CHECK(r == -ENOENT && strstr(pmu_strerror(r), "not available on this CPU"), "Skylake-X: %s",
			      pmu_strerror(r));
			pmu_ctx_free(ctx);
		}
	}

	/* 9. CPUs without a slots counter: the TOPDOWN keyword counts the events of the table's level-1
	 *    formulas (the names below are those of the formulas in perf's skl-metrics.json tma_* and
	 *    amdzen4 pipeline.json), and a set's values decode through them. Hand values:
	 *    Skylake: cycles 1000 -> slots 4 x 1000 = 4000; retiring 1600/4000 = 0.40; bad speculation
	 *    2000 - 1600 + 4 x 50 = 600, /4000 = 0.15; frontend 800/4000 = 0.20; backend
	 *    4000 - 800 - 2000 - 4 x 50 = 1000, /4000 = 0.25. Cycles multiplexed (running half of enabled)
	 *    scale to 2 x 500 = 1000.
	 *    Zen 4: cycles 2000 -> slots 6 x 2000 = 12000; retiring 3000/12000 = 0.25; bad speculation
	 *    (4200 - 3000)/12000 = 0.10; frontend 1800/12000 = 0.15; backend 6000/12000 = 0.50.
	 *    Neoverse N2 r0p0 (Arm's method as perf's neoverse-n2-v2 metrics write it; #slots 5 set by
	 *    hand, the kernel's caps/slots on an N2): before r0p3 STALL_SLOT and STALL_SLOT_FRONTEND count
	 *    one slot too many per cycle, so CPU_CYCLES comes off both: 3000 - 1000 = 2000, 1800 - 1000 =
	 *    800. Slots 5 x 1000 = 5000; not stalled 5000 - 2000 = 3000; retiring OP_RETIRED/OP_SPEC =
	 *    2400/3000 = 0.8 of it, 2400/5000 = 0.48; bad speculation 0.2 x 3000 = 600 + 4 x 5 x
	 *    BR_MIS_PRED 20 = 1000, /5000 = 0.20; frontend 800 - 5 x 20 = 700, /5000 = 0.14; backend
	 *    1200 - 3 x 5 x 20 = 900, /5000 = 0.18. */
	{
		static const struct {
			const char *fixture, *cpuid, *events;
			struct pmu_value v[7];
			uint64_t slots;
			double l1[4];
		} cpus[] = {
			{ NULL, "GenuineIntel-6-5E-3",
			  "CPU_CLK_UNHALTED.THREAD,UOPS_RETIRED.RETIRE_SLOTS,UOPS_ISSUED.ANY,INT_MISC.RECOVERY_CYCLES,"
			  "IDQ_UOPS_NOT_DELIVERED.CORE",
			  { { 500, 100, 50 }, { 1600, 100, 100 }, { 2000, 100, 100 }, { 50, 100, 100 }, { 800, 100, 100 } },
			  4000, { 0.40, 0.15, 0.20, 0.25 } },
			{ "amd-zen3", "AuthenticAMD-25-11-1",
			  "ls_not_halted_cyc,ex_ret_ops,de_src_op_disp.all,de_no_dispatch_per_slot.no_ops_from_frontend,"
			  "de_no_dispatch_per_slot.backend_stalls",
			  { { 2000, 1, 1 }, { 3000, 1, 1 }, { 4200, 1, 1 }, { 1800, 1, 1 }, { 6000, 1, 1 } },
			  12000, { 0.25, 0.10, 0.15, 0.50 } },
			{ "arm64-neoverse-n1", "0x00000000410fd490",
			  "CPU_CYCLES,OP_RETIRED,OP_SPEC,STALL_SLOT,BR_MIS_PRED,STALL_SLOT_FRONTEND,STALL_SLOT_BACKEND",
			  { { 1000, 1, 1 }, { 2400, 1, 1 }, { 3000, 1, 1 }, { 3000, 1, 1 }, { 20, 1, 1 }, { 1800, 1, 1 },
			    { 1200, 1, 1 } },
			  5000, { 0.48, 0.20, 0.14, 0.18 } },
		};
		char skl[] = "/tmp/libpmu-skl-XXXXXX";
		const char *dev = "sys/bus/event_source/devices/cpu";
		char rel[256];
		/* a Skylake's core PMU: before Ice Lake the kernel shows no slots or topdown-* events */
		const char *files[][2] = { { "type", "4\n" }, { "format/event", "config:0-7\n" },
					   { "format/umask", "config:8-15\n" }, { "format/cmask", "config:24-31\n" },
					   { "events/cpu-cycles", "event=0x3c\n" } };
		if (!mkdtemp(skl))
			return 1;
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(rel, sizeof(rel), "%s/%s", dev, files[i][0]);
			fixture_put(skl, rel, files[i][1]);
		}
		fixture_put(skl, "sys/bus/event_source/devices/software/type", "1\n");
		fixture_put(skl, "sys/devices/system/cpu/online", "0-3\n");
		fixture_put(skl, "proc/sys/kernel/perf_event_paranoid", "2\n");
		for (size_t c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++) {
			struct pmu_set_opts so;
			struct pmu_ctx *ctx = c == 0 ? root_ctx(skl, cpus[c].cpuid, NULL)
						     : fixture_ctx(cpus[c].fixture, cpus[c].cpuid);
			struct pmu_set *s;
			memset(&so, 0, sizeof(so));
			so.size = sizeof(so);
			if (!ctx) {
				CHECK(0, "%s: no context", cpus[c].cpuid);
				continue;
			}
			if (c == 2)
				pmu_ctx_set_param(ctx, "slots", 5);
			s = plan_check(ctx, "TOPDOWN", &so, cpus[c].events, c == 2 ? "0,0,0,0,0,0,0" : "0,0,0,0,0");
			if (s) {
				r = pmu_topdown_from_set(s, cpus[c].v, &t);
				CHECK(r == 0 && t.level == 1 && t.slots == cpus[c].slots && EQ(t.retiring, cpus[c].l1[0]) &&
				      EQ(t.bad_spec, cpus[c].l1[1]) && EQ(t.fe_bound, cpus[c].l1[2]) &&
				      EQ(t.be_bound, cpus[c].l1[3]) && isnan(t.heavy_ops),
				      "%s: from_set %d: %llu slots, %g %g %g %g", cpus[c].cpuid, r, (unsigned long long)t.slots,
				      t.retiring, t.bad_spec, t.fe_bound, t.be_bound);
				pmu_set_close(s);
			}
			/* a set without the formulas' events: refused, naming what the formula needs */
			s = plan_check(ctx, "task-clock", &so, "task-clock", "0");
			if (s) {
				struct pmu_value one = { 1, 1, 1 };
				r = pmu_topdown_from_set(s, &one, &t);
				CHECK(r == -ENOENT && strstr(pmu_strerror(r), "formulas") &&
				      strstr(pmu_strerror(r), "TOPDOWN keyword"), "%s: %s", cpus[c].cpuid, pmu_strerror(r));
				pmu_set_close(s);
			}
			pmu_ctx_free(ctx);
		}
		fixture_remove(skl);
	}
	/* 11. Alder Lake (hybrid): the TOPDOWN keyword counts the P-cores' SLOTS + PERF_METRICS group and,
	 *     apart from it, the events of the E-cores' level-1 formulas (Gracemont: no slots counter;
	 *     perf's adl-metrics.json for cpu_atom: slots 5 x CPU_CLK_UNHALTED.CORE, retiring, frontend
	 *     and backend bound their TOPDOWN_*.ALL events, bad speculation the rest). Each core type's
	 *     values decode to its own tree. Hand values, E-cores: cycles 1000 -> 5000 slots; retiring
	 *     2000/5000 = 0.40; frontend 1000/5000 = 0.20; backend 1500/5000 = 0.30; bad speculation
	 *     5000 - 4500 = 500, /5000 = 0.10. P-cores: slots 10000; 1000, 2000, 3000, 4000 -> 0.1, 0.2,
	 *     0.3, 0.4. Given both core types' values, the tree is one core type's (the P-cores', whose
	 *     events have topdown roles), never a mix. */
	{
		struct pmu_ctx *ctx = fixture_ctx("intel-adl-hybrid", "GenuineIntel-6-97-2");
		struct pmu_set_opts so;
		struct pmu_set *s;
		const struct pmu_named_value atom[] = { { "cpu_atom/CPU_CLK_UNHALTED.CORE/", 1000 },
							{ "cpu_atom/TOPDOWN_RETIRING.ALL/", 2000 },
							{ "cpu_atom/TOPDOWN_FE_BOUND.ALL/", 1000 },
							{ "cpu_atom/TOPDOWN_BE_BOUND.ALL/", 1500 } };
		const struct pmu_named_value both[] = { { "cpu_atom/CPU_CLK_UNHALTED.CORE/", 1000 },
							{ "cpu_atom/TOPDOWN_RETIRING.ALL/", 2000 },
							{ "cpu_atom/TOPDOWN_FE_BOUND.ALL/", 1000 },
							{ "cpu_atom/TOPDOWN_BE_BOUND.ALL/", 1500 },
							{ "cpu_core/slots/", 10000 },
							{ "cpu_core/topdown-retiring/", 1000 },
							{ "cpu_core/topdown-bad-spec/", 2000 },
							{ "cpu_core/topdown-fe-bound/", 3000 },
							{ "cpu_core/topdown-be-bound/", 4000 } };
		memset(&so, 0, sizeof(so));
		so.size = sizeof(so);
		if (!ctx) {
			CHECK(0, "Alder Lake: no context");
		} else {
			s = plan_check(ctx, "TOPDOWN", &so,
				       "cpu_core/slots/,cpu_core/topdown-retiring/,cpu_core/topdown-bad-spec/,"
				       "cpu_core/topdown-fe-bound/,cpu_core/topdown-be-bound/,cpu_core/topdown-heavy-ops/,"
				       "cpu_core/topdown-br-mispredict/,cpu_core/topdown-fetch-lat/,cpu_core/topdown-mem-bound/,"
				       "cpu_atom/CPU_CLK_UNHALTED.CORE/,cpu_atom/TOPDOWN_RETIRING.ALL/,"
				       "cpu_atom/TOPDOWN_FE_BOUND.ALL/,cpu_atom/TOPDOWN_BE_BOUND.ALL/",
				       "0,0,0,0,0,0,0,0,0,1,2,3,4");
			if (s)
				pmu_set_close(s);
			r = pmu_topdown_from_named(ctx, atom, 4, &t);
			CHECK(r == 0 && t.slots == 5000 && EQ(t.retiring, 0.40) && EQ(t.bad_spec, 0.10) && EQ(t.fe_bound, 0.20) &&
			      EQ(t.be_bound, 0.30), "Alder Lake E-cores: %d %s: %llu slots %g %g %g %g", r, r ? pmu_strerror(r) : "",
			      (unsigned long long)t.slots, t.retiring, t.bad_spec, t.fe_bound, t.be_bound);
			r = pmu_topdown_from_named(ctx, both, 9, &t);
			CHECK(r == 0 && t.slots == 10000 && EQ(t.retiring, 0.1) && EQ(t.bad_spec, 0.2) && EQ(t.fe_bound, 0.3) &&
			      EQ(t.be_bound, 0.4), "Alder Lake, both core types: %d: %llu slots %g %g %g %g", r,
			      (unsigned long long)t.slots, t.retiring, t.bad_spec, t.fe_bound, t.be_bound);
			pmu_ctx_free(ctx);
		}
	}
	/* 10. CPUs without topdown: the TOPDOWN keyword and the decoding of saved counts both refuse with
	 *     the one sentence that says why for the family (the decoding used to advise counting the
	 *     TOPDOWN keyword, which these CPUs cannot). Neoverse N1 and Cortex-A76 have cycle-counting
	 *     stall events (STALL_FRONTEND 0x23, STALL_BACKEND 0x24 in their tables), Cortex-A72 none;
	 *     Zen 2 has no dispatch-slot event; the SiFive U74 no slot event. */
	{
		static const struct {
			const char *fixture, *cpuid, *why;
		} none[] = {
			{ "arm64-neoverse-n1", "0x00000000410fd0c0", "this core's stall events count cycles" },
			{ "arm64-neoverse-n1", "0x00000000410fd0b0", "this core's stall events count cycles" },
			{ "arm64-neoverse-n1", "0x00000000410fd080", "neither slot nor stall events" },
			{ "amd-zen3", "AuthenticAMD-23-31-0", "no dispatch-slot event" },
			{ "riscv-jh7110", "0x489-0x8000000000000007-0x0", "not issue slots" },
			/* Rocket Lake (has PERF_METRICS, as Ice Lake) with Intel's table alone (no standard names): what
			 * is not here, never "it has no SLOTS/PERF_METRICS events" (issue 39) */
			{ "vm-nopmu", "GenuineIntel-6-A7-1", "here no core PMU is exposed" },
			{ "vm-nopmu", "GenuineIntel-6-A7-1", "its table (x86/intel/rocketlake) neither implements the standard TOPDOWN events" },
			{ "amd-zen3", "GenuineIntel-6-A7-1", "here the cpu PMU lists no slots event" },
		};
		for (size_t c = 0; c < sizeof(none) / sizeof(none[0]); c++) {
			struct pmu_ctx *ctx = fixture_ctx(none[c].fixture, none[c].cpuid);
			struct pmu_named_value nv[] = { { "CPU_CYCLES", 1000 }, { "cycles", 1000 } };
			struct pmu_set_opts so;
			struct pmu_set *s = NULL;
			if (!ctx) {
				CHECK(0, "%s: no context", none[c].cpuid);
				continue;
			}
			memset(&so, 0, sizeof(so));
			so.size = sizeof(so);
			r = pmu__set_plan(ctx, "TOPDOWN", &so, &s);
			CHECK(r == -ENOENT && strstr(pmu_strerror(r), "not available on this CPU") &&
			      strstr(pmu_strerror(r), none[c].why), "%s: TOPDOWN: %d %s", none[c].cpuid, r, pmu_strerror(r));
			if (r == 0)
				pmu_set_close(s);
			r = pmu_topdown_from_named(ctx, nv, 2, &t);
			CHECK(r == -ENOENT && strstr(pmu_strerror(r), none[c].why) && !strstr(pmu_strerror(r), "TOPDOWN keyword"),
			      "%s: from_named: %d %s", none[c].cpuid, r, pmu_strerror(r));
			pmu_ctx_free(ctx);
		}
	}
	return test_done("test-topdown");
}
