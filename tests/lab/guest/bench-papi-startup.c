/* SPDX-License-Identifier: MIT */
/*
 * bench-papi-startup: from nothing to named or opened events, libpmu against
 * PAPI 7.0 (Debian's libpapi-dev:arm64, linked statically), in the lab's PAPI
 * boot (tests/lab/run --papi, QEMU -cpu cortex-a57, the CPU libpfm4 and so
 * PAPI's perf_event component recognise). Instructions, user AND kernel mode:
 * the page faults, file reads and perf_event_open calls of a first use are
 * kernel work, and count.
 *
 * Each measurement is a fresh program: the parent executes this program again
 * (/proc/self/exe --startup VARIANT), which opens the meter (a counter of its
 * own instructions, lab_meter_open), reads it, does VARIANT, reads it again
 * and prints the difference on a pipe to the parent. Nothing of either
 * library has run in that program before: no page of their code or data is
 * mapped yet, as in a short-lived tool. VARIANT "empty" (the two reads of the
 * meter alone) is subtracted from the others. REPS programs per variant,
 * interleaved; the minimum and maximum are printed.
 *
 * Variants:
 *   pmu-names  pmu_ctx_new + pmu_event_resolve of 10 names (4 standard
 *              names, 3 of the CPU's table, 3 of the kernel's): issue 16's
 *              "context + 10 names";
 *   pmu-open   pmu_ctx_new + pmu_set_open of the 7 events below, one group;
 *   pmu-ctx    pmu_ctx_new alone (CPU identity, the sysfs scan, the core
 *              PMU's format/ and events/, access settings);
 *   papi-open  PAPI_library_init + PAPI_create_eventset + PAPI_add_named_event
 *              of the same 7 events (PAPI's perf_event component opens the
 *              event set's group as events are added, so both end with the
 *              same 7 descriptors open);
 *   papi-init  PAPI_library_init alone (where PAPI's cost lies).
 * Nothing is closed inside the span, for either library.
 *
 * The meter must count a loop of known length in the parent (lab_meter_live)
 * and pmu-open's set must count (instructions:u advances over a loop), or no
 * figure is printed. PAPI's perf_event component refuses perf_event_paranoid
 * 3 (Debian's default), even for root: the program sets 2 for its run (both
 * libraries measured under the same setting) and restores it.
 *
 * Output: "BENCH papi-startup arch=arm64 what=VARIANT instructions_min=N
 * instructions_max=N user=N kernel=N faults=N" (user, kernel and the minor
 * page faults are those of the cheapest program), parsed by
 * bench/region-cost.sh; exit 77 with the reason if PAPI cannot count here.
 */
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <papi.h>
#pragma GCC diagnostic pop
#include "labutil.h"

#define REPS 7
#define NNAME 10
#define NOPEN 7

static const char *const names[NNAME] = {
	"INST.RET", "GEN.CYCLES", "INST.MISPRED.RET", "CACHE.L1D.RD.MISS", "INST_RETIRED",
	"BR_MIS_PRED", "L1D_CACHE_REFILL", "task-clock", "cycles", "L1-dcache-load-misses",
};
/* the same 7 events in both libraries, user mode (PAPI's default domain) */
static const char *const pmu_open = "{instructions:u,cycles:u,task-clock:u,page-faults:u,context-switches:u,"
				    "cpu-migrations:u,minor-faults:u}";
static const char *const papi_open[NOPEN] = {
	"PAPI_TOT_INS", "PAPI_TOT_CYC", "perf::TASK-CLOCK", "perf::PAGE-FAULTS", "perf::CONTEXT-SWITCHES",
	"perf::CPU-MIGRATIONS", "perf::MINOR-FAULTS",
};

enum variant { V_EMPTY, V_PMU_NAMES, V_PMU_OPEN, V_PMU_CTX, V_PAPI_OPEN, V_PAPI_INIT, NVARIANT };
static const char *const vname[NVARIANT] = { "empty", "pmu-names", "pmu-open", "pmu-ctx", "papi-open", "papi-init" };

/* The variant's work; 0, or -1 with the reason printed (the parent shows it). */
static int work(enum variant v)
{
	struct pmu_ctx *ctx;
	struct pmu_event_info e;
	struct pmu_set *s;
	int es = PAPI_NULL, r = 0;

	switch (v) {
	case V_EMPTY:
		return 0;
	case V_PMU_NAMES:
		if ((r = pmu_ctx_new(&ctx, NULL)) < 0)
			break;
		for (int i = 0; i < NNAME && r >= 0; i++)
			r = pmu_event_resolve(ctx, names[i], &e);
		break;
	case V_PMU_OPEN:
		if ((r = pmu_ctx_new(&ctx, NULL)) >= 0)
			r = pmu_set_open(ctx, pmu_open, NULL, &s);
		break;
	case V_PMU_CTX:
		r = pmu_ctx_new(&ctx, NULL);
		break;
	case V_PAPI_OPEN:
		if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT ||
		    (r = PAPI_create_eventset(&es)) != PAPI_OK)
			goto papi;
		for (int i = 0; i < NOPEN; i++)
			if ((r = PAPI_add_named_event(es, papi_open[i])) != PAPI_OK)
				goto papi;
		return 0;
	case V_PAPI_INIT:
		if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
			goto papi;
		return 0;
	default:
		return -1;
	}
	if (r < 0)
		printf("%s: %s", vname[v], pmu_strerror(r));
	return r < 0 ? -1 : 0;
papi:
	printf("%s: %s", vname[v], r < 0 ? PAPI_strerror(r) : "PAPI version mismatch");
	return -1;
}

static long minor_faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* The fresh program: on stdout (the parent's pipe), the meter's count of the variant, the same
 * instructions in user mode only (a second counter, opened in the same way with exclude_kernel), and
 * the minor page faults taken (the fault counter read outside the meters' span). */
static int startup(const char *what)
{
	uint64_t m0, m1, u0 = 0, u1 = 0;
	long f0, f1;
	int v = 0, r, ufd;

	while (v < NVARIANT && strcmp(vname[v], what))
		v++;
	if ((ufd = lab_instructions_open(1)) < 0)
		return printf("user-mode meter: %s", strerror(errno)), 1;
	lab_meter_open();
	f0 = minor_faults();
	if (read(ufd, &u0, sizeof(u0)) != sizeof(u0))
		return 1;
	m0 = lab_meter();
	r = work((enum variant)v);
	m1 = lab_meter();
	if (read(ufd, &u1, sizeof(u1)) != sizeof(u1))
		return 1;
	f1 = minor_faults();
	if (r == 0)
		printf("%llu %llu %ld", (unsigned long long)(m1 - m0), (unsigned long long)(u1 - u0), f1 - f0);
	return r == 0 ? 0 : 1;
}

/* One fresh program's figures: instructions (user and kernel mode), user mode only, minor faults. */
struct sample {
	uint64_t all, user;
	long faults;
};

/* Runs this program again for @v; its figures in *@out, or 1 with a FAIL line. */
static int run_fresh(enum variant v, struct sample *out)
{
	char buf[256];
	unsigned long long all, user;
	int p[2], st;
	ssize_t len = 0, k;
	pid_t pid;

	if (pipe(p) < 0)
		return printf("FAIL: pipe: %s\n", strerror(errno)), 1;
	fflush(stdout);
	if ((pid = fork()) == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execl("/proc/self/exe", "bench-papi-startup", "--startup", vname[v], (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while (pid > 0 && len < (ssize_t)sizeof(buf) - 1 && (k = read(p[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += k;
	buf[len] = 0;
	close(p[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
	    sscanf(buf, "%llu %llu %ld", &all, &user, &out->faults) != 3) {
		printf("FAIL: %s in a fresh program: %s (status %d)\n", vname[v], len ? buf : "no output", st);
		return 1;
	}
	out->all = all;
	out->user = user;
	return 0;
}

/* Whether PAPI can count the 7 events here (in a child: PAPI_shutdown does not undo an init). */
static int papi_counts(unsigned unused __attribute__((unused)))
{
	const PAPI_component_info_t *ci;
	int es = PAPI_NULL, r;

	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
		printf("SKIP: PAPI_library_init: %s\n", r < 0 ? PAPI_strerror(r) : "version mismatch");
		return 77;
	}
	if ((ci = PAPI_get_component_info(0)) == NULL || ci->disabled) {
		printf("SKIP: PAPI's perf_event component is disabled: %s\n", ci ? ci->disabled_reason : "no component 0");
		return 77;
	}
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
		return printf("SKIP: PAPI_create_eventset: %s\n", PAPI_strerror(r)), 77;
	for (int i = 0; i < NOPEN; i++)
		if ((r = PAPI_add_named_event(es, papi_open[i])) != PAPI_OK)
			return printf("SKIP: PAPI_add_named_event(%s): %s\n", papi_open[i], PAPI_strerror(r)), 77;
	return 0;
}

/* Whether libpmu's 7 events count here: instructions:u advances over a loop. */
static int pmu_counts(unsigned unused __attribute__((unused)))
{
	struct pmu_ctx *ctx = lab_ctx();
	struct pmu_value a[NOPEN], b[NOPEN];
	struct pmu_set *s;
	int r;

	if ((r = pmu_set_open(ctx, pmu_open, &(struct pmu_set_opts){ sizeof(struct pmu_set_opts), PMU_SET_ENABLE, 0, -1 },
			      &s)) < 0)
		return printf("FAIL: pmu_set_open(%s): %s\n", pmu_open, pmu_strerror(r)), 1;
	pmu_set_read_syscall(s, a);
	lab_spin(100000);
	pmu_set_read_syscall(s, b);
	if (b[0].value - a[0].value < 200000)
		return printf("FAIL: %s: instructions:u counted %llu over a loop of 200000\n", pmu_open,
			      (unsigned long long)(b[0].value - a[0].value)), 1;
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return 0;
}

static int bench(void)
{
	struct sample lo[NVARIANT], n;
	uint64_t hi[NVARIANT];
	int rc;

	lab_meter_open();
	if (!lab_meter_live("papi-startup arch=" LAB_ARCH))
		return 0;
	if ((rc = lab_in_child(papi_counts, 0)) != 0 || (rc = lab_in_child(pmu_counts, 0)) != 0)
		return rc;
	for (int v = 0; v < NVARIANT; v++)
		lo[v].all = UINT64_MAX, hi[v] = 0;
	for (int rep = 0; rep < REPS; rep++)
		for (int v = 0; v < NVARIANT; v++) {
			if (run_fresh((enum variant)v, &n))
				return 1;
			if (n.all < lo[v].all)
				lo[v] = n;
			hi[v] = n.all > hi[v] ? n.all : hi[v];
		}
	/* the cheapest program of each variant, less the cheapest "empty" (the meters' reads) */
	for (int v = 1; v < NVARIANT; v++)
		printf("BENCH papi-startup arch=" LAB_ARCH " what=%s instructions_min=%llu instructions_max=%llu "
		       "user=%llu kernel=%llu faults=%ld\n",
		       vname[v], (unsigned long long)(lo[v].all - lo[V_EMPTY].all),
		       (unsigned long long)(hi[v] - lo[V_EMPTY].all), (unsigned long long)(lo[v].user - lo[V_EMPTY].user),
		       (unsigned long long)(lo[v].all - lo[V_EMPTY].all - (lo[v].user - lo[V_EMPTY].user)),
		       lo[v].faults - lo[V_EMPTY].faults);
	printf("# the meters' reads alone (subtracted): %llu instructions, %llu of them in user mode, %ld faults\n",
	       (unsigned long long)lo[V_EMPTY].all, (unsigned long long)lo[V_EMPTY].user, lo[V_EMPTY].faults);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--startup"))
		return startup(argv[2]);
	return lab_papi_paranoid(bench);
}
