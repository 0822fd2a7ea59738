/* SPDX-License-Identifier: MIT */
/* Software events counted for real: counts rise with the work done, times
 * are exact (never multiplexed), group reads are consistent, every read
 * entry point agrees, control ioctls work, and a forked child is refused. */
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"

static volatile double sink;

static void spin_ms(int ms)
{
	struct timespec a, b;
	double x = 1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000001 + 1e-9;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000.0 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
	sink = x;
}

static void touch_pages(size_t n)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	for (size_t i = 0; i < n; i++)
		p[i * ps] = 1;
	munmap(p, n * ps);
}

int main(void)
{
	struct pmu_ctx *ctx;
	struct pmu_set *set;
	struct pmu_value a[4], b[4], c[4], d[4];
	int r;

	if ((r = pmu_ctx_new(&ctx, NULL)) < 0)
		return 1;
	/* task-clock alone, and a group of page-faults + minor-faults + cpu-clock */
	r = pmu_set_open(ctx, "task-clock,{page-faults,minor-faults,cpu-clock}", NULL, &set);
	if (r == -EACCES || r == -EPERM || r == -ENOSYS)
		SKIP("perf events are not permitted here: %s", pmu_strerror(r));
	CHECK(r == 0, "open: %s", pmu_strerror(r));
	if (r)
		return test_done("test-sw-events");
	CHECK(pmu_set_count(set) == 4, "4 values");
	CHECK(pmu_set_group_of(set, 0) == 0 && pmu_set_group_of(set, 1) == 1 && pmu_set_group_of(set, 3) == 1,
	      "groups: task-clock alone, the braces together");
	CHECK(pmu_set_group_of(set, 4) == -EINVAL, "group_of out of range");

	/* opened disabled: nothing counts */
	CHECK(pmu_set_read(set, a) == 0, "read");
	spin_ms(5);
	CHECK(pmu_set_read(set, b) == 0, "read");
	CHECK(b[0].value == a[0].value && b[0].enabled == 0, "disabled set does not count (%llu)",
	      (unsigned long long)b[0].value);

	CHECK(pmu_set_enable(set) == 0, "enable");
	CHECK(pmu_set_read(set, a) == 0, "read");
	spin_ms(30);
	touch_pages(200);
	CHECK(pmu_set_read(set, b) == 0, "read");
	pmu_delta(a, b, 4, d);
	/* 30 ms of CPU time spun: task-clock (ns) must show at least that */
	CHECK(d[0].value >= 29 * 1000 * 1000, "task-clock rose by %llu ns, expected >= 29 ms",
	      (unsigned long long)d[0].value);
	CHECK(d[1].value >= 200, "page-faults rose by %llu, expected >= 200", (unsigned long long)d[1].value);
	CHECK(d[2].value >= 200, "minor-faults rose by %llu", (unsigned long long)d[2].value);
	/* software events are never multiplexed: running == enabled, scale exact */
	for (int i = 0; i < 4; i++) {
		CHECK(b[i].enabled == b[i].running && b[i].enabled > 0, "value %d enabled %llu running %llu", i,
		      (unsigned long long)b[i].enabled, (unsigned long long)b[i].running);
		CHECK(pmu_scale(&b[i]) == b[i].value && pmu_confidence(&b[i]) == 1.0, "value %d exact", i);
	}
	/* one read(2) per group: members share the group's times */
	CHECK(b[1].enabled == b[2].enabled && b[2].enabled == b[3].enabled, "group members share times");
	/* page-faults counts minor and major faults: same group, same instant */
	CHECK(b[1].value >= b[2].value, "page-faults %llu >= minor-faults %llu", (unsigned long long)b[1].value,
	      (unsigned long long)b[2].value);

	/* every entry point gives the same values when nothing runs between them */
	CHECK(pmu_set_disable(set) == 0, "disable");
	CHECK(pmu_set_read(set, a) == 0 && pmu_set_read_syscall(set, b) == 0 &&
	      pmu_fast_read_fn(pmu_set_fast(set), c) == 0, "three reads");
	CHECK(!memcmp(a, b, sizeof(a)) && !memcmp(b, c, sizeof(b)), "read, read_syscall, fast_read_fn agree");
	pmu_fast_read(pmu_set_fast(set), d);
	CHECK(!memcmp(a, d, sizeof(a)), "inline pmu_fast_read agrees");
	spin_ms(5);
	CHECK(pmu_set_read(set, b) == 0 && b[0].value == a[0].value, "disabled: no counting");

	CHECK(pmu_set_reset(set) == 0 && pmu_set_read(set, a) == 0, "reset");
	CHECK(a[0].value == 0 && a[1].value == 0 && a[3].value == 0, "reset zeroes counts");

	/* a forked child must not read the parent's set */
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		struct pmu_value x[4];
		int e1 = pmu_set_read(set, x), e2 = pmu_set_read_syscall(set, x), e3 = pmu_set_enable(set);
		const char *m = pmu_strerror(e3);
		_exit(e1 == -ECHILD && e2 == -ECHILD && e3 == -ECHILD && strstr(m, "fork") ? 0 : 1);
	}
	{
		int st = 0;
		waitpid(pid, &st, 0);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child gets -ECHILD with a message about fork");
	}
	CHECK(pmu_set_read(set, a) == 0, "parent still reads after the fork");

	{
		struct pmu_event_info e;
		CHECK(pmu_set_event(set, 3, &e) == 0 && !strcmp(e.name, "cpu-clock"), "event 3 is cpu-clock");
		CHECK(pmu_set_event(set, 4, &e) == -EINVAL, "event out of range");
	}
	pmu_set_close(set);

	/* errors leave nothing open */
	CHECK(pmu_set_open(ctx, "task-clock,nosuch", NULL, &set) == -ENOENT, "unknown event in list");
	CHECK(pmu_set_open(ctx, "{task-clock", NULL, &set) == -EINVAL, "syntax error");
	{
		struct pmu_set_opts o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.flags = PMU_SET_PID;
		o.pid = 0x3fffffff;
		r = pmu_set_open(ctx, "task-clock", &o, &set);
		CHECK(r == -ESRCH && strstr(pmu_strerror(r), "no task with pid"), "bad pid: %d %s", r,
		      pmu_strerror(r));
		o.size = 3;
		CHECK(pmu_set_open(ctx, "task-clock", &o, &set) == -EINVAL, "bad opts size");
	}
	/* skip-unsupported keeps going where an event is refused */
	{
		struct pmu_caps caps;
		struct pmu_set_opts o;
		pmu_caps(ctx, &caps);
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.flags = PMU_SET_SKIP_UNSUPPORTED | PMU_SET_ENABLE;
		if (!caps.hw_pmu) {
			struct pmu_event_info e;
			r = pmu_set_open(ctx, "cycles", NULL, &set);
			CHECK(r == -ENOENT && strstr(pmu_strerror(r), "no hardware PMU"), "cycles without PMU: %s",
			      pmu_strerror(r));
			r = pmu_set_open(ctx, "cycles,task-clock", &o, &set);
			CHECK(r == 0, "skip-unsupported open: %s", pmu_strerror(r));
			if (r == 0) {
				pmu_set_event(set, 0, &e);
				CHECK(e.flags & PMU_EVF_UNSUPPORTED, "cycles flagged unsupported");
				spin_ms(2);
				CHECK(pmu_set_read(set, a) == 0 && a[0].value == 0 && a[0].enabled == 0 && a[1].value > 0,
				      "unsupported reads as 0, the rest counts");
				pmu_set_close(set);
			}
		}
	}
	/* a CPU the machine does not have (beyond the kernel's last: EINVAL, as for a bad attribute): the
	 * sentence names the CPU and the CPUs online, as /sys/devices/system/cpu/online lists them */
	{
		struct pmu_set_opts o = { sizeof(o), PMU_SET_CPU | PMU_SET_PID, -1, 100000 };
		char online[256] = "", want[512];
		FILE *f = fopen("/sys/devices/system/cpu/online", "r");
		if (f && fgets(online, sizeof(online), f))
			online[strcspn(online, "\n")] = 0;
		if (f)
			fclose(f);
		snprintf(want, sizeof(want), "no CPU 100000 online (the CPUs online are %s,", online);
		r = pmu_set_open(ctx, "cpu-clock", &o, &set);
		if (r == -EACCES || r == -EPERM)
			printf("note: counting a whole CPU is not permitted here: CPU 100000 not tried\n");
		else
			CHECK(r == -EINVAL && online[0] && strstr(pmu_strerror(r), want), "CPU 100000: %d %s (want '%s')",
			      r, pmu_strerror(r), want);
		if (r == 0)
			pmu_set_close(set);
	}
	pmu_ctx_free(ctx);
	return test_done("test-sw-events");
}
