/* SPDX-License-Identifier: MIT */
/*
 * fork() from a threaded process, at random points of every public entry (issue 40 item 1). Each round
 * is a fresh process (nothing of the library used yet): a thread makes one entry's first call — a
 * pmu/term/ name (the sysfs loader's lock), the first region call (the set-up, the tables' caches), a
 * name only libpfm4 knows (its set-up), a new context's tables, a set opened and read, a metric (the
 * shared context's tables), reports while new names are made — while the main thread forks after a
 * random delay spanning that call. The child, under an alarm, then calls every one of those entries
 * itself and checks each answer. A child that waits for a lock its parent's thread held is killed by
 * the alarm and counted as hung; every child must complete.
 *
 * Under ThreadSanitizer the children's data races fail the test (its report ends the child, a wrong
 * answer), but a hang does not: clang 14's ThreadSanitizer does not take its own allocator's lock
 * across fork, and a child can wait for ever in its malloc (seen: 5 of 700 children, in
 * SizeClassAllocator64::GetFromAllocator). There hangs are counted and shown; the plain build is
 * their judge.
 *
 *   test-fork-stress [ROUNDS [SEED]]   (PMU_FORK_ROUNDS also gives ROUNDS)
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmu.h>
#include "fixture.h"
#include "sanitizer.h"

#define TERM_NAME "cpu/event=0x3c,umask=0x0/"     /* the fixture's core PMU, loaded at its first name */
#define TABLE_NAME "INST_RETIRED.ANY"              /* Ice Lake-X's table */
#define PFM_ONLY "skx::L1D:REPLACEMENT"            /* libpfm4's syntax: no table of this library spells it */
#define ICX "GenuineIntel-6-6A-6"

enum op { OP_TERM, OP_REGION, OP_PFM, OP_TABLES, OP_SET, OP_METRIC, OP_REPORT, NOPS };
static const char *const op_names[NOPS] = { "pmu/term/ name", "first region call", "libpfm4 name",
					     "new context's tables", "set open+read", "metric", "report + new names" };

/* ThreadSanitizer: a child forked while the round's thread ran would report that thread, which it never
 * had, as leaked when it exits (a wrong answer here); every other report stays on */
__attribute__((used)) const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "report_thread_leaks=0";
}

#ifdef PMU_TSAN
#define TSAN 1
#else
#define TSAN 0
#endif

static struct pmu_ctx *shared; /* made by the round's main thread, its PMUs and tables not yet loaded */
static bool have_pfm;
static unsigned child_seconds = 5; /* $PMU_FORK_CHILD_SECONDS: more in a sanitizer's build */

static int count_cb(const struct pmu_region_result *r, void *data)
{
	(void)r;
	++*(int *)data;
	return 0;
}

static int resolve_on(struct pmu_ctx *ctx, const char *name)
{
	struct pmu_event_info e;
	return pmu_event_resolve(ctx, name, &e);
}

/* One entry's call; 0 when it answered as it must. */
static int do_op(enum op op, int salt)
{
	struct pmu_ctx *c = NULL;
	struct pmu_set *s = NULL;
	struct pmu_set_opts so;
	struct pmu_value v[2];
	struct pmu_metric_info mi;
	char name[32];
	int r = 0, n = 0;

	switch (op) {
	case OP_TERM:
		return resolve_on(shared, TERM_NAME);
	case OP_REGION:
		if ((r = pmu_region_begin("fork-stress")) == 0)
			r = pmu_region_end("fork-stress");
		return r;
	case OP_PFM:
		if (!have_pfm)
			return 0;
		if (!(c = fixture_ctx("intel-icx", "GenuineIntel-6-55-4")))
			return -1;
		r = resolve_on(c, PFM_ONLY);
		pmu_ctx_free(c);
		return r;
	case OP_TABLES:
		if (!(c = fixture_ctx("intel-icx", ICX)))
			return -1;
		if ((r = resolve_on(c, TABLE_NAME)) == 0)
			r = resolve_on(c, TERM_NAME);
		pmu_ctx_free(c);
		return r;
	case OP_SET:
		memset(&so, 0, sizeof(so));
		so.size = sizeof(so);
		so.flags = PMU_SET_ENABLE;
		if ((r = pmu_set_open(shared, "task-clock,page-faults", &so, &s)) == 0)
			r = pmu_set_count(s) == 2 ? pmu_set_read(s, v) : -1;
		pmu_set_close(s);
		return r;
	case OP_METRIC:
		return pmu_metric_info(shared, "tma_retiring", &mi);
	case OP_REPORT:
		for (int i = 0; i < 20 && r == 0; i++) {
			snprintf(name, sizeof(name), "n%d-%d", salt, i);
			if ((r = pmu_region_begin(name)) == 0)
				r = pmu_region_end(name);
			if (r == 0)
				r = pmu_region_foreach(1, count_cb, &n) < 0 ? -1 : 0;
			if (r == 0 && i % 5 == 0) /* the report written too (its file placed under the lock) */
				r = pmu_region_report("/dev/null", PMU_FORMAT_JSON, 1);
		}
		return r;
	default:
		return -1;
	}
}

static void *thread_main(void *p)
{
	enum op op = (enum op)(intptr_t)p;
	do_op(op, 1); /* its answer is the parent's; the child checks its own */
	return NULL;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The child: every entry, each checked; 0, or 10 + the first entry that answered wrong. */
static int child_main(void)
{
	alarm(child_seconds); /* a lock never given back: killed, counted as hung */
	for (int op = 0; op < NOPS; op++) {
		int r = do_op((enum op)op, 2);
		if (r < 0) {
			fprintf(stderr, "child: %s: %d (%s)\n", op_names[op], r, pmu_strerror(r));
			return 10 + op;
		}
	}
	return 0;
}

/* How long @op's first call takes in a fresh process, from the thread's creation (ns), written to
 * @fd. */
static int time_op(enum op op, int fd)
{
	pthread_t th;
	uint64_t t0;

	if (!(shared = fixture_ctx("intel-icx", ICX)))
		return 3;
	t0 = now_ns();
	if (pthread_create(&th, NULL, thread_main, (void *)(intptr_t)op))
		return 3;
	pthread_join(th, NULL);
	t0 = now_ns() - t0;
	return write(fd, &t0, sizeof(t0)) == sizeof(t0) ? 0 : 3;
}

/* One round (a fresh process), the fork @delay ns after the thread's creation: 0 the child completed,
 * 1 hung, 2 answered wrong, 3 another failure. */
static int round_main(enum op op, uint64_t delay)
{
	pthread_t th;
	uint64_t t0;
	pid_t pid;
	int st;

	alarm(60);
	if (!(shared = fixture_ctx("intel-icx", ICX)))
		return 3;
	t0 = now_ns();
	if (pthread_create(&th, NULL, thread_main, (void *)(intptr_t)op))
		return 3;
	while (now_ns() - t0 < delay)
		; /* spin: a sleep's granularity would miss the short windows */
	pid = fork();
	if (pid == 0)
		_exit(child_main());
	if (pid < 0)
		return 3;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	pthread_join(th, NULL);
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		return 1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) >= 10)
		return 2;
	return 3;
}

int main(int argc, char **argv)
{
	const char *env = getenv("PMU_FORK_ROUNDS");
	int rounds = argc > 1 ? atoi(argv[1]) : env ? atoi(env) : 3500;
	unsigned seed = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 40;
	int outcome[NOPS][4] = { { 0 } }, bad = 0, hung = 0;
	const char *cs = getenv("PMU_FORK_CHILD_SECONDS");
	uint64_t span[NOPS];

	if (cs && atoi(cs) > 0)
		child_seconds = (unsigned)atoi(cs);
	/* the regions count software events (no hardware PMU needed) and write no report (children _exit) */
	setenv("PMU_EVENTS", "task-clock,page-faults", 1);
	{
		pid_t pid = fork(); /* is libpfm4 there? asked in a child: this process stays fresh */
		int st;
		if (pid == 0) {
			struct pmu_ctx *c = fixture_ctx("intel-icx", "GenuineIntel-6-55-4");
			_exit(c && resolve_on(c, PFM_ONLY) == 0 ? 0 : 1);
		}
		waitpid(pid, &st, 0);
		have_pfm = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	/* each entry's first call timed (the longest of 3 fresh processes): the forks fall anywhere in it */
	for (int op = 0; op < NOPS; op++) {
		span[op] = 0;
		for (int k = 0; k < 3; k++) {
			int fds[2], st;
			uint64_t t = 0;
			pid_t pid;
			if (pipe(fds) < 0)
				return 1;
			fflush(stdout);
			if ((pid = fork()) == 0)
				_exit(time_op((enum op)op, fds[1]));
			close(fds[1]);
			if (read(fds[0], &t, sizeof(t)) != sizeof(t))
				t = 0;
			close(fds[0]);
			waitpid(pid, &st, 0);
			if (t > span[op])
				span[op] = t;
		}
		if (!span[op]) {
			fprintf(stderr, "test-fork-stress: %s could not be timed (set-up failure)\n", op_names[op]);
			return 1;
		}
	}
	for (int i = 0; i < rounds; i++) {
		enum op op = (enum op)(i % NOPS);
		unsigned rs = seed * 2654435761u + (unsigned)i;
		uint64_t delay = (uint64_t)((double)rand_r(&rs) / RAND_MAX * 1.2 * (double)span[op]);
		pid_t pid;
		int st, res;

		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(round_main(op, delay));
		waitpid(pid, &st, 0);
		res = WIFEXITED(st) && WEXITSTATUS(st) <= 3 ? WEXITSTATUS(st) : 3;
		outcome[op][res]++;
		if (res == 1 && TSAN) {
			hung++;
			continue;
		}
		if (res && bad++ < 5)
			fprintf(stderr, "round %d (thread: %s, fork after %.3f ms): %s\n", i, op_names[op], delay / 1e6,
				res == 1 ? "the child hung (a lock held by the parent's thread)" :
				res == 2 ? "the child got a wrong answer" : "round failed");
	}
	printf("test-fork-stress: %d rounds (seed %u), fork at a random point of each entry in another thread%s:\n",
	       rounds, seed, have_pfm ? "" : " (libpfm4 absent: its entry not exercised)");
	for (int op = 0; op < NOPS; op++)
		printf("  %-22s %4d completed, %d hung, %d wrong, %d failed (fork within %.2f ms of the thread's start)\n",
		       op_names[op], outcome[op][0], outcome[op][1], outcome[op][2], outcome[op][3], 1.2 * span[op] / 1e6);
	if (TSAN)
		printf("test-fork-stress: %d children hung, not counted in a ThreadSanitizer build (its allocator "
		       "across fork; see the top of the file)\n", hung);
	printf("test-fork-stress: %d of %d children did not complete\n", bad, rounds);
	return bad ? 1 : 0;
}
