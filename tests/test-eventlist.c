/* SPDX-License-Identifier: MIT */
/* Event-list syntax: commas, braces, group modifiers, sysfs specs with commas,
 * tracepoint globs (on the fixture tracefs of tests/fixtures/vm-tracefs, whose
 * tracepoints are listed here by hand). */
#include <string.h>
#include "eventlist.h"
#include "harness.h"
#include "fixture.h"

static struct pmu_ctx *ctx;

static void ok(const char *list, size_t n, const char *expect[], const int groups[])
{
	struct pmu_speclist l;
	int r = pmu__speclist_parse(ctx, list, &l);

	CHECK(r == 0, "'%s' should parse: %s", list, pmu_strerror(r));
	if (r)
		return;
	CHECK(l.n == n, "'%s': %zu items, expected %zu", list, l.n, n);
	for (size_t i = 0; i < l.n && i < n; i++) {
		CHECK(!strcmp(l.v[i].name, expect[i]), "'%s' item %zu is '%s', expected '%s'", list, i,
		      l.v[i].name, expect[i]);
		CHECK(l.v[i].group == groups[i], "'%s' item %zu group %d, expected %d", list, i, l.v[i].group,
		      groups[i]);
	}
	pmu__speclist_free(&l);
}

static void bad(const char *list, const char *words)
{
	struct pmu_speclist l;
	int r = pmu__speclist_parse(ctx, list, &l);

	CHECK(r == -EINVAL, "'%s' should be rejected, got %d", list, r);
	CHECK(strstr(pmu_strerror(r), words) != NULL, "'%s': message '%s' lacks '%s'", list, pmu_strerror(r),
	      words);
}

int main(void)
{
	struct pmu_speclist l;

	if (pmu_ctx_new(&ctx, NULL) < 0)
		return 1;
	ok("cycles", 1, (const char *[]){ "cycles" }, (int[]){ -1 });
	ok("a,b,{c,d},e", 5, (const char *[]){ "a", "b", "c", "d", "e" }, (int[]){ -1, -1, 0, 0, -1 });
	ok("{a,b},{c}", 3, (const char *[]){ "a", "b", "c" }, (int[]){ 0, 0, 1 });
	ok("cpu/event=0xd1,umask=0x1/,cycles:u", 2, (const char *[]){ "cpu/event=0xd1,umask=0x1/", "cycles:u" },
	   (int[]){ -1, -1 });
	ok("{cpu/event=0x3c,umask=0/u,instructions}", 2,
	   (const char *[]){ "cpu/event=0x3c,umask=0/u", "instructions" }, (int[]){ 0, 0 });

	CHECK(pmu__speclist_parse(ctx, "{a,b}:u,c", &l) == 0, "group modifiers parse");
	CHECK(l.n == 3 && l.v[0].group_mods && !strcmp(l.v[0].group_mods, "u") && l.v[1].group_mods &&
	      !l.v[2].group_mods, "group modifier applies to members only");
	pmu__speclist_free(&l);

	bad("", "empty event list");
	bad("a,,b", "empty event name");
	bad("a,", "trailing ','");
	bad("{a,{b}}", "cannot nest");
	bad("{a,b", "without '}'");
	bad("a}", "without '{'");
	bad("cpu/event=1", "no closing '/'");
	bad("{}", "empty event name");
	bad("a{b}", "must start an item");
	bad("{a}b", "expected ','");

	/* perf's other modifier letters after a group */
	CHECK(pmu__speclist_parse(ctx, "{a,b}:pDu,c:ppp", &l) == 0, "group modifiers p, D");
	CHECK(l.n == 3 && l.v[1].group_mods && !strcmp(l.v[1].group_mods, "pDu") && !strcmp(l.v[2].name, "c:ppp"),
	      "{a,b}:pDu applies to both, c keeps its own");
	pmu__speclist_free(&l);

	/* tracepoint globs stand for what they match, sorted, in their place, with their modifiers and group */
	{
		struct pmu_ctx *real = ctx;
		ctx = fixture_ctx("vm-tracefs", NULL);
		CHECK(ctx != NULL, "fixture vm-tracefs");
		if (ctx) {
			ok("cs,sched:sched_s*,cs", 4,
			   (const char *[]){ "cs", "sched:sched_stat_runtime", "sched:sched_switch", "cs" },
			   (int[]){ -1, -1, -1, -1 });
			ok("irq:*:u", 2, (const char *[]){ "irq:irq_handler_entry:u", "irq:softirq_entry:u" }, (int[]){ -1, -1 });
			ok("*:sched_switch", 1, (const char *[]){ "sched:sched_switch" }, (int[]){ -1 });
			ok("{cs,sched:sched_[ws]*}", 4,
			   (const char *[]){ "cs", "sched:sched_stat_runtime", "sched:sched_switch", "sched:sched_wakeup" },
			   (int[]){ 0, 0, 0, 0 });
			ok("*:*", 7,
			   (const char *[]){ "irq:irq_handler_entry", "irq:softirq_entry", "sched:sched_process_exec",
					     "sched:sched_stat_runtime", "sched:sched_switch", "sched:sched_wakeup",
					     "syscalls:sys_enter_openat" },
			   (int[]){ -1, -1, -1, -1, -1, -1, -1 });
			CHECK(pmu__speclist_parse(ctx, "{sched:sched_w*,cs}:k", &l) == 0 && l.n == 2 && l.v[0].group == 0 &&
			      l.v[0].group_mods && !strcmp(l.v[0].group_mods, "k"), "a glob in a group takes the group's modifiers");
			pmu__speclist_free(&l);
			CHECK(pmu__speclist_parse(ctx, "sched:nomatch*", &l) == -ENOENT &&
			      strstr(pmu_strerror(-ENOENT), "no tracepoint matches 'sched:nomatch*'"), "no match: %s",
			      pmu_strerror(-ENOENT));
			CHECK(pmu__speclist_parse(ctx, "sched:x*:y", &l) == -EINVAL &&
			      strstr(pmu_strerror(-EINVAL), "SYS:NAME"), "a glob with three parts: %s", pmu_strerror(-EINVAL));
			ok("sched:sched_switch", 1, (const char *[]){ "sched:sched_switch" }, (int[]){ -1 });
			pmu_ctx_free(ctx);
		}
		ctx = real;
	}
	pmu_ctx_free(ctx);
	return test_done("test-eventlist");
}
