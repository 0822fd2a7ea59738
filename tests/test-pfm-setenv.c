/* SPDX-License-Identifier: MIT */
/*
 * libpfm4's set-up leaves the environment alone (issue 40 item 10). libpmu has libpfm4 encode PMUs
 * other than this machine's (PMU_CPUID of another CPU), a setting libpfm4 reads with getenv() while it
 * initialises; another thread's setenv() in that window must neither be lost nor pick up anything of
 * libpmu's. Initialisation happens once per process, so each iteration is a forked child, whose main
 * thread resolves the first name only libpfm4 knows, for a CPU that is not this one, while another
 * thread calls setenv(): it replaces one variable 64 times, and in every other child adds 16 new ones
 * too (with main's library, the first kind lost the value, the second left LIBPFM_ENCODE_INACTIVE=1 in
 * the environment: glibc's setenv() copies the array it finds into a new one). Checked in each child:
 * the replaced variable holds the value last set (the setter checks before each write, the main thread
 * at the end), every added variable is there, no LIBPFM_ENCODE_INACTIVE is in `environ` (what a child
 * would inherit), and libpfm4 did encode the other CPU's event (L1D.REPLACEMENT: event 0x51, umask
 * 0x01, in Intel's manual).
 * The window is hit every time, not by luck of scheduling (on a loaded 2-core machine a spinning setter
 * got no CPU during the 1 ms in 3 of 4 tries): this program's getenv(), exported, is the one libpfm4
 * calls too; at libpfm4's first question (a LIBPFM_ variable, inside pfm_initialize()) it holds the main
 * thread until the setter's writes are done, both counting them. The main thread reads no environment
 * while the setter writes: glibc's getenv() can read an array that a concurrent setenv() has just
 * freed (a new variable moves it), a crash of any program that does this, not what is tested here.
 * tests/test-pfm-setenv [ITERATIONS] (300 if not given)
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "pfm-probe.h"

extern char **environ;

#define OLD "PMU_TEST_PFMENV_OLD"     /* set before, replaced by the setter */
#define NEW "PMU_TEST_PFMENV_NEW_"    /* + a number: added by the setter */
#define INACTIVE "LIBPFM_ENCODE_INACTIVE"
#define REPLACE 64                    /* the setter's replacements; every fourth, an addition too (if adding) */

/* what one child saw, written into memory its parent shares */
struct outcome {
	bool done;                  /* the child got to the end */
	bool encoded;               /* libpfm4 encoded the other CPU's event */
	bool inactive_left;         /* LIBPFM_ENCODE_INACTIVE in environ afterwards */
	bool mapped_early;          /* libpfm4 was loaded before the resolving call: the window is elsewhere */
	bool held;                  /* libpfm4's initialisation waited for the setter at its first getenv() */
	unsigned long replaced_in;  /* the setter's replacements while libpfm4's initialisation was held */
	unsigned long added_in;     /* its additions then */
	unsigned long lost_old;     /* times the replaced variable did not hold the value last set */
	unsigned long lost_new;     /* added variables missing at the end */
	char why[160];              /* the resolve error, if any */
};

static atomic_bool held, written, in_time, stop;
static atomic_ulong replaced_in, added_in, lost_old;
static char *(*_Atomic real_getenv)(const char *);
static unsigned long n_new;
static char last[32];
static bool adding; /* this child's setter adds variables too */

/* The process's getenv(), libpfm4's included (exported: the executable's symbols come first): libc's,
 * but libpfm4's first question, in pfm_initialize(), waits for the setter's writes (at most 2 s) */
char *getenv(const char *name)
{
	char *(*fn)(const char *) = atomic_load(&real_getenv);

	if (!fn) {
		fn = (char *(*)(const char *))dlsym(RTLD_NEXT, "getenv");
		atomic_store(&real_getenv, fn);
	}
	if (!strncmp(name, "LIBPFM_", 7) && !atomic_exchange(&held, true)) {
		struct timespec t0, t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			sched_yield();
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while (!atomic_load(&written) &&
			 (t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 2000000000L);
		atomic_store(&in_time, atomic_load(&written));
	}
	return fn(name);
}

/* waits for libpfm4's first question, then writes (held there), then nothing */
static void *setter(void *arg)
{
	char v[32], name[64];

	(void)arg;
	while (!atomic_load(&held))
		if (atomic_load(&stop))
			return NULL;
		else
			sched_yield();
	for (unsigned long k = 1; k <= REPLACE; k++) {
		const char *now = getenv(OLD);
		if (!now || strcmp(now, last))
			atomic_fetch_add(&lost_old, 1);
		snprintf(v, sizeof(v), "v%lu", k);
		setenv(OLD, v, 1);
		strcpy(last, v);
		atomic_fetch_add(&replaced_in, 1);
		if (adding && k % 4 == 0) {
			snprintf(name, sizeof(name), NEW "%lu", n_new++);
			setenv(name, "added", 1);
			atomic_fetch_add(&added_in, 1);
		}
	}
	atomic_store(&written, true);
	return NULL;
}

static bool in_environ(const char *name)
{
	size_t n = strlen(name);

	for (char **e = environ; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return true;
	return false;
}

/* one child: the race once, its outcome into *@o */
static void one(const char *cpuid, const char *name, bool add, struct outcome *o)
{
	struct pmu_ctx_opts opts;
	struct pmu_ctx *ctx = NULL;
	struct pmu_event_info e;
	pthread_t t;
	char var[64];
	int r;

	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.cpuid = cpuid;
	if ((r = pmu_ctx_new(&ctx, &opts)) < 0) {
		snprintf(o->why, sizeof(o->why), "context: %s", pmu_strerror(r));
		return;
	}
	/* the CPU's tables loaded first (a name of its table): libpfm4 is not needed for it */
	pmu_event_resolve(ctx, "L1D.REPLACEMENT", &e);
	o->mapped_early = pfm_mapped();
	strcpy(last, getenv(OLD));
	adding = add;
	if (pthread_create(&t, NULL, setter, NULL)) {
		snprintf(o->why, sizeof(o->why), "pthread_create failed");
		return;
	}
	r = pmu_event_resolve(ctx, name, &e); /* held at libpfm4's first getenv() while the setter writes */
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	o->encoded = r == 0 && e.source == PMU_SRC_LIBPFM && (e.config & 0xffff) == 0x0151;
	if (!o->encoded)
		snprintf(o->why, sizeof(o->why), "%s", r ? pmu_strerror(r) : "not libpfm4's 0x151");
	if (!getenv(OLD) || strcmp(getenv(OLD), last))
		atomic_fetch_add(&lost_old, 1);
	for (unsigned long i = 0; i < n_new; i++) {
		snprintf(var, sizeof(var), NEW "%lu", i);
		o->lost_new += !getenv(var);
	}
	o->inactive_left = in_environ(INACTIVE);
	o->held = atomic_load(&in_time);
	o->replaced_in = atomic_load(&replaced_in);
	o->added_in = atomic_load(&added_in);
	o->lost_old = atomic_load(&lost_old);
	o->done = true;
	pmu_ctx_free(ctx);
}

/* Another CPU than this one, and its L1D.REPLACEMENT as libpfm4 spells it: Skylake-SP, or Ice Lake
 * on a Skylake-SP or Cascade Lake (family 6, model 0x55) */
static void foreign(const char **cpuid, const char **name)
{
	*cpuid = skylake_sp() ? "GenuineIntel-6-7E-5" : "GenuineIntel-6-55-4";
	*name = "L1D:REPLACEMENT"; /* libpfm4's syntax, for the CPU's libpfm4 PMU (icl or skx) */
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300, crashed = 0, n_lost_old = 0, lost_new = 0, left = 0;
	int unencoded = 0, early = 0, hit = 0, last_status = 0, lost_kind[2] = { 0, 0 }, left_kind[2] = { 0, 0 };
	unsigned long sum_replaced = 0, sum_added = 0;
	const char *cpuid, *name, *why = NULL;
	struct outcome *out;

#if !HAVE_LIBPFM
	SKIP("built without libpfm4 (-Dlibpfm=disabled): no libpfm4 to initialise");
#endif
#if !defined(__x86_64__)
	SKIP("the other CPU this test has libpfm4 encode for is an x86 one; this is not an x86-64 build");
#endif
	if (n < 1)
		n = 1;
	foreign(&cpuid, &name);
	unsetenv(INACTIVE);
	setenv(OLD, "v0", 1);
	out = mmap(NULL, (size_t)n * sizeof(*out), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (out == MAP_FAILED)
		SKIP("no shared memory for the children's outcomes");
	memset(out, 0, (size_t)n * sizeof(*out));
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		int status = 0;
		pid_t pid = fork();
		if (pid == 0) {
			one(cpuid, name, i % 2, &out[i]);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, &status, 0);
		if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) || !out[i].done) { /* or valgrind's error code */
			crashed++;
			last_status = status;
			continue;
		}
		n_lost_old += out[i].lost_old != 0;
		lost_new += out[i].lost_new != 0;
		left += out[i].inactive_left;
		lost_kind[i % 2] += out[i].lost_old != 0;
		left_kind[i % 2] += out[i].inactive_left;
		early += out[i].mapped_early;
		if (!out[i].encoded) {
			unencoded++;
			why = out[i].why;
		}
		hit += out[i].held;
		sum_replaced += out[i].replaced_in;
		sum_added += out[i].added_in;
	}
	printf("%d iterations (%s as CPU %s): libpfm4's initialisation held at its first getenv() while another "
	       "thread called setenv() in %d (%lu replacements, %lu additions in all)\n", n, name, cpuid, hit,
	       sum_replaced, sum_added);
	printf("outcomes: replaced value lost in %d, added variable lost in %d, " INACTIVE " left in environ "
	       "in %d, other CPU's event not encoded in %d, child crashed in %d\n", n_lost_old, lost_new, left,
	       unencoded, crashed);
	printf("(replacements only: %d children, value lost in %d, " INACTIVE " left in %d; with additions: %d "
	       "children, value lost in %d, " INACTIVE " left in %d)\n", (n + 1) / 2, lost_kind[0], left_kind[0],
	       n / 2, lost_kind[1], left_kind[1]);
	CHECK(early == 0, "libpfm4 loaded before the resolving call in %d of %d", early, n);
	CHECK(hit == n - crashed, "the race was not run: the setter wrote inside libpfm4's initialisation in %d of "
	      "%d (the others: libpfm4 asked no LIBPFM_ variable, or the setter did not write within 2 s)", hit,
	      n - crashed);
	CHECK(n_lost_old == 0, "a replaced variable's value lost in %d of %d", n_lost_old, n);
	CHECK(lost_new == 0, "an added variable lost in %d of %d", lost_new, n);
	CHECK(left == 0, INACTIVE " left in the environment in %d of %d", left, n);
	CHECK(unencoded == 0, "%s as CPU %s not encoded by libpfm4 in %d of %d (last: %s)", name, cpuid,
	      unencoded, n, why ? why : "");
	CHECK(crashed == 0, "%d of %d children crashed or did not finish (the last: wait status %#x)", crashed, n,
	      last_status);
	return test_done("test-pfm-setenv");
}
