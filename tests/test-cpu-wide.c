/* SPDX-License-Identifier: MIT */
/*
 * A PMU that counts CPUs, not tasks (RAPL's power, uncore, cstate: a sysfs cpumask). The kernel
 * refuses such an event for a task, and counts a whole package at any CPU of it: perf opens it on the
 * CPUs of its cpumask only. Found on an Emerald Rapids VM whose power PMU (cpumask 0) libpmu listed
 * as usable while a task's set could not open it, and where pmu stat -a would have summed the
 * package's energy once per CPU.
 *
 * 1. pmu__cpulist, by hand.
 * 2. The kernel as the oracle, with a PMU this machine has: a written machine whose "power" PMU is
 *    the real msr PMU (its sysfs type) with a cpumask, its "energy-pkg" the msr PMU's tsc. msr counts
 *    a task only while it runs, and a CPU always, so a set of this task that sleeps 100 ms counts
 *    about as much as a raw perf_event_open of the CPU (pid -1) around it only if libpmu opened it
 *    for the CPU. The control, msr/tsc/ itself in the same kind of set, counts far less. Then: a
 *    cpumask of two CPUs, two packages (a task's set counts both, summed, against the raw counts of
 *    both CPUs), a set of a CPU outside the cpumask (refused, or left out with
 *    PMU_SET_SKIP_UNSUPPORTED), the list's "usable", and pmu stat -a, a command and -p of two
 *    processes against -C of the cpumask's CPU: each package counted once, not once per CPU or per
 *    process; a region counts it for the process (socket-wide), between the raw counts around it.
 * Needs root (CPU-wide counting) and the msr PMU with tsc; otherwise part 2 is skipped (77).
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <pmu.h>
#include "util.h"
#include "harness.h"
#include "fixture.h"
#include "msr-oracle.h"

/* The one region's row (test of regions below): its socket-wide value (column 1), calls, intervals. */
struct region_got {
	uint64_t v, calls, intervals;
	uint32_t sw;
	int rows;
};

static int region_row(const struct pmu_region_result *r, void *data)
{
	struct region_got *got = data;

	got->rows++;
	got->calls = r->calls;
	got->intervals = r->intervals;
	got->sw = r->socket_wide;
	got->v = r->nvalues == 2 ? r->values[1].value : 0;
	return 0;
}

static void cpulists(void)
{
	static const struct {
		const char *s;
		long cpu;
		int r;
		long count, first, top;
		bool has;
	} c[] = {
		{ "0", 0, 0, 1, 0, 1, true },
		{ "0\n", 1, 0, 1, 0, 1, false },
		{ "0,16", 16, 0, 2, 0, 17, true },
		{ "0,16", 1, 0, 2, 0, 17, false },
		{ "0-3,8,10-11\n", 9, 0, 7, 0, 12, false },
		{ "0-3,8,10-11", 10, 0, 7, 0, 12, true },
		{ "5,2", 2, 0, 2, 2, 6, true },
		{ "", -1, -EINVAL, 0, -1, 0, false },
		{ "\n", -1, -EINVAL, 0, -1, 0, false },
		{ "3-1", -1, -EINVAL, 0, 0, 0, false },
		{ "a", -1, -EINVAL, 0, 0, 0, false },
		{ "0;1", -1, -EINVAL, 0, 0, 0, false },
		{ "-1", -1, -EINVAL, 0, 0, 0, false },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pmu_cpulist l;
		int r = pmu__cpulist(c[i].s, c[i].cpu, &l);
		CHECK(r == c[i].r, "'%s': %d, want %d", c[i].s, r, c[i].r);
		if (r == 0 && c[i].r == 0)
			CHECK(l.count == c[i].count && l.first == c[i].first && l.top == c[i].top && l.has == c[i].has,
			      "'%s' cpu %ld: count %ld first %ld top %ld has %d", c[i].s, c[i].cpu, l.count, l.first,
			      l.top, l.has);
	}
}

/* A machine like this one, whose "power" PMU is the msr PMU (@type) counting CPUs @mask. */
static void write_machine(const char *root, long type, const char *mask)
{
	char path[1024], text[32];

	snprintf(text, sizeof(text), "%ld\n", type);
	fixture_put(root, "sys/bus/event_source/devices/power/type", text);
	fixture_put(root, "sys/bus/event_source/devices/power/cpumask", mask);
	fixture_put(root, "sys/bus/event_source/devices/power/format/event", "config:0-63\n");
	fixture_put(root, "sys/bus/event_source/devices/power/events/energy-pkg", "event=0x00\n");
	/* this machine's own /proc: its paranoid setting and this process's capabilities */
	snprintf(path, sizeof(path), "%s/proc", root);
	CHECK(symlink("/proc", path) == 0 || errno == EEXIST, "symlink %s: %s", path, strerror(errno));
}

/* One event of @ctx opened as @flags/@cpu say (a task's set: 0), enabled over a sleep of 100 ms; its
 * value into *@v and flags into *@f. The raw CPU-wide count of msr @type tsc on CPU 0, enabled around
 * the set's, into *@raw (NULL: none). 0, or the open's error. */
static int sleep_count(struct pmu_ctx *ctx, const char *ev, unsigned flags, int cpu, long type, uint64_t *raw,
		       int raw_cpus, struct pmu_value *v, unsigned *f)
{
	struct pmu_set_opts o = { sizeof(o), flags, -1, cpu };
	struct pmu_event_info info;
	struct pmu_set *s;
	int fd[2] = { -1, -1 }, r;

	/* enabled just before the set, disabled just after it: counts a little more */
	if (!raw)
		raw_cpus = 0;
	if ((r = raw_tsc_open_cpus(type, raw_cpus, fd)) < 0)
		return r;
	if ((r = pmu_set_open(ctx, ev, flags ? &o : NULL, &s)) < 0) {
		raw_tsc_close(fd, raw_cpus);
		return r;
	}
	raw_tsc_ioctl(fd, raw_cpus, PERF_EVENT_IOC_ENABLE);
	pmu_set_enable(s);
	sleep_ms(100);
	pmu_set_disable(s);
	raw_tsc_ioctl(fd, raw_cpus, PERF_EVENT_IOC_DISABLE);
	CHECK(pmu_set_read_syscall(s, v) == 0, "%s: read", ev);
	if (raw) {
		r = raw_tsc_read_close(fd, raw_cpus, NULL, raw);
		CHECK(r == 0, "raw read, CPU %d", r - 1);
	}
	pmu_set_event(s, 0, &info);
	*f = info.flags;
	pmu_set_close(s);
	return 0;
}

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* A set of a forked child opened with PMU_SET_ENABLE_ON_EXEC (as pmu stat opens a command's), the child
 * held 200 ms before it may exec: the caller's own work between the open and the exec. The group that
 * counts CPUs and the tool event have no exec to start them: they wait for pmu_set_enable_before_exec(),
 * made just before the child may exec `sleep 0.05`. The oracle: the kernel's raw CPU-wide count of CPU 0
 * and the monotonic clock, both started just before that call and stopped after the set's read. Counted
 * from the open instead, each would hold 200 ms more than the oracle's ~50 ms. @call: 0, the call is
 * never made: nothing counts (enabled 0), as pmu.h says. */
static void exec_window(struct pmu_ctx *ctx, long type, bool call)
{
	struct pmu_set_opts o = { sizeof(o), PMU_SET_PID | PMU_SET_ENABLE_ON_EXEC, -1, -1 };
	struct pmu_value v[2];
	struct pmu_set *s = NULL;
	uint64_t raw = 0;
	double t0, t1;
	int go[2], fd, r, st = 0;
	pid_t c;

	if (pipe(go) < 0) {
		CHECK(0, "pipe: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	if ((c = fork()) == 0) {
		char b;
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(126);
		execlp("sleep", "sleep", "0.05", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	o.pid = c;
	r = pmu_set_open(ctx, "power/energy-pkg/,duration_time", &o, &s);
	CHECK(r == 0, "a child's set, PMU_SET_ENABLE_ON_EXEC: %s", pmu_strerror(r));
	if (r == 0)
		CHECK(pmu_set_read_syscall(s, v) == 0 && v[0].enabled == 0 && v[0].value == 0 && v[1].enabled == 0 &&
		      v[1].value == 0, "a child's set before its exec: enabled %llu and %llu, want 0 (not counting yet)",
		      (unsigned long long)v[0].enabled, (unsigned long long)v[1].enabled);
	sleep_ms(200);
	fd = raw_tsc_open(type, 0);
	CHECK(fd >= 0, "raw msr tsc on CPU 0: %s", strerror(errno));
	t0 = now_ns();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (call && s)
		CHECK((r = pmu_set_enable_before_exec(s)) == 0, "pmu_set_enable_before_exec: %s", pmu_strerror(r));
	CHECK(write(go[1], "g", 1) == 1, "letting the child exec");
	close(go[1]);
	CHECK(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child: status 0x%x", st);
	if (s)
		CHECK(pmu_set_read_syscall(s, v) == 0, "the child's set: read");
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	t1 = now_ns();
	CHECK(fd < 0 || read(fd, &raw, sizeof(raw)) == sizeof(raw), "raw read");
	if (fd >= 0)
		close(fd);
	if (!s)
		return;
	if (call) {
		/* 1% for the kernel's clock against CLOCK_MONOTONIC */
		CHECK(v[0].value <= raw && v[0].value >= raw / 2 && v[0].enabled >= 50e6 && v[0].enabled <= (t1 - t0) * 1.01,
		      "power/energy-pkg/ of a child held 200 ms before its exec: %llu, enabled %.1f ms; from just before "
		      "the exec: raw CPU 0 %llu, %.1f ms", (unsigned long long)v[0].value, v[0].enabled / 1e6,
		      (unsigned long long)raw, (t1 - t0) / 1e6);
		CHECK(v[1].value >= 50e6 && v[1].value <= (t1 - t0) * 1.01, "duration_time of the child: %.1f ms, "
		      "from just before its exec %.1f ms", v[1].value / 1e6, (t1 - t0) / 1e6);
		printf("a child held 200 ms, then sleep 0.05: power/energy-pkg/ %llu in %.1f ms enabled, duration_time "
		       "%.1f ms; raw CPU 0 from just before its exec %llu in %.1f ms\n", (unsigned long long)v[0].value,
		       v[0].enabled / 1e6, v[1].value / 1e6, (unsigned long long)raw, (t1 - t0) / 1e6);
	} else {
		CHECK(v[0].value == 0 && v[0].enabled == 0 && v[1].value == 0 && v[1].enabled == 0,
		      "without pmu_set_enable_before_exec: %llu (enabled %llu), duration_time %llu: want nothing counted",
		      (unsigned long long)v[0].value, (unsigned long long)v[0].enabled, (unsigned long long)v[1].value);
	}
	pmu_set_close(s);
}

struct listed {
	const char *name;
	int usable;
};

static int usable_cb(const struct pmu_event_entry *e, void *data)
{
	struct listed *l = data;
	if (!strcmp(e->name, l->name))
		l->usable = e->usable;
	return 0;
}

/* "usable" of @name in the list of @ctx, -1 if it is not listed */
static int usable_of(struct pmu_ctx *ctx, const char *name)
{
	struct listed l = { name, -1 };
	CHECK(pmu_event_foreach(ctx, NULL, usable_cb, &l) > 0, "list");
	return l.usable;
}

/* pmu stat @args over machine @root: how many lines of its output (stdout and stderr) hold @needle; of
 * them, how many begin with @prefix into *@pre, and the count and the ns it was enabled of the last
 * (perf's CSV: its first and fourth fields) into v[0] and v[1], each when not NULL. With @v, the other
 * lines are shown (pmu stat's warnings). */
static int stat_lines(const char *root, const char *args, const char *needle, const char *prefix, int *pre,
		      double *v)
{
	char cmd[2048], line[512];
	int n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "PMU_SYSFS_ROOT='%s/sys' '%s' stat %s 2>&1", root, getenv("PMU_CLI"), args);
	if (pre)
		*pre = 0;
	if (!(p = popen(cmd, "r")))
		return -1;
	while (fgets(line, sizeof(line), p)) {
		if (!strstr(line, needle)) {
			if (v)
				fprintf(stderr, "pmu stat %s: %s", args, line);
			continue;
		}
		n++;
		if (pre && !strncmp(line, prefix, strlen(prefix)))
			(*pre)++;
		if (v) {
			const char *f = line;
			v[0] = strtod(line, NULL);
			for (int k = 0; k < 3 && f; k++)
				if ((f = strchr(f, ',')))
					f++;
			v[1] = f ? strtod(f, NULL) : 0;
		}
	}
	pclose(p);
	return n;
}

/* pmu stat @how -x, -e power/energy-pkg/ -- sleep 0.1 over machine @root: the count into v[0] (-1 if
 * none) and the ns it was enabled into v[1] */
static void stat_run(const char *root, const char *how, double v[2])
{
	char args[256];

	v[0] = -1;
	v[1] = 0;
	snprintf(args, sizeof(args), "%s -x, -e power/energy-pkg/ -- sleep 0.1", how);
	stat_lines(root, args, "power/energy-pkg/", "", NULL, v);
}

/* Its count, or -1 */
static double stat_count(const char *root, const char *how)
{
	double v[2];

	stat_run(root, how, v);
	return v[0];
}

/* Its count per ns enabled: msr's tsc advances at one rate on every CPU, so a package counts at that
 * rate and two at twice it, however long each run was enabled (runs of one command differ in length,
 * more so under a sanitizer). -1 if none. */
static double stat_rate(const char *root, const char *how)
{
	double v[2];

	stat_run(root, how, v);
	return v[0] > 0 && v[1] > 0 ? v[0] / v[1] : -1;
}

/* A child that sleeps until it is killed */
static pid_t fork_sleeper(void)
{
	pid_t c = fork();
	if (c == 0) {
		execlp("sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	return c;
}

int main(void)
{
	char one[] = "/tmp/test-cpu-wide-XXXXXX", two[] = "/tmp/test-cpu-wide2-XXXXXX";
	struct pmu_ctx *c1, *c2, *real = NULL;
	struct pmu_value v;
	uint64_t raw = 0;
	long long type;
	unsigned f = 0;
	int r;

	cpulists();
	if (test_failures) /* a failure is said, never hidden under a skip */
		return test_done("test-cpu-wide");
	if (geteuid() != 0)
		SKIP("counting every task of a CPU needs root here; pmu__cpulist checked (%d checks, %d failed)",
		     test_checks, test_failures);
	if (pmu__read_int("/sys/bus/event_source/devices/msr/type", &type) < 0 ||
	    access("/sys/bus/event_source/devices/msr/events/tsc", R_OK) < 0)
		SKIP("no msr PMU with tsc here; pmu__cpulist checked (%d checks, %d failed)", test_checks, test_failures);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("one CPU online: a CPU outside the cpumask cannot be tried");
	if (!mkdtemp(one) || !mkdtemp(two)) {
		perror("mkdtemp");
		return 1;
	}
	write_machine(one, (long)type, "0\n");
	write_machine(two, (long)type, "0-1\n");
	c1 = root_ctx(one, NULL, NULL);
	c2 = root_ctx(two, NULL, NULL);
	CHECK(c1 && c2 && pmu_ctx_new(&real, NULL) == 0, "contexts");
	if (!c1 || !c2 || !real)
		return test_done("test-cpu-wide");

	/* a task's set: every task on CPU 0, as the raw CPU-wide count around it */
	r = sleep_count(c1, "power/energy-pkg/", 0, -1, type, &raw, 1, &v, &f);
	CHECK(r == 0, "task set: %s", pmu_strerror(r));
	CHECK(f & PMU_EVF_CPU_WIDE, "task set: flags 0x%x lack PMU_EVF_CPU_WIDE", f);
	CHECK(v.value <= raw && v.value >= raw / 2 && v.enabled > 0 && v.running == v.enabled,
	      "task set asleep 100 ms: %llu, raw CPU 0 around it %llu (enabled %llu running %llu)",
	      (unsigned long long)v.value, (unsigned long long)raw, (unsigned long long)v.enabled,
	      (unsigned long long)v.running);
	printf("a sleeping task's set, power/energy-pkg/ (msr tsc, cpumask 0): %llu; raw CPU 0 around it: %llu\n",
	       (unsigned long long)v.value, (unsigned long long)raw);
	/* the control: the same counter of a PMU that counts tasks counts little while the task sleeps */
	r = sleep_count(real, "msr/tsc/", 0, -1, type, &raw, 1, &v, &f);
	CHECK(r == 0 && !(f & PMU_EVF_CPU_WIDE) && v.value < raw / 10,
	      "control msr/tsc/ in a task's set: r %d, %llu, raw %llu", r, (unsigned long long)v.value,
	      (unsigned long long)raw);
	printf("the control, msr/tsc/ in a sleeping task's set: %llu; raw CPU 0 around it: %llu\n",
	       (unsigned long long)v.value, (unsigned long long)raw);

	/* a set of CPU 0: counted there, the set's own kind (no flag); of CPU 1: not this PMU's CPU */
	r = sleep_count(c1, "power/energy-pkg/", PMU_SET_CPU | PMU_SET_PID, 0, type, NULL, 0, &v, &f);
	CHECK(r == 0 && !(f & PMU_EVF_CPU_WIDE) && v.value > 0, "CPU 0: r %d flags 0x%x value %llu", r, f,
	      (unsigned long long)v.value);
	r = sleep_count(c1, "power/energy-pkg/", PMU_SET_CPU | PMU_SET_PID, 1, type, NULL, 0, &v, &f);
	CHECK(r == -ENODEV && strstr(pmu_strerror(r), "cpumask (0)") && strstr(pmu_strerror(r), "not on CPU 1"),
	      "CPU 1: %d %s", r, pmu_strerror(r));
	r = sleep_count(c1, "power/energy-pkg/", PMU_SET_CPU | PMU_SET_PID | PMU_SET_SKIP_UNSUPPORTED, 1, type,
			NULL, 0, &v, &f);
	CHECK(r == 0 && (f & PMU_EVF_UNSUPPORTED) && v.value == 0 && v.enabled == 0,
	      "CPU 1, skipping: r %d flags 0x%x value %llu", r, f, (unsigned long long)v.value);

	/* two CPUs in the cpumask (two packages): a task's set counts both, summed, as perf stat does: against
	 * the raw CPU-wide counts of CPU 0 and CPU 1 around it, summed (one package alone would be half) */
	r = sleep_count(c2, "power/energy-pkg/", 0, -1, type, &raw, 2, &v, &f);
	CHECK(r == 0 && (f & PMU_EVF_CPU_WIDE), "task set, cpumask 0-1: %d %s, flags 0x%x", r, pmu_strerror(r), f);
	CHECK(r == 0 && v.value <= raw && v.value >= raw / 4 * 3 && v.enabled > 0 && v.running == v.enabled,
	      "task set, cpumask 0-1, asleep 100 ms: %llu, raw CPUs 0 + 1 around it %llu (enabled %llu running %llu)",
	      (unsigned long long)v.value, (unsigned long long)raw, (unsigned long long)v.enabled,
	      (unsigned long long)v.running);
	printf("a sleeping task's set, cpumask 0-1: %llu; raw CPUs 0 + 1 around it: %llu\n", (unsigned long long)v.value,
	       (unsigned long long)raw);

	/* a command's set: counting from just before its exec, not from the open */
	exec_window(c1, type, true);
	exec_window(c1, type, false);
	/* nor has a set of every task of a CPU: with PMU_SET_ENABLE_ON_EXEC it waits for the call too (the
	 * library before it asked the kernel to enable such a set at an exec, which never comes: it never
	 * counted) */
	{
		struct pmu_set_opts o = { sizeof(o), PMU_SET_CPU | PMU_SET_PID | PMU_SET_ENABLE_ON_EXEC, -1, 0 };
		struct pmu_set *s = NULL;
		struct pmu_value w;
		r = pmu_set_open(real, "msr/tsc/", &o, &s);
		CHECK(r == 0, "msr/tsc/ of CPU 0, PMU_SET_ENABLE_ON_EXEC: %s", pmu_strerror(r));
		if (s) {
			sleep_ms(20);
			CHECK(pmu_set_read_syscall(s, &w) == 0 && w.enabled == 0, "CPU 0's set before the call: enabled %llu",
			      (unsigned long long)w.enabled);
			CHECK(pmu_set_enable_before_exec(s) == 0, "CPU 0's set: pmu_set_enable_before_exec");
			sleep_ms(20);
			CHECK(pmu_set_read_syscall(s, &w) == 0 && w.value > 0 && w.enabled >= 20e6,
			      "CPU 0's set, 20 ms after the call: %llu, enabled %llu", (unsigned long long)w.value,
			      (unsigned long long)w.enabled);
			pmu_set_close(s);
		}
	}

	/* the list says so: usable with one CPU in the cpumask (as root), and with two */
	CHECK(usable_of(c1, "power/energy-pkg/") == 1, "cpumask 0: usable %d", usable_of(c1, "power/energy-pkg/"));
	CHECK(usable_of(c2, "power/energy-pkg/") == 1, "cpumask 0-1: usable %d", usable_of(c2, "power/energy-pkg/"));

	/* regions: the package's count for the process, socket-wide (region-socket.c), read where the region
	 * begins and ends. The kernel's raw count of CPU 0 is the oracle, read four times: before the begin,
	 * after it, before the end and after it; the region's value lies between the inner and the outer
	 * difference, whatever the load (the region is 100 ms asleep, which a task-counted event would not
	 * count); the value is the region row's, marked socket-wide, one interval */
	{
		fflush(stdout); /* printed once, not again by the child */
		pid_t c = fork();
		if (c == 0) {
			char sys[1100];
			struct region_got got = { 0, 0, 0, 0, 0 };
			uint64_t r0 = 0, r1 = 0, i0 = 0, i1 = 0;
			int fd;
			/* the parent's contexts, freed: valgrind checks the child's leaks at its exit too */
			pmu_ctx_free(c1);
			pmu_ctx_free(c2);
			pmu_ctx_free(real);
			snprintf(sys, sizeof(sys), "%s/sys", one);
			setenv("PMU_SYSFS_ROOT", sys, 1);
			if ((r = pmu_region_configure("task-clock,power/energy-pkg/", 0)) < 0) {
				fprintf(stderr, "regions: %d %s\n", r, pmu_strerror(r));
				_exit(1);
			}
			if ((fd = raw_tsc_open((long)type, 0)) < 0 || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0 ||
			    read(fd, &r0, sizeof(r0)) != sizeof(r0) || pmu_region_begin("x") < 0 ||
			    read(fd, &i0, sizeof(i0)) != sizeof(i0))
				_exit(2);
			sleep_ms(100);
			if (read(fd, &i1, sizeof(i1)) != sizeof(i1) || pmu_region_end("x") < 0 ||
			    read(fd, &r1, sizeof(r1)) != sizeof(r1))
				_exit(3);
			close(fd);
			if (pmu_region_foreach(0, region_row, &got) != 1 || got.rows != 1 || got.calls != 1 ||
			    got.intervals != 1 || got.sw != 2u || got.v > r1 - r0 || got.v < i1 - i0) {
				fprintf(stderr, "regions: %d rows, calls %llu, intervals %llu, socket-wide bits 0x%x, value %llu, "
					"raw inside %llu, around %llu\n", got.rows, (unsigned long long)got.calls,
					(unsigned long long)got.intervals, got.sw, (unsigned long long)got.v,
					(unsigned long long)(i1 - i0), (unsigned long long)(r1 - r0));
				_exit(4);
			}
			printf("  region of 100 ms asleep: power/energy-pkg/ (msr tsc of CPU 0) %llu, the kernel's raw count "
			       "inside it %llu, around it %llu\n", (unsigned long long)got.v, (unsigned long long)(i1 - i0),
			       (unsigned long long)(r1 - r0));
			fflush(stdout);
			pmu_region_reset(); /* no report at exit */
			_exit(0);
		}
		int st = 0;
		CHECK(c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "regions with power/energy-pkg/, socket-wide: child status 0x%x", st);
	}

	/* pmu stat -a counts the package once: as -C 0 does, not once per CPU (2 CPUs here: twice); so do
	 * a command, and -p of two processes (a unit each, both counting the package on CPU 0) */
	if (getenv("PMU_CLI")) {
		fflush(stdout);
		pid_t a = fork_sleeper(), b = fork_sleeper();
		char p[64];
		snprintf(p, sizeof(p), "-p %d,%d", (int)a, (int)b);
		double all = 0, cpu0 = 0, task = 0, procs = 0;
		/* four runs of pmu stat compared: on a loaded machine (the other tests' builds on two CPUs) one
		 * run's start can be late by more than the bounds allow. A fault of the rule counts the same way
		 * every time (twice, or from the open); so up to three tries, each printed, the last checked. */
		for (int t = 0; t < 3; t++) {
			all = stat_count(one, "-a"), cpu0 = stat_count(one, "-C 0"), task = stat_count(one, ""),
			procs = stat_count(one, p);
			printf("  try %d: -a %.0f, -C 0 %.0f, the command %.0f, -p of two processes %.0f\n", t + 1, all, cpu0,
			       task, procs);
			if (all > 0 && cpu0 > 0 && all < 1.5 * cpu0 && all > cpu0 / 1.5 && task > 0 && task < 1.2 * cpu0 &&
			    task > cpu0 / 1.2 && procs > 0 && procs < 1.5 * cpu0 && procs > cpu0 / 1.5)
				break;
		}
		CHECK(all > 0 && cpu0 > 0 && all < 1.5 * cpu0 && all > cpu0 / 1.5,
		      "pmu stat -a %.0f against -C 0 %.0f: the package counted once", all, cpu0);
		/* both from just before the command starts (a command's: pmu_set_enable_before_exec; counted from
		 * the open instead, under ASan a command over two packages counted 2.77x, not 2x, this count) */
		CHECK(task > 0 && task < 1.2 * cpu0 && task > cpu0 / 1.2, "pmu stat (a command) %.0f against -C 0 %.0f",
		      task, cpu0);
		CHECK(procs > 0 && procs < 1.5 * cpu0 && procs > cpu0 / 1.5,
		      "pmu stat -p (two processes) %.0f against -C 0 %.0f", procs, cpu0);
		printf("pmu stat -e power/energy-pkg/ -- sleep 0.1: -a %.0f, -C 0 %.0f, the command %.0f, -p of two "
		       "processes %.0f\n", all, cpu0, task, procs);
		/* -A: a row for CPU 0, the cpumask's, and none for CPU 1, which did not count it (as perf) */
		int cpu0_rows, rows = stat_lines(one, "-A -C 0-1 -x, -e power/energy-pkg/ -- true", "power/energy-pkg/",
						 "CPU0,", &cpu0_rows, NULL);
		CHECK(rows == 1 && cpu0_rows == 1, "-A -C 0-1: %d rows of power/energy-pkg/, %d of CPU 0", rows, cpu0_rows);
		/* two packages (cpumask 0-1, a CPU each): -a sums the two CPUs' counts, as perf does (the rule for
		 * the units of -p and -t, one package counted by each, must not reach the CPUs of -a); so do a
		 * command and -p of two processes (each unit both packages, the units not summed). -a against
		 * -C 0 of cpumask 0 (both counted while the sets are enabled; -a's enabled time is its CPUs'
		 * sum); the others per ns enabled, against one package's rate (-C 0): twice it */
		double both = stat_count(two, "-a"), one_rate = stat_rate(one, "-C 0"), both_task = stat_rate(two, ""),
		       both_procs = stat_rate(two, p);
		CHECK(both > 1.5 * cpu0 && both < 2.5 * cpu0, "pmu stat -a, cpumask 0-1 (two packages): %.0f against one "
		      "package's %.0f (-C 0 of cpumask 0): both summed", both, cpu0);
		CHECK(one_rate > 0 && both_task > 1.8 * one_rate && both_task < 2.2 * one_rate, "pmu stat (a command), "
		      "cpumask 0-1: %.3f per ns against one package's %.3f", both_task, one_rate);
		CHECK(one_rate > 0 && both_procs > 1.8 * one_rate && both_procs < 2.2 * one_rate, "pmu stat -p (two "
		      "processes), cpumask 0-1: %.3f per ns against one package's %.3f", both_procs, one_rate);
		printf("pmu stat -e power/energy-pkg/ -- sleep 0.1, two packages: -a %.0f (one package, -C 0: %.0f); "
		       "counts per ns enabled: one package %.3f, the command %.3f, -p of two processes %.3f\n", both,
		       cpu0, one_rate, both_task, both_procs);
		/* the label: counted for a command, the note under the table says what was counted */
		int noted = stat_lines(one, "-e power/energy-pkg/,task-clock -- true",
				       "note: power/energy-pkg/: every task on its package or die", "", NULL, NULL);
		CHECK(noted == 1, "pmu stat of a command: %d notes saying power/energy-pkg/ counted every task", noted);
		kill(a, SIGKILL);
		kill(b, SIGKILL);
		waitpid(a, NULL, 0);
		waitpid(b, NULL, 0);
	}
	pmu_ctx_free(c1);
	pmu_ctx_free(c2);
	pmu_ctx_free(real);
	fixture_remove(one);
	fixture_remove(two);
	return test_done("test-cpu-wide");
}
