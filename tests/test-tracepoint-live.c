/* SPDX-License-Identifier: MIT */
/*
 * sched:sched_switch counted for real, where tracefs is readable here
 * (skipped with the reason otherwise: tracefs is root-only and often not
 * mounted in containers).
 *
 * Oracles: the kernel. The id is read by this test itself from tracefs and
 * opened raw (perf_event_open, type PERF_TYPE_TRACEPOINT) around the same
 * work as libpmu's set; the set's value is compared with read(2) of the
 * set's own fd (PERF_FORMAT_GROUP: nr, enabled, running, value, id), and
 * with context-switches counted in the same group: the kernel counts both
 * when this thread is switched out (__schedule() fires sched_switch and
 * perf_event_task_sched_out() counts the switch). Each of the 20
 * usleep(2000) blocks, so at least 20 switches happen.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "pmu.h"
#include "common.h"
#include "set.h"
#include "harness.h"

#define SLEEPS 20

static long long read_id(char *why, size_t len)
{
	static const char *const paths[] = { "/sys/kernel/tracing/events/sched/sched_switch/id",
					     "/sys/kernel/debug/tracing/events/sched/sched_switch/id" };
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		FILE *f = fopen(paths[i], "r");
		long long id = -1;
		if (!f) {
			snprintf(why + strlen(why), len - strlen(why), "%s%s: %s", i ? "; " : "", paths[i], strerror(errno));
			continue;
		}
		if (fscanf(f, "%lld", &id) != 1)
			id = -1;
		fclose(f);
		if (id >= 0)
			return id;
	}
	return -1;
}

int main(void)
{
	char why[600] = "";
	long long id = read_id(why, sizeof(why));
	struct pmu_ctx *ctx;
	struct pmu_set *s;
	struct pmu_event_info e;
	struct pmu_value v[2];
	struct perf_event_attr a;
	uint64_t raw = 0, buf[3 + 2 * 2];
	int fd, r;

	if (id < 0)
		SKIP("tracefs is not readable here (%s); mount it, readable by this user, to count tracepoints", why);
	if (pmu_ctx_new(&ctx, NULL) < 0)
		return 1;
	r = pmu_set_open(ctx, "{sched:sched_switch,context-switches}", NULL, &s);
	if (r == -EACCES || r == -EPERM)
		SKIP("the kernel does not let this user count a tracepoint: %s", pmu_strerror(r));
	CHECK(r == 0, "open: %s", pmu_strerror(r));
	if (r)
		return test_done("test-tracepoint-live");
	CHECK(pmu_set_event(s, 0, &e) == 0 && e.type == PERF_TYPE_TRACEPOINT && e.config == (uint64_t)id,
	      "libpmu's encoding: type %u config %llu; tracefs says id %lld", e.type, (unsigned long long)e.config, id);

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)id;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK(fd >= 0, "raw open of tracepoint id %lld: %s", id, strerror(errno));

	if (fd >= 0)
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	CHECK(pmu_set_enable(s) == 0, "enable");
	for (int i = 0; i < SLEEPS; i++) {
		usleep(2000);
		sched_yield();
	}
	CHECK(pmu_set_disable(s) == 0, "disable");
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		CHECK(read(fd, &raw, sizeof(raw)) == sizeof(raw), "read of the raw fd");
		close(fd);
	}
	CHECK(pmu_set_read(s, v) == 0, "read");
	printf("sched:sched_switch %llu, context-switches %llu, raw fd %llu, over %d usleep\n",
	       (unsigned long long)v[0].value, (unsigned long long)v[1].value, (unsigned long long)raw, SLEEPS);
	CHECK(v[0].value >= SLEEPS, "sched:sched_switch counted %llu, expected >= %d", (unsigned long long)v[0].value,
	      SLEEPS);
	/* the raw fd was enabled first and disabled last: it saw the same switches, and at most a few more */
	CHECK(raw >= v[0].value && raw - v[0].value <= 2, "raw fd %llu vs set %llu", (unsigned long long)raw,
	      (unsigned long long)v[0].value);
	CHECK(v[1].value == v[0].value, "context-switches %llu, sched:sched_switch %llu: the kernel counts both at "
	      "each switch out", (unsigned long long)v[1].value, (unsigned long long)v[0].value);
	/* the kernel's read(2) of the set's own fd (the group leader) */
	r = (int)read(pmu__set_fd(s, 0), buf, sizeof(buf));
	CHECK(r == (int)sizeof(buf) && buf[0] == 2 && buf[3] == v[0].value && buf[5] == v[1].value &&
	      buf[1] == v[0].enabled && buf[2] == v[0].running,
	      "read(2) of the set's fd: %d bytes, nr %llu, values %llu %llu; the set read %llu %llu", r,
	      (unsigned long long)buf[0], (unsigned long long)buf[3], (unsigned long long)buf[5],
	      (unsigned long long)v[0].value, (unsigned long long)v[1].value);
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return test_done("test-tracepoint-live");
}
