/* SPDX-License-Identifier: MIT */
/*
 * Plans (pmu_plan_new, pmu_plan_open): a list resolved once and opened on many targets must give, on
 * every target, the set pmu_set_open() gives there, which resolves the list again for each. That is
 * the oracle, checked two ways, each a seeded random history (PMU_TEST_SEED, default 1):
 *
 * 1. Machines of several core PMUs (the written Alder Lake, Meteor Lake, big.LITTLE and three-cluster
 *    DynamIQ trees, nothing opened): a plan of CPUs holds one arrangement per core type; for every CPU
 *    the arrangement it opens (pmu__plan_planned) equals pmu__set_plan's for that CPU alone, event by
 *    event (name, PMU, encoding, flags, group), and where that fails, fails with the same error and
 *    sentence. Lists drawn from names that split per core type, name one PMU, are unknown or malformed.
 * 2. This machine's kernel (software events): a history of plans made and freed, sets opened from
 *    them on the calling thread, another thread, a CPU, and in a forked child, each beside the set
 *    pmu_set_open() opens for the same target: the same return, the same sentence, the same events
 *    and groups; sets of the calling thread count 256 page faults taken in user mode (page-faults.h)
 *    as the page faults they are, in both; sets outlive their plan.
 */
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "plan.h"
#include "set.h"
#include "harness.h"
#include "fixture.h"
#include "page-faults.h"

static uint64_t rng_state;
static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

/* A random list of 1 to 4 names of @pool, into @buf. */
static void random_list(const char *const *pool, size_t n, char *buf, size_t len)
{
	size_t k = 1 + rnd(4), o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < k && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? "," : "", pool[rnd((unsigned)n)]);
}

/* The message of the last failure with @fn's name (a function's prefix) taken out, to compare sentences
 * of pmu_set_open and pmu_plan_* that differ in the function they name. */
static void sentence(int r, char *buf, size_t len)
{
	const char *m = pmu_strerror(r), *c;

	if ((!strncmp(m, "pmu_set_open: ", 14) || !strncmp(m, "pmu_plan_new: ", 14) ||
	     !strncmp(m, "pmu_plan_open: ", 15) || !strncmp(m, "pmu_set_check: ", 15)) && (c = strchr(m, ' ')))
		m = c + 1;
	snprintf(buf, len, "%s", m);
}

/* Sets @a and @b (planned or open) hold the same events in the same groups. */
static void same_events(const struct pmu_set *a, const struct pmu_set *b, const char *what)
{
	size_t n = pmu_set_count(a);

	CHECK(n == pmu_set_count(b), "%s: %zu events, pmu_set_open's %zu", what, n, pmu_set_count(b));
	for (size_t k = 0; k < n && n == pmu_set_count(b); k++) {
		struct pmu_event_info x, y;
		memset(&x, 0, sizeof(x));
		memset(&y, 0, sizeof(y));
		pmu_set_event(a, k, &x);
		pmu_set_event(b, k, &y);
		/* field by field: a name's bytes after its end are whatever the buffer held */
		bool same = !strcmp(x.name, y.name) && !strcmp(x.pmu, y.pmu) && x.type == y.type &&
			    x.config == y.config && x.config1 == y.config1 && x.config2 == y.config2 &&
			    x.config3 == y.config3 && x.flags == y.flags && x.source == y.source &&
			    !strcmp(x.origin, y.origin) && x.desc == y.desc && x.unit == y.unit && x.note == y.note &&
			    x.approx_note == y.approx_note;
		CHECK(same, "%s: event %zu is '%s' (%s, type %u config 0x%llx 0x%llx flags 0x%x "
		      "source %d from %s, desc %p '%s'), pmu_set_open's '%s' (%s, type %u config 0x%llx 0x%llx flags 0x%x "
		      "source %d from %s, desc %p '%s')", what, k, x.name, x.pmu, x.type, (unsigned long long)x.config,
		      (unsigned long long)x.config1, x.flags, x.source, x.origin, (const void *)x.desc, x.note, y.name,
		      y.pmu, y.type, (unsigned long long)y.config, (unsigned long long)y.config1, y.flags, y.source,
		      y.origin, (const void *)y.desc, y.note);
		CHECK(pmu_set_group_of(a, k) == pmu_set_group_of(b, k), "%s: event %zu in group %d, pmu_set_open's %d",
		      what, k, pmu_set_group_of(a, k), pmu_set_group_of(b, k));
	}
}

/* Open sets @a and @b read the same way: the inline read armed in both or neither, the same user pages
 * mapped (on a machine whose counters user space reads; software events never are). */
static void same_fast(struct pmu_set *a, struct pmu_set *b, const char *what)
{
	const struct pmu_fast *x = pmu_set_fast(a), *y = pmu_set_fast(b);

	CHECK(x->abi == y->abi && x->count == y->count, "%s: read plan abi %u count %u, pmu_set_open's %u %u", what,
	      x->abi, x->count, y->abi, y->count);
	CHECK((*x->guard != 0) == (*y->guard != 0), "%s: inline read %s, pmu_set_open's %s", what,
	      *x->guard ? "armed" : "off", *y->guard ? "armed" : "off");
	for (uint32_t k = 0; k < x->count && x->count == y->count; k++)
		CHECK(!x->pages[k] == !y->pages[k], "%s: value %u's user page %s, pmu_set_open's %s", what, k,
		      x->pages[k] ? "mapped" : "not mapped", y->pages[k] ? "mapped" : "not mapped");
}

/* ---- 1. core types of written machines ---- */

static const char *const hybrid_pool[] = {
	"cycles", "instructions", "INST.RET", "INST.RET:u", "task-clock", "{cycles,instructions}",
	"{INST.RET:u,cycles}", "cpu_core/cycles/", "armv8_cortex_a55/cycles/", "L1-dcache-loads", "branch-misses:k",
	"TOPDOWN", "no_such_event", "{cycles", "duration_time", "INST_RETIRED.ANY", "L1-dcache-store-misses",
	"user_time", "page-faults:u", "BR_MIS_PRED", "cpu_atom/INST_RETIRED.ANY/",
};

static void core_types(const char *machine, const char *cpuid, unsigned rounds)
{
	struct pmu_ctx *ctx = fixture_ctx(machine, cpuid);
	static const unsigned flag_pool[] = { 0, PMU_SET_USER_ONLY, PMU_SET_KERNEL_ONLY, PMU_SET_SKIP_UNSUPPORTED };
	unsigned planned = 0, failed = 0;

	CHECK(ctx != NULL, "%s: no context", machine);
	if (!ctx)
		return;
	for (unsigned round = 0; round < rounds; round++) {
		char list[256], what[512], a[512], b[512];
		struct pmu_set_opts o;
		struct pmu_plan *p = NULL;
		int rp;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.flags = PMU_SET_CPU | PMU_SET_PID | flag_pool[rnd(sizeof(flag_pool) / sizeof(*flag_pool))];
		random_list(hybrid_pool, sizeof(hybrid_pool) / sizeof(*hybrid_pool), list, sizeof(list));
		unsigned said_as_plan = 0;
		rp = pmu_plan_new(ctx, list, &o, &p);
		if (rp < 0)
			sentence(rp, a, sizeof(a));
		for (int cpu = 0; cpu < 24; cpu++) {
			const struct pmu_set *t = NULL;
			struct pmu_set *s = NULL;
			int rt = rp < 0 ? rp : pmu__plan_planned(p, cpu, &t), rs;
			if (rt == -ENOENT && rp == 0)
				continue; /* a CPU of no core type: pmu_plan_open plans it alone, as pmu_set_open */
			if (rt < 0 && rp == 0)
				sentence(rt, a, sizeof(a));
			o.pid = -1;
			o.cpu = cpu;
			rs = pmu__set_plan(ctx, list, &o, &s);
			snprintf(what, sizeof(what), "%s '%s' flags 0x%x on CPU %d", machine, list, o.flags, cpu);
			if (rs < 0)
				sentence(rs, b, sizeof(b));
			if (rp < 0) { /* every arrangement failed: so does every CPU; the plan says its first one's */
				CHECK(rs < 0, "%s: the plan failed (%s), pmu__set_plan did not", what, a);
				said_as_plan += rs == rp && !strcmp(a, b);
			} else {
				CHECK(rt == rs, "%s: plan %d, pmu__set_plan %d", what, rt, rs);
				if (rt < 0 && rs < 0)
					CHECK(!strcmp(a, b), "%s: plan says '%s', pmu__set_plan '%s'", what, a, b);
			}
			if (rt == 0 && rs == 0)
				same_events(t, s, what);
			planned += rt == 0;
			failed += rt < 0;
			pmu_set_close(s);
		}
		CHECK(rp == 0 || said_as_plan > 0, "%s '%s' flags 0x%x: the plan's failure (%s) is no CPU's", machine,
		      list, o.flags, a);
		pmu_plan_free(p);
	}
	printf("%s: %u CPU arrangements compared, %u failures compared\n", machine, planned, failed);
	pmu_ctx_free(ctx);
}

/* ---- 2. this machine's kernel ---- */

static const char *const live_pool[] = {
	"task-clock", "page-faults", "page-faults:u", "minor-faults", "context-switches", "cpu-migrations",
	"{task-clock,page-faults}", "cpu-clock:u", "duration_time", "major-faults", "no_such_event", "{task-clock",
	"user_time",
};

#define PLANS 6
#define SETS 12

struct live_plan {
	struct pmu_plan *p;
	char list[256];
	struct pmu_set_opts o;
	int kind; /* 0 the calling thread, 1 a task, 2 every task of a CPU */
};

struct live_pair {
	struct pmu_set *plan_set, *set; /* from the plan, from pmu_set_open */
	int kind;
	char what[400];
};

static pid_t worker_tid;
static int worker_stop[2];

static void *worker(void *arg)
{
	char c;

	(void)arg;
	__atomic_store_n(&worker_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (read(worker_stop[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* The page faults counted by @s between two reads around 256 user-mode faults: the sum over its page-fault
 * events (a set may hold several), -1 when it has none or cannot be read. */
static long long faults_of(struct pmu_set *s, const struct pmu_value *before, const struct pmu_value *after)
{
	long long sum = -1;

	for (size_t k = 0; k < pmu_set_count(s); k++) {
		struct pmu_event_info e;
		pmu_set_event(s, k, &e);
		if (strncmp(e.name, "page-faults", 11) && strncmp(e.name, "minor-faults", 12))
			continue;
		sum = (sum < 0 ? 0 : sum) + (long long)(after[k].value - before[k].value);
		break; /* the first one */
	}
	return sum;
}

/* The faults a read may add to the 256 taken: its own few; under valgrind (its preload library), also the
 * pages of valgrind's own memory that the window touches. */
static long long fault_slack(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "vgpreload") ? 256 : 32;
}

static void pair_faults(struct live_pair *q)
{
	const long long slack = fault_slack();
	struct pmu_value a0[16], a1[16], b0[16], b1[16];
	long long fa, fb;

	if (q->kind != 0 || pmu_set_count(q->set) > 16)
		return;
	/* once before the window: under valgrind a path run for the first time faults in its translations */
	if (user_faults() < 0 || pmu_set_read(q->plan_set, a0) < 0 || pmu_set_read(q->set, b0) < 0 ||
	    pmu_set_read(q->plan_set, a0) < 0 || pmu_set_read(q->set, b0) < 0) {
		CHECK(0, "%s: read: %s", q->what, pmu_strerror(-1));
		return;
	}
	CHECK(user_faults() == 0, "no memory for faults");
	CHECK(pmu_set_read(q->plan_set, a1) == 0 && pmu_set_read(q->set, b1) == 0, "%s: read", q->what);
	fa = faults_of(q->plan_set, a0, a1);
	fb = faults_of(q->set, b0, b1);
	if (fa >= 0 && a1[0].enabled > a0[0].enabled) { /* a fault event, enabled */
		CHECK(fa >= PAGE_FAULTS && fa <= PAGE_FAULTS + slack, "%s: %lld page faults counted from the plan, "
		      "%d taken", q->what, fa, PAGE_FAULTS);
		CHECK(fb >= PAGE_FAULTS && fb <= PAGE_FAULTS + slack, "%s: %lld page faults counted by pmu_set_open's "
		      "set, %d taken", q->what, fb, PAGE_FAULTS);
	}
}

static void live(unsigned rounds)
{
	struct pmu_ctx *ctx = NULL;
	struct live_plan plans[PLANS];
	struct live_pair pairs[SETS];
	static const unsigned flag_pool[] = { 0, PMU_SET_ENABLE, PMU_SET_ENABLE | PMU_SET_USER_ONLY, PMU_SET_INHERIT,
					      PMU_SET_ENABLE | PMU_SET_NO_FAST, PMU_SET_SKIP_UNSUPPORTED | PMU_SET_ENABLE,
					      PMU_SET_KERNEL_ONLY | PMU_SET_USER_ONLY };
	unsigned opened = 0, refused = 0, children = 0, counted = 0;
	pthread_t th;

	CHECK(pmu_ctx_new(&ctx, NULL) == 0, "context: %s", pmu_strerror(-1));
	if (!ctx)
		return;
	CHECK(pipe(worker_stop) == 0 && pthread_create(&th, NULL, worker, NULL) == 0, "worker thread");
	while (!__atomic_load_n(&worker_tid, __ATOMIC_ACQUIRE))
		usleep(100);
	memset(plans, 0, sizeof(plans));
	memset(pairs, 0, sizeof(pairs));
	for (unsigned step = 0; step < rounds; step++) {
		unsigned op = rnd(10);
		struct live_plan *lp = &plans[rnd(PLANS)];
		struct live_pair *q = &pairs[rnd(SETS)];
		char a[512], b[512];
		if (op < 2) { /* a new plan where one was (freed first; its sets stay) */
			int rp, rc;
			pmu_plan_free(lp->p);
			memset(lp, 0, sizeof(*lp));
			random_list(live_pool, sizeof(live_pool) / sizeof(*live_pool), lp->list, sizeof(lp->list));
			lp->kind = (int)rnd(3);
			lp->o.size = sizeof(lp->o);
			lp->o.flags = flag_pool[rnd(sizeof(flag_pool) / sizeof(*flag_pool))] |
				      (lp->kind == 1 ? PMU_SET_PID : lp->kind == 2 ? PMU_SET_PID | PMU_SET_CPU : 0);
			lp->o.pid = lp->kind == 2 ? -1 : (pid_t)getpid();
			lp->o.cpu = lp->kind == 2 ? 0 : -1;
			rp = pmu_plan_new(ctx, lp->list, &lp->o, &lp->p);
			if (rp < 0)
				sentence(rp, a, sizeof(a));
			rc = pmu_set_check(ctx, lp->list, &lp->o);
			if (rc < 0)
				sentence(rc, b, sizeof(b));
			CHECK(rp == rc, "plan '%s' flags 0x%x: %d, pmu_set_check %d", lp->list, lp->o.flags, rp, rc);
			if (rp < 0 && rc < 0)
				CHECK(!strcmp(a, b), "plan '%s': '%s', pmu_set_check '%s'", lp->list, a, b);
		} else if (op < 6 && lp->p) { /* open it on a target, beside pmu_set_open */
			static const pid_t none = 0x3ffffff0; /* above pid_max's limit: no such task */
			unsigned t = rnd(3);
			pid_t pid = lp->kind == 1 ? (t == 0 ? worker_tid : t == 1 ? (pid_t)syscall(SYS_gettid) : none) :
				    lp->kind == 2 ? -1 : 0;
			int cpu = lp->kind == 2 ? (int)rnd(2) : -1, rp, rs;
			struct pmu_set_opts o = lp->o;
			pmu_set_close(q->plan_set);
			pmu_set_close(q->set);
			memset(q, 0, sizeof(*q));
			o.pid = pid;
			o.cpu = cpu;
			q->kind = lp->kind;
			snprintf(q->what, sizeof(q->what), "'%s' flags 0x%x on pid %d cpu %d", lp->list, o.flags, (int)pid,
				 cpu);
			rp = pmu_plan_open(lp->p, pid, cpu, &q->plan_set);
			if (rp < 0)
				sentence(rp, a, sizeof(a));
			rs = pmu_set_open(ctx, lp->list, &o, &q->set);
			if (rs < 0)
				sentence(rs, b, sizeof(b));
			CHECK(rp == rs, "%s: plan %d, pmu_set_open %d", q->what, rp, rs);
			if (rp < 0 && rs < 0)
				CHECK(!strcmp(a, b), "%s: plan says '%s', pmu_set_open '%s'", q->what, a, b);
			if (rp == 0 && rs == 0) {
				same_events(q->plan_set, q->set, q->what);
				same_fast(q->plan_set, q->set, q->what);
				opened++;
			} else {
				refused++;
			}
			if (rp != 0 || rs != 0) {
				pmu_set_close(q->plan_set);
				pmu_set_close(q->set);
				memset(q, 0, sizeof(*q));
			}
		} else if (op < 8 && q->set) { /* count: both sets of the calling thread see the same faults */
			if (!(pmu_set_enable(q->plan_set) == 0 && pmu_set_enable(q->set) == 0))
				CHECK(0, "%s: enable", q->what);
			pair_faults(q);
			counted += q->kind == 0;
		} else if (op < 9 && lp->p && lp->kind == 0) { /* a forked child opens the plan on itself */
			pid_t c = fork();
			if (c == 0) {
				struct pmu_set *s = NULL, *t = NULL;
				struct pmu_set_opts o = lp->o;
				int rp = pmu_plan_open(lp->p, 0, -1, &s), rs = pmu_set_open(ctx, lp->list, &o, &t);
				int same = rp == rs && (rp < 0 || pmu_set_count(s) == pmu_set_count(t));
				pmu_set_close(s);
				pmu_set_close(t);
				_exit(same ? 0 : 1);
			}
			int st = -1;
			CHECK(c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "'%s': a forked child's set from the plan differs from pmu_set_open's (status 0x%x)",
			      lp->list, st);
			children++;
		} else if (q->set) { /* closed in either order */
			if (rnd(2)) {
				pmu_set_close(q->plan_set);
				pmu_set_close(q->set);
			} else {
				pmu_set_close(q->set);
				pmu_set_close(q->plan_set);
			}
			memset(q, 0, sizeof(*q));
		}
	}
	/* the plans first: their sets stay open and count */
	for (size_t i = 0; i < PLANS; i++)
		pmu_plan_free(plans[i].p);
	for (size_t i = 0; i < SETS; i++) {
		if (pairs[i].set && pmu_set_enable(pairs[i].plan_set) == 0 && pmu_set_enable(pairs[i].set) == 0)
			pair_faults(&pairs[i]);
		pmu_set_close(pairs[i].plan_set);
		pmu_set_close(pairs[i].set);
	}
	CHECK(write(worker_stop[1], "x", 1) == 1 && pthread_join(th, NULL) == 0, "worker thread ends");
	printf("this kernel: %u pairs opened, %u refusals compared, %u counted, %u forked children\n", opened,
	       refused, counted, children);
	CHECK(opened > 0 && refused > 0 && counted > 0, "the history opened, refused and counted");
	pmu_ctx_free(ctx);
}

int main(void)
{
	const char *seed = getenv("PMU_TEST_SEED");
	struct pmu_plan *p = NULL;
	struct pmu_set *s = NULL;
	struct pmu_ctx *ctx = NULL;

	rng_state = seed ? strtoull(seed, NULL, 0) : 1;
	if (!rng_state)
		rng_state = 1;
	printf("seed %llu\n", (unsigned long long)rng_state);
	core_types("intel-adl-hybrid", "GenuineIntel-6-9A-3", 150);
	core_types("intel-mtl-hybrid", NULL, 100);
	core_types("arm64-biglittle", NULL, 150);
	core_types("arm64-dynamiq-3", NULL, 100);

	/* arguments a plan does not take, each said */
	CHECK(pmu_ctx_new(&ctx, NULL) == 0, "context");
	CHECK(pmu_plan_new(ctx, NULL, NULL, &p) == -EINVAL && !p, "NULL list");
	CHECK(pmu_plan_new(ctx, "task-clock", NULL, &p) == 0 && p, "plan: %s", pmu_strerror(-1));
	CHECK(pmu_plan_open(p, 1, -1, &s) == -EINVAL && !s && strstr(pmu_strerror(-EINVAL), "pass 0"),
	      "a pid for a plan of the calling thread: %s", pmu_strerror(-EINVAL));
	CHECK(pmu_plan_open(p, 0, 0, &s) == -EINVAL && !s && strstr(pmu_strerror(-EINVAL), "pass -1"),
	      "a CPU for a plan of any CPU: %s", pmu_strerror(-EINVAL));
	CHECK(pmu_plan_open(NULL, 0, -1, &s) == -EINVAL && !s, "NULL plan");
	pmu_plan_free(p);
	pmu_plan_free(NULL);
	pmu_ctx_free(ctx);

	live(600);
	return test_done("test-plan");
}
