/* SPDX-License-Identifier: MIT */
/* Shared by the libpmu lab tests: result reporting, perf_user_access, and
 * loops whose user-mode instruction count is known exactly. */
#ifndef LABUTIL_H
#define LABUTIL_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>

/* The guest's architecture, as the benchmarks' BENCH lines name it. */
#if defined(__aarch64__)
#define LAB_ARCH "arm64"
#elif defined(__riscv)
#define LAB_ARCH "riscv64"
#else
#define LAB_ARCH "other"
#endif

static int lab_failures;

#define LAB_CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("FAIL: %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		lab_failures++; \
	} \
} while (0)

#define LAB_SKIP(...) do { printf("SKIP: "); printf(__VA_ARGS__); printf("\n"); exit(77); } while (0)

static inline int lab_done(const char *name)
{
	printf("%s: %s\n", name, lab_failures ? "failed" : "passed");
	fflush(stdout);
	return lab_failures ? 1 : 0;
}

/* The benchmarks' meter: instructions in user AND kernel mode (a system
 * call's kernel work included), read with read(2). */
__attribute__((unused)) static int lab_meter_fd = -1;

/* A counter of this process's instructions, read with read(2): in user and kernel mode, or in user mode
 * only (@user_only). Its descriptor, or -1 with errno. */
__attribute__((unused)) static int lab_instructions_open(int user_only)
{
	struct perf_event_attr at;

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = PERF_TYPE_HARDWARE;
	at.config = PERF_COUNT_HW_INSTRUCTIONS;
	at.exclude_kernel = user_only != 0;
	at.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, 0);
}

__attribute__((unused)) static void lab_meter_open(void)
{
	lab_meter_fd = lab_instructions_open(0);
	if (lab_meter_fd < 0) {
		printf("FAIL: meter: %s\n", strerror(errno));
		exit(1);
	}
}

__attribute__((unused)) static uint64_t lab_meter(void)
{
	uint64_t v = 0;
	if (read(lab_meter_fd, &v, sizeof(v)) != sizeof(v))
		exit(1);
	return v;
}

/* Run @fn(@n) in a forked child (for state read once per process, such as
 * PMU_EVENTS). The child ends with exit(), so at-exit reports (PAPI's
 * high-level one) are written. Returns its exit status; 1, with a FAIL
 * line, if it could not run or was killed. */
__attribute__((unused)) static int lab_in_child(int (*fn)(unsigned), unsigned n)
{
	int st = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("FAIL: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		int rc = fn(n);
		fflush(stdout);
		exit(rc);
	}
	if (waitpid(pid, &st, 0) != pid) {
		printf("FAIL: waitpid: %s\n", strerror(errno));
		return 1;
	}
	if (WIFSIGNALED(st)) {
		printf("FAIL: child (argument %u) killed by signal %d\n", n, WTERMSIG(st));
		return 1;
	}
	return WEXITSTATUS(st);
}

/* perf_event_paranoid (-100 where it cannot be read) */
__attribute__((unused)) static int lab_paranoid_get(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -100;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

__attribute__((unused)) static void lab_paranoid_set(int v)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "w");
	if (f) {
		fprintf(f, "%d\n", v);
		fclose(f);
	}
}

/* Runs @fn with perf_event_paranoid at most 2 and restores it: PAPI's perf_event component disables
 * itself at 3 (Debian's default), even for root, where libpmu and the kernel let root count; both
 * libraries are then measured under the same setting. */
__attribute__((unused)) static int lab_papi_paranoid(int (*fn)(void))
{
	int old = lab_paranoid_get(), rc;

	if (old > 2) {
		lab_paranoid_set(2);
		printf("# perf_event_paranoid %d -> %d for this run (PAPI refuses 3)\n", old, lab_paranoid_get());
	}
	rc = fn();
	if (old > 2)
		lab_paranoid_set(old);
	return rc;
}

static inline int lab_user_access(int v)
{
	FILE *f = fopen("/proc/sys/kernel/perf_user_access", "w");
	if (!f)
		return -1;
	fprintf(f, "%d\n", v);
	return fclose(f);
}

static inline struct pmu_ctx *lab_ctx(void)
{
	struct pmu_ctx *ctx;
	int r = pmu_ctx_new(&ctx, NULL);
	if (r < 0) {
		printf("FAIL: pmu_ctx_new: %s\n", pmu_strerror(r));
		exit(1);
	}
	return ctx;
}

/*
 * lab_loop_N(): a leaf function executing exactly 2*N + 1 user instructions
 * more than lab_loop_empty() (one immediate load, then N iterations of
 * decrement + branch). Both end in a single return. N is an immediate below
 * 2048 so the load is one instruction on both architectures.
 */
#if defined(__aarch64__)
#define LAB_LOOP(N) \
	__attribute__((noinline)) static void lab_loop_##N(void) \
	{ __asm__ __volatile__("mov x9, #" #N "\n1: subs x9, x9, #1\n b.ne 1b" ::: "x9", "cc"); }
#elif defined(__riscv)
#define LAB_LOOP(N) \
	__attribute__((noinline)) static void lab_loop_##N(void) \
	{ __asm__ __volatile__("li t0, " #N "\n1: addi t0, t0, -1\n bnez t0, 1b" ::: "t0"); }
#else
#define LAB_LOOP(N) \
	__attribute__((noinline)) static void lab_loop_##N(void) \
	{ __asm__ __volatile__("mov $" #N ", %%ecx\n1: dec %%ecx\n jnz 1b" ::: "ecx", "cc"); }
#endif

__attribute__((noinline, unused)) static void lab_loop_empty(void)
{
	__asm__ __volatile__("" ::: "memory");
}

/* a longer loop: N iterations of (decrement, branch), N in a register */
__attribute__((noinline, unused)) static void lab_spin(uint64_t n)
{
#if defined(__aarch64__)
	__asm__ __volatile__("1: subs %0, %0, #1\n b.ne 1b" : "+r"(n) :: "cc");
#elif defined(__riscv)
	__asm__ __volatile__("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
#else
	__asm__ __volatile__("1: dec %0\n jnz 1b" : "+r"(n) :: "cc");
#endif
}
/*
 * QEMU 7.2's riscv PMU advances only one counter per event type (seen: the
 * second of two enabled instructions counters stays 0, and read(2) through
 * the SBI firmware then disagrees with the counter CSR): with such a PMU,
 * duplicate events cannot show multiplexing. Checks, doesn't assume: skips
 * (77) the calling test with the measured counts when so.
 */
__attribute__((unused)) static void lab_skip_unless_duplicates_count(struct pmu_ctx *ctx)
{
	struct pmu_set *two;
	struct pmu_value t0[2], t1[2];
	struct pmu_set_opts o;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.flags = PMU_SET_ENABLE;
	if (pmu_set_open(ctx, "instructions:u,instructions:u", &o, &two) != 0)
		return;
	pmu_set_read(two, t0);
	lab_spin(100000);
	pmu_set_read(two, t1);
	pmu_set_close(two);
	if (t1[0].value == t0[0].value || t1[1].value == t0[1].value)
		LAB_SKIP("this PMU advances only one of two identical events at a time (%llu and %llu over a "
			 "200000-instruction loop): duplicate events cannot demonstrate multiplexing here",
			 (unsigned long long)(t1[0].value - t0[0].value),
			 (unsigned long long)(t1[1].value - t0[1].value));
}

/*
 * Does this guest's PMU count kernel work in a user-only event? QEMU 7.2's
 * riscv PMU (Debian 12) ignores the mode filter: instructions:u counts the
 * kernel's and the SBI firmware's instructions too (measured: 280 per
 * getppid() call), so an interrupt or a context switch inside a measured
 * window adds thousands of instructions to it (4,568 for a timer tick,
 * 9,000 to 15,500 for a switch between threads). Checks, doesn't assume:
 * instructions:u around 64 and around 128 getppid() calls; the difference,
 * per call, is the user loop's few instructions where kernel mode is
 * filtered and hundreds more where it is not. Prints what it measured.
 * Returns 1 if kernel work is counted, 0 if not; exits (FAIL) if the probe
 * cannot run.
 */
__attribute__((unused)) static int lab_pmu_counts_kernel(struct pmu_ctx *ctx)
{
	struct pmu_set *s;
	struct pmu_value v[3];
	uint64_t per_call;
	int r = pmu_set_open(ctx, "instructions:u", NULL, &s);

	if (r < 0) {
		printf("FAIL: kernel-mode probe: open instructions:u: %s\n", pmu_strerror(r));
		exit(1);
	}
	pmu_set_enable(s);
	pmu_set_read(s, &v[0]);
	for (int i = 0; i < 64; i++)
		syscall(SYS_getppid);
	pmu_set_read(s, &v[1]);
	for (int i = 0; i < 128; i++)
		syscall(SYS_getppid);
	pmu_set_read(s, &v[2]);
	pmu_set_close(s);
	/* (128 calls + read) - (64 calls + read) = 64 calls */
	per_call = ((v[2].value - v[1].value) - (v[1].value - v[0].value)) / 64;
	printf("instructions:u per getppid() call: %llu (%s)\n", (unsigned long long)per_call,
	       per_call >= 100 ? "this PMU counts kernel work in user-only events" : "kernel mode filtered");
	return per_call >= 100;
}

/*
 * The number of times to measure a window whose minimum is taken: 1 where
 * the PMU filters kernel mode (every window must be exact), 3 where it counts
 * kernel work (an interrupt can only add instructions, and one landing in
 * three windows of a few thousand instructions each is far rarer than a tick
 * every 4 ms).
 */
__attribute__((unused)) static unsigned lab_tries(struct pmu_ctx *ctx)
{
	return lab_pmu_counts_kernel(ctx) ? 3 : 1;
}

/*
 * Event 0 of @s over body(): the minimum of @tries measurements by
 * pmu_set_read() (lab_tries()). Adds 1 to *@inflated (if not NULL) when the
 * first measurement was above the minimum.
 */
__attribute__((unused)) static uint64_t lab_window(struct pmu_set *s, void (*body)(void), unsigned tries,
						   unsigned long *inflated)
{
	uint64_t best = UINT64_MAX, first = 0;

	for (unsigned i = 0; i < tries; i++) {
		struct pmu_value a, b;
		pmu_set_read(s, &a);
		body();
		pmu_set_read(s, &b);
		if (i == 0)
			first = b.value - a.value;
		if (b.value - a.value < best)
			best = b.value - a.value;
	}
	if (inflated)
		*inflated += best != first;
	return best;
}

/*
 * A benchmark prints no figure from a dead counter. lab_meter_live(): the
 * meter must count at least the 2N user instructions of lab_spin(N); if not
 * (QEMU's riscv PMU advances only one counter per event type, so a meter
 * opened after another instructions event reads nothing), it prints why and
 * returns 0.
 */
__attribute__((unused)) static int lab_meter_live(const char *what)
{
	const uint64_t n = 100000;
	uint64_t m0 = lab_meter(), m1;
	lab_spin(n);
	m1 = lab_meter();
	if (m1 - m0 < 2 * n) {
		printf("BENCH %s unavailable (the meter counter is dead: %llu instructions over a loop of at least "
		       "%llu)\n", what, (unsigned long long)(m1 - m0), (unsigned long long)(2 * n));
		return 0;
	}
	return 1;
}

/* How many of a set's values advance (read(2)) over lab_spin(N): the live counters. */
__attribute__((unused)) static unsigned lab_set_live(struct pmu_set *s)
{
	struct pmu_value a[16], b[16];
	size_t n = pmu_set_count(s);
	unsigned live = 0;

	if (n > 16 || pmu_set_read_syscall(s, a) < 0)
		return 0;
	lab_spin(100000);
	if (pmu_set_read_syscall(s, b) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		live += b[i].value != a[i].value;
	return live;
}

#endif
