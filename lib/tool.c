/* SPDX-License-Identifier: MIT */
/* Tool events (perf's names and units): duration_time, the wall-clock ns a
 * set is enabled; user_time and system_time, the ns of user and system CPU
 * time the counted process spends meanwhile (getrusage(), microseconds, for
 * the calling process; /proc/PID/stat, clock ticks, for another: pmu.h's
 * pmu_event_resolve() says why no finer split exists). Each is read by the
 * set's read. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "pmu.h"
#include "tool.h"
#include "common.h"
#include "context.h"
#include "error.h"
#include "util.h"

enum { TOOL_DURATION, TOOL_USER, TOOL_SYSTEM };

static const struct {
	const char *name, *desc, *origin;
} tools[] = {
	[TOOL_DURATION] = { "duration_time", "wall-clock time while the set is enabled (ns)",
			    "libpmu tool event (perf's duration_time): CLOCK_MONOTONIC while the set is enabled" },
	[TOOL_USER] = { "user_time", "user-mode CPU time of the counted process while the set is enabled (ns)",
			"libpmu tool event (perf's user_time): getrusage(RUSAGE_SELF) or /proc/PID/stat utime" },
	[TOOL_SYSTEM] = { "system_time", "kernel-mode CPU time of the counted process while the set is enabled (ns)",
			  "libpmu tool event (perf's system_time): getrusage(RUSAGE_SELF) or /proc/PID/stat stime" },
};

struct pmu_tool {
	int kind;
	int stat_fd;            /* /proc/PID/stat of another process, or -1: getrusage(RUSAGE_SELF) */
	uint64_t ns_per_tick;   /* /proc/PID/stat counts clock ticks */
	bool running;
	uint64_t acc, start;    /* value of the closed periods; the clock when the open one began */
	uint64_t wall_acc, wall_start; /* the same for the enabled time */
	uint64_t last;          /* the last clock read of another process (kept once it is gone) */
	pthread_mutex_t lock;   /* reads may come from other threads than enable/disable */
};

const char *pmu__tool_name(size_t k)
{
	return k < ARRAY_SIZE(tools) ? tools[k].name : NULL;
}

int pmu__tool_resolve(struct pmu_ctx *ctx, const char *spec, struct pmu_event_info *out)
{
	(void)ctx;
	for (size_t k = 0; k < ARRAY_SIZE(tools); k++) {
		if (strcasecmp(spec, tools[k].name))
			continue;
		/* what perf 6.12 puts in a tool event's attr; no perf_event is ever opened for it */
		out->type = PERF_TYPE_SOFTWARE;
		out->config = PERF_COUNT_SW_DUMMY;
		out->config1 = out->config2 = out->config3 = 0;
		out->flags = PMU_EVF_TOOL;
		out->source = PMU_SRC_TOOL;
		pmu__strlcpy(out->pmu, "tool", sizeof(out->pmu));
		out->desc = tools[k].desc;
		out->unit = "ns";
		pmu__strlcpy(out->origin, tools[k].origin, sizeof(out->origin));
		return 0;
	}
	return 1;
}

static int kind_of(const struct pmu_event_info *e)
{
	for (size_t k = 0; k < ARRAY_SIZE(tools); k++)
		if (e->desc == tools[k].desc)
			return (int)k;
	return -1;
}

int pmu__tool_check(struct pmu_ctx *ctx, const struct pmu_event_info *e, unsigned flags)
{
	int k = kind_of(e);

	if (k < 0)
		return pmu__err(ctx, -EINVAL, "'%s' is flagged as a tool event but is none of duration_time, user_time, "
				"system_time", e->name);
	if (k != TOOL_DURATION && (flags & PMU_SET_CPU))
		return pmu__err(ctx, -EINVAL, "'%s' is the CPU time of a process and cannot be counted per CPU (a set "
				"opened with PMU_SET_CPU, pmu stat -a): count a process or a command instead, or use "
				"duration_time", e->name);
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* utime (field 14) or stime (15) of /proc/PID/stat in ns; 0 or -errno. */
static int stat_time(int fd, bool system, uint64_t ns_per_tick, uint64_t *out)
{
	char buf[1024], *p, *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	unsigned long long ticks;

	if (n <= 0)
		return n < 0 ? -errno : -ESRCH;
	buf[n] = 0;
	/* the command name (field 2) is in parentheses and may hold anything: count fields after the last ')' */
	if (!(p = strrchr(buf, ')')))
		return -EINVAL;
	p++;
	for (int field = 3; field < (system ? 15 : 14); field++) {
		p += strspn(p, " ");
		p += strcspn(p, " ");
	}
	ticks = strtoull(p, &end, 10);
	if (end == p)
		return -EINVAL;
	*out = ticks * ns_per_tick;
	return 0;
}

/* The tool's clock now; the wall clock in *@wall. */
static uint64_t sample(struct pmu_tool *t, uint64_t *wall)
{
	struct rusage ru;
	uint64_t now = mono_ns(), v;

	*wall = now;
	if (t->kind == TOOL_DURATION)
		return now;
	if (t->stat_fd >= 0) {
		if (stat_time(t->stat_fd, t->kind == TOOL_SYSTEM, t->ns_per_tick, &v) == 0 && v >= t->last)
			t->last = v; /* once the process is gone (reaped), its last value stays */
		return t->last;
	}
	getrusage(RUSAGE_SELF, &ru);
	if (t->kind == TOOL_USER)
		return (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
	return (uint64_t)ru.ru_stime.tv_sec * 1000000000u + (uint64_t)ru.ru_stime.tv_usec * 1000u;
}

int pmu__tool_open(struct pmu_ctx *ctx, const struct pmu_event_info *e, unsigned flags, pid_t pid, bool running,
		   struct pmu_tool **out)
{
	struct pmu_tool *t;
	int r;

	*out = NULL;
	if ((r = pmu__tool_check(ctx, e, flags)) < 0)
		return r;
	if (!(t = calloc(1, sizeof(*t))))
		return pmu__err(ctx, -ENOMEM, "out of memory opening '%s'", e->name);
	t->kind = kind_of(e);
	t->stat_fd = -1;
	if (t->kind != TOOL_DURATION && (flags & PMU_SET_PID) && pid > 0 && pid != getpid()) {
		char path[512];
		long tck = sysconf(_SC_CLK_TCK);
		int err;
		t->ns_per_tick = tck > 0 ? 1000000000u / (uint64_t)tck : 10000000u;
		if ((err = pmu__path(path, sizeof(path), "%s/%d/stat", ctx->procfs_root, (int)pid)) < 0 ||
		    (t->stat_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 ||
		    (err = stat_time(t->stat_fd, t->kind == TOOL_SYSTEM, t->ns_per_tick, &t->last)) < 0) {
			err = err < 0 ? err : -errno;
			if (t->stat_fd >= 0)
				close(t->stat_fd);
			free(t);
			if (err == -ENOENT || err == -ESRCH)
				return pmu__err(ctx, -ESRCH, "cannot open '%s': no task with pid %d", e->name, (int)pid);
			return pmu__err(ctx, err, "cannot open '%s': cannot read %s: %s", e->name, path, strerror(-err));
		}
	}
	pthread_mutex_init(&t->lock, NULL);
	if (running)
		pmu__tool_enable(t);
	*out = t;
	return 0;
}

void pmu__tool_close(struct pmu_tool *t)
{
	if (!t)
		return;
	if (t->stat_fd >= 0)
		close(t->stat_fd);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

void pmu__tool_enable(struct pmu_tool *t)
{
	pthread_mutex_lock(&t->lock);
	if (!t->running) {
		t->start = sample(t, &t->wall_start);
		t->running = true;
	}
	pthread_mutex_unlock(&t->lock);
}

void pmu__tool_disable(struct pmu_tool *t)
{
	uint64_t wall, v;

	pthread_mutex_lock(&t->lock);
	if (t->running) {
		v = sample(t, &wall);
		t->acc += v - t->start;
		t->wall_acc += wall - t->wall_start;
		t->running = false;
	}
	pthread_mutex_unlock(&t->lock);
}

void pmu__tool_reset(struct pmu_tool *t)
{
	pthread_mutex_lock(&t->lock);
	t->acc = t->wall_acc = 0;
	if (t->running)
		t->start = sample(t, &t->wall_start);
	pthread_mutex_unlock(&t->lock);
}

void pmu__tool_read(struct pmu_tool *t, struct pmu_value *out)
{
	uint64_t wall, v, value, enabled;

	pthread_mutex_lock(&t->lock);
	value = t->acc;
	enabled = t->wall_acc;
	if (t->running) {
		v = sample(t, &wall);
		value += v - t->start;
		enabled += wall - t->wall_start;
	}
	pthread_mutex_unlock(&t->lock);
	out->value = value;
	out->enabled = out->running = enabled;
}
