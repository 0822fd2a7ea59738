/* SPDX-License-Identifier: MIT */
/*
 * Privilege modes and labels under kernel.perf_event_paranoid, as an
 * unprivileged user (run as root, the test drops to uid/gid 65534 first;
 * root may count every mode, so nothing would be refused).
 *
 * Oracle: the kernel itself. A raw perf_event_open() by the same user says
 * whether kernel mode may be counted (exclude_kernel = 0) and whether user
 * mode may (exclude_kernel = 1). Where the kernel refuses kernel mode, an
 * event written with a mode that includes kernel must fail with a sentence
 * naming the setting and the fix, and an event written without one may only
 * be counted in user mode, so its label must say so (":u", as perf names it)
 * and its flags must exclude kernel and hypervisor. The counts confirm it:
 * page faults the kernel takes on the process's behalf (read(2) into fresh
 * pages) are counted by a raw kernel-mode counter (measured as root first)
 * and not by the user-mode event.
 */
#include <fcntl.h>
#include <grp.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "page-faults.h"


static int raw_open(uint64_t config, int exclude_kernel)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.exclude_kernel = (unsigned)exclude_kernel;
	a.exclude_hv = (unsigned)exclude_kernel;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Faults counted by raw counter @fd over kernel_faults(). */
static long long raw_faults_over_kernel_work(int fd)
{
	uint64_t a = 0, b = 0;

	if (read(fd, &a, sizeof(a)) != sizeof(a) || kernel_faults() < 0 || read(fd, &b, sizeof(b)) != sizeof(b))
		return -1;
	return (long long)(b - a);
}

static void refused(struct pmu_ctx *ctx, const char *events, const char *fix)
{
	struct pmu_set *s = NULL;
	int r = pmu_set_open(ctx, events, NULL, &s);
	const char *msg = pmu_strerror(r);

	CHECK(r == -EACCES || r == -EPERM, "'%s' opened (%d) although the kernel refuses kernel mode", events, r);
	CHECK(strstr(msg, "perf_event_paranoid") && strstr(msg, fix), "'%s': message '%s' names no setting or fix '%s'",
	      events, msg, fix);
	pmu_set_close(s);
}

/* Event @i of @s is labelled @label and counts user mode only; @fallback: libpmu chose the mode. */
static void user_only(struct pmu_set *s, size_t i, const char *label, int fallback)
{
	struct pmu_event_info e;
	const unsigned uo = PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV;

	CHECK(pmu_set_event(s, i, &e) == 0, "event %zu", i);
	CHECK(!strcmp(e.name, label), "event %zu labelled '%s', expected '%s'", i, e.name, label);
	CHECK((e.flags & (uo | PMU_EVF_EXCL_USER)) == uo, "'%s': flags 0x%x do not say user mode only", e.name, e.flags);
	CHECK(!!(e.flags & PMU_EVF_USER_FALLBACK) == fallback, "'%s': fallback flag %d, expected %d", e.name,
	      !!(e.flags & PMU_EVF_USER_FALLBACK), fallback);
}

int main(void)
{
	struct pmu_set_opts uo = { sizeof(uo), PMU_SET_USER_ONLY, 0, -1 };
	struct pmu_ctx *ctx;
	struct pmu_set *s = NULL;
	struct pmu_value a[4], b[4];
	long long root_kernel_faults = -1;
	int fd, r;

	if (geteuid() == 0) {
		/* as root first: the raw kernel-mode counter sees the kernel's faults */
		if ((fd = raw_open(PERF_COUNT_SW_PAGE_FAULTS, 0)) >= 0) {
			root_kernel_faults = raw_faults_over_kernel_work(fd);
			close(fd);
		}
		CHECK(root_kernel_faults >= PAGE_FAULTS, "a kernel-mode counter saw %lld faults over read(2) into %d fresh "
		      "pages, expected >= %d", root_kernel_faults, PAGE_FAULTS, PAGE_FAULTS);
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			SKIP("cannot drop root privileges to uid 65534: %s", strerror(errno));
	}
	/* the oracle: what the kernel allows this user */
	fd = raw_open(PERF_COUNT_SW_CONTEXT_SWITCHES, 0);
	if (fd >= 0) {
		close(fd);
		SKIP("this user may count kernel mode (perf_event_paranoid <= 1 or CAP_PERFMON): nothing to fall back from");
	}
	if (errno != EACCES && errno != EPERM)
		SKIP("perf_event_open refused kernel mode with %s, not EACCES", strerror(errno));
	fd = raw_open(PERF_COUNT_SW_CONTEXT_SWITCHES, 1);
	if (fd < 0)
		SKIP("this user may not count even user mode (perf_event_paranoid >= 3?): %s", strerror(errno));
	close(fd);

	CHECK(pmu_ctx_new(&ctx, NULL) == 0, "context");
	if (!ctx)
		return test_done("test-modes");

	/* a mode written with kernel in it: exactly as asked, or a sentence with the fix */
	refused(ctx, "context-switches:k", "context-switches:u");
	refused(ctx, "context-switches:uk", "context-switches:u");
	refused(ctx, "{task-clock,page-faults}:k", "task-clock:u");
	refused(ctx, "task-clock,cpu-clock:ukh", "cpu-clock:u");
	refused(ctx, "software/config=3/k", "software/config=3/u");

	/* no mode written: user mode only, and the label says so; a written :u is kept as written */
	r = pmu_set_open(ctx, "task-clock,page-faults:u,context-switches,{cpu-clock,minor-faults},software/config=3/,"
			 "{cs,software/config=2/}:u", NULL, &s);
	CHECK(r == 0, "open: %s", pmu_strerror(r));
	if (r == 0) {
		CHECK(pmu_set_count(s) == 8, "8 values");
		user_only(s, 0, "task-clock:u", 1);
		user_only(s, 1, "page-faults:u", 0);
		user_only(s, 2, "context-switches:u", 1);
		user_only(s, 3, "cpu-clock:u", 1);
		user_only(s, 4, "minor-faults:u", 1);
		user_only(s, 5, "software/config=3/u", 1); /* perf's form after a PMU/.../ */
		user_only(s, 6, "cs:u", 0);                /* a {group}:u modifier named in each label */
		user_only(s, 7, "software/config=2/u", 0);
		pmu_set_close(s);
	}

	/* the counts agree with the label: faults taken in kernel mode are not counted, user ones are */
	r = pmu_set_open(ctx, "page-faults", NULL, &s);
	CHECK(r == 0, "open page-faults: %s", pmu_strerror(r));
	if (r == 0) {
		size_t ps = (size_t)sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, PAGE_FAULTS * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		user_only(s, 0, "page-faults:u", 1);
		pmu_set_enable(s);
		CHECK(pmu_set_read(s, a) == 0 && kernel_faults() == 0 && pmu_set_read(s, b) == 0, "kernel faults");
		CHECK(b[0].value - a[0].value < PAGE_FAULTS / 4, "'page-faults:u' counted %llu of %d faults taken in kernel mode",
		      (unsigned long long)(b[0].value - a[0].value), PAGE_FAULTS);
		CHECK(p != MAP_FAILED, "mmap");
		if (p != MAP_FAILED) {
			madvise(p, PAGE_FAULTS * ps, MADV_NOHUGEPAGE);
			CHECK(pmu_set_read(s, a) == 0, "read");
			for (size_t i = 0; i < PAGE_FAULTS; i++)
				((volatile char *)p)[i * ps] = 1;
			CHECK(pmu_set_read(s, b) == 0, "read");
			CHECK(b[0].value - a[0].value >= PAGE_FAULTS, "'page-faults:u' counted %llu of %d faults taken in user mode",
			      (unsigned long long)(b[0].value - a[0].value), PAGE_FAULTS);
			munmap(p, PAGE_FAULTS * ps);
		}
		pmu_set_close(s);
	}

	/* PMU_SET_USER_ONLY: labelled too, and a written kernel mode is refused instead of dropped */
	r = pmu_set_open(ctx, "task-clock,{page-faults,context-switches:u}", &uo, &s);
	CHECK(r == 0, "open user-only: %s", pmu_strerror(r));
	if (r == 0) {
		user_only(s, 0, "task-clock:u", 0);
		user_only(s, 1, "page-faults:u", 0);
		user_only(s, 2, "context-switches:u", 0);
		pmu_set_close(s);
	}
	s = NULL;
	r = pmu_set_open(ctx, "task-clock:k", &uo, &s);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "PMU_SET_USER_ONLY"), "task-clock:k with PMU_SET_USER_ONLY: %d %s",
	      r, pmu_strerror(r));
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return test_done("test-modes");
}
