/* SPDX-License-Identifier: MIT */
/*
 * tests/kmodel.c, the kernel model, against a hand computation: raw perf_event_open(2), read(2) and
 * ioctl(2) of a written model give exactly the model's counts and times, in the kernel's layouts, and
 * the kernel's refusals; the log names each open. Run as: test-kmodel KMODEL.so. It writes its model
 * files and runs itself again under LD_PRELOAD=KMODEL.so for each phase:
 *   raw    the model below: single events, a group, an uncore PMU's rules, closes, sysconf, the log;
 *   enoent "others enoent": a type the model does not name is refused, not passed to the kernel;
 *   off    no PMU_KMODEL: the preload passes everything on (a type of the model opens nothing).
 * Every expected number is the model's step times the observations (kmodel.c: a read(2), or the
 * DISABLE that stops a counter, of a counting counter), written out at each check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "harness.h"
#include "sanitizer.h"

#define T_CORE 4     /* the core PMU: PERF_TYPE_RAW, and PERF_TYPE_HARDWARE 0 as its alias */
#define T_IMC 20     /* an uncore PMU of two boxes: CPUs 0-3 counted on CPU 0, 4-7 on CPU 4 */
#define T_ABSENT 33  /* a type the model does not name */
#define STEP_EN 1000 /* time enabled_ns / running_ns */

static const char model[] =
	"# test-kmodel's machine: 8 CPUs, two packages\n"
	"cpus 0-7\n"
	"time enabled_ns=1000\n"
	"pmu 4,0 core name=cpu counters=3\n"
	"pmu 20 uncore name=uncore_imc_0 counters=4 box=0-3@0 box=4-7@4\n"
	"pmu 21 uncore name=amd_umc_0 nobox=ENODEV box=0-3@0 # one socket's: ENODEV elsewhere\n"
	"event 4 0x3c count=100              # cycles: +100 each observation\n"
	"event 4 0xc0 count=7 running_ns=500 # multiplexed: runs half its time\n"
	"event 0 0 count=11                  # PERF_TYPE_HARDWARE cycles, the same PMU\n"
	"fail 20 0x99 errno=EBUSY\n"
	"event 20 0x1 cpu=0 count=1000       # box of package 0\n"
	"event 20 0x1 cpu=4 count=2000       # box of package 1\n"
	"event 20 * count=5                  # any other config, either box\n"
	"event 21 * count=9\n";

static int peo(uint32_t type, uint64_t config, uint64_t rf, int disabled, pid_t pid, int cpu, int group)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.read_format = rf;
	a.disabled = (unsigned)disabled;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
}

static uint64_t id_of(int fd)
{
	uint64_t id = 0;
	CHECK(ioctl(fd, PERF_EVENT_IOC_ID, &id) == 0, "PERF_EVENT_IOC_ID: %s", strerror(errno));
	return id;
}

/* read(2) of @fd into @v: the number of u64 read, or -errno */
static long rd(int fd, uint64_t *v, size_t n)
{
	ssize_t r = read(fd, v, n * sizeof(*v));
	return r < 0 ? -errno : (long)(r / 8);
}

static void expect(const char *what, int fd, const uint64_t *want, size_t n)
{
	uint64_t v[32];
	long got = rd(fd, v, 32);

	CHECK(got == (long)n, "%s: read %ld u64, want %zu", what, got, n);
	for (size_t i = 0; got == (long)n && i < n; i++)
		CHECK(v[i] == want[i], "%s: word %zu is %llu, want %llu", what, i, (unsigned long long)v[i],
		      (unsigned long long)want[i]);
}

static void expect_errno(const char *what, int fd, int err)
{
	CHECK(fd < 0 && errno == err, "%s: fd %d errno %s, want %s", what, fd, fd < 0 ? strerror(errno) : "-",
	      strerror(err));
	if (fd >= 0)
		close(fd);
}

static void raw(const char *log)
{
	const uint64_t te = PERF_FORMAT_TOTAL_TIME_ENABLED, tr = PERF_FORMAT_TOTAL_TIME_RUNNING, id = PERF_FORMAT_ID;
	const uint64_t grp = PERF_FORMAT_GROUP | te | tr | id; /* libpmu's read_format */
	int fd, l, m, u[6];
	uint64_t i1, i2, v[8];

	/* 1. one event of this task, counting from the open: each read observes it once */
	fd = peo(T_CORE, 0x3c, 0, 0, 0, -1, -1);
	CHECK(fd >= 0, "cycles: %s", strerror(errno));
	expect("cycles, 1st read: 1 x 100", fd, (uint64_t[]){ 100 }, 1);
	expect("cycles, 2nd read: 2 x 100", fd, (uint64_t[]){ 200 }, 1);
	CHECK(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED && errno == ENODEV,
	      "mmap of a model event: no user page (ENODEV)");
	CHECK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1) < 0 && errno == ENOTTY, "an ioctl the model has not: ENOTTY");
	close(fd);

	/* 2. times and id: {value, enabled, running, id}; the multiplexed one runs 500 of each 1000 ns */
	fd = peo(T_CORE, 0xc0, te | tr | id, 0, 0, -1, -1);
	i1 = id_of(fd);
	expect("0xc0 with times: 7, 1000, 500, id", fd, (uint64_t[]){ 7, STEP_EN, 500, i1 }, 4);
	CHECK(rd(fd, v, 3) == -ENOSPC, "a buffer of 3 u64 for 4: ENOSPC");
	expect("0xc0 after the refused read (refused before reading, as the kernel's read_size check): 14, 2000, "
	       "1000", fd, (uint64_t[]){ 14, 2 * STEP_EN, 1000, i1 }, 4);
	close(fd);
	fd = peo(PERF_TYPE_HARDWARE, 0, 0, 0, 0, -1, -1);
	expect("PERF_TYPE_HARDWARE cycles, the core PMU's other type: 11", fd, (uint64_t[]){ 11 }, 1);
	close(fd);

	/* 3. a group as libpmu opens it: leader disabled, member enabled, read as a group */
	l = peo(T_CORE, 0x3c, grp, 1, 0, -1, -1);
	m = peo(T_CORE, 0xc0, grp, 0, 0, -1, l);
	CHECK(l >= 0 && m >= 0, "group: %d %d", l, m);
	i1 = id_of(l);
	i2 = id_of(m);
	CHECK(i1 != i2 && i1 && i2, "ids unique: %llu %llu", (unsigned long long)i1, (unsigned long long)i2);
	expect("group before enabling: nothing counted", l, (uint64_t[]){ 2, 0, 0, 0, i1, 0, i2 }, 7);
	CHECK(ioctl(l, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0, "enable the group");
	CHECK(ioctl(l, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) == 0, "disable the group");
	/* pmu stat's order: enable, disable (one observation), read (stopped: none) */
	expect("group after enable, disable: 100 and 7, the leader's times", l,
	       (uint64_t[]){ 2, STEP_EN, STEP_EN, 100, i1, 7, i2 }, 7);
	expect("the same group read through the member", m, (uint64_t[]){ 2, STEP_EN, STEP_EN, 100, i1, 7, i2 }, 7);
	CHECK(ioctl(l, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) == 0, "reset the group");
	expect("group after reset: values 0, times kept", l, (uint64_t[]){ 2, STEP_EN, STEP_EN, 0, i1, 0, i2 }, 7);
	/* the leader alone enabled: the member, disabled by the group's disable, counts nothing */
	CHECK(ioctl(l, PERF_EVENT_IOC_ENABLE, 0) == 0, "enable the leader alone");
	expect("leader alone: 100, member 0", l, (uint64_t[]){ 2, STEP_EN * 2, STEP_EN * 2, 100, i1, 0, i2 }, 7);
	CHECK(ioctl(m, PERF_EVENT_IOC_ENABLE, 0) == 0, "enable the member");
	expect("both again: 200 and 7", l, (uint64_t[]){ 2, STEP_EN * 3, STEP_EN * 3, 200, i1, 7, i2 }, 7);
	fd = peo(T_CORE, 0x3c, grp, 0, 0, -1, l);
	CHECK(fd >= 0, "a third member (counters=3)");
	expect_errno("a fourth member: more than counters=3", peo(T_CORE, 0x3c, grp, 0, 0, -1, l), EINVAL);
	expect_errno("a member for another context (CPU 0, not this task)", peo(T_CORE, 0x3c, grp, 0, -1, 0, l),
		     EINVAL);
	expect_errno("an uncore member of a core group", peo(T_IMC, 0x1, grp, 0, -1, 0, l), EINVAL);
	close(fd);
	close(l); /* the member becomes its own leader */
	/* its own times: counted at the group's disable, at "both again" and now (1000/500 each); its value
	 * reset after the first, so 7 + 7 */
	expect("the member after its leader's close: a group of 1, its own times", m,
	       (uint64_t[]){ 1, STEP_EN * 3, 500 * 3, 14, i2 }, 5);
	close(m);

	/* 4. an uncore PMU: the kernel's refusals, and the box move */
	expect_errno("uncore for a task (pid 0, CPU 0)", peo(T_IMC, 0x1, 0, 0, 0, 0, -1), EINVAL);
	expect_errno("uncore for a task on any CPU", peo(T_IMC, 0x1, 0, 0, 0, -1, -1), EINVAL);
	expect_errno("CPU 8 of 8 (>= nr_cpu_ids)", peo(T_IMC, 0x1, 0, 0, -1, 8, -1), EINVAL);
	{
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = T_IMC;
		a.config = 1;
		a.exclude_kernel = 1;
		expect_errno("uncore with exclude_kernel (PERF_PMU_CAP_NO_EXCLUDE)",
			     (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, 0), EINVAL);
	}
	expect_errno("a fail line: config 0x99 is EBUSY", peo(T_IMC, 0x99, 0, 0, -1, 0, -1), EBUSY);
	u[0] = peo(T_IMC, 0x1, te | tr, 0, -1, 2, -1); /* CPU 2: package 0's box, on CPU 0 */
	u[1] = peo(T_IMC, 0x1, te | tr, 0, -1, 5, -1); /* CPU 5: package 1's box, on CPU 4 */
	u[2] = peo(T_IMC, 0x7, 0, 0, -1, 4, -1);       /* the * line */
	expect("IMC on CPU 2: counted on CPU 0's box, 1000", u[0], (uint64_t[]){ 1000, STEP_EN, STEP_EN }, 3);
	expect("IMC on CPU 5: counted on CPU 4's box, 2000", u[1], (uint64_t[]){ 2000, STEP_EN, STEP_EN }, 3);
	expect("IMC config 0x7: the * line, 5", u[2], (uint64_t[]){ 5 }, 1);
	CHECK(sysconf(_SC_NPROCESSORS_CONF) == 8 && sysconf(_SC_NPROCESSORS_ONLN) == 8,
	      "sysconf: the model's 8 CPUs (%ld, %ld)", sysconf(_SC_NPROCESSORS_CONF), sysconf(_SC_NPROCESSORS_ONLN));
	expect_errno("a member on the other box (CPU 4's group led on CPU 0's)", peo(T_IMC, 0x1, 0, 0, -1, 4, u[0]),
		     EINVAL);
	u[3] = peo(T_IMC, 0x1, 0, 0, -1, 1, u[0]); /* CPU 1: the same box as the leader's */
	u[4] = peo(T_IMC, 0x7, 0, 0, -1, 3, u[0]);
	u[5] = peo(T_IMC, 0x7, 0, 0, -1, 0, u[0]);
	CHECK(u[3] >= 0 && u[4] >= 0 && u[5] >= 0, "three members on the leader's box");
	expect_errno("a fifth IMC event in the group (counters=4)", peo(T_IMC, 0x7, 0, 0, -1, 0, u[0]), EINVAL);
	for (int k = 0; k < 6; k++)
		close(u[k]);
	expect_errno("an AMD UMC of socket 0 on CPU 5: no context there (nobox=ENODEV)", peo(21, 0x1, 0, 0, -1, 5, -1),
		     ENODEV);

	/* 5. a type the model does not name goes to the kernel: the host's software task-clock */
	fd = peo(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, 0, 0, -1, -1);
	CHECK(fd >= 0 || errno != ENOENT, "task-clock passed on to the kernel: %s", strerror(errno));
	if (fd >= 0) {
		CHECK(rd(fd, v, 1) == 1, "task-clock read from the kernel");
		close(fd);
	}
	{
		int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
		expect_errno("group_fd not a perf event (/dev/null): EBADF", peo(T_CORE, 0x3c, 0, 0, 0, -1, nul), EBADF);
		close(nul);
	}

	/* 6. the log: one line per open, where it was counted */
	{
		char line[512], all[16384] = "";
		FILE *f = fopen(log, "r");
		int opens = 0;
		CHECK(f != NULL, "log %s", log);
		while (f && fgets(line, sizeof(line), f)) {
			opens += !strncmp(line, "open ", 5);
			if (strlen(all) + strlen(line) < sizeof(all))
				strcat(all, line);
		}
		if (f)
			fclose(f);
		/* ids in the order of the opens that succeeded: cycles 1, 0xc0 2, hardware 3, the group 4 5 6 */
		CHECK(strstr(all, "open pmu=uncore_imc_0 type=20 config=0x1 config1=0x0 config2=0x0 pid=-1 cpu=2 "
				  "group=- flags=excl:- rf=0x3 -> id=7 cpu=0\n") != NULL,
		      "log: the IMC open on CPU 2, counted on CPU 0:\n%s", all);
		CHECK(strstr(all, "open pmu=uncore_imc_0 type=20 config=0x1 config1=0x0 config2=0x0 pid=-1 cpu=5 "
				  "group=- flags=excl:- rf=0x3 -> id=8 cpu=4\n") != NULL, "log: the IMC open on CPU 5");
		CHECK(strstr(all, "open pmu=uncore_imc_0 type=20 config=0x7 config1=0x0 config2=0x0 pid=-1 cpu=3 "
				  "group=7 flags=excl:- rf=0x0 -> id=11 cpu=0\n") != NULL, "log: a member names its leader");
		CHECK(strstr(all, "open pmu=uncore_imc_0 type=20 config=0x1 config1=0x0 config2=0x0 pid=0 cpu=0 "
				  "group=- flags=excl:- rf=0x0 -> errno=EINVAL\n") != NULL, "log: the task's refusal");
		CHECK(strstr(all, "open pmu=cpu type=4 config=0xc0 config1=0x0 config2=0x0 pid=0 cpu=-1 group=") != NULL,
		      "log: the group's member names its leader's id");
		CHECK(strstr(all, "ioctl id=") && strstr(all, " enable group\n") && strstr(all, "close id="),
		      "log: ioctls and closes");
		CHECK(strstr(all, "open kernel type=1 config=0x1 ") != NULL, "log: the open passed to the kernel");
		CHECK(opens == 25, "log: %d opens, want 25 (every call above)", opens);
	}
}

static void enoent(void)
{
	int fd = peo(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, 0, 0, -1, -1);
	expect_errno("others enoent: task-clock refused", fd, ENOENT);
	fd = peo(T_CORE, 0x3c, 0, 0, 0, -1, -1);
	CHECK(fd >= 0, "others enoent: the model's own type still opens");
	if (fd >= 0) {
		expect("and counts", fd, (uint64_t[]){ 100 }, 1);
		close(fd);
	}
}

static void off(void)
{
	/* no model: the host kernel answers; it has no type 33 PMU (its types are dynamic, from 6, and a
	 * machine of 27 PMUs past them is rare: ENOENT is the answer where it has none) */
	int fd = peo(T_ABSENT + 1000, 0x1, 0, 0, -1, 0, -1);
	expect_errno("without PMU_KMODEL the kernel answers (no type 1033)", fd, ENOENT);
	CHECK(sysconf(_SC_NPROCESSORS_ONLN) >= 1, "sysconf passed on");
}

/* Run this program again as @phase with LD_PRELOAD=@so and the model @file (NULL: none): its exit status. */
static int phase(const char *self, const char *so, const char *phase_name, const char *file, const char *log)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char opts[512];
		const char *asan = getenv("ASAN_OPTIONS");
		setenv("LD_PRELOAD", so, 1);
		if (file)
			setenv("PMU_KMODEL", file, 1);
		else
			unsetenv("PMU_KMODEL");
		setenv("PMU_KMODEL_LOG", log, 1);
		/* AddressSanitizer wants its runtime first in the list; the preload comes before it */
		snprintf(opts, sizeof(opts), "%s%sverify_asan_link_order=0", asan ? asan : "", asan ? ":" : "");
		setenv("ASAN_OPTIONS", opts, 1);
		execl(self, self, "--phase", phase_name, log, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/test-kmodel-XXXXXX", path[256], path2[256], log[256], self[4096];
	ssize_t n;
	FILE *f;
	int r;

	if (argc == 4 && !strcmp(argv[1], "--phase")) {
		if (!strcmp(argv[2], "raw"))
			raw(argv[3]);
		else if (!strcmp(argv[2], "enoent"))
			enoent();
		else
			off();
		return test_done(argv[2]);
	}
	if (argc != 2)
		SKIP("usage: test-kmodel KMODEL.so (meson passes it)");
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
		SKIP("no /proc/self/exe");
	self[n] = 0;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/model", dir);
	snprintf(path2, sizeof(path2), "%s/model-enoent", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	if (!(f = fopen(path, "w")) || fputs(model, f) < 0 || fclose(f) || !(f = fopen(path2, "w")) ||
	    fprintf(f, "%sothers enoent\n", model) < 0 || fclose(f)) {
		perror(path);
		return 1;
	}
	r = phase(self, argv[1], "raw", path, log);
	CHECK(r == 0, "phase raw: exit %d", r);
	snprintf(log, sizeof(log), "%s/log2", dir);
	r = phase(self, argv[1], "enoent", path2, log);
	CHECK(r == 0, "phase enoent: exit %d", r);
	r = phase(self, argv[1], "off", NULL, log);
	CHECK(r == 0, "phase off: exit %d", r);
	if (!test_failures) {
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", dir);
	} else
		fprintf(stderr, "kept %s\n", dir);
	return test_done("test-kmodel");
}
