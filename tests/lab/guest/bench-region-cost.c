/* SPDX-License-Identifier: MIT */
/*
 * bench-region-cost: instructions per pmu_region_begin + pmu_region_end pair,
 * against the two reads a region needs, in a lab guest (-icount shift=0:
 * instruction counts are exact).
 *
 * Method (as bench-read-cost). A meter event counts instructions in user AND
 * kernel mode; it is read with read(2) before and after K operations. The
 * same loop with an empty body is measured the same way and subtracted
 * (the meter's own reads and the loop). Each figure is the minimum over REPS
 * repetitions (interrupts only ever add instructions).
 *
 * What is compared, for PMU_EVENTS of 1 and of 4 events (instructions:u, and
 * instructions:u,cycles:u,instructions:u,cycles:u — QEMU's arm64 PMU has
 * little else, and the same list is used on both guests):
 *
 *   libpmu_pair: pmu_region_begin(name); pmu_region_end(name);  — the whole
 *                region path: thread lookup, name lookup, re-entrancy guard,
 *                two reads, the delta/min/max/calibration bookkeeping.
 *                Measured for NNAMES different literal names, one after the
 *                other; the median is reported, with the smallest and the
 *                largest. The name lookup finds a cached slot by the name's
 *                address and confirms it by comparing the content, so the
 *                cost can depend on where the linker put the string (a
 *                pointer sharing a cache window with another probes once more)
 *                and on the name's length.
 *   bare_reads:  two pmu_fast_read() calls on a set opened from the same
 *                event list with the same options (each event on its own,
 *                as regions open them) — the reads a region cannot avoid.
 *   floor_pair:  bench/region-floor.h's enter + leave on that set: the two
 *                calls, the two reads and the accumulation of what a region
 *                reports (sums, enabled/running, min/max, calls), without
 *                the checks that keep regions right across threads, signal
 *                handlers and recursion — what any region pair must add.
 *   floor_named_pair: the same with the region's name compared by content
 *                in each call (bench_floor_begin_named / _end_named, the
 *                library's compare), for the same NNAMES names, the median:
 *                what any pair by name must add.
 *
 * added = libpmu_pair - bare_reads is what the region bookkeeping costs;
 * floor_pair - bare_reads the least it could cost, floor_named_pair -
 * bare_reads the least a pair by name could.
 *
 * PMU_EVENTS is read once per process (at the first pmu_region_begin), so
 * each event count runs in its own child process. Inside it the bare set is
 * measured and closed first and the regions after: both sets at once (plus
 * the meter) would not fit on arm64's 6 event counters with 4 events, and
 * multiplexing would push reads onto read(2).
 *
 * Output: "BENCH region-cost arch=... events=N libpmu_pair=X bare_reads=Y
 * added=Z ratio=R pair_min=A pair_max=B calibrated=C handle_pair=H
 * floor_pair=F floor_added=F-Y handle_added=H-Y floor_named_pair=G
 * floor_named_added=G-Y", parsed by
 * bench/region-cost.sh. calibrated is libpmu's own calibration
 * (instructions:u between the two reads of an empty pair, user mode only).
 *
 * Dead counters: the meter must count a loop of known length, or nothing is
 * printed but the reason; a region event that does not advance over a loop
 * inside a region (on riscv64 QEMU only the first of two instructions
 * events advances, and that is the meter) makes calibrated "dead" rather
 * than a number, since its calibration then measured nothing.
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "labutil.h"
#include "../../../bench/region-floor.h"

#define K 1000
#define REPS 7
#define MAXEV 8
#define NNAMES 8

static const char *const names[NNAMES] = { "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7" };

enum op { OP_EMPTY, OP_BARE, OP_REGION, OP_HANDLE, OP_FLOOR, OP_FLOOR_NAMED };

static struct bench_region_floor floor_region;

static double cost(const struct pmu_fast *f, enum op op, const char *name, struct pmu_region *h)
{
	struct pmu_value v[MAXEV], w[MAXEV];
	uint64_t best = UINT64_MAX;

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t m0 = lab_meter(), m1;
		switch (op) {
		case OP_EMPTY:
			for (int i = 0; i < K; i++)
				__asm__ __volatile__("" ::: "memory");
			break;
		case OP_BARE:
			for (int i = 0; i < K; i++) {
				pmu_fast_read(f, v);
				__asm__ __volatile__("" ::: "memory");
				pmu_fast_read(f, w);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_REGION:
			for (int i = 0; i < K; i++) {
				pmu_region_begin(name);
				__asm__ __volatile__("" ::: "memory");
				pmu_region_end(name);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_HANDLE:
			for (int i = 0; i < K; i++) {
				pmu_region_enter(h);
				__asm__ __volatile__("" ::: "memory");
				pmu_region_leave(h);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_FLOOR:
			for (int i = 0; i < K; i++) {
				bench_floor_enter(&floor_region);
				__asm__ __volatile__("" ::: "memory");
				bench_floor_leave(&floor_region);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_FLOOR_NAMED:
			for (int i = 0; i < K; i++) {
				bench_floor_begin_named(&floor_region, name);
				__asm__ __volatile__("" ::: "memory");
				bench_floor_end_named(&floor_region, name);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		}
		m1 = lab_meter();
		if (m1 - m0 < best)
			best = m1 - m0;
	}
	return (double)best;
}

/* pmu_region_foreach callback: the first event's summed delta of region "live-check" */
static int live_cb(const struct pmu_region_result *r, void *data)
{
	if (r->tid == -1 && !strcmp(r->name, "live-check"))
		*(uint64_t *)data = r->values[0].value;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One event count, in a child process. Returns the exit status. */
static int run(unsigned n)
{
	const char *arch = LAB_ARCH;
	struct pmu_set_opts o;
	struct pmu_ctx *ctx;
	struct pmu_set *s;
	struct pmu_value v[MAXEV];
	char list[256] = "";
	double e, bare, floor_pair, floor_named, pair, pairs[NNAMES], hpair, pmin, pmax;
	struct pmu_region *h[NNAMES];
	uint64_t ov[MAXEV] = { 0 };
	char cal[32];
	int r, nev, dead;

	for (unsigned c = 0; c < n; c++)
		strcat(list, c ? (c % 2 ? ",cycles:u" : ",instructions:u") : "instructions:u");
	setenv("PMU_EVENTS", list, 1);
	setenv("PMU_OUTPUT", "/dev/null", 1);

	/* the meter first (on riscv64 QEMU only the first of two instructions
	 * events advances: the meter must be that one) */
	lab_meter_open();
	{
		char what[64];
		snprintf(what, sizeof(what), "region-cost arch=%s events=%u", arch, n);
		if (!lab_meter_live(what))
			return 1;
	}

	/* 1. bare: a set of the same events, opened as regions open theirs */
	ctx = lab_ctx();
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.flags = PMU_SET_ENABLE | PMU_SET_SKIP_UNSUPPORTED;
	r = pmu_set_open(ctx, list, &o, &s);
	if (r < 0) {
		printf("BENCH region-cost arch=%s events=%u unavailable (%s)\n", arch, n, pmu_strerror(r));
		return 0;
	}
	if (pmu_set_count(s) != n) {
		printf("BENCH region-cost arch=%s events=%u unavailable (only %zu events opened)\n", arch, n,
		       pmu_set_count(s));
		return 0;
	}
	pmu_set_read(s, v);
	for (unsigned c = 0; c < n; c++)
		if (pmu_page_read(pmu_set_fast(s)->pages[c], &v[0]) != 0) {
			printf("BENCH region-cost arch=%s events=%u unavailable (event %u not readable from user space)\n",
			       arch, n, c);
			return 0;
		}
	e = cost(pmu_set_fast(s), OP_EMPTY, NULL, NULL);
	bare = (cost(pmu_set_fast(s), OP_BARE, NULL, NULL) - e) / K;
	memset(&floor_region, 0, sizeof(floor_region));
	floor_region.f = pmu_set_fast(s);
	floor_region.nev = n;
	for (unsigned c = 0; c < n; c++)
		floor_region.min[c] = UINT64_MAX;
	floor_pair = (cost(NULL, OP_FLOOR, NULL, NULL) - e) / K;
	if (floor_region.calls != (uint64_t)REPS * K) {
		printf("FAIL: the floor pair ran %llu times, not %d\n", (unsigned long long)floor_region.calls, REPS * K);
		return 1;
	}
	/* the floor by name: the same names as the regions below, the median */
	printf("# events=%u: floor pair by name per name:", n);
	for (int k = 0; k < NNAMES; k++) {
		snprintf(floor_region.name, sizeof(floor_region.name), "%s", names[k]);
		floor_region.calls = 0;
		pairs[k] = (cost(NULL, OP_FLOOR_NAMED, names[k], NULL) - e) / K;
		printf(" %s %.1f", names[k], pairs[k]);
		if (floor_region.calls != (uint64_t)REPS * K) {
			printf("\nFAIL: the floor pair by name ran %llu times, not %d\n",
			       (unsigned long long)floor_region.calls, REPS * K);
			return 1;
		}
	}
	printf("\n");
	qsort(pairs, NNAMES, sizeof(pairs[0]), cmp_double);
	floor_named = (pairs[NNAMES / 2 - 1] + pairs[NNAMES / 2]) / 2;
	pmu_set_close(s);
	pmu_ctx_free(ctx);

	/* 2. regions: the first begin opens the thread's events and calibrates */
	for (int k = 0; k < NNAMES; k++) {
		/* a name's first use allocates its slot: not measured */
		if ((r = pmu_region_begin(names[k])) < 0 || (r = pmu_region_end(names[k])) < 0) {
			printf("FAIL: pmu_region_begin/end(%s): %s\n", names[k], pmu_strerror(r));
			return 1;
		}
	}
	{
		/* the calibration's counter must be live to mean anything */
		uint64_t live = 0;
		pmu_region_begin("live-check");
		lab_spin(100000);
		pmu_region_end("live-check");
		pmu_region_foreach(0, live_cb, &live);
		dead = live == 0;
	}
	nev = pmu_region_overhead(ov, MAXEV);
	if (nev != (int)n) {
		printf("FAIL: regions opened %d events, expected %u (PMU_EVENTS=%s)\n", nev, n, list);
		return 1;
	}
	e = cost(NULL, OP_EMPTY, NULL, NULL);
	printf("# events=%u: pair per name:", n);
	for (int k = 0; k < NNAMES; k++) {
		pairs[k] = (cost(NULL, OP_REGION, names[k], NULL) - e) / K;
		printf(" %s %.1f", names[k], pairs[k]);
	}
	printf("\n");
	qsort(pairs, NNAMES, sizeof(pairs[0]), cmp_double);
	pair = (pairs[NNAMES / 2 - 1] + pairs[NNAMES / 2]) / 2;
	pmin = pairs[0];
	pmax = pairs[NNAMES - 1];
	/* 3. the same names through handles (no name lookup) */
	for (int k = 0; k < NNAMES; k++)
		if ((r = pmu_region_get(names[k], &h[k])) < 0) {
			printf("FAIL: pmu_region_get(%s): %s\n", names[k], pmu_strerror(r));
			return 1;
		}
	printf("# events=%u: handle pair per name:", n);
	for (int k = 0; k < NNAMES; k++) {
		pairs[k] = (cost(NULL, OP_HANDLE, NULL, h[k]) - e) / K;
		printf(" %s %.1f", names[k], pairs[k]);
	}
	printf("\n");
	qsort(pairs, NNAMES, sizeof(pairs[0]), cmp_double);
	hpair = (pairs[NNAMES / 2 - 1] + pairs[NNAMES / 2]) / 2;
	if (dead)
		snprintf(cal, sizeof(cal), "dead");
	else
		snprintf(cal, sizeof(cal), "%llu", (unsigned long long)ov[0]);
	printf("BENCH region-cost arch=%s events=%u libpmu_pair=%.1f bare_reads=%.1f added=%.1f ratio=%.2f "
	       "pair_min=%.1f pair_max=%.1f calibrated=%s handle_pair=%.1f floor_pair=%.1f floor_added=%.1f "
	       "handle_added=%.1f floor_named_pair=%.1f floor_named_added=%.1f\n",
	       arch, n, pair, bare, pair - bare, pair / bare, pmin, pmax, cal, hpair, floor_pair, floor_pair - bare,
	       hpair - bare, floor_named, floor_named - bare);
	pmu_region_reset();
	close(lab_meter_fd);
	return 0;
}

int main(void)
{
	static const unsigned sizes[] = { 1, 4 };
	int failed = 0;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int rc = lab_in_child(run, sizes[k]);
		if (rc != 0) {
			printf("FAIL: events=%u: child exit %d\n", sizes[k], rc);
			failed = 1;
		}
	}
	return failed;
}
