/* SPDX-License-Identifier: MIT */
/*
 * The sentence pmu_set_open() gives when the kernel refuses an event, as an
 * unprivileged user (run as root, the test drops to uid/gid 65534 first).
 *
 * Oracle: the kernel itself. A raw perf_event_open() by the same user says
 * whether counting every task of CPU 0 is refused (the kernel allows it at
 * kernel.perf_event_paranoid <= 0 only) and whether kernel mode of the
 * caller is refused (<= 1). Where it refuses, the sentence must name a level
 * that allows the request (0 for a CPU, 1 for kernel mode) and no higher
 * one, and must not suggest a spelling the name already has or that would
 * not help ("task-clock:u:u", ":u" for a whole CPU). The advice is also
 * built for a context that reads paranoid 3 from a fixture (Debian's level):
 * whole CPUs still need 0 there, not the 2 that level 3 usually gets told.
 */
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pmu.h>
#include "fixture.h"
#include "harness.h"

/* The procfs root the paranoid-3 context reads: the fixture's, or (run as root) a copy of its one file
 * in a directory every user can read, for the child dropped to uid 65534 (a checkout under /root,
 * mode 700, is not readable by it). */
static char proc3_root[1024];

static int raw_open(int exclude_kernel, pid_t pid, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = (unsigned)exclude_kernel;
	a.exclude_hv = (unsigned)exclude_kernel;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Every "sysctl kernel.perf_event_paranoid=N" in @msg is at most @max, and there is one. */
static void suggests_at_most(const char *msg, int max, const char *what)
{
	int found = 0;

	for (const char *p = msg; (p = strstr(p, "sysctl kernel.perf_event_paranoid=")); p++, found++) {
		int n = atoi(p + strlen("sysctl kernel.perf_event_paranoid="));
		CHECK(n <= max, "%s: suggests paranoid=%d, which does not allow it (<= %d): %s", what, n, max, msg);
	}
	CHECK(found, "%s: names no level to set: %s", what, msg);
}

static void refused(struct pmu_ctx *ctx, const char *events, bool cpu_wide, int max, const char *user_alt,
		    const char *what)
{
	struct pmu_set_opts o = { sizeof(o), cpu_wide ? PMU_SET_CPU | PMU_SET_PID : 0, cpu_wide ? -1 : 0, 0 };
	struct pmu_set *s = NULL;
	int r = pmu_set_open(ctx, events, &o, &s);
	const char *msg = pmu_strerror(r);

	CHECK(r == -EACCES || r == -EPERM, "%s: '%s' opened (%d) although the kernel refuses it", what, events, r);
	if (r == 0) {
		pmu_set_close(s);
		return;
	}
	suggests_at_most(msg, max, what);
	CHECK(!strstr(msg, ":u:u") && !strstr(msg, ":uu"), "%s: a modifier repeated: %s", what, msg);
	if (user_alt)
		CHECK(strstr(msg, user_alt) != NULL, "%s: does not offer '%s': %s", what, user_alt, msg);
	else
		CHECK(!strstr(msg, "user mode only with"), "%s: offers user mode only, which would not help: %s", what,
		      msg);
	if (cpu_wide)
		CHECK(strstr(msg, "CPU 0") != NULL, "%s: the CPU is not named: %s", what, msg);
}

static int run_checks(void)
{
	const char *src = getenv("PMU_TEST_SRCDIR");
	char proc3[1024];
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx, *ctx3 = NULL;
	int fd;

	if ((fd = raw_open(1, -1, 0)) >= 0) {
		close(fd);
		SKIP("this user may count every task of CPU 0 (perf_event_paranoid <= 0 or CAP_PERFMON): nothing is "
		     "refused");
	}
	if (errno != EACCES && errno != EPERM)
		SKIP("perf_event_open of a CPU-wide event failed with %s, not a permission error", strerror(errno));
	if (pmu_ctx_new(&ctx, NULL) < 0)
		return 1;
	refused(ctx, "task-clock:u", true, 0, NULL, "CPU-wide, user mode written");
	refused(ctx, "task-clock", true, 0, NULL, "CPU-wide, no mode written");
	refused(ctx, "{task-clock,page-faults}:u", true, 0, NULL, "CPU-wide group, user mode");
	if ((fd = raw_open(0, 0, -1)) >= 0) {
		close(fd);
		printf("note: this user may count kernel mode here; the kernel-mode refusals were not checked\n");
	} else {
		refused(ctx, "task-clock:k", false, 1, "'task-clock:u'", "kernel mode written");
		refused(ctx, "task-clock:pk", false, 1, "'task-clock:pu'", "kernel mode and p written");
		refused(ctx, "{task-clock,cs}:Dk", false, 1, "'task-clock:Du'", "a group's D and k");
	}
	/* the same refusal explained for a context that reads Debian's level 3 */
	if (proc3_root[0])
		snprintf(proc3, sizeof(proc3), "%s/proc", proc3_root);
	else
		snprintf(proc3, sizeof(proc3), "%s/tests/fixtures/paranoid-3/proc", src ? src : ".");
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.procfs_root = proc3;
	CHECK(pmu_ctx_new(&ctx3, &o) == 0, "context with paranoid 3");
	if (ctx3) {
		refused(ctx3, "task-clock:u", true, 0, NULL, "paranoid 3, CPU-wide");
		pmu_ctx_free(ctx3);
	}
	pmu_ctx_free(ctx);
	return test_done("test-access-refusal");
}

int main(void)
{
	pid_t pid;
	int st = 0;

	char tmpl[] = "/tmp/pmu-refusal-XXXXXX";

	if (geteuid() != 0)
		return run_checks();
	/* tests/fixtures/paranoid-3's one file (Debian's level 3), where uid 65534 can read it */
	umask(022);
	if (!mkdtemp(tmpl) || chmod(tmpl, 0755) < 0) {
		perror(tmpl);
		return 1;
	}
	fixture_put(tmpl, "proc/sys/kernel/perf_event_paranoid", "3\n");
	snprintf(proc3_root, sizeof(proc3_root), "%s", tmpl);
	/* as uid 65534, in a child: the kernel's refusals apply to it */
	fflush(NULL);
	if ((pid = fork()) == 0) {
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			SKIP("cannot drop root privileges to uid 65534: %s", strerror(errno));
		exit(run_checks());
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		st = 1 << 8;
	fixture_remove(tmpl);
	return WEXITSTATUS(st);
}
