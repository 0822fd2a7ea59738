/* SPDX-License-Identifier: MIT */
/*
 * The sentence for a permission refusal (pmu__access_advice) and pmu
 * info's advice (pmu_advice), for every kernel.perf_event_paranoid level
 * (fixtures tests/fixtures/paranoid-{m1,0,1,2,3}/proc), every kind of
 * request (user mode, kernel mode, a tracepoint, whole CPUs) and names with
 * and without modifiers.
 *
 * Oracle: the kernel's rules, written here as a table (kernel/events/core.c
 * of linux-source-6.12: perf_allow_cpu() refuses a CPU-wide event above 0,
 * perf_allow_kernel() kernel mode above 1, user mode of one's own processes
 * is allowed at 2; Debian's patch refuses everything above 2 without
 * CAP_SYS_ADMIN; a tracepoint fires in kernel mode, so counting it needs
 * kernel mode). What the text must never do: suggest a paranoid level that
 * does not allow the request, suggest lowering a level that already allows
 * it, suggest a user-mode spelling that would not help (CPU-wide, a
 * tracepoint, a level other than 2) or that repeats a modifier the name has
 * ("task-clock:u:u").
 */
#include <ctype.h>
#include <string.h>
#include "common.h"
#include "context.h"
#include "harness.h"

static struct pmu_ctx *paranoid_ctx(const char *dir)
{
	const char *src = getenv("PMU_TEST_SRCDIR");
	char sys[1024], proc[1024];
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;

	snprintf(sys, sizeof(sys), "%s/tests/fixtures/vm-nopmu/sys", src ? src : ".");
	snprintf(proc, sizeof(proc), "%s/tests/fixtures/%s/proc", src ? src : ".", dir);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = sys;
	o.procfs_root = proc; /* no self/status there: no capabilities */
	o.cpuid = "AuthenticAMD-25-1-1";
	return pmu_ctx_new(&ctx, &o) == 0 ? ctx : NULL;
}

/* Every "perf_event_paranoid=N" the text tells to set (after "sysctl "); -1000 if none. Checks each. */
static void levels_ok(const char *text, int allowed_max, const char *what)
{
	for (const char *p = text; (p = strstr(p, "sysctl kernel.perf_event_paranoid=")); p++) {
		int n = atoi(p + strlen("sysctl kernel.perf_event_paranoid="));
		CHECK(n <= allowed_max, "%s: suggests paranoid=%d, which does not allow it (<= %d needed): %s", what, n,
		      allowed_max, text);
	}
}

/* The modifier letters of a quoted label (after its last ':' or '/'): none twice (p excepted). */
static bool letters_once(const char *label, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i < n; i++)
		if (label[i] == ':' || label[i] == '/')
			start = i + 1;
	for (size_t i = start; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (label[i] == label[j] && label[i] != 'p')
				return false;
	return true;
}

struct req {
	const char *name;
	bool kernel, tracepoint;
};

int main(void)
{
	static const struct { const char *dir; int level; } levels[] = {
		{ "paranoid-m1", -1 }, { "paranoid-0", 0 }, { "paranoid-1", 1 }, { "paranoid-2", 2 }, { "paranoid-3", 3 },
	};
	/* kernel: the name counts kernel mode (no mode written, or one with k) */
	static const struct req reqs[] = {
		{ "task-clock", true, false },     { "task-clock:u", false, false },   { "task-clock:k", true, false },
		{ "task-clock:pu", false, false }, { "task-clock:Dk", true, false },   { "cpu/event=0x3c/u", false, false },
		{ "cpu/event=0x3c/uk", true, false }, { "{cs}:u label cs:u", false, false },
		{ "sched:sched_switch", true, true }, { "sched:sched_switch:u", false, true },
	};
	char text[1024], what[160];
	int cases = 0;

	for (size_t l = 0; l < ARRAY_SIZE(levels); l++) {
		struct pmu_ctx *ctx = paranoid_ctx(levels[l].dir);
		struct pmu_caps c;
		int level = levels[l].level;

		CHECK(ctx != NULL, "context for %s", levels[l].dir);
		if (!ctx)
			continue;
		pmu_caps(ctx, &c);
		CHECK(c.paranoid == level && !c.cap_perfmon && !c.cap_sys_admin, "%s: paranoid %d, caps %d %d",
		      levels[l].dir, c.paranoid, c.cap_perfmon, c.cap_sys_admin);
		for (size_t q = 0; q < ARRAY_SIZE(reqs); q++)
			for (int cpu_wide = 0; cpu_wide < 2; cpu_wide++) {
				struct pmu_access a;
				char name[64];
				/* the kernel's rule: the highest paranoid level that allows the request */
				int allowed_max = cpu_wide ? 0 : reqs[q].kernel ? 1 : 2;
				const char *sp = strchr(reqs[q].name, ' ');
				const char *label, *alt;
				snprintf(name, sizeof(name), "%s", sp ? strrchr(reqs[q].name, ' ') + 1 : reqs[q].name);
				memset(&a, 0, sizeof(a));
				a.name = name;
				a.kernel = reqs[q].kernel;
				a.tracepoint = reqs[q].tracepoint;
				a.cpu_wide = cpu_wide;
				a.cpu = 3;
				pmu__access_advice(ctx, &a, text, sizeof(text));
				snprintf(what, sizeof(what), "paranoid %d, '%s'%s", level, name, cpu_wide ? " on CPU 3" : "");
				cases++;
				CHECK(strstr(text, name) != NULL, "%s: the text does not name the event: %s", what, text);
				levels_ok(text, allowed_max, what);
				if (level <= allowed_max)
					CHECK(!strstr(text, "sysctl"), "%s: the level allows it, yet the text says to change "
					      "it: %s", what, text);
				else
					CHECK(strstr(text, "sysctl kernel.perf_event_paranoid="), "%s: refused by the level, "
					      "and the text names no level that allows it: %s", what, text);
				if (level > 2)
					CHECK(strstr(text, "CAP_SYS_ADMIN"), "%s: above 2 only CAP_SYS_ADMIN helps: %s", what,
					      text);
				if (cpu_wide)
					CHECK(strstr(text, "CPU 3"), "%s: the CPU is not named: %s", what, text);
				/* a user-mode spelling: only where it helps, never repeating a modifier */
				alt = strstr(text, "count user mode only with '");
				if (alt) {
					size_t n;
					label = alt + strlen("count user mode only with '");
					n = strcspn(label, "'");
					CHECK(level == 2 && !cpu_wide && !reqs[q].tracepoint && reqs[q].kernel,
					      "%s: suggests user mode only where that does not help: %s", what, text);
					CHECK(letters_once(label, n), "%s: the suggested '%.*s' repeats a modifier", what,
					      (int)n, label);
					CHECK(strncmp(label, name, n) || name[n], "%s: suggests what was written: %s", what, text);
					CHECK(!strstr(text, ":u:u") && !strstr(text, "uu'"), "%s: %s", what, text);
				} else {
					CHECK(!(level == 2 && !cpu_wide && !reqs[q].tracepoint && reqs[q].kernel),
					      "%s: user mode only would be allowed and count, and the text does not say so: %s",
					      what, text);
				}
				if (reqs[q].tracepoint && reqs[q].kernel && !cpu_wide && level > allowed_max)
					CHECK(strstr(text, "tracepoint"), "%s: does not say why a tracepoint needs it: %s",
					      what, text);
			}
		/* pmu info's advice: each level names the one that allows kernel mode and whole CPUs */
		pmu_advice(ctx, text, sizeof(text));
		levels_ok(text, 2, levels[l].dir);
		if (level >= 3)
			CHECK(strstr(text, "CAP_SYS_ADMIN") && strstr(text, "=2") && strstr(text, "0 whole CPUs"),
			      "paranoid %d advice: %s", level, text);
		else if (level == 2)
			CHECK(strstr(text, "sysctl kernel.perf_event_paranoid=1") && strstr(text, "0 to count whole CPUs"),
			      "paranoid 2 advice: %s", text);
		else if (level == 1)
			CHECK(strstr(text, "sysctl kernel.perf_event_paranoid=0") && strstr(text, "whole CPUs"),
			      "paranoid 1 advice: %s", text);
		else
			CHECK(!strstr(text, "sysctl kernel.perf_event_paranoid") && strstr(text, "CPU-wide events too"),
			      "paranoid %d advice: %s", level, text);
		pmu_ctx_free(ctx);
	}
	printf("%d requests\n", cases);
	return test_done("test-access-advice");
}
