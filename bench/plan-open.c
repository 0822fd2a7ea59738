/* SPDX-License-Identifier: MIT */
/*
 * Opening one event list on N targets (bench/plan-open.sh counts the instructions under callgrind):
 *   plan-open each N   pmu_set_open() once per target, each resolving the list again
 *   plan-open plan N   pmu_plan_new() once, then pmu_plan_open() once per target
 * The targets are N threads of this process (PMU_SET_PID with each thread's id), blocked while they are
 * opened. Only open_all() is counted (callgrind --toggle-collect=open_all): the context, the threads and
 * the closing are not. Before a figure is printed every set is checked: all events opened (none
 * PMU_EVF_UNSUPPORTED) and each set's first event counting its thread; otherwise it exits 1.
 * Built with -DPLAN_OPEN_EACH_ONLY, "each" alone, for a library from before plans (the baseline).
 * Needs a list of events this kernel opens for another thread (software events on a machine without a
 * hardware PMU): PMU_BENCH_EVENTS, else the ten below.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <pmu.h>

struct pmu_plan; /* declared by pmu.h since plans; the baseline's has none */

static const char default_events[] = "task-clock,cpu-clock,page-faults,minor-faults,major-faults,context-switches,"
				     "cpu-migrations,alignment-faults,emulation-faults,dummy";

static int gate[2];
static pid_t *tids;

static void *target(void *arg)
{
	char c;

	__atomic_store_n(&tids[(size_t)arg], (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (read(gate[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* The counted part: the opens of @n targets, one way or the other. */
__attribute__((noinline)) int open_all(struct pmu_ctx *ctx, const char *events, int plan, size_t n,
				       struct pmu_set **sets, struct pmu_plan **p)
{
	struct pmu_set_opts o;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.flags = PMU_SET_PID | PMU_SET_ENABLE;
#ifndef PLAN_OPEN_EACH_ONLY
	if (plan) {
		if (pmu_plan_new(ctx, events, &o, p) < 0)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (pmu_plan_open(*p, tids[i], -1, &sets[i]) < 0)
				return -1;
		return 0;
	}
#else
	(void)plan;
	(void)p;
#endif
	for (size_t i = 0; i < n; i++) {
		o.pid = tids[i];
		if (pmu_set_open(ctx, events, &o, &sets[i]) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *events = getenv("PMU_BENCH_EVENTS") ? getenv("PMU_BENCH_EVENTS") : default_events;
	struct pmu_ctx *ctx = NULL;
	struct pmu_plan *p = NULL; /* an incomplete type: also for a library before plans */
	struct pmu_set **sets;
	pthread_t *th;
	struct rlimit rl;
	size_t n, nev = 1;
	int plan, bad = 0;

	if (argc != 3 || (strcmp(argv[1], "each") && strcmp(argv[1], "plan")) || !(n = strtoul(argv[2], NULL, 0))) {
		fprintf(stderr, "usage: plan-open each|plan TARGETS\n");
		return 2;
	}
	plan = !strcmp(argv[1], "plan");
#ifdef PLAN_OPEN_EACH_ONLY
	if (plan) {
		fprintf(stderr, "plan-open: built without plans (PLAN_OPEN_EACH_ONLY)\n");
		return 2;
	}
#endif
	for (const char *c = events; *c; c++)
		nev += *c == ',';
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < n * nev + 64) {
		fprintf(stderr, "plan-open: %zu descriptors needed, RLIMIT_NOFILE is %llu\n", n * nev + 64,
			(unsigned long long)rl.rlim_cur);
		return 1;
	}
	tids = calloc(n, sizeof(*tids));
	th = calloc(n, sizeof(*th));
	sets = calloc(n, sizeof(*sets));
	if (!tids || !th || !sets || pipe(gate) < 0 || pmu_ctx_new(&ctx, NULL) < 0) {
		fprintf(stderr, "plan-open: set-up failed\n");
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, target, (void *)i) != 0) {
			fprintf(stderr, "plan-open: thread %zu: cannot create\n", i);
			return 1;
		}
	for (size_t i = 0; i < n; i++)
		while (!__atomic_load_n(&tids[i], __ATOMIC_ACQUIRE))
			usleep(100);
	if (open_all(ctx, events, plan, n, sets, &p) < 0) {
		fprintf(stderr, "plan-open: %s\n", pmu_strerror(-1));
		return 1;
	}
	/* the threads let go (end of data on the pipe) and gone: their counts are final */
	close(gate[1]);
	for (size_t i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	/* every counter live: each event opened, each set's first event (task-clock by default) counted its
	 * thread's last moments */
	for (size_t i = 0; i < n; i++) {
		struct pmu_value v[64];
		size_t c = pmu_set_count(sets[i]);
		bad += c != nev || c > 64 || pmu_set_read(sets[i], v) < 0 || !v[0].enabled || !v[0].value;
		for (size_t k = 0; k < c && k < 64; k++) {
			struct pmu_event_info e;
			pmu_set_event(sets[i], k, &e);
			bad += (e.flags & PMU_EVF_UNSUPPORTED) != 0;
		}
	}
	if (bad) {
		fprintf(stderr, "plan-open: %d events or sets not live; no figure\n", bad);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		pmu_set_close(sets[i]);
#ifndef PLAN_OPEN_EACH_ONLY
	pmu_plan_free(p);
#endif
	printf("BENCH plan-open mode=%s targets=%zu events=%zu live=yes\n", argv[1], n, nev);
	pmu_ctx_free(ctx);
	return 0;
}
