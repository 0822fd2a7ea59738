/* SPDX-License-Identifier: MIT */
/*
 * PMU_SET_KERNEL_ONLY: every event of the set counts kernel mode only, exactly as the :k modifier
 * makes it, and its label says so; the mirror of PMU_SET_USER_ONLY (test-modes).
 *
 * Oracles:
 * 1. The attribute bits: perf itself. `perf stat -vv -e task-clock:k` prints the perf_event_attr it
 *    opens (fields that are 0 left out); the exclude_user, exclude_kernel and exclude_hv of each event
 *    of the set must be perf's for the same name with :k. Where perf cannot run, the bits written by
 *    hand from the kernel ABI (linux/perf_event.h: :k counts kernel mode, so user and hypervisor are
 *    excluded) are the only oracle, and a note says so. The hand-written bits are checked always.
 * 2. The labels: perf's spelling ("task-clock:k", "software/config=3/k"), and pmu_event_resolve() of
 *    the name with :k written gives the same flags.
 * 3. The counts: the kernel's own accounting. Page faults the kernel takes for the process (read(2)
 *    into fresh pages) are counted by page-faults:k, faults of user-mode stores are not. task-clock:k
 *    of a loop of getppid() calls is > 0, and at most the whole task-clock (the kernel counts
 *    task-clock by the task's run time and does not split it by mode: perf stat shows task-clock:k
 *    equal to task-clock; its share in kernel mode is getrusage()'s ru_stime, printed beside it).
 * 4. The user-mode fallback: as uid 65534 under kernel.perf_event_paranoid >= 2 a set without a mode
 *    falls back to user mode, a kernel-only set is refused with the access message instead.
 * Refusals: a written user mode, both flags. Counting kernel mode needs root or paranoid <= 1 (77).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "set.h"   /* pmu__set_attr (lib/): the perf_event_attr each event was opened with */
#include "harness.h"
#include "page-faults.h"

#define KMODE (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_HV)
#define MODES (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV)

/* The exclude_* bits of one perf_event_attr: user, kernel, hv. */
struct excl {
	int user, kernel, hv;
};

/* The kernel ABI's bits for :k, written by hand: kernel mode counted, user and hypervisor excluded. */
static const struct excl abi_k = { 1, 0, 1 };

/* The exclude_* bits of each perf_event_attr `perf stat -vv -e @events true` prints, into @out (up to
 * @n); the number printed, or -1 when perf cannot run here (the reason in @why). */
static int perf_attrs(const char *events, struct excl *out, int n, char *why, size_t len)
{
	char cmd[512], line[512];
	int k = -1, st;
	FILE *p;

	if (access("/usr/bin/perf", X_OK) != 0) {
		snprintf(why, len, "/usr/bin/perf is not installed");
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf stat -vv -e '%s' true 2>&1", events);
	if (!(p = popen(cmd, "r"))) {
		snprintf(why, len, "popen: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), p)) {
		char field[64];
		int v;
		if (!strncmp(line, "perf_event_attr:", 16)) {
			if (++k < n)
				out[k] = (struct excl){ 0, 0, 0 }; /* perf leaves out the fields that are 0 */
			continue;
		}
		if (k < 0 || k >= n || sscanf(line, " %63s %d", field, &v) != 2)
			continue;
		if (!strcmp(field, "exclude_user"))
			out[k].user = v;
		else if (!strcmp(field, "exclude_kernel"))
			out[k].kernel = v;
		else if (!strcmp(field, "exclude_hv"))
			out[k].hv = v;
	}
	st = pclose(p);
	if (st != 0 || k < 0) {
		snprintf(why, len, "'%s' exited with status %d and printed %d attributes (perf_event_paranoid, "
			 "or a perf without -vv?)", cmd, st, k + 1);
		return -1;
	}
	return k + 1;
}

/* Event @i of @s: labelled @label, counting kernel mode only in its flags and in the attribute it was
 * opened with (the hand-written ABI bits, and perf's @perf when not NULL); its flags those of @name
 * resolved with :k written (NULL: not compared). */
static void kernel_only(struct pmu_ctx *ctx, struct pmu_set *s, size_t i, const char *label, const char *written,
			const struct excl *perf)
{
	const struct perf_event_attr *a = pmu__set_attr(s, i);
	struct pmu_event_info e, w;

	CHECK(pmu_set_event(s, i, &e) == 0, "event %zu", i);
	CHECK(!strcmp(e.name, label), "event %zu labelled '%s', expected '%s'", i, e.name, label);
	CHECK((e.flags & MODES) == KMODE, "'%s': flags 0x%x do not say kernel mode only", e.name, e.flags);
	CHECK(!(e.flags & PMU_EVF_USER_FALLBACK), "'%s': flagged as the user-mode fallback", e.name);
	CHECK((int)a->exclude_user == abi_k.user && (int)a->exclude_kernel == abi_k.kernel &&
	      (int)a->exclude_hv == abi_k.hv, "'%s': attr exclude_user %u kernel %u hv %u, the ABI's :k is 1 0 1",
	      e.name, a->exclude_user, a->exclude_kernel, a->exclude_hv);
	if (perf)
		CHECK((int)a->exclude_user == perf->user && (int)a->exclude_kernel == perf->kernel &&
		      (int)a->exclude_hv == perf->hv, "'%s': attr exclude_user %u kernel %u hv %u, perf's %d %d %d",
		      e.name, a->exclude_user, a->exclude_kernel, a->exclude_hv, perf->user, perf->kernel, perf->hv);
	if (written) {
		int r = pmu_event_resolve(ctx, written, &w);
		CHECK(r == 0, "resolve '%s': %s", written, pmu_strerror(r));
		if (r == 0)
			CHECK((w.flags & ~PMU_EVF_UNSUPPORTED) == (e.flags & ~PMU_EVF_UNSUPPORTED),
			      "'%s' in a kernel-only set: flags 0x%x, '%s' resolves to 0x%x", label, e.flags, written,
			      w.flags);
	}
}

/* @events with @flags is refused with -EINVAL by pmu_set_open() and pmu_set_check(), the message naming
 * @word. */
static void refused(struct pmu_ctx *ctx, const char *events, unsigned flags, const char *word)
{
	struct pmu_set_opts o = { sizeof(o), flags, 0, -1 };
	struct pmu_set *s = NULL;
	int r = pmu_set_open(ctx, events, &o, &s);

	CHECK(r == -EINVAL && strstr(pmu_strerror(r), word), "'%s' with flags 0x%x: %d '%s', want -EINVAL naming %s",
	      events, flags, r, pmu_strerror(r), word);
	CHECK(s == NULL, "'%s': a set although refused", events);
	pmu_set_close(s);
	r = pmu_set_check(ctx, events, &o);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), word), "pmu_set_check '%s' with flags 0x%x: %d '%s'", events,
	      flags, r, pmu_strerror(r));
}

static double tv_ms(struct timeval t)
{
	return t.tv_sec * 1e3 + t.tv_usec / 1e3;
}

/* The counts follow the label: kernel-mode faults counted, user-mode ones not; task-clock:k of system
 * calls. */
static void counts(struct pmu_ctx *ctx)
{
	struct pmu_set_opts ko = { sizeof(ko), PMU_SET_KERNEL_ONLY, 0, -1 };
	struct pmu_set *k = NULL, *all = NULL;
	struct pmu_value a[2], b[2], wa[1], wb[1];
	struct rusage r0, r1;
	int r;

	r = pmu_set_open(ctx, "page-faults,task-clock", &ko, &k);
	CHECK(r == 0, "open page-faults,task-clock kernel-only: %s", pmu_strerror(r));
	if (r < 0)
		return;
	r = pmu_set_open(ctx, "task-clock", NULL, &all);
	CHECK(r == 0, "open task-clock: %s", pmu_strerror(r));
	if (r < 0) {
		pmu_set_close(k);
		return;
	}
	kernel_only(ctx, k, 0, "page-faults:k", "page-faults:k", NULL);
	pmu_set_enable(k);
	CHECK(pmu_set_read(k, a) == 0 && kernel_faults() == 0 && pmu_set_read(k, b) == 0, "kernel faults");
	CHECK(b[0].value - a[0].value >= PAGE_FAULTS, "'page-faults:k' counted %llu of %d faults taken in kernel mode",
	      (unsigned long long)(b[0].value - a[0].value), PAGE_FAULTS);
	CHECK(pmu_set_read(k, a) == 0 && user_faults() == 0 && pmu_set_read(k, b) == 0, "user faults");
	CHECK(b[0].value - a[0].value < PAGE_FAULTS / 4, "'page-faults:k' counted %llu of %d faults taken in user mode",
	      (unsigned long long)(b[0].value - a[0].value), PAGE_FAULTS);

	/* system calls: time in the kernel (ru_stime) */
	pmu_set_enable(all);
	getrusage(RUSAGE_SELF, &r0);
	CHECK(pmu_set_read(k, a) == 0 && pmu_set_read(all, wa) == 0, "read");
	for (long i = 0; i < 300000; i++)
		syscall(SYS_getppid);
	CHECK(pmu_set_read(k, b) == 0 && pmu_set_read(all, wb) == 0, "read");
	getrusage(RUSAGE_SELF, &r1);
	{
		double kms = (b[1].value - a[1].value) / 1e6, wms = (wb[0].value - wa[0].value) / 1e6;
		double sys = tv_ms(r1.ru_stime) - tv_ms(r0.ru_stime), usr = tv_ms(r1.ru_utime) - tv_ms(r0.ru_utime);
		printf("300000 getppid(): task-clock:k %.2f ms, task-clock %.2f ms; rusage sys %.2f ms, user %.2f ms\n",
		       kms, wms, sys, usr);
		CHECK(kms > 0, "task-clock:k counted nothing over 300000 system calls");
		CHECK(kms <= wms * 1.01 + 0.5, "task-clock:k %.2f ms is more than the whole task-clock %.2f ms", kms, wms);
	}
	pmu_set_close(k);
	pmu_set_close(all);
}

/* The library's warnings that name the user-mode fallback */
static int fallback_warnings;
static void count_fallback(void *data, int level, const char *msg)
{
	(void)data;
	if (level == PMU_LOG_WARN && strstr(msg, "user mode only"))
		fallback_warnings++;
}

/* As uid 65534 where kernel mode is forbidden: a set without a mode falls back to user mode (one
 * warning, none with PMU_SET_QUIET_FALLBACK), a kernel-only one is refused with the access message. In a
 * child (privileges dropped for good). */
static void no_fallback(void)
{
	pid_t c;
	int st = 0;

	fflush(stdout);
	if ((c = fork()) == 0) {
		struct pmu_set_opts ko = { sizeof(ko), PMU_SET_KERNEL_ONLY, 0, -1 };
		struct pmu_event_info e;
		struct pmu_ctx *ctx;
		struct pmu_set *s = NULL;
		struct perf_event_attr a;
		int fd, r;
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			_exit(77);
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		if ((fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC)) >= 0) {
			close(fd);
			_exit(78); /* this user may count kernel mode: nothing to fall back from */
		}
		struct pmu_ctx_opts co = { .size = sizeof(co), .log_level = PMU_LOG_WARN, .log_fn = count_fallback };
		struct pmu_set_opts qo = { sizeof(qo), PMU_SET_QUIET_FALLBACK, 0, -1 };
		if (pmu_ctx_new(&ctx, &co) < 0)
			_exit(1);
		r = pmu_set_open(ctx, "task-clock,page-faults", NULL, &s);
		CHECK(r == 0, "as uid 65534, task-clock: %s", pmu_strerror(r));
		if (r == 0) {
			pmu_set_event(s, 0, &e);
			CHECK((e.flags & PMU_EVF_USER_FALLBACK) && !strcmp(e.name, "task-clock:u"),
			      "as uid 65534, task-clock opened as '%s' flags 0x%x, expected the fallback task-clock:u",
			      e.name, e.flags);
			CHECK(fallback_warnings == 1, "as uid 65534: %d warnings of the fallback of 2 events, want one",
			      fallback_warnings);
			pmu_set_close(s);
		}
		fallback_warnings = 0;
		s = NULL;
		r = pmu_set_open(ctx, "task-clock,page-faults", &qo, &s);
		CHECK(r == 0, "as uid 65534, PMU_SET_QUIET_FALLBACK: %s", pmu_strerror(r));
		if (r == 0) {
			pmu_set_event(s, 1, &e);
			CHECK((e.flags & PMU_EVF_USER_FALLBACK) && !strcmp(e.name, "page-faults:u") && fallback_warnings == 0,
			      "PMU_SET_QUIET_FALLBACK: '%s' flags 0x%x, %d warnings; want page-faults:u, the flag, none",
			      e.name, e.flags, fallback_warnings);
			pmu_set_close(s);
		}
		s = NULL;
		r = pmu_set_open(ctx, "task-clock,{page-faults,context-switches}", &ko, &s);
		CHECK((r == -EACCES || r == -EPERM) && strstr(pmu_strerror(r), "perf_event_paranoid") &&
		      strstr(pmu_strerror(r), "task-clock:k"),
		      "as uid 65534, a kernel-only set: %d '%s', want -EACCES naming the setting and task-clock:k", r,
		      pmu_strerror(r));
		CHECK(s == NULL, "a kernel-only set opened (in user mode?) as uid 65534");
		pmu_set_close(s);
		pmu_ctx_free(ctx);
		_exit(test_failures ? 1 : 0);
	}
	if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st)) {
		CHECK(0, "the unprivileged child did not finish (status 0x%x)", st);
		return;
	}
	if (WEXITSTATUS(st) == 77 || WEXITSTATUS(st) == 78) {
		printf("note: the user-mode fallback not checked: %s\n", WEXITSTATUS(st) == 77 ?
		       "privileges cannot be dropped to uid 65534" : "uid 65534 may count kernel mode here "
		       "(kernel.perf_event_paranoid <= 1)");
		return;
	}
	CHECK(WEXITSTATUS(st) == 0, "as uid 65534: failed (see above)");
	test_checks++;
}

int main(void)
{
	struct pmu_set_opts ko = { sizeof(ko), PMU_SET_KERNEL_ONLY, 0, -1 };
	struct pmu_set_opts kos = { sizeof(kos), PMU_SET_KERNEL_ONLY | PMU_SET_SKIP_UNSUPPORTED, 0, -1 };
	struct excl perf[4], *ptc = NULL, *ppf = NULL, *pgroup = NULL;
	struct pmu_event_info e;
	struct pmu_ctx *ctx;
	struct pmu_set *s = NULL;
	struct perf_event_attr raw;
	char why[512];
	int fd, r;

	memset(&raw, 0, sizeof(raw));
	raw.size = sizeof(raw);
	raw.type = PERF_TYPE_SOFTWARE;
	raw.config = PERF_COUNT_SW_TASK_CLOCK;
	raw.exclude_user = raw.exclude_hv = 1;
	if ((fd = (int)syscall(SYS_perf_event_open, &raw, 0, -1, -1, PERF_FLAG_FD_CLOEXEC)) < 0)
		SKIP("this user may not count kernel mode (perf_event_open: %s; kernel.perf_event_paranoid >= 2 "
		     "without root or CAP_PERFMON)", strerror(errno));
	close(fd);
	CHECK(pmu_ctx_new(&ctx, NULL) == 0, "context");
	if (!ctx)
		return test_done("test-set-kernel-only");

	/* perf's attributes for the same names with :k, where perf runs */
	if (perf_attrs("task-clock:k", perf, 1, why, sizeof(why)) == 1 &&
	    perf_attrs("page-faults:k", perf + 1, 1, why, sizeof(why)) == 1 &&
	    perf_attrs("{task-clock,page-faults}:k", perf + 2, 2, why, sizeof(why)) == 2) {
		ptc = &perf[0];
		ppf = &perf[1];
		pgroup = &perf[2];
		printf("perf's task-clock:k: exclude_user %d exclude_kernel %d exclude_hv %d\n", ptc->user, ptc->kernel,
		       ptc->hv);
	} else {
		printf("note: perf's attributes not compared (the kernel ABI's written in the test are): %s\n", why);
	}

	/* a software event, one with :k written (kept, not doubled), a PMU/.../ spelling, a tool event */
	r = pmu_set_open(ctx, "task-clock,page-faults,context-switches:k,software/config=3/,duration_time", &ko, &s);
	CHECK(r == 0, "open kernel-only: %s", pmu_strerror(r));
	if (r == 0) {
		CHECK(pmu_set_count(s) == 5, "5 values");
		kernel_only(ctx, s, 0, "task-clock:k", "task-clock:k", ptc);
		kernel_only(ctx, s, 1, "page-faults:k", "page-faults:k", ppf);
		kernel_only(ctx, s, 2, "context-switches:k", "context-switches:k", ptc);
		kernel_only(ctx, s, 3, "software/config=3/k", "software/config=3/k", ptc);
		CHECK(pmu_set_event(s, 4, &e) == 0 && !strcmp(e.name, "duration_time") && !(e.flags & MODES),
		      "the tool event: '%s' flags 0x%x, expected duration_time without a mode", e.name, e.flags);
		pmu_set_close(s);
	}
	/* a {group}: each member labelled, one group */
	s = NULL;
	r = pmu_set_open(ctx, "{task-clock,page-faults}", &ko, &s);
	CHECK(r == 0, "open a kernel-only group: %s", pmu_strerror(r));
	if (r == 0) {
		kernel_only(ctx, s, 0, "task-clock:k", "task-clock:k", pgroup);
		kernel_only(ctx, s, 1, "page-faults:k", "page-faults:k", pgroup ? pgroup + 1 : NULL);
		CHECK(pmu_set_group_of(s, 0) == pmu_set_group_of(s, 1), "the group split");
		pmu_set_close(s);
	}
	/* a generic hardware event: no hardware PMU on a VM, so kept unsupported, labelled and encoded */
	s = NULL;
	r = pmu_set_open(ctx, "cycles,instructions:k", &kos, &s);
	CHECK(r == 0, "open cycles kernel-only (PMU_SET_SKIP_UNSUPPORTED): %s", pmu_strerror(r));
	if (r == 0) {
		kernel_only(ctx, s, 0, "cycles:k", "cycles:k", ptc);
		kernel_only(ctx, s, 1, "instructions:k", "instructions:k", ptc);
		pmu_set_event(s, 0, &e);
		printf("cycles in a kernel-only set: '%s' type %u config 0x%llx%s\n", e.name, e.type,
		       (unsigned long long)e.config, e.flags & PMU_EVF_UNSUPPORTED ? " (not countable here)" : "");
		pmu_set_close(s);
	}

	/* refusals: another mode written, the two flags together */
	refused(ctx, "task-clock:u", PMU_SET_KERNEL_ONLY, "PMU_SET_KERNEL_ONLY");
	refused(ctx, "page-faults,task-clock:uk", PMU_SET_KERNEL_ONLY, "PMU_SET_KERNEL_ONLY");
	refused(ctx, "task-clock:kh", PMU_SET_KERNEL_ONLY, "PMU_SET_KERNEL_ONLY");
	refused(ctx, "{task-clock,page-faults}:u", PMU_SET_KERNEL_ONLY, "PMU_SET_KERNEL_ONLY");
	refused(ctx, "task-clock", PMU_SET_KERNEL_ONLY | PMU_SET_USER_ONLY, "PMU_SET_USER_ONLY and PMU_SET_KERNEL_ONLY");
	refused(ctx, "task-clock:k", PMU_SET_USER_ONLY, "PMU_SET_USER_ONLY"); /* the mirror, still */

	counts(ctx);
	if (geteuid() == 0)
		no_fallback();
	else
		printf("note: the user-mode fallback not checked: not root (the test drops to uid 65534 for it)\n");
	pmu_ctx_free(ctx);
	return test_done("test-set-kernel-only");
}
