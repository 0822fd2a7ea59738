/* SPDX-License-Identifier: MIT */
/*
 * Tracepoints SYS:NAME on fixture tracefs trees: the encoding is
 * PERF_TYPE_TRACEPOINT (2) with config = the number in events/SYS/NAME/id.
 *
 * Oracle: the ids were chosen when the fixtures were written and are
 * repeated here by hand (tests/fixtures/vm-tracefs: sched_switch 316,
 * irq_handler_entry 117, sys_enter_openat 633; vm-debugfs-tracing, where
 * tracefs is only under debugfs as on older systems: sched_switch 285).
 * perf looks for tracefs at /sys/kernel/tracing, then
 * /sys/kernel/debug/tracing (tools/lib/api/fs/fs.c, linux-source-6.12);
 * libpmu does the same under the context's sysfs root. The errors are
 * checked for their cause and their fix: not mounted, not readable (as uid
 * 65534 when run as root, or a directory of mode 000 otherwise), unknown
 * subsystem and unknown tracepoint with the closest names.
 */
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "fixture.h"

static void enc(struct pmu_ctx *ctx, const char *name, uint64_t config, const char *what)
{
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, name, &e);

	CHECK(r == 0, "%s: '%s' does not resolve: %s", what, name, pmu_strerror(r));
	if (r)
		return;
	CHECK(e.type == PERF_TYPE_TRACEPOINT && e.config == config && e.config1 == 0 && e.source == PMU_SRC_TRACEPOINT,
	      "%s: '%s' is type %u config %llu source %d, expected type 2 config %llu", what, name, e.type,
	      (unsigned long long)e.config, e.source, (unsigned long long)config);
	CHECK(!strcmp(e.pmu, "tracepoint") && strstr(e.origin, "/id"), "%s: '%s' pmu '%s' origin '%s'", what, name,
	      e.pmu, e.origin);
	CHECK(!(e.flags & PMU_EVF_SOFTWARE), "%s: '%s' flagged software (it cannot fall back to user mode)", what,
	      name);
}

static void fails(struct pmu_ctx *ctx, const char *name, int err, const char *w1, const char *w2)
{
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, name, &e);
	const char *m = pmu_strerror(r);

	CHECK(r == err, "'%s': %d, expected %d (%s)", name, r, err, m);
	CHECK(strstr(m, w1) && (!w2 || strstr(m, w2)), "'%s': message '%s' lacks '%s'%s%s", name, m, w1,
	      w2 ? " or " : "", w2 ? w2 : "");
}

/* A context whose sysfs root is @root (a temporary tree). */
static struct pmu_ctx *ctx_at(const char *root)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = root;
	o.cpuid = "AuthenticAMD-25-1-1";
	return pmu_ctx_new(&ctx, &o) == 0 ? ctx : NULL;
}

int main(void)
{
	struct pmu_ctx *ctx = fixture_ctx("vm-tracefs", NULL);
	char tmp[] = "/tmp/pmu-tracefs-XXXXXX", path[512];
	struct pmu_event_info e;

	CHECK(ctx != NULL, "fixture vm-tracefs");
	if (!ctx)
		return test_done("test-tracepoint");
	enc(ctx, "sched:sched_switch", 316, "tracefs");
	enc(ctx, "irq:irq_handler_entry", 117, "tracefs");
	enc(ctx, "syscalls:sys_enter_openat", 633, "tracefs");
	enc(ctx, "sched:sched_switch:k", 316, "with :k");
	CHECK(pmu_event_resolve(ctx, "sched:sched_switch:k", &e) == 0 &&
	      (e.flags & (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV)) == (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_HV),
	      "sched:sched_switch:k counts kernel mode only (flags 0x%x)", e.flags);
	/* the tracepoint PMU of the fixture's sysfs counts it */
	fails(ctx, "sched:sched_swich", -ENOENT, "no tracepoint 'sched_swich'", "did you mean: sched_switch");
	fails(ctx, "shed:sched_switch", -ENOENT, "no tracepoint subsystem 'shed'", "did you mean: sched");
	fails(ctx, "sched:nosuchthing", -ENOENT, "no tracepoint 'nosuchthing'", "events/sched lists them");
	fails(ctx, "sched:enable", -ENOENT, "no tracepoint 'enable'", NULL); /* a file of tracefs, no tracepoint */
	fails(ctx, "task-clock:zz", -EINVAL, "'zz' is not a modifier", "p, pp, ppp");
	fails(ctx, "sched:*", -EINVAL, "tracepoint glob", "event list");
	pmu_ctx_free(ctx);

	/* tracefs under debugfs only */
	ctx = fixture_ctx("vm-debugfs-tracing", NULL);
	CHECK(ctx != NULL, "fixture vm-debugfs-tracing");
	if (ctx) {
		enc(ctx, "sched:sched_switch", 285, "debugfs/tracing");
		pmu_ctx_free(ctx);
	}

	/* no tracefs at all, then an empty mount point: not mounted, and how to mount it */
	if (!mkdtemp(tmp))
		return 1;
	ctx = ctx_at(tmp);
	if (ctx) {
		fails(ctx, "sched:sched_switch", -ENOENT, "does not have", "mount -t tracefs nodev /sys/kernel/tracing");
		pmu_ctx_free(ctx);
	}
	snprintf(path, sizeof(path), "%s/kernel", tmp);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/kernel/tracing", tmp);
	mkdir(path, 0755);
	ctx = ctx_at(tmp);
	if (ctx) {
		char want[600];
		snprintf(want, sizeof(want), "mount -t tracefs nodev %s/kernel/tracing", tmp);
		fails(ctx, "sched:sched_switch", -ENOENT, "not mounted", want);
		/* an event with a bad modifier is still said so, tracefs or not */
		fails(ctx, "task-clock:zz", -EINVAL, "'zz' is not a modifier", NULL);
		pmu_ctx_free(ctx);
	}
	/* mounted, but root-only (tracefs's default mode 700): as another user it cannot be read */
	snprintf(path, sizeof(path), "%s/kernel/tracing/events", tmp);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/kernel/tracing", tmp);
	chmod(path, geteuid() == 0 ? 0700 : 0);
	chmod(tmp, 0755);
	fflush(NULL);
	{
		pid_t pid = fork();
		int st = 0;
		if (pid == 0) {
			test_failures = 0;
			if (geteuid() == 0 && (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0))
				_exit(2);
			ctx = ctx_at(tmp);
			if (!ctx)
				_exit(3);
			fails(ctx, "sched:sched_switch", -EACCES, "not readable by this user", "gid=GROUP");
			fails(ctx, "sched:sched_switch", -EACCES, "kernel.perf_event_paranoid <= 1", NULL);
			pmu_ctx_free(ctx);
			_exit(test_failures ? 1 : 0);
		}
		CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "not readable: the child's checks failed (exit %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/kernel/tracing/events", tmp);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/kernel/tracing", tmp);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/kernel", tmp);
	rmdir(path);
	rmdir(tmp);
	return test_done("test-tracepoint");
}
