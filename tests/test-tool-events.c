/* SPDX-License-Identifier: MIT */
/*
 * perf's tool events in a set: duration_time (wall-clock ns while the set
 * is enabled), user_time and system_time (ns of CPU time of the counted
 * process meanwhile), named and in units as perf prints them ("ns",
 * tools/perf/util/parse-events.c add_event_tool, linux-source-6.12).
 *
 * Oracles, taken by the test itself around the set's enable and disable:
 * clock_gettime(CLOCK_MONOTONIC) before and after each call brackets
 * duration_time (it must lie between the inner and the outer interval);
 * getrusage(RUSAGE_SELF) before enable and after disable brackets user +
 * system time from above, and from below by the wall time spent outside the
 * set's window (no more CPU time can pass there in one thread); each of them
 * within TOL_NS more (the kernel splits a process's runtime into user and
 * system time by its tick samples, so the split can move by a few ticks
 * between two calls; their sum cannot);
 * for another process, the getrusage() it reports itself through a pipe,
 * against /proc/PID/stat's clock ticks (within two ticks).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"

#define MS 1000000ull
#define TOL_NS (12 * MS) /* a few ticks of 4 ms (HZ=250) or one of 10 ms (HZ=100) */

static volatile double sink;

static uint64_t now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin_user_ms(int ms)
{
	uint64_t end = now(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)ms * MS;
	double x = 1;

	while (now(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

/* CPU time spent mostly in the kernel: reading /dev/zero into a buffer */
static void spin_system_ms(int ms)
{
	static char buf[1 << 20];
	uint64_t end = now(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)ms * MS;
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && now(CLOCK_THREAD_CPUTIME_ID) < end)
		if (read(fd, buf, sizeof(buf)) < 0)
			break;
	if (fd >= 0)
		close(fd);
}

static void rusage_ns(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull + (uint64_t)ru.ru_utime.tv_usec * 1000ull;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull + (uint64_t)ru.ru_stime.tv_usec * 1000ull;
}

static void refused(struct pmu_ctx *ctx, const char *events, unsigned flags, const char *words)
{
	struct pmu_set_opts o = { sizeof(o), flags, flags & PMU_SET_CPU ? -1 : 0, 0 };
	struct pmu_set *s = NULL;
	int r = pmu_set_open(ctx, events, &o, &s);

	CHECK(r == -EINVAL && strstr(pmu_strerror(r), words), "'%s': %d '%s', expected -EINVAL saying '%s'", events, r,
	      pmu_strerror(r), words);
	pmu_set_close(s);
}

#define U(x) ((unsigned long long)(x))

/* Another process, counted by pid: user_time against what it reports of itself. */
static void other_process(struct pmu_ctx *ctx)
{
	int go[2], done[2], quit[2];
	uint64_t child_ru[2] = { 0, 0 };
	long tck = sysconf(_SC_CLK_TCK);
	uint64_t tick = 1000000000ull / (uint64_t)(tck > 0 ? tck : 100);
	struct pmu_set_opts o = { sizeof(o), PMU_SET_PID | PMU_SET_ENABLE, 0, -1 };
	struct pmu_value a[3], b[3];
	struct pmu_set *s = NULL;
	pid_t pid;
	char c = 0;
	int r, st;

	if (pipe(go) < 0 || pipe(done) < 0 || pipe(quit) < 0)
		return;
	fflush(NULL);
	if ((pid = fork()) == 0) {
		uint64_t ru[2];
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		spin_user_ms(150);
		rusage_ns(&ru[0], &ru[1]);
		if (write(done[1], ru, sizeof(ru)) != sizeof(ru))
			_exit(1);
		(void)!read(quit[0], &c, 1);
		_exit(0);
	}
	o.pid = pid;
	r = pmu_set_open(ctx, "user_time,system_time,duration_time", &o, &s);
	CHECK(r == 0, "open for pid %d: %s", (int)pid, pmu_strerror(r));
	(void)!write(go[1], &c, 1);
	CHECK(read(done[0], child_ru, sizeof(child_ru)) == sizeof(child_ru), "the child's rusage");
	if (r == 0) {
		CHECK(pmu_set_read(s, a) == 0, "read");
		printf("child: user_time %llu ns (its getrusage: %llu), system_time %llu ns (%llu), tick %llu ns\n",
		       U(a[0].value), U(child_ru[0]), U(a[1].value), U(child_ru[1]), U(tick));
		/* /proc/PID/stat counts whole ticks: two ticks of slack, plus what the child ran before the open */
		CHECK(a[0].value + 2 * tick + TOL_NS >= child_ru[0] && a[0].value <= child_ru[0] + 2 * tick,
		      "child user_time %llu vs its getrusage %llu", U(a[0].value), U(child_ru[0]));
		CHECK(a[0].value + a[1].value <= child_ru[0] + child_ru[1] + 2 * tick, "child user+system %llu vs %llu",
		      U(a[0].value + a[1].value), U(child_ru[0] + child_ru[1]));
		CHECK(a[2].value >= 150 * MS, "duration_time %llu ns covers the child's 150 ms", U(a[2].value));
	}
	(void)!write(quit[1], &c, 1);
	waitpid(pid, &st, 0);
	if (r == 0) {
		/* reaped: /proc/PID/stat is gone; the last value read stays */
		CHECK(pmu_set_read(s, b) == 0, "read after the child was reaped: %s", pmu_strerror(-1));
		CHECK(b[0].value >= a[0].value && b[0].value <= a[0].value + tick, "user_time after reaping %llu, was %llu",
		      U(b[0].value), U(a[0].value));
		pmu_set_close(s);
	}
	close(go[0]); close(go[1]); close(done[0]); close(done[1]); close(quit[0]); close(quit[1]);
	o.pid = pid; /* reaped: no such task now (unless the pid was reused at once) */
	r = pmu_set_open(ctx, "user_time", &o, &s);
	CHECK(r == -ESRCH && strstr(pmu_strerror(r), "no task with pid"), "a reaped pid: %d %s", r, pmu_strerror(r));
	if (r == 0)
		pmu_set_close(s);
}

int main(void)
{
	static const char *const names[] = { "duration_time", "user_time", "system_time" };
	struct pmu_ctx *ctx;
	struct pmu_event_info e;
	struct pmu_set *s;
	struct pmu_value v[4], w[4], x[4], y[4];
	uint64_t ta, tb, t0, t1, t2, t3, u0, s0, u1, s1, outside;
	int r;

	if (pmu_ctx_new(&ctx, NULL) < 0)
		return 1;
	for (size_t i = 0; i < 3; i++) {
		r = pmu_event_resolve(ctx, names[i], &e);
		CHECK(r == 0 && e.source == PMU_SRC_TOOL && (e.flags & PMU_EVF_TOOL) && !strcmp(e.unit, "ns") &&
		      !strcmp(e.pmu, "tool") && !strcmp(e.name, names[i]), "%s: %d source %d flags 0x%x unit '%s'",
		      names[i], r, e.source, e.flags, r ? "" : e.unit);
	}
	CHECK(pmu_event_resolve(ctx, "Duration_Time", &e) == 0 && (e.flags & PMU_EVF_TOOL), "names are case-insensitive");
	CHECK(pmu_event_resolve(ctx, "duration_time:u", &e) == -EINVAL &&
	      strstr(pmu_strerror(-EINVAL), "modifiers do not apply"), "duration_time:u: %s", pmu_strerror(-EINVAL));

	refused(ctx, "{duration_time,task-clock}", 0, "cannot be in a {group}");
	refused(ctx, "task-clock,user_time", PMU_SET_CPU | PMU_SET_PID, "cannot be counted per CPU");
	refused(ctx, "system_time", PMU_SET_CPU | PMU_SET_PID, "cannot be counted per CPU");

	r = pmu_set_open(ctx, "duration_time,user_time,system_time,task-clock", NULL, &s);
	if (r == -EACCES || r == -EPERM || r == -ENOSYS)
		SKIP("perf events are not permitted here: %s", pmu_strerror(r));
	CHECK(r == 0, "open: %s", pmu_strerror(r));
	if (r)
		return test_done("test-tool-events");
	CHECK(pmu_set_count(s) == 4 && pmu_set_group_of(s, 0) != pmu_set_group_of(s, 1), "4 values, each tool alone");
	CHECK(pmu_set_event(s, 0, &e) == 0 && !strcmp(e.name, "duration_time") && !strcmp(e.unit, "ns"),
	      "label duration_time in ns");

	/* opened disabled: nothing measured */
	spin_user_ms(5);
	CHECK(pmu_set_read(s, v) == 0 && v[0].value == 0 && v[1].value == 0 && v[2].value == 0 && v[0].enabled == 0,
	      "disabled: 0 (%llu %llu %llu)", U(v[0].value), U(v[1].value), U(v[2].value));

	ta = now(CLOCK_MONOTONIC);
	rusage_ns(&u0, &s0);
	t0 = now(CLOCK_MONOTONIC);
	CHECK(pmu_set_enable(s) == 0, "enable");
	t1 = now(CLOCK_MONOTONIC);
	spin_user_ms(60);
	CHECK(pmu_set_read(s, w) == 0, "read while enabled");
	spin_system_ms(40);
	usleep(30000);
	CHECK(pmu_set_read(s, x) == 0, "read while enabled");
	for (int i = 0; i < 4; i++)
		CHECK(x[i].value >= w[i].value && x[i].enabled >= w[i].enabled, "value %d went down while enabled", i);
	t2 = now(CLOCK_MONOTONIC);
	CHECK(pmu_set_disable(s) == 0, "disable");
	t3 = now(CLOCK_MONOTONIC);
	rusage_ns(&u1, &s1);
	tb = now(CLOCK_MONOTONIC);
	outside = (t1 - ta) + (tb - t2) + 2000; /* wall time around the window, + getrusage's microseconds */
	CHECK(pmu_set_read(s, v) == 0, "read");
	printf("duration_time %llu ns in [%llu, %llu]; user_time %llu, getrusage %llu; system_time %llu, getrusage "
	       "%llu; task-clock %llu\n", U(v[0].value), U(t2 - t1), U(t3 - t0), U(v[1].value), U(u1 - u0),
	       U(v[2].value), U(s1 - s0), U(v[3].value));
	CHECK(v[0].value >= t2 - t1 && v[0].value <= t3 - t0, "duration_time %llu outside [%llu, %llu]", U(v[0].value),
	      U(t2 - t1), U(t3 - t0));
	CHECK(v[0].enabled == v[0].value && v[0].running == v[0].value, "duration_time's times are its value");
	for (int i = 1; i < 3; i++)
		CHECK(v[i].enabled >= t2 - t1 && v[i].enabled <= t3 - t0 && v[i].running == v[i].enabled,
		      "tool %d enabled %llu outside [%llu, %llu]", i, U(v[i].enabled), U(t2 - t1), U(t3 - t0));
	CHECK(v[1].value <= u1 - u0 + TOL_NS && v[1].value + TOL_NS + outside >= u1 - u0,
	      "user_time %llu vs getrusage %llu", U(v[1].value), U(u1 - u0));
	CHECK(v[2].value <= s1 - s0 + TOL_NS && v[2].value + TOL_NS + outside >= s1 - s0,
	      "system_time %llu vs getrusage %llu", U(v[2].value), U(s1 - s0));
	/* the sum is the process's runtime, which does not shift between user and system */
	CHECK(v[1].value + v[2].value <= (u1 - u0) + (s1 - s0) && v[1].value + v[2].value + outside >= (u1 - u0) + (s1 - s0),
	      "user+system %llu vs getrusage %llu (outside the window: at most %llu)", U(v[1].value + v[2].value),
	      U((u1 - u0) + (s1 - s0)), U(outside));
	/* 60 + 40 ms of this thread's CPU time were spun in the window (how they split is the kernel's guess) */
	CHECK(v[1].value + v[2].value >= 95 * MS, "user+system %llu after 100 ms of CPU time", U(v[1].value + v[2].value));
	/* one thread cannot run longer than the wall clock */
	CHECK(v[3].value <= v[0].value + MS, "task-clock %llu > duration_time %llu", U(v[3].value), U(v[0].value));

	/* disabled: every read path gives the same values, the inline one included (it takes the library's
	 * path for a set with tool events: they are never read in the inline part) */
	CHECK(pmu_set_read_syscall(s, w) == 0 && pmu_fast_read_fn(pmu_set_fast(s), x) == 0, "reads");
	pmu_fast_read(pmu_set_fast(s), y);
	CHECK(!memcmp(v, w, sizeof(v)) && !memcmp(v, x, sizeof(v)) && !memcmp(v, y, sizeof(v)),
	      "read, read_syscall, fast_read_fn, fast_read agree when disabled");

	/* reset: zero, and from the next enable on again */
	CHECK(pmu_set_reset(s) == 0 && pmu_set_read(s, v) == 0 && v[0].value == 0 && v[1].value == 0 && v[0].enabled == 0,
	      "reset zeroes the tool events");
	CHECK(pmu_set_enable(s) == 0, "enable again");
	usleep(10000);
	CHECK(pmu_set_read(s, v) == 0 && v[0].value >= 10 * MS, "after reset and enable: %llu", U(v[0].value));
	pmu_set_close(s);

	/* PMU_SET_ENABLE: measured from the open */
	{
		struct pmu_set_opts o = { sizeof(o), PMU_SET_ENABLE, 0, -1 };
		t0 = now(CLOCK_MONOTONIC);
		r = pmu_set_open(ctx, "duration_time", &o, &s);
		CHECK(r == 0, "open enabled: %s", pmu_strerror(r));
		if (r == 0) {
			usleep(10000);
			t1 = now(CLOCK_MONOTONIC);
			CHECK(pmu_set_read(s, v) == 0 && v[0].value >= 10 * MS && v[0].value <= t1 - t0 + MS,
			      "enabled at open: %llu", U(v[0].value));
			pmu_set_close(s);
		}
	}
	other_process(ctx);
	pmu_ctx_free(ctx);
	return test_done("test-tool-events");
}
