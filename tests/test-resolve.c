/* SPDX-License-Identifier: MIT */
/* Name resolution independent of this machine's PMUs: kernel generic events,
 * raw codes, modifiers, case, and the errors users see. */
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

static struct pmu_ctx *ctx;

static void enc(const char *name, uint32_t type, uint64_t config, int source)
{
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, name, &e);

	CHECK(r == 0, "'%s' should resolve: %s", name, pmu_strerror(r));
	if (r)
		return;
	CHECK(e.type == type, "'%s' type %u, expected %u", name, e.type, type);
	CHECK(e.config == config, "'%s' config 0x%llx, expected 0x%llx", name, (unsigned long long)e.config,
	      (unsigned long long)config);
	CHECK(e.source == source, "'%s' source %d, expected %d", name, e.source, source);
	CHECK(e.origin[0] != 0, "'%s' has no origin", name);
	CHECK(!strcmp(e.name, name), "'%s' name kept as written, got '%s'", name, e.name);
}

static void fails(const char *name, int err, const char *words)
{
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, name, &e);
	const char *msg = pmu_strerror(r);

	CHECK(r == err, "'%s' returned %d, expected %d", name, r, err);
	CHECK(strstr(msg, words) != NULL, "'%s': message '%s' lacks '%s'", name, msg, words);
}

static unsigned flags_of(const char *name)
{
	struct pmu_event_info e;
	return pmu_event_resolve(ctx, name, &e) == 0 ? e.flags : 0xdeadu;
}

int main(void)
{
	const unsigned X = PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV;
	struct pmu_event_info e;

	if (pmu_ctx_new(&ctx, NULL) < 0)
		return 1;
	enc("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PMU_SRC_GENERIC);
	enc("CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PMU_SRC_GENERIC);
	enc("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, PMU_SRC_GENERIC);
	enc("branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, PMU_SRC_GENERIC);
	enc("ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, PMU_SRC_GENERIC);
	/* cache events: id | op << 8 | result << 16 (perf_event_open(2)) */
	enc("L1-dcache-load-misses", PERF_TYPE_HW_CACHE, 0x10000, PMU_SRC_GENERIC);
	enc("L1-dcache-loads", PERF_TYPE_HW_CACHE, 0x0, PMU_SRC_GENERIC);
	enc("LLC-store-misses", PERF_TYPE_HW_CACHE, 0x10102, PMU_SRC_GENERIC);
	enc("dTLB-loads", PERF_TYPE_HW_CACHE, 0x3, PMU_SRC_GENERIC);
	enc("iTLB-load-misses", PERF_TYPE_HW_CACHE, 0x10004, PMU_SRC_GENERIC);
	enc("branch-load-misses", PERF_TYPE_HW_CACHE, 0x10005, PMU_SRC_GENERIC);
	enc("node-prefetches", PERF_TYPE_HW_CACHE, 0x206, PMU_SRC_GENERIC);
	enc("task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, PMU_SRC_GENERIC);
	enc("page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, PMU_SRC_GENERIC);
	enc("cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, PMU_SRC_GENERIC);
	enc("r01c2", PERF_TYPE_RAW, 0x1c2, PMU_SRC_RAW);
	enc("rFFFFFFFFFFFFFFFF", PERF_TYPE_RAW, ~0ull, PMU_SRC_RAW);
	/* the software PMU exists on every Linux system; config= needs no format file */
	enc("software/config=3/", 1, 3, PMU_SRC_SYSFS);

	CHECK(pmu_event_resolve(ctx, "task-clock", &e) == 0 && (e.flags & PMU_EVF_SOFTWARE) &&
	      !strcmp(e.unit, "ns") && !strcmp(e.pmu, "software"), "task-clock is a software event in ns");
	CHECK(pmu_event_resolve(ctx, "cycles", &e) == 0 && !(e.flags & PMU_EVF_SOFTWARE), "cycles is hardware");

	/* perf's modifiers: the letters say what is counted */
	CHECK(flags_of("cycles") == 0, "no modifier, nothing excluded");
	CHECK((flags_of("cycles:u") & X) == (PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV), ":u");
	CHECK((flags_of("cycles:k") & X) == (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_HV), ":k");
	CHECK((flags_of("cycles:uk") & X) == PMU_EVF_EXCL_HV, ":uk");
	CHECK((flags_of("software/config=1/u") & X) == (PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV), "sysfs /u");

	/* only names that can be counted here are suggested; a closer one that cannot is named apart */
	{
		struct pmu_caps c;
		pmu_caps(ctx, &c);
		fails("cyclez", -ENOENT, c.hw_pmu ? "did you mean: cycles" : "did you mean 'cycles'? It cannot be counted here");
	}
	fails("instrucions", -ENOENT, "instructions");
	fails("L1-dcache-load-mises", -ENOENT, "L1-dcache-load-misses");
	fails("zzzzzzzzzzzzqqq", -ENOENT, "pmu list");
	fails("cycles:x", -EINVAL, "modifier");
	fails("cycles:zz", -EINVAL, "not a modifier");
	fails("", -EINVAL, "empty");
	fails("cy cles", -EINVAL, "space");
	fails("r", -ENOENT, "unknown event");
	fails("r12345678901234567", -EINVAL, "wider than 64 bits");
	fails("nosuchpmu/event=1/", -ENOENT, "no PMU named 'nosuchpmu'");
	fails("software/", -EINVAL, "closing '/'");
	fails("software//", -EINVAL, "no terms");
	fails("software/config=zz/", -EINVAL, "not a number");
	fails("software/config=0x1ffffffffffffffff/", -EINVAL, "64 bits");
	fails("software/bogus=1/", -EINVAL, "no format term or named event 'bogus'");
	{
		char longname[300];
		memset(longname, 'a', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = 0;
		fails(longname, -EINVAL, "too long");
	}
	CHECK(pmu_event_resolve(NULL, "cycles", &e) == -EINVAL, "NULL context");
	CHECK(pmu_event_resolve(ctx, NULL, &e) == -EINVAL, "NULL name");
	pmu_ctx_free(ctx);

	/* A CPU table's native event under a standard name is that CPU's event, even when a standard
	 * TOPDOWN.SLOTS (here: kernel generic cycles) was loaded first: tests/tables/standard-first
	 * (standard/ only) before tests/tables/check-notes (skylakex-id CPU directory: TOPDOWN.SLOTS,
	 * event 0x00 umask 0x04, Intel layout by hand: 0x0400) */
	{
		const char *src = getenv("PMU_TEST_SRCDIR");
		char path[2048], sys[1024];
		struct pmu_ctx_opts o;
		snprintf(path, sizeof(path), "%s/tests/tables/standard-first:%s/tests/tables/check-notes", src ? src : ".",
			 src ? src : ".");
		snprintf(sys, sizeof(sys), "%s/tests/fixtures/intel-icx/sys", src ? src : ".");
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.cpuid = "GenuineIntel-6-55-4";
		o.sysfs_root = sys;
		o.events_path = path;
		ctx = NULL;
		CHECK(pmu_ctx_new(&ctx, &o) == 0, "context with %s", path);
		if (ctx) {
			enc("TOPDOWN.SLOTS", 4, 0x0400, PMU_SRC_TABLE);
			enc("topdown.slots", 4, 0x0400, PMU_SRC_TABLE);
			CHECK(pmu_event_resolve(ctx, "TOPDOWN.SLOTS", &e) == 0 &&
			      strstr(e.origin, "check-notes/fixture/pipeline.json: TOPDOWN.SLOTS") &&
			      !strstr(e.origin, "standard"), "provenance: the CPU's table, not the standard name: %s", e.origin);

			/* A table event with more terms (perf's metrics write cpu@UOPS_ISSUED.ANY\,cmask\=1@): the
			 * event's encoding (event 0x0e, umask 0x01) with the terms' bits ORed in as perf does on a
			 * core PMU; the fixture's format: event config:0-7, umask 8-15, edge 18, inv 23, cmask 24-31 */
			enc("cpu/UOPS_ISSUED.ANY,cmask=1/", 4, 0x0e | 0x01 << 8 | 1u << 24, PMU_SRC_TABLE);
			enc("cpu/UOPS_ISSUED.ANY,cmask=2,edge,inv/", 4, 0x0e | 0x01 << 8 | 2u << 24 | 1u << 18 | 1u << 23,
			    PMU_SRC_TABLE);
			/* umask=0x10 on the event's umask 0x01: 0x11, not 0x10 (perf's pmu_format_value, zero false) */
			enc("cpu/UOPS_ISSUED.ANY,umask=0x10/", 4, 0x0e | 0x11 << 8, PMU_SRC_TABLE);
			/* perf's EVENT/TERMS/ (a metric's UNC_...@thresh\=1@): the event on its PMU, with the terms */
			enc("UOPS_ISSUED.ANY/cmask=3/", 4, 0x0e | 0x01 << 8 | 3u << 24, PMU_SRC_TABLE);
			/* a PMU's sysfs event (msr type 11, aperf = event=0x01) */
			enc("msr/aperf/", 11, 0x01, PMU_SRC_SYSFS);
			fails("cpu/UOPS_ISSUED.ANY,bogus=1/", -EINVAL, "no format term or named event 'bogus'");
			fails("cstate_core/c6-residency/", -ENOENT, "no PMU named 'cstate_core'");
			{
				/* what a metric using them asks to count, and that each resolves (or says why not) */
				char buf[512];
				int r = pmu_metric_events(ctx, "m_machine_names", buf, sizeof(buf));
				CHECK(r > 0 && strstr(buf, "cpu/UOPS_ISSUED.ANY,cmask=1/") && strstr(buf, "msr/aperf/") &&
				      strstr(buf, "UOPS_ISSUED.ANY/cmask=2/"), "events of m_machine_names: %s", buf);
				r = pmu_metric_events(ctx, "m_absent_pmu", buf, sizeof(buf));
				CHECK(r > 0 && strstr(buf, "cstate_core/c6-residency/"), "events of m_absent_pmu: %s", buf);
			}
			pmu_ctx_free(ctx);
		}
	}
	return test_done("test-resolve");
}
