/* SPDX-License-Identifier: MIT */
/*
 * Counting a cgroup (PMU_SET_CGROUP, perf stat -G): the kernel counts the tasks of a cgroup per CPU,
 * so a set per online CPU, their counts added up.
 *
 * Oracle: the kernel's own accounting of the task. A child process moves itself into a fresh cgroup
 * of the cgroup v2 hierarchy (found in /proc/self/mounts), burns about 200 ms of CPU with short sleeps
 * between (voluntary context switches), and sends its getrusage() deltas over that time: user + sys
 * time and context switches. The sum over the CPUs of the cgroup's task-clock must be within 20% or
 * 20 ms of that time, its context-switches at least the child's voluntary ones; the sets of another,
 * empty cgroup count nothing. Then the refusals with their sentences: no PMU_SET_CPU, PMU_SET_PID with
 * it, descriptors that are not a cgroup's directory (none, closed, /dev/null, /tmp), a cgroup of a v1
 * hierarchy without perf_event (ENOENT), a caller's struct from before cgroup_fd (its size), a tool
 * event, and an event of a PMU that counts CPUs (a written machine whose power PMU is the real msr
 * PMU with a cpumask; skipped with a note where there is no msr PMU).
 * Needs root and a cgroup2 hierarchy with the perf_event controller (77 with the reason otherwise).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "fixture.h"

#define MAX_CPUS 256
#define BURN_NS 200000000LL

/* What the child measured of itself inside the cgroup. */
struct usage {
	long long cpu_ns;       /* user + sys */
	long nvcsw, nivcsw;     /* voluntary, involuntary context switches */
};

/* The mount point of the first file system of type @type in /proc/self/mounts whose options have @opt
 * (NULL: any) and, with @without, lack it; 0 or -1. */
static int find_mount(const char *type, const char *opt, bool without, char *out, size_t len)
{
	char dev[256], dir[512], fs[64], opts[512];
	FILE *f = fopen("/proc/self/mounts", "r");
	int r = -1;

	if (!f)
		return -1;
	while (r < 0 && fscanf(f, "%255s %511s %63s %511s %*d %*d", dev, dir, fs, opts) == 4) {
		bool has = opt && strstr(opts, opt);
		if (!strcmp(fs, type) && (!opt || has != without)) {
			snprintf(out, len, "%s", dir);
			r = 0;
		}
	}
	fclose(f);
	return r;
}

/* The hierarchy of the perf_event controller in /proc/cgroups (0: cgroup v2's), or -1. */
static int perf_event_hierarchy(void)
{
	char name[64];
	int h = -1, hier, n, en;
	FILE *f = fopen("/proc/cgroups", "r");

	if (!f)
		return -1;
	fscanf(f, "%*[^\n]\n");
	while (fscanf(f, "%63s %d %d %d", name, &hier, &n, &en) == 4)
		if (!strcmp(name, "perf_event"))
			h = hier;
	fclose(f);
	return h;
}

/* The online CPUs ("0-1,4") into @cpus; their number. */
static int online_cpus(int *cpus)
{
	char buf[1024], *p = buf;
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int n = 0;

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return 0;
	}
	fclose(f);
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && n < MAX_CPUS; c++)
			cpus[n++] = (int)c;
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}

static long long tv_ns(struct timeval t)
{
	return t.tv_sec * 1000000000LL + t.tv_usec * 1000LL;
}

static long long cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The child: waits for @go, moves itself into @procs (a cgroup.procs), burns BURN_NS of CPU with a
 * 100 us sleep every 4 ms of it, and writes what getrusage() saw of that to @res. */
static void child(int go, const char *procs, int res)
{
	struct rusage r0, r1;
	struct usage u;
	char b, pid[32];
	long long start, next;
	int fd;

	if (read(go, &b, 1) != 1)
		_exit(2);
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if ((fd = open(procs, O_WRONLY | O_CLOEXEC)) < 0 || write(fd, pid, strlen(pid)) < 0)
		_exit(3);
	close(fd);
	getrusage(RUSAGE_SELF, &r0);
	start = cpu_now();
	next = start + 4000000;
	for (volatile unsigned long x = 0;; x++) {
		long long now = cpu_now();
		if (now - start >= BURN_NS)
			break;
		if (now >= next) {
			struct timespec ts = { 0, 100000 };
			nanosleep(&ts, NULL);
			next = now + 4000000;
		}
	}
	getrusage(RUSAGE_SELF, &r1);
	u.cpu_ns = tv_ns(r1.ru_utime) - tv_ns(r0.ru_utime) + tv_ns(r1.ru_stime) - tv_ns(r0.ru_stime);
	u.nvcsw = r1.ru_nvcsw - r0.ru_nvcsw;
	u.nivcsw = r1.ru_nivcsw - r0.ru_nivcsw;
	_exit(write(res, &u, sizeof(u)) == (ssize_t)sizeof(u) ? 0 : 4);
}

/* One cgroup set per CPU of @cpus counting @events for cgroup @fd, enabled at open, into @s. */
static int open_per_cpu(struct pmu_ctx *ctx, const char *events, int fd, const int *cpus, int n, struct pmu_set **s)
{
	for (int i = 0; i < n; i++) {
		struct pmu_set_opts o = { sizeof(o), PMU_SET_CGROUP | PMU_SET_CPU | PMU_SET_ENABLE, 0, cpus[i], fd };
		int r = pmu_set_open(ctx, events, &o, &s[i]);
		CHECK(r == 0, "cgroup set on CPU %d: %s", cpus[i], pmu_strerror(r));
		if (r < 0)
			return r;
	}
	return 0;
}

/* The sums over @n sets of their 2 values into @sum. */
static void sum_per_cpu(struct pmu_set **s, int n, uint64_t *sum)
{
	sum[0] = sum[1] = 0;
	for (int i = 0; i < n; i++) {
		struct pmu_value v[2];
		CHECK(pmu_set_read(s[i], v) == 0, "read");
		sum[0] += v[0].value;
		sum[1] += v[1].value;
	}
}

/* The child counted in its cgroup, the empty cgroup counting nothing. */
static void counts(struct pmu_ctx *ctx, const char *busy, int busy_fd, int empty_fd)
{
	struct pmu_set *bs[MAX_CPUS] = { NULL }, *es[MAX_CPUS] = { NULL };
	int cpus[MAX_CPUS], n = online_cpus(cpus), go[2], res[2], st = 0;
	char procs[1024];
	struct usage u;
	uint64_t b[2], e[2];
	pid_t c;

	CHECK(n > 0, "no online CPU in /sys/devices/system/cpu/online");
	if (n <= 0 || pipe(go) < 0 || pipe(res) < 0) {
		CHECK(n <= 0, "pipe: %s", strerror(errno));
		return;
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", busy);
	fflush(stdout);
	if ((c = fork()) == 0) {
		close(go[1]);
		close(res[0]);
		child(go[0], procs, res[1]);
	}
	close(go[0]);
	close(res[1]);
	if (open_per_cpu(ctx, "task-clock,context-switches", busy_fd, cpus, n, bs) == 0 &&
	    open_per_cpu(ctx, "task-clock,context-switches", empty_fd, cpus, n, es) == 0) {
		CHECK(write(go[1], "g", 1) == 1, "start the child");
		CHECK(read(res[0], &u, sizeof(u)) == (ssize_t)sizeof(u), "the child's usage (it exited early?)");
	} else {
		u.cpu_ns = -1;
	}
	close(go[1]);
	close(res[0]);
	CHECK(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status 0x%x", st);
	if (u.cpu_ns >= 0) {
		double got = 0, want = u.cpu_ns / 1e6, tol;
		sum_per_cpu(bs, n, b);
		sum_per_cpu(es, n, e);
		got = b[0] / 1e6;
		tol = want * 0.2 > 20 ? want * 0.2 : 20;
		printf("cgroup over %d CPUs: task-clock %.2f ms, context-switches %llu; the child's rusage: %.2f ms, "
		       "%ld voluntary and %ld involuntary switches; the empty cgroup: %.3f ms, %llu\n", n, got,
		       (unsigned long long)b[1], want, u.nvcsw, u.nivcsw, e[0] / 1e6, (unsigned long long)e[1]);
		CHECK(got >= want - tol && got <= want + tol, "the cgroup's task-clock %.2f ms, its task's user + sys "
		      "%.2f ms (tolerance %.1f ms)", got, want, tol);
		CHECK(b[1] >= (uint64_t)u.nvcsw && b[1] <= (uint64_t)(u.nvcsw + u.nivcsw) * 2 + 20,
		      "the cgroup's context-switches %llu, its task's %ld voluntary + %ld involuntary",
		      (unsigned long long)b[1], u.nvcsw, u.nivcsw);
		CHECK(u.nvcsw >= 10, "the child slept only %ld times", u.nvcsw);
		CHECK(e[0] < 1000000 && e[1] == 0, "the empty cgroup counted task-clock %.3f ms, %llu context-switches",
		      e[0] / 1e6, (unsigned long long)e[1]);
	}
	for (int i = 0; i < n; i++) {
		pmu_set_close(bs[i]);
		pmu_set_close(es[i]);
	}
}

/* @events with @o is refused by pmu_set_open() with @err, the message naming @word (and @word2). */
static void refused(struct pmu_ctx *ctx, const char *what, const char *events, const struct pmu_set_opts *o, int err,
		    const char *word, const char *word2)
{
	struct pmu_set *s = NULL;
	int r = pmu_set_open(ctx, events, o, &s);
	const char *m = pmu_strerror(r);

	CHECK(r == err && strstr(m, word) && (!word2 || strstr(m, word2)), "%s: %d '%s', want %d naming '%s'%s%s",
	      what, r, m, err, word, word2 ? " and " : "", word2 ? word2 : "");
	CHECK(s == NULL, "%s: a set although refused", what);
	pmu_set_close(s);
	printf("%s: %s\n", what, m);
}

/* An event of a PMU that counts CPUs (cpumask 0) in a cgroup set: refused, or left out with
 * PMU_SET_SKIP_UNSUPPORTED. A written machine whose "power" PMU is this machine's msr PMU. */
static void cpu_counting(int cg)
{
	struct pmu_set_opts o = { sizeof(o), PMU_SET_CGROUP | PMU_SET_CPU, 0, 0, cg };
	struct pmu_event_info e;
	struct pmu_ctx *ctx;
	struct pmu_set *s = NULL;
	char root[] = "/tmp/pmu-cgroup-XXXXXX", text[32], path[1024];
	FILE *f = fopen("/sys/bus/event_source/devices/msr/type", "r");
	long type = -1;
	int r;

	if (!f || fscanf(f, "%ld", &type) != 1) {
		printf("note: a PMU that counts CPUs not checked: no msr PMU here\n");
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	if (!mkdtemp(root)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(text, sizeof(text), "%ld\n", type);
	fixture_put(root, "sys/bus/event_source/devices/power/type", text);
	fixture_put(root, "sys/bus/event_source/devices/power/cpumask", "0\n");
	fixture_put(root, "sys/bus/event_source/devices/power/format/event", "config:0-63\n");
	fixture_put(root, "sys/bus/event_source/devices/power/events/energy-pkg", "event=0x00\n");
	snprintf(path, sizeof(path), "%s/proc", root);
	CHECK(symlink("/proc", path) == 0, "symlink %s: %s", path, strerror(errno));
	ctx = root_ctx(root, NULL, NULL);
	CHECK(ctx != NULL, "a context of the written machine");
	if (ctx) {
		refused(ctx, "a PMU that counts CPUs in a cgroup set", "power/energy-pkg/", &o, -EOPNOTSUPP, "cgroup",
			"cpumask");
		o.flags |= PMU_SET_SKIP_UNSUPPORTED;
		r = pmu_set_open(ctx, "power/energy-pkg/,task-clock", &o, &s);
		CHECK(r == 0, "with PMU_SET_SKIP_UNSUPPORTED: %s", pmu_strerror(r));
		if (r == 0) {
			CHECK(pmu_set_event(s, 0, &e) == 0 && (e.flags & PMU_EVF_UNSUPPORTED), "power/energy-pkg/ "
			      "in a cgroup set with PMU_SET_SKIP_UNSUPPORTED: flags 0x%x, not left out", e.flags);
			CHECK(pmu_set_event(s, 1, &e) == 0 && !(e.flags & PMU_EVF_UNSUPPORTED), "task-clock left out");
		}
		pmu_set_close(s);
		pmu_ctx_free(ctx);
	}
	fixture_remove(root);
}

/* The refusals, each with its sentence. */
static void refusals(struct pmu_ctx *ctx, int cg)
{
	struct pmu_set_opts o = { sizeof(o), PMU_SET_CGROUP, 0, -1, cg };
	struct pmu_set *s = NULL;
	char v1[512];
	int fd, r;

	refused(ctx, "without PMU_SET_CPU", "task-clock", &o, -EINVAL, "PMU_SET_CPU", "-a or -C");
	o = (struct pmu_set_opts){ sizeof(o), PMU_SET_CGROUP | PMU_SET_CPU | PMU_SET_PID, 0, 0, cg };
	refused(ctx, "with PMU_SET_PID", "task-clock", &o, -EINVAL, "PMU_SET_PID", NULL);
	CHECK(pmu_set_check(ctx, "task-clock", &o) == -EINVAL, "pmu_set_check with PMU_SET_PID");
	o = (struct pmu_set_opts){ sizeof(o), PMU_SET_CGROUP | PMU_SET_CPU, 0, 0, -1 };
	refused(ctx, "cgroup_fd -1", "task-clock", &o, -EBADF, "cgroup_fd -1", NULL);
	o.cgroup_fd = 1000;
	close(1000);
	refused(ctx, "a closed descriptor", "task-clock", &o, -EBADF, "not an open descriptor", NULL);
	o.cgroup_fd = fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	refused(ctx, "/dev/null", "task-clock", &o, -EBADF, "not a cgroup's directory", NULL);
	close(fd);
	o.cgroup_fd = fd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	refused(ctx, "/tmp", "task-clock", &o, -EBADF, "not a cgroup's directory", NULL);
	close(fd);
	/* a cgroup v1 hierarchy without perf_event: the kernel's ENOENT, said as the controller's absence */
	if (find_mount("cgroup", "perf_event", true, v1, sizeof(v1)) == 0 &&
	    (fd = open(v1, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		o.cgroup_fd = fd;
		refused(ctx, v1, "task-clock", &o, -ENOENT, "perf_event controller", NULL);
		close(fd);
	} else {
		printf("note: no cgroup v1 hierarchy without perf_event: its ENOENT not checked\n");
	}
	/* a caller built before cgroup_fd: a smaller size, the flag without the field reads as not given */
	o = (struct pmu_set_opts){ offsetof(struct pmu_set_opts, cgroup_fd), PMU_SET_CGROUP | PMU_SET_CPU, 0, 0, cg };
	refused(ctx, "an older caller's struct", "task-clock", &o, -EBADF, "cgroup_fd -1", NULL);
	/* ... and without the flag, whatever lies in the field is not read */
	o = (struct pmu_set_opts){ sizeof(o), PMU_SET_CPU, -1, 0, 1000 };
	r = pmu_set_open(ctx, "task-clock", &o, &s);
	CHECK(r == 0, "a CPU set with a stray cgroup_fd and no PMU_SET_CGROUP: %s", pmu_strerror(r));
	pmu_set_close(s);
	s = NULL;
	/* tool events: duration_time is fine, user_time is a task's */
	o = (struct pmu_set_opts){ sizeof(o), PMU_SET_CGROUP | PMU_SET_CPU, 0, 0, cg };
	r = pmu_set_open(ctx, "duration_time,task-clock", &o, &s);
	CHECK(r == 0, "duration_time in a cgroup set: %s", pmu_strerror(r));
	pmu_set_close(s);
	refused(ctx, "user_time in a cgroup set", "user_time", &o, -EINVAL, "PMU_SET_CPU", NULL);
}

int main(void)
{
	char mnt[512], busy[1024], empty[1024];
	struct pmu_ctx *ctx;
	int h, busy_fd, empty_fd;

	if (geteuid() != 0)
		SKIP("counting a cgroup counts every task of a CPU, and making a cgroup needs root: not root");
	if (find_mount("cgroup2", NULL, false, mnt, sizeof(mnt)) < 0)
		SKIP("no cgroup2 file system in /proc/self/mounts");
	if ((h = perf_event_hierarchy()) != 0)
		SKIP("the perf_event controller is %s (/proc/cgroups), not in cgroup v2",
		     h < 0 ? "not in this kernel" : "bound to a cgroup v1 hierarchy");
	snprintf(busy, sizeof(busy), "%s/pmu-test-cgroup-%d", mnt, (int)getpid());
	snprintf(empty, sizeof(empty), "%s/pmu-test-cgroup-%d-empty", mnt, (int)getpid());
	if (mkdir(busy, 0755) < 0 || mkdir(empty, 0755) < 0) {
		fprintf(stderr, "FAIL (setup): mkdir %s, %s: %s\n", busy, empty, strerror(errno));
		rmdir(busy);
		return 1;
	}
	busy_fd = open(busy, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	empty_fd = open(empty, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(busy_fd >= 0 && empty_fd >= 0, "open the cgroups: %s", strerror(errno));
	CHECK(pmu_ctx_new(&ctx, NULL) == 0, "context");
	if (ctx && busy_fd >= 0 && empty_fd >= 0) {
		counts(ctx, busy, busy_fd, empty_fd);
		refusals(ctx, busy_fd);
		cpu_counting(busy_fd);
	}
	pmu_ctx_free(ctx);
	close(busy_fd);
	close(empty_fd);
	/* the child is reaped: its cgroup is empty (a few tries while the kernel lets go of it) */
	for (int i = 0; i < 100 && rmdir(busy) < 0 && errno == EBUSY; i++)
		usleep(10000);
	CHECK(access(busy, F_OK) < 0 && rmdir(empty) == 0, "remove %s and %s: %s", busy, empty, strerror(errno));
	return test_done("test-set-cgroup");
}
