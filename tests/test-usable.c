/* SPDX-License-Identifier: MIT */
/*
 * "usable" (pmu list, pmu_event_foreach) means `pmu stat` can count it here,
 * and suggestions name only such events.
 *
 * On this machine the oracle is the kernel: every entry of the whole list is
 * opened as pmu stat opens it (pmu_set_open, enabled, some work, read). A
 * usable event must open and count (enabled and running time > 0); an
 * unusable one must be refused (the open fails) or flagged unsupported. A
 * metric is usable exactly when every event it needs opens. As root the run
 * is repeated as uid 65534, where kernel.perf_event_paranoid rules apply.
 * Names suggested by "did you mean" and "Countable here" are opened too.
 *
 * On fixtures (machines that are not here) the oracle is the fixture's own
 * sysfs, read by hand into the expectations below: with no core PMU only the
 * kernel's software events (perf's list: tools/perf/util/parse-events.c
 * event_symbols_sw) can be counted; a core PMU counts the generic hardware
 * events its events/ directory lists (the kernel hides the others: x86
 * is_visible(), arm64 PMCEID), e.g. Ice Lake has no stalled-cycles-*, Zen 3
 * no bus-cycles or ref-cycles, Neoverse N1 no ref-cycles.
 */
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "fixture.h"

struct entry {
	char name[PMU_NAME_MAX];
	int kind, usable;
};

struct list {
	struct entry *v;
	size_t n;
};

static int collect(const struct pmu_event_entry *e, void *data)
{
	struct list *l = data;
	struct entry *nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	l->v = nv;
	snprintf(nv[l->n].name, sizeof(nv[0].name), "%s", e->name);
	nv[l->n].kind = e->kind;
	nv[l->n++].usable = e->usable;
	return 0;
}

static volatile double sink;

/* Does the kernel count @events here, as pmu stat opens them? 1 counted, 0 refused or unsupported. */
static int counts(struct pmu_ctx *ctx, const char *events, char *why, size_t len)
{
	struct pmu_set_opts o = { sizeof(o), PMU_SET_SKIP_UNSUPPORTED, 0, -1 };
	struct pmu_set *s;
	struct pmu_value v[64];
	int r = pmu_set_open(ctx, events, &o, &s), ok = 1;
	double x = 1;

	if (r < 0) {
		snprintf(why, len, "open: %s", pmu_strerror(r));
		return 0;
	}
	pmu_set_enable(s);
	for (int i = 0; i < 20000; i++)
		x = x * 1.000001 + 1e-9;
	sink = x;
	pmu_set_disable(s);
	if (pmu_set_count(s) > 64 || pmu_set_read_syscall(s, v) < 0) {
		snprintf(why, len, "read failed");
		ok = 0;
	}
	for (size_t i = 0; ok && i < pmu_set_count(s); i++) {
		struct pmu_event_info e;
		pmu_set_event(s, i, &e);
		if ((e.flags & PMU_EVF_UNSUPPORTED) || !v[i].enabled || !v[i].running) {
			snprintf(why, len, "'%s' %s (enabled %llu, running %llu)", e.name,
				 (e.flags & PMU_EVF_UNSUPPORTED) ? "unsupported" : "never counted",
				 (unsigned long long)v[i].enabled, (unsigned long long)v[i].running);
			ok = 0;
		}
	}
	if (ok)
		snprintf(why, len, "counted");
	pmu_set_close(s);
	return ok;
}

/* Every entry of the list against the kernel. */
static void whole_list(const char *who)
{
	struct pmu_ctx *ctx;
	struct list l = { NULL, 0 };
	size_t usable = 0, wrong = 0;
	char why[600];

	CHECK(pmu_ctx_new(&ctx, NULL) == 0, "context");
	if (!ctx)
		return;
	CHECK(pmu_event_foreach(ctx, NULL, collect, &l) > 0, "list");
	for (size_t i = 0; i < l.n; i++) {
		const struct entry *e = &l.v[i];
		int ok;
		if (e->kind == PMU_ENTRY_METRIC) {
			char need[8192];
			int n = pmu_metric_events(ctx, e->name, need, sizeof(need));
			ok = n < 0 ? 0 : n == 0 ? 1 : counts(ctx, need, why, sizeof(why));
			if (n < 0)
				snprintf(why, sizeof(why), "its events: %s", pmu_strerror(n));
		} else {
			ok = counts(ctx, e->name, why, sizeof(why));
		}
		usable += e->usable != 0;
		if (ok != !!e->usable)
			wrong++;
		CHECK(ok == !!e->usable, "%s: '%s' listed %s, but the kernel says: %s", who, e->name,
		      e->usable ? "usable" : "not usable", why);
	}
	printf("%s: %zu entries, %zu usable, %zu not; %zu disagree with the kernel\n", who, l.n, usable,
	       l.n - usable, wrong);
	free(l.v);
	pmu_ctx_free(ctx);
}

/* The names after @marker in @msg (", "-separated, up to '?', '.' or ' ('), each counted here. */
static void listed_count(struct pmu_ctx *ctx, const char *what, const char *msg, const char *marker)
{
	const char *p = strstr(msg, marker);
	char names[600], *save = NULL, why[600];
	size_t n;

	if (!p)
		return;
	p += strlen(marker);
	n = strcspn(p, "?(");
	snprintf(names, sizeof(names), "%.*s", (int)n, p);
	for (char *t = strtok_r(names, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(t, "(none)"))
			continue;
		CHECK(counts(ctx, t, why, sizeof(why)), "%s suggests '%s', which cannot be counted here: %s", what, t, why);
	}
}

/* Suggestions made on this machine name only events it counts. */
static void suggestions(void)
{
	static const char *const typos[] = { "cyclez", "instrucions", "task-clok", "page-fault", "cache-mises",
					     "INST.RETT", "L1-dcache-load-mises", "context-switch" };
	static const char *const uncountable[] = { "INST.BRJMP.IND.CALL.RET", "PRD_RETIRED.COND_BRANCH.MISPRED" };
	struct pmu_ctx *ctx;
	struct pmu_event_info e;

	CHECK(pmu_ctx_new(&ctx, NULL) == 0, "context");
	if (!ctx)
		return;
	for (size_t i = 0; i < sizeof(typos) / sizeof(typos[0]); i++) {
		int r = pmu_event_resolve(ctx, typos[i], &e);
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s", pmu_strerror(r));
		CHECK(r == -ENOENT, "'%s': %d", typos[i], r);
		listed_count(ctx, typos[i], msg, "did you mean: ");
	}
	for (size_t i = 0; i < sizeof(uncountable) / sizeof(uncountable[0]); i++) {
		int r = pmu_event_resolve(ctx, uncountable[i], &e);
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s", pmu_strerror(r));
		if (r == 0)
			continue; /* this CPU counts it */
		listed_count(ctx, uncountable[i], msg, "Countable here: ");
	}
	pmu_ctx_free(ctx);
}

static struct pmu_ctx *fixture(const char *machine, const char *cpuid)
{
	struct pmu_ctx *ctx = fixture_ctx(machine, cpuid);

	CHECK(ctx != NULL, "fixture %s", machine);
	return ctx;
}

static int in(const char *name, const char *const *set)
{
	for (; *set; set++)
		if (!strcasecmp(name, *set))
			return 1;
	return 0;
}

/* perf's software events (event_symbols_sw), and the aliases libpmu lists for them */
static const char *const sw[] = { "cpu-clock", "task-clock", "page-faults", "faults", "context-switches", "cs",
				  "cpu-migrations", "migrations", "minor-faults", "major-faults", "alignment-faults",
				  "emulation-faults", "dummy", "cgroup-switches", NULL };
/* the kernel's generic hardware events */
static const char *const hw[] = { "cycles", "cpu-cycles", "instructions", "cache-references", "cache-misses",
				  "branches", "branch-instructions", "branch-misses", "bus-cycles",
				  "stalled-cycles-frontend", "idle-cycles-frontend", "stalled-cycles-backend",
				  "idle-cycles-backend", "ref-cycles", NULL };

/* Whether metric @name's formula asks has_event() (its events then depend on the machine). */
static bool guarded(struct pmu_ctx *ctx, const char *name)
{
	struct pmu_metric_info mi;

	return pmu_metric_info(ctx, name, &mi) == 0 && strstr(mi.expr, "has_event(");
}

/*
 * Fixture @machine: software events are usable; generic hardware events when it has a core PMU
 * (@core) whose events/ lists them (those in @no it does not); with no core PMU, nothing else.
 */
static void fixture_list(const char *machine, const char *cpuid, int core, const char *const *no)
{
	struct pmu_ctx *ctx = fixture(machine, cpuid);
	struct list l = { NULL, 0 };
	size_t usable = 0;

	if (!ctx)
		return;
	CHECK(pmu_event_foreach(ctx, NULL, collect, &l) > 0, "%s: list", machine);
	for (size_t i = 0; i < l.n; i++) {
		const struct entry *e = &l.v[i];
		int want;
		usable += e->usable != 0;
		if (in(e->name, sw))
			want = 1;
		else if (in(e->name, hw))
			want = core && !in(e->name, no);
		else if (e->kind == PMU_ENTRY_KERNEL)
			want = core; /* cache events: a core PMU, no sysfs list to say more */
		else if (e->kind == PMU_ENTRY_TOOL)
			want = 1; /* measured by libpmu itself: every machine */
		else if (e->kind == PMU_ENTRY_SYSFS)
			/* a core PMU's own events; msr, RAPL, uncore PMUs count every mode or none (the
			 * kernel refuses exclude_kernel there), and the fixtures' /proc is an
			 * unprivileged user's at perf_event_paranoid=2, which forbids kernel mode */
			want = !strncmp(e->name, "cpu", 3) || !strncmp(e->name, "armv8_", 6);
		else if (!core && e->kind == PMU_ENTRY_METRIC && guarded(ctx, e->name))
			continue; /* perf's has_event() guard: it needs no event where the event is absent (Intel's
				   * tsx_* metrics: 0 without TSX), so it is usable, as pmu_event_entry says */
		else if (!core)
			want = 0; /* table events and metrics all need a core PMU */
		else
			continue; /* tables with a core PMU: not asserted here */
		CHECK(!!e->usable == want, "%s: '%s' usable %d, expected %d", machine, e->name, e->usable, want);
	}
	printf("%s (%s): %zu entries, %zu usable\n", machine, cpuid, l.n, usable);
	free(l.v);
	pmu_ctx_free(ctx);
}

/* A fixture's messages: suggestions and "Countable here" only name events usable there. */
static void fixture_messages(const char *machine, const char *cpuid, const char *typo, const char *want)
{
	struct pmu_ctx *ctx = fixture(machine, cpuid);
	struct pmu_event_info e;
	int r;

	if (!ctx)
		return;
	r = pmu_event_resolve(ctx, typo, &e);
	CHECK(r == -ENOENT && strstr(pmu_strerror(r), want), "%s: '%s': '%s' lacks '%s'", machine, typo,
	      pmu_strerror(r), want);
	pmu_ctx_free(ctx);
}

int main(void)
{
	static const char *const none[] = { NULL };
	static const char *const icx[] = { "stalled-cycles-frontend", "idle-cycles-frontend", "stalled-cycles-backend",
					   "idle-cycles-backend", NULL };
	static const char *const zen3[] = { "bus-cycles", "ref-cycles", "stalled-cycles-backend", "idle-cycles-backend",
					    NULL };
	static const char *const n1[] = { "ref-cycles", NULL };

	fixture_list("vm-nopmu", "GenuineIntel-6-55-4", 0, none);
	fixture_list("intel-icx", "GenuineIntel-6-6A-6", 1, icx);
	fixture_list("amd-zen3", "AuthenticAMD-25-1-1", 1, zen3);
	fixture_list("arm64-neoverse-n1", "0x00000000413fd0c1", 1, n1);
	fixture_list("intel-adl-hybrid", "GenuineIntel-6-9A-3", 1, icx);
	/* no core PMU: nothing hardware is offered, however close */
	fixture_messages("vm-nopmu", "GenuineIntel-6-55-4", "cyclez", "did you mean 'cycles'? It cannot be counted here");
	fixture_messages("vm-nopmu", "GenuineIntel-6-55-4", "INST.BRJMP.IND.CALL.RET", "Countable here: (none)");
	fixture_messages("intel-icx", "GenuineIntel-6-6A-6", "cyclez", "did you mean: cycles");
	fixture_messages("intel-icx", "GenuineIntel-6-6A-6", "INST.BRJMP.IND.CALL.RET",
			 "Countable here: INST.BRJMP.IND.RET");

	fflush(stdout);
	whole_list(geteuid() == 0 ? "root" : "this user");
	suggestions();
	if (geteuid() == 0) {
		/* again as an unprivileged user, in a child (privileges cannot come back) */
		/* the child's own failures: those before the fork are the parent's, counted once */
		int before = test_failures;
		pid_t c;
		fflush(stdout);
		c = fork();
		int st = 0;
		if (c == 0) {
			if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0) {
				printf("note: cannot drop to uid 65534 (%s): the unprivileged run is skipped\n", strerror(errno));
				fflush(stdout);
				_exit(0);
			}
			whole_list("uid 65534");
			suggestions();
			fflush(stdout);
			_exit(test_failures > before ? 1 : 0);
		}
		CHECK(c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "the unprivileged run failed (status 0x%x)", st);
	}
	return test_done("test-usable");
}
