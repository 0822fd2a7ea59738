/* SPDX-License-Identifier: MIT */
/*
 * bench-papi: PAPI 7.0 (Debian's libpapi-dev:arm64, linked statically) and
 * libpmu side by side in the same arm64 guest, instructions per operation.
 * Built only when tests/lab/run --papi provides PAPI; run on QEMU
 * -cpu cortex-a57, the CPU libpfm4 (and so PAPI's perf_event component)
 * recognises.
 *
 * Method (as bench-read-cost). A meter event counts instructions in user AND
 * kernel mode; it is read with read(2) before and after K operations. The
 * same loop with an empty body is measured the same way and subtracted. Each
 * figure is the minimum over REPS repetitions.
 *
 * Compared, for 1 event (PAPI_TOT_INS / instructions:u) and 2 events
 * (+ PAPI_TOT_CYC / cycles:u), all user-mode only (PAPI's default domain):
 *   read:   PAPI_read() of a started EventSet (PAPI's perf_event component
 *           opens an EventSet as one perf_event group, read with one read(2))
 *           vs libpmu's pmu_fast_read() and pmu_set_read_syscall() (read(2))
 *           of the group {instructions:u,cycles:u};
 *   region: a PAPI_hl_region_begin("r") + PAPI_hl_region_end("r") pair
 *           (PAPI_EVENTS) vs a pmu_region_begin(name) + pmu_region_end(name)
 *           pair (PMU_EVENTS; the median over 8 names, see NNAMES).
 * Every measurement runs in its own child process (the high-level APIs read
 * their environment once per process, and nothing of one library is left
 * open, or holding counters, while the other is measured); the results come
 * back through shared memory.
 *
 * PAPI's high-level API writes its report at exit into
 * $PAPI_OUTPUT_DIRECTORY/papi_hl_output (PAPI 7.0's variable; default: the
 * working directory): set to /tmp here.
 *
 * PAPI's perf_event component disables itself when perf_event_paranoid is
 * 3 (Debian's default), even for root, where libpmu (and the kernel) let
 * root count; the program sets it to 2 for its run (both libraries measured
 * under the same setting) and restores it.
 *
 * If PAPI cannot count here (library, perf_event component or preset events
 * unavailable) the program prints why (PAPI_strerror, the component's
 * disabled_reason) and exits 77.
 *
 * Output: "BENCH papi arch=arm64 op=read|region events=N ..." with both
 * numbers and the ratios, parsed by bench/region-cost.sh.
 */
#include <dirent.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <papi.h>
#pragma GCC diagnostic pop
#include "labutil.h"

#define K 1000
#define REPS 7

enum op { OP_EMPTY, OP_PAPI_READ, OP_FAST, OP_SYSCALL, OP_PAPI_REGION, OP_PMU_REGION };

struct arg {
	int eventset;
	const struct pmu_fast *fast;
	struct pmu_set *set;
	const char *name;
};

/* libpmu finds a region by hashing the name's address, so its cost can
 * depend on where the linker put the string (bench-region-cost): the median
 * over these names is reported. */
#define NNAMES 8
static const char *const names[NNAMES] = { "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7" };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int op_err;
static uint64_t last_max; /* largest of the REPS runs of the last cost1() */

/* Instructions per operation: (min over REPS of K ops - the empty loop) / K. */
static double cost1(enum op op, const struct arg *a)
{
	long long pv[4];
	struct pmu_value v[4];
	uint64_t best = UINT64_MAX, worst = 0;

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t m0 = lab_meter(), m1;
		int r = 0;
		switch (op) {
		case OP_EMPTY:
			for (int i = 0; i < K; i++)
				__asm__ __volatile__("" ::: "memory");
			break;
		case OP_PAPI_READ:
			for (int i = 0; i < K; i++) {
				r |= PAPI_read(a->eventset, pv);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_FAST:
			for (int i = 0; i < K; i++) {
				r |= pmu_fast_read(a->fast, v);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_SYSCALL:
			for (int i = 0; i < K; i++) {
				r |= pmu_set_read_syscall(a->set, v);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_PAPI_REGION:
			for (int i = 0; i < K; i++) {
				r |= PAPI_hl_region_begin(a->name);
				__asm__ __volatile__("" ::: "memory");
				r |= PAPI_hl_region_end(a->name);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_PMU_REGION:
			for (int i = 0; i < K; i++) {
				r |= pmu_region_begin(a->name);
				__asm__ __volatile__("" ::: "memory");
				r |= pmu_region_end(a->name);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		}
		m1 = lab_meter();
		if (r)
			op_err = 1;
		if (m1 - m0 < best)
			best = m1 - m0;
		if (m1 - m0 > worst)
			worst = m1 - m0;
	}
	last_max = worst;
	return (double)best;
}

static double cost(enum op op, const struct arg *a)
{
	double e = cost1(OP_EMPTY, a), c = cost1(op, a);
	/* the spread tells whether a cost grows with the calls made so far */
	static const char *const opn[] = { "empty", "PAPI_read", "pmu_fast_read", "pmu_set_read_syscall",
					   "PAPI_hl_region pair", "pmu_region pair" };
	printf("# %s%s%s: min %.1f, max %.1f instructions per operation over %d runs of %d\n", opn[op],
	       a && a->name ? " " : "", a && a->name ? a->name : "", (c - e) / K, ((double)last_max - e) / K, REPS, K);
	return (c - e) / K;
}

/* Results, written by the children. */
struct results {
	double papi_read[3], fast[3], syscall[3], papi_region[3], pmu_region[3];
	double pmu_region_min[3], pmu_region_max[3];
	double agree_papi, agree_pmu;
	int fast_counter_read;
	char cpu[128], papi_ins[128], papi_cyc[128];
};
static struct results *res;

static const char *const papi_names[2] = { "PAPI_TOT_INS", "PAPI_TOT_CYC" };
static const char *const pmu_names[2] = { "instructions:u", "cycles:u" };

static int papi_init(void)
{
	int r = PAPI_library_init(PAPI_VER_CURRENT);
	if (r != PAPI_VER_CURRENT) {
		printf("SKIP: PAPI_library_init: %s\n", r < 0 ? PAPI_strerror(r) : "version mismatch");
		return 77;
	}
	return 0;
}

/* Child: can PAPI count here? Prints why not; fills the information fields. */
static int child_check(unsigned n_unused __attribute__((unused)))
{
	const PAPI_hw_info_t *hw;
	PAPI_event_info_t ei;
	int r, n, pe = -1;

	if ((r = papi_init()) != 0)
		return r;
	n = PAPI_num_components();
	for (int i = 0; i < n; i++) {
		const PAPI_component_info_t *ci = PAPI_get_component_info(i);
		if (!ci)
			continue;
		printf("# PAPI component %d: %s%s%s%s\n", i, ci->name, ci->disabled ? " (disabled: " : "",
		       ci->disabled ? ci->disabled_reason : "", ci->disabled ? ")" : "");
		if (!strcmp(ci->name, "perf_event")) {
			pe = i;
			if (ci->disabled) {
				printf("SKIP: PAPI's perf_event component is disabled: %s (%s)\n", ci->disabled_reason,
				       PAPI_strerror(ci->disabled));
				return 77;
			}
			res->fast_counter_read = ci->fast_counter_read;
		}
	}
	if (pe < 0) {
		printf("SKIP: PAPI has no perf_event component (%d components)\n", n);
		return 77;
	}
	for (int k = 0; k < 2; k++) {
		int code;
		if ((r = PAPI_event_name_to_code((char *)papi_names[k], &code)) != PAPI_OK ||
		    (r = PAPI_query_event(code)) != PAPI_OK) {
			printf("SKIP: PAPI cannot count %s here: %s\n", papi_names[k], PAPI_strerror(r));
			return 77;
		}
		if (PAPI_get_event_info(code, &ei) == PAPI_OK)
			snprintf(k ? res->papi_cyc : res->papi_ins, sizeof(res->papi_ins), "%s", ei.name[0][0] ? ei.name[0] : ei.symbol);
	}
	if ((hw = PAPI_get_hardware_info()) != NULL)
		snprintf(res->cpu, sizeof(res->cpu), "%s %s (cpuid model %d)", hw->vendor_string, hw->model_string,
			 hw->cpuid_model);
	return 0;
}

/* Child: PAPI_read vs libpmu reads of the same n events. */
static int child_read(unsigned n)
{
	struct arg a = { .eventset = PAPI_NULL };
	struct pmu_ctx *ctx;
	long long pv[4];
	struct pmu_value v[4];
	char list[64];
	int r;

	if ((r = papi_init()) != 0)
		return r;
	lab_meter_open();
	if ((r = PAPI_create_eventset(&a.eventset)) != PAPI_OK) {
		printf("FAIL: PAPI_create_eventset: %s\n", PAPI_strerror(r));
		return 1;
	}
	for (unsigned k = 0; k < n; k++)
		if ((r = PAPI_add_named_event(a.eventset, papi_names[k])) != PAPI_OK) {
			printf("SKIP: PAPI_add_named_event(%s): %s\n", papi_names[k], PAPI_strerror(r));
			return 77;
		}
	if ((r = PAPI_start(a.eventset)) != PAPI_OK) {
		printf("SKIP: PAPI_start: %s\n", PAPI_strerror(r));
		return 77;
	}
	if ((r = PAPI_read(a.eventset, pv)) != PAPI_OK || pv[0] <= 0) {
		printf("FAIL: PAPI_read: %s (PAPI_TOT_INS %lld)\n", PAPI_strerror(r), pv[0]);
		return 1;
	}
	res->papi_read[n] = cost(OP_PAPI_READ, &a);
	PAPI_stop(a.eventset, pv);
	PAPI_cleanup_eventset(a.eventset);
	PAPI_destroy_eventset(&a.eventset);
	PAPI_shutdown();

	ctx = lab_ctx();
	snprintf(list, sizeof(list), n == 1 ? "{%s}" : "{%s,%s}", pmu_names[0], pmu_names[1]);
	if ((r = pmu_set_open(ctx, list, NULL, &a.set)) < 0) {
		printf("FAIL: pmu_set_open(%s): %s\n", list, pmu_strerror(r));
		return 1;
	}
	a.fast = pmu_set_fast(a.set);
	pmu_set_enable(a.set);
	pmu_set_read(a.set, v);
	for (unsigned k = 0; k < n; k++)
		if (pmu_page_read(a.fast->pages[k], &v[0]) != 0) {
			printf("FAIL: %s: event %u not readable from user space\n", list, k);
			return 1;
		}
	res->fast[n] = cost(OP_FAST, &a);
	res->syscall[n] = cost(OP_SYSCALL, &a);
	pmu_set_close(a.set);
	pmu_ctx_free(ctx);
	return op_err ? (printf("FAIL: a read failed during the measurement\n"), 1) : 0;
}

/* Child: PAPI_hl_region_begin/end pair with n events. */
static int child_papi_region(unsigned n)
{
	int r;

	setenv("PAPI_EVENTS", n == 1 ? "PAPI_TOT_INS" : "PAPI_TOT_INS,PAPI_TOT_CYC", 1);
	setenv("PAPI_OUTPUT_DIRECTORY", "/tmp", 1);
	lab_meter_open();
	/* the first begin initialises PAPI and starts the events */
	if ((r = PAPI_hl_region_begin("r")) != PAPI_OK || (r = PAPI_hl_region_end("r")) != PAPI_OK) {
		printf("FAIL: PAPI_hl_region_begin/end: %s\n", PAPI_strerror(r));
		return 1;
	}
	res->papi_region[n] = cost(OP_PAPI_REGION, &(struct arg){ .name = "r" });
	if (op_err) {
		printf("FAIL: PAPI_hl_region_begin/end failed during the measurement\n");
		return 1;
	}
	PAPI_hl_stop();
	return 0; /* exit(): PAPI writes its report under /tmp/papi_hl_output* */
}

/* Child: pmu_region_begin/end pair with n events. */
static int child_pmu_region(unsigned n)
{
	char list[64];
	double c[NNAMES];
	int r;

	snprintf(list, sizeof(list), n == 1 ? "%s" : "%s,%s", pmu_names[0], pmu_names[1]);
	setenv("PMU_EVENTS", list, 1);
	setenv("PMU_OUTPUT", "/dev/null", 1);
	lab_meter_open();
	for (int k = 0; k < NNAMES; k++)
		if ((r = pmu_region_begin(names[k])) < 0 || (r = pmu_region_end(names[k])) < 0) {
			printf("FAIL: pmu_region_begin/end: %s\n", pmu_strerror(r));
			return 1;
		}
	for (int k = 0; k < NNAMES; k++)
		c[k] = cost(OP_PMU_REGION, &(struct arg){ .name = names[k] });
	qsort(c, NNAMES, sizeof(c[0]), cmp_double);
	res->pmu_region[n] = (c[NNAMES / 2 - 1] + c[NNAMES / 2]) / 2;
	res->pmu_region_min[n] = c[0];
	res->pmu_region_max[n] = c[NNAMES - 1];
	if (op_err) {
		printf("FAIL: pmu_region_begin/end failed during the measurement\n");
		return 1;
	}
	return 0;
}

/* What PAPI's high-level API wrote at exit under /tmp (PAPI_OUTPUT_DIRECTORY):
 * the file, its size, and whether it names the events asked for. */
static void papi_hl_report(void)
{
	const char *top = "/tmp";
	DIR *d = opendir(top), *d2;
	struct dirent *e, *e2;
	int found = 0;

	while (d && (e = readdir(d)) != NULL) {
		char dir[512];
		if (strncmp(e->d_name, "papi_hl_output", 14) != 0)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", top, e->d_name);
		for (d2 = opendir(dir); d2 && (e2 = readdir(d2)) != NULL;) {
			char path[1024], buf[4096];
			FILE *f;
			size_t len;
			long size;
			if (e2->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e2->d_name);
			if (!(f = fopen(path, "r")))
				continue;
			len = fread(buf, 1, sizeof(buf) - 1, f);
			buf[len] = 0;
			fseek(f, 0, SEEK_END);
			size = ftell(f);
			fclose(f);
			printf("# PAPI high-level report %s: %ld bytes; names PAPI_TOT_INS: %s, PAPI_TOT_CYC: %s\n", path,
			       size, strstr(buf, "PAPI_TOT_INS") ? "yes" : "no", strstr(buf, "PAPI_TOT_CYC") ? "yes" : "no");
			found = 1;
		}
		if (d2)
			closedir(d2);
	}
	if (d)
		closedir(d);
	if (!found)
		printf("# no PAPI high-level report under %s\n", top);
}

/* Child: the same loops counted by PAPI (PAPI_TOT_INS, user mode) and by
 * libpmu (instructions:u): the difference between a loop of N2 and one of N1
 * iterations must be exactly 2 * (N2 - N1) for both (under -icount shift=0),
 * i.e. the two libraries agree with each other and with the truth. */
#define AGREE_N1 100000ull
#define AGREE_N2 1100000ull
static int child_agree(unsigned n_unused __attribute__((unused)))
{
	int es = PAPI_NULL, r;
	long long p0, p1, papi[2];
	struct pmu_ctx *ctx;
	struct pmu_set *s;
	struct pmu_value a, b;
	uint64_t pmu[2];
	const uint64_t n[2] = { AGREE_N1, AGREE_N2 };

	if ((r = papi_init()) != 0)
		return r;
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "PAPI_TOT_INS") != PAPI_OK ||
	    PAPI_start(es) != PAPI_OK) {
		printf("FAIL: PAPI event set for the agreement check\n");
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		PAPI_read(es, &p0);
		lab_spin(n[i]);
		PAPI_read(es, &p1);
		papi[i] = p1 - p0;
	}
	PAPI_stop(es, &p1);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	ctx = lab_ctx();
	if ((r = pmu_set_open(ctx, "instructions:u", &(struct pmu_set_opts){ sizeof(struct pmu_set_opts), PMU_SET_ENABLE, 0, -1 },
			      &s)) < 0) {
		printf("FAIL: libpmu set: %s\n", pmu_strerror(r));
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		pmu_set_read(s, &a);
		lab_spin(n[i]);
		pmu_set_read(s, &b);
		pmu[i] = b.value - a.value;
	}
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	res->agree_papi = (double)(papi[1] - papi[0]);
	res->agree_pmu = (double)(pmu[1] - pmu[0]);
	return 0;
}

static int bench(void);

int main(void)
{
	return lab_papi_paranoid(bench);
}

static int bench(void)
{
	int rc;

	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		printf("FAIL: mmap: %s\n", strerror(errno));
		return 1;
	}
	memset(res, 0, sizeof(*res));
	if ((rc = lab_in_child(child_check, 0)) != 0)
		return rc;
	printf("BENCH papi-info arch=" LAB_ARCH " papi=%d.%d.%d fast_counter_read=%d PAPI_TOT_INS=%s PAPI_TOT_CYC=%s cpu=%s\n",
	       PAPI_VERSION_MAJOR(PAPI_VERSION), PAPI_VERSION_MINOR(PAPI_VERSION), PAPI_VERSION_REVISION(PAPI_VERSION),
	       res->fast_counter_read, res->papi_ins, res->papi_cyc, res->cpu);
	if ((rc = lab_in_child(child_agree, 0)) != 0)
		return rc;
	printf("BENCH papi-agree arch=" LAB_ARCH " loop_delta_instructions papi=%.0f libpmu=%.0f expected=%llu\n",
	       res->agree_papi, res->agree_pmu, 2 * (AGREE_N2 - AGREE_N1));
	if (res->agree_papi != res->agree_pmu || res->agree_pmu != 2.0 * (AGREE_N2 - AGREE_N1)) {
		printf("FAIL: PAPI (%.0f), libpmu (%.0f) and the truth (%llu) disagree\n", res->agree_papi,
		       res->agree_pmu, 2 * (AGREE_N2 - AGREE_N1));
		return 1;
	}
	for (unsigned n = 1; n <= 2; n++) {
		if ((rc = lab_in_child(child_read, n)) != 0)
			return rc;
		printf("BENCH papi arch=" LAB_ARCH " op=read events=%u papi_read=%.1f libpmu_fast=%.1f libpmu_syscall=%.1f "
		       "papi_over_fast=%.1f papi_over_syscall=%.2f\n",
		       n, res->papi_read[n], res->fast[n], res->syscall[n], res->papi_read[n] / res->fast[n],
		       res->papi_read[n] / res->syscall[n]);
	}
	for (unsigned n = 1; n <= 2; n++) {
		if ((rc = lab_in_child(child_papi_region, n)) != 0 || (rc = lab_in_child(child_pmu_region, n)) != 0)
			return rc;
		if (n == 2)
			papi_hl_report();
		printf("BENCH papi arch=" LAB_ARCH " op=region events=%u papi_hl_pair=%.1f libpmu_pair=%.1f papi_over_libpmu=%.1f "
		       "libpmu_pair_min=%.1f libpmu_pair_max=%.1f\n",
		       n, res->papi_region[n], res->pmu_region[n], res->papi_region[n] / res->pmu_region[n],
		       res->pmu_region_min[n], res->pmu_region_max[n]);
	}
	return 0;
}
