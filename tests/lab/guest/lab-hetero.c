/* SPDX-License-Identifier: MIT */
/*
 * The heterogeneous arm64 guest (tests/lab/run's arm64-hetero: QEMU virt, 4 CPUs, a device tree of two
 * PMU clusters, armv8_cortex_a55 on CPUs 0-1 and armv8_cortex_a76 on CPUs 2-3; Debian 12's kernel,
 * which takes no PMU type in a generic event's config bits 32-63). A thread that runs known loops
 * on one cluster, then the other, in a seeded random history:
 *
 *  - every kind of name (standard, generic, table, sysfs, raw) counts on both clusters, and its
 *    parts equal the raw per-PMU counts of the oracle exactly, after every step, read from user
 *    space and through read(2); their total is the sum, unscaled, with confidence 1;
 *  - a name of one PMU (armv8_cortex_a76/INST.RET/) counts that cluster only;
 *  - another process, counted by pid while it migrates, likewise;
 *  - multiplexing on one cluster only: the other cluster's part stays exact; the multiplexed
 *    part is scaled to the task's time on its cluster, with a confidence below 1;
 *  - pmu stat prints a row per core type and the total, their sum;
 *  - a region whose calls run on both clusters has a value per core type, each what ran there;
 *  - the same history from a plan opened on this thread; a plan of CPUs opened on each CPU holds that
 *    cluster's part and counts what pmu_set_open's set for the CPU counts, exactly.
 *
 * The oracle: one counter per PMU opened here with perf_event_open (the PMU's type, event 0x08
 * INST_RETIRED, user mode). The oracle and the set under test are switched on and off together by
 * prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE), which toggles every counter this thread opened in
 * the kernel, so both count the same user instructions exactly (-icount shift=0).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "labutil.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#define NPMU 2
static const char *const pmu_name[NPMU] = { "armv8_cortex_a55", "armv8_cortex_a76" };
static const int cluster_cpu[NPMU][2] = { { 0, 1 }, { 2, 3 } };
static unsigned pmu_type[NPMU];

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static int read_type(const char *pmu, unsigned *type)
{
	char path[256];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	if (!(f = fopen(path, "r")))
		return -1;
	ok = fscanf(f, "%u", type) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* the oracle: INST_RETIRED (0x08) in user mode on PMU @p, for task @pid (0: this thread) */
static int oracle_open(int p, pid_t pid, int pinned)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = pmu_type[p];
	a.config = 0x08;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	a.pinned = pinned != 0;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
}

struct count {
	uint64_t value, enabled, running;
};

static struct count oracle_read(int fd)
{
	struct count c = { 0, 0, 0 };
	if (read(fd, &c, sizeof(c)) != sizeof(c))
		printf("FAIL: oracle read: %s\n", strerror(errno));
	return c;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		printf("FAIL: sched_setaffinity(%d): %s\n", cpu, strerror(errno));
	sched_yield(); /* on its way there before the work */
}

/* which oracle PMU a part is on (its label's prefix), or -1 */
static int part_pmu(const struct pmu_event_info *e)
{
	for (int p = 0; p < NPMU; p++)
		if (!strcmp(e->pmu, pmu_name[p]))
			return p;
	return -1;
}

/* Values of the set whose parts count @name, checked against the oracle's values @o: each part is
 * its PMU's oracle count, exactly; the unscaled sum is the total; the parts' running times cover
 * the enabled time. @only: the one PMU the name counts on (-1: both). */
static void check_parts(struct pmu_set *s, const char *name, const char *how, const struct pmu_value *v,
			const struct count *o, int only, int step)
{
	size_t n = pmu_set_count(s);
	uint64_t total = 0, running = 0, enabled = 0;
	int seen[NPMU] = { 0, 0 };

	LAB_CHECK(n == (only < 0 ? NPMU : 1), "%s: %zu values, expected %d", name, n, only < 0 ? NPMU : 1);
	for (size_t i = 0; i < n; i++) {
		struct pmu_event_info e;
		int p;
		pmu_set_event(s, i, &e);
		p = part_pmu(&e);
		LAB_CHECK(p >= 0 && (only < 0 || p == only), "%s: value %zu (%s) is on PMU '%s'", name, i, e.name, e.pmu);
		if (p < 0)
			continue;
		seen[p]++;
		LAB_CHECK(v[i].value == o[p].value, "%s step %d (%s): %s counted %llu, the %s oracle %llu", name, step,
			  how, e.name, (unsigned long long)v[i].value, pmu_name[p], (unsigned long long)o[p].value);
		LAB_CHECK(pmu_scale(&v[i]) == v[i].value, "%s step %d (%s): %s scaled %llu from %llu (enabled %llu "
			  "running %llu): a part is not multiplexed", name, step, how, e.name,
			  (unsigned long long)pmu_scale(&v[i]), (unsigned long long)v[i].value,
			  (unsigned long long)v[i].enabled, (unsigned long long)v[i].running);
		total += pmu_scale(&v[i]);
		running += v[i].running;
		enabled = v[i].enabled > enabled ? v[i].enabled : enabled;
	}
	if (only < 0) {
		LAB_CHECK(seen[0] == 1 && seen[1] == 1, "%s: parts per PMU %d, %d", name, seen[0], seen[1]);
		LAB_CHECK(total == o[0].value + o[1].value, "%s step %d (%s): total %llu, oracles' sum %llu", name,
			  step, how, (unsigned long long)total, (unsigned long long)(o[0].value + o[1].value));
	}
	LAB_CHECK(running >= enabled, "%s step %d (%s): the parts ran %llu ns of %llu enabled", name, step, how,
		  (unsigned long long)running, (unsigned long long)enabled);
}

/* One name, a seeded history of @steps: work on a random cluster, then the check by both reads. */
static void history(struct pmu_ctx *ctx, const char *name, int only, int steps, bool plan)
{
	struct pmu_set *s = NULL;
	struct pmu_plan *pl = NULL;
	struct pmu_value v[8];
	struct count o[NPMU];
	int fd[NPMU], r;

	/* from a plan (the list resolved once, opened on this thread), or resolved by pmu_set_open */
	r = plan ? pmu_plan_new(ctx, name, NULL, &pl) : pmu_set_open(ctx, name, NULL, &s);
	if (r == 0 && plan)
		r = pmu_plan_open(pl, 0, -1, &s);
	pmu_plan_free(pl);
	if (r < 0) {
		LAB_CHECK(0, "open '%s'%s: %s", name, plan ? " from a plan" : "", pmu_strerror(r));
		return;
	}
	for (int p = 0; p < NPMU; p++)
		fd[p] = oracle_open(p, 0, 0);
	if (fd[0] < 0 || fd[1] < 0) {
		LAB_CHECK(0, "oracle open: %s", strerror(errno));
		pmu_set_close(s);
		return;
	}
	prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	for (int step = 0; step < steps; step++) {
		int p = rnd(NPMU), cpu = cluster_cpu[p][rnd(2)];
		uint64_t n = 500000 + rnd(1000000); /* 0.5-1.5 ms under -icount: each enable and disable (prctl) is some microseconds apart */
		pin(cpu);
		prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
		lab_spin(n);
		if (rnd(3) == 0) { /* moved in the middle of the work */
			pin(cluster_cpu[!p][0]);
			lab_spin(n / 2);
		}
		prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
		for (int q = 0; q < NPMU; q++)
			o[q] = oracle_read(fd[q]);
		if ((r = pmu_set_read(s, v)) < 0)
			LAB_CHECK(0, "%s: pmu_set_read: %s", name, pmu_strerror(r));
		else
			check_parts(s, name, "pmu_set_read", v, o, only, step);
		if ((r = pmu_set_read_syscall(s, v)) < 0)
			LAB_CHECK(0, "%s: pmu_set_read_syscall: %s", name, pmu_strerror(r));
		else
			check_parts(s, name, "read(2)", v, o, only, step);
	}
	printf("%s%s: %d steps, last: %s %llu + %s %llu\n", name, plan ? " (plan)" : "", steps, pmu_name[0],
	       (unsigned long long)o[0].value, pmu_name[1], (unsigned long long)o[1].value);
	for (int p = 0; p < NPMU; p++)
		close(fd[p]);
	pmu_set_close(s);
}

/*
 * A plan of CPUs (every task of a CPU): "INST.RET:u" resolved once, one arrangement per cluster, opened on
 * each CPU beside pmu_set_open's set for it. Each holds its own cluster's part only, with the same label;
 * both, switched on and off with this thread's oracle (prctl), count the same user instructions of that
 * CPU exactly, at least the oracle's (this thread's own on that cluster; other tasks may add theirs).
 */
static void cpu_plans(struct pmu_ctx *ctx)
{
	struct pmu_set_opts o = { .size = sizeof(o), .flags = PMU_SET_CPU | PMU_SET_PID | PMU_SET_ENABLE };
	struct pmu_plan *pl = NULL;
	int r = pmu_plan_new(ctx, "INST.RET:u", &o, &pl), fd[NPMU];

	if (r < 0) {
		LAB_CHECK(0, "plan of CPUs: %s", pmu_strerror(r));
		return;
	}
	for (int p = 0; p < NPMU; p++)
		fd[p] = oracle_open(p, 0, 0);
	for (int p = 0; p < NPMU; p++)
		for (int k = 0; k < 2; k++) {
			int cpu = cluster_cpu[p][k];
			struct pmu_set *a = NULL, *b = NULL;
			struct pmu_value a0, a1, b0, b1;
			struct pmu_event_info ea, eb;
			struct count c0, c1;
			o.pid = -1;
			o.cpu = cpu;
			r = pmu_plan_open(pl, -1, cpu, &a);
			LAB_CHECK(r == 0, "CPU %d from the plan: %s", cpu, pmu_strerror(r));
			r = r ? r : pmu_set_open(ctx, "INST.RET:u", &o, &b);
			LAB_CHECK(r == 0 || !a, "CPU %d by pmu_set_open: %s", cpu, pmu_strerror(r));
			if (r == 0 && pmu_set_count(a) == 1 && pmu_set_count(b) == 1 && fd[0] >= 0 && fd[1] >= 0) {
				pmu_set_event(a, 0, &ea);
				pmu_set_event(b, 0, &eb);
				LAB_CHECK(!strcmp(ea.pmu, pmu_name[p]) && !strcmp(ea.name, eb.name) &&
					  ea.config == eb.config && ea.type == eb.type,
					  "CPU %d: the plan's '%s' (%s), pmu_set_open's '%s' (%s); its cluster's PMU is %s",
					  cpu, ea.name, ea.pmu, eb.name, eb.pmu, pmu_name[p]);
				prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
				pin(cpu);
				c0 = oracle_read(fd[p]);
				r = pmu_set_read(a, &a0) | pmu_set_read(b, &b0);
				prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
				lab_spin(300000);
				prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
				c1 = oracle_read(fd[p]);
				r |= pmu_set_read(a, &a1) | pmu_set_read(b, &b1);
				LAB_CHECK(r == 0, "CPU %d: read", cpu);
				LAB_CHECK(a1.value - a0.value == b1.value - b0.value && a1.value - a0.value >= c1.value - c0.value &&
					  c1.value > c0.value,
					  "CPU %d: the plan's set counted %llu, pmu_set_open's %llu, this thread's oracle %llu",
					  cpu, (unsigned long long)(a1.value - a0.value),
					  (unsigned long long)(b1.value - b0.value), (unsigned long long)(c1.value - c0.value));
				printf("plan of CPUs: CPU %d %s %llu (pmu_set_open %llu, this thread %llu)\n", cpu, ea.name,
				       (unsigned long long)(a1.value - a0.value), (unsigned long long)(b1.value - b0.value),
				       (unsigned long long)(c1.value - c0.value));
			} else {
				LAB_CHECK(r != 0, "CPU %d: %zu and %zu values, expected its cluster's part", cpu,
					  a ? pmu_set_count(a) : 0, b ? pmu_set_count(b) : 0);
			}
			pmu_set_close(a);
			pmu_set_close(b);
		}
	for (int p = 0; p < NPMU; p++)
		if (fd[p] >= 0)
			close(fd[p]);
	pmu_plan_free(pl);
	prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
}

/* Another process counted by pid while it migrates: its parts equal per-PMU oracles on the same pid. */
static void other_process(struct pmu_ctx *ctx, const char *name)
{
	struct pmu_set_opts opts;
	struct pmu_set *s;
	struct pmu_value v[8];
	struct count o[NPMU];
	int go[2], fd[NPMU], st, r;
	pid_t pid;

	if (pipe(go) != 0)
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		for (int k = 0; k < 6; k++) {
			pin(cluster_cpu[k % NPMU][k % 2]);
			lab_spin(50000 + 10000 * k);
		}
		_exit(0);
	}
	close(go[0]);
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.flags = PMU_SET_PID | PMU_SET_ENABLE;
	opts.pid = pid;
	r = pmu_set_open(ctx, name, &opts, &s);
	for (int p = 0; p < NPMU; p++) {
		fd[p] = oracle_open(p, pid, 0);
		if (fd[p] >= 0)
			ioctl(fd[p], PERF_EVENT_IOC_ENABLE, 0);
	}
	if (write(go[1], "g", 1) != 1 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		LAB_CHECK(0, "the counted process did not run");
		r = r < 0 ? r : -1;
	}
	close(go[1]);
	if (r < 0 || fd[0] < 0 || fd[1] < 0) {
		LAB_CHECK(0, "%s for a pid: open %s, oracle %d %d", name, r < 0 ? pmu_strerror(r) : "ok", fd[0], fd[1]);
	} else {
		for (int p = 0; p < NPMU; p++)
			o[p] = oracle_read(fd[p]);
		LAB_CHECK(o[0].value > 100000 && o[1].value > 100000, "the process ran on both clusters: %llu, %llu",
			  (unsigned long long)o[0].value, (unsigned long long)o[1].value);
		if ((r = pmu_set_read(s, v)) < 0)
			LAB_CHECK(0, "%s for a pid: read: %s", name, pmu_strerror(r));
		else
			check_parts(s, name, "another process", v, o, -1, 0);
		printf("%s, another process: %s %llu + %s %llu\n", name, pmu_name[0], (unsigned long long)o[0].value,
		       pmu_name[1], (unsigned long long)o[1].value);
	}
	for (int p = 0; p < NPMU; p++)
		if (fd[p] >= 0)
			close(fd[p]);
	if (r >= 0)
		pmu_set_close(s);
}

/* Multiplexing on the A55 cluster only: seven more events of that PMU than it has counters for. */
static void multiplexed_cluster(struct pmu_ctx *ctx)
{
	char crowd[512] = "";
	struct pmu_set *s, *busy;
	struct pmu_value v[8];
	struct count o[NPMU];
	int fd[NPMU], r, mux = -1;

	for (int i = 0; i < 7; i++)
		strcat(crowd, i ? ",armv8_cortex_a55/inst_retired/u" : "armv8_cortex_a55/inst_retired/u");
	if ((r = pmu_set_open(ctx, crowd, NULL, &busy)) < 0) {
		LAB_CHECK(0, "open the crowd: %s", pmu_strerror(r));
		return;
	}
	if ((r = pmu_set_open(ctx, "INST.RET:u", NULL, &s)) < 0) {
		LAB_CHECK(0, "open INST.RET:u: %s", pmu_strerror(r));
		pmu_set_close(busy);
		return;
	}
	for (int p = 0; p < NPMU; p++)
		fd[p] = oracle_open(p, 0, 1); /* pinned: never multiplexed */
	prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
	for (int k = 0; k < 8; k++) {
		pin(cluster_cpu[k % NPMU][0]);
		lab_spin(3000000);
	}
	prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	for (int p = 0; p < NPMU; p++)
		o[p] = oracle_read(fd[p]);
	if ((r = pmu_set_read(s, v)) < 0) {
		LAB_CHECK(0, "read: %s", pmu_strerror(r));
	} else {
		for (size_t i = 0; i < pmu_set_count(s); i++) {
			struct pmu_event_info e;
			int p;
			pmu_set_event(s, i, &e);
			p = part_pmu(&e);
			if (p == 1) {
				LAB_CHECK(v[i].value == o[1].value && pmu_scale(&v[i]) == v[i].value,
					  "the A76 part, not multiplexed: %llu (scaled %llu), oracle %llu",
					  (unsigned long long)v[i].value, (unsigned long long)pmu_scale(&v[i]),
					  (unsigned long long)o[1].value);
			} else if (p == 0) {
				double conf = pmu_confidence(&v[i]), err;
				uint64_t sc = pmu_scale(&v[i]);
				err = ((double)sc - (double)o[0].value) / (double)o[0].value;
				mux = conf < 1.0;
				LAB_CHECK(conf > 0.0 && conf < 1.0, "the A55 part, multiplexed: confidence %f", conf);
				LAB_CHECK(v[i].value <= o[0].value && err > -0.1 && err < 0.1,
					  "the A55 part: raw %llu, scaled %llu, oracle %llu (%+.3f)",
					  (unsigned long long)v[i].value, (unsigned long long)sc,
					  (unsigned long long)o[0].value, err);
				printf("multiplexed A55 part: raw %llu, scaled %llu, oracle %llu (%+.4f), confidence %.3f\n",
				       (unsigned long long)v[i].value, (unsigned long long)sc,
				       (unsigned long long)o[0].value, err, conf);
			}
		}
	}
	LAB_CHECK(mux == 1, "no multiplexed A55 part seen");
	for (int p = 0; p < NPMU; p++)
		close(fd[p]);
	pmu_set_close(s);
	pmu_set_close(busy);
}

/* Regions (PMU_EVENTS=INST.RET:u, in a child: the variable is read once per process): call i of a region
 * runs 2 x spin[0][i] x N user instructions on the A55 cluster and 2 x spin[1][i] x N on the A76 one
 * (lab_spin(N): N decrements and N branches). The report has a value per core type, each within 1% of
 * what ran there, counted all the time it ran on its cluster (confidence 1), then the name's total,
 * "INST.RET:u": their sum, and per call the smallest and largest total, within 1% of the smallest and
 * largest call's work (3N x 2 and 4N x 2 here; the parts' own minima and maxima add up to 2N x 2 and 5N x
 * 2, so a total's extremes taken from the parts' fail). What may differ: the user code of the move inside
 * the region (sched_setaffinity's and sched_yield's libc part, on one cluster or the other) and the
 * calibrated begin/end cost, measured on one cluster and subtracted from both parts: 6,600 instructions a
 * call seen once (CI, N 200,000: 1.6%), hence N 2,000,000. */
#define REGION_N 2000000
#define REGION_CALLS 5
static const int region_spin[NPMU][REGION_CALLS] = { { 1, 2, 1, 2, 1 }, { 2, 1, 2, 1, 3 } };

static uint64_t region_total; /* the result's total, for the CSV report's check */

static bool within(double got, double want)
{
	return got > want * 0.99 && got < want * 1.01;
}

static int region_result(const struct pmu_region_result *r, void *data)
{
	uint64_t sum = 0, sum_min = 0, sum_max = 0;
	int *ok = data;

	if (strcmp(r->name, "both") || r->tid != -1)
		return 0;
	LAB_CHECK(r->nvalues == NPMU + 1 && r->calls == REGION_CALLS, "region: %zu values (a part per cluster and "
		  "the total), %llu calls", r->nvalues, (unsigned long long)r->calls);
	if (r->nvalues != NPMU + 1)
		return 0;
	for (size_t k = 0; k < NPMU; k++) {
		double want = 0, got = (double)pmu_scale(&r->values[k]);
		for (int i = 0; i < REGION_CALLS; i++)
			want += 2.0 * REGION_N * region_spin[k][i];
		printf("region 'both': %s %llu (enabled %llu running %llu, per call %llu-%llu), %u calls\n",
		       r->events[k], (unsigned long long)r->values[k].value, (unsigned long long)r->values[k].enabled,
		       (unsigned long long)r->values[k].running, (unsigned long long)r->min[k],
		       (unsigned long long)r->max[k], REGION_CALLS);
		LAB_CHECK(!strncmp(r->events[k], pmu_name[k], strlen(pmu_name[k])), "region value %zu is %s", k,
			  r->events[k]);
		LAB_CHECK(within(got, want), "region: %s %.0f, expected %.0f within 1%%", r->events[k], got, want);
		LAB_CHECK(pmu_confidence(&r->values[k]) == 1.0, "region: %s confidence %f", r->events[k],
			  pmu_confidence(&r->values[k]));
		sum += r->values[k].value;
		sum_min += r->min[k];
		sum_max += r->max[k];
	}
	printf("region 'both': %s %llu, per call %llu-%llu (the parts' minima add up to %llu, maxima to %llu)\n",
	       r->events[NPMU], (unsigned long long)r->values[NPMU].value, (unsigned long long)r->min[NPMU],
	       (unsigned long long)r->max[NPMU], (unsigned long long)sum_min, (unsigned long long)sum_max);
	LAB_CHECK(!strcmp(r->events[NPMU], "INST.RET:u"), "region: the total is named %s", r->events[NPMU]);
	LAB_CHECK(r->values[NPMU].value == sum, "region: total %llu, the parts add up to %llu",
		  (unsigned long long)r->values[NPMU].value, (unsigned long long)sum);
	LAB_CHECK(within((double)r->min[NPMU], 2.0 * REGION_N * 3) && within((double)r->max[NPMU], 2.0 * REGION_N * 4),
		  "region: a call's total %llu-%llu, expected %.0f-%.0f within 1%%", (unsigned long long)r->min[NPMU],
		  (unsigned long long)r->max[NPMU], 2.0 * REGION_N * 3, 2.0 * REGION_N * 4);
	region_total = r->values[NPMU].value;
	*ok = 1;
	return 0;
}

/* A forked child's region "child": a part per cluster and one total (the parent's totals were kept by
 * the child and noted again: two totals, the child's own and a stale copy). */
static int child_result(const struct pmu_region_result *r, void *data)
{
	int *ok = data;

	if (strcmp(r->name, "child") || r->tid != -1)
		return 0;
	printf("forked child's region: %zu values, the last %s\n", r->nvalues, r->nvalues ? r->events[r->nvalues - 1] : "");
	*ok = r->nvalues == NPMU + 1 && !strcmp(r->events[NPMU], "INST.RET:u") &&
	      r->values[NPMU].value == r->values[0].value + r->values[1].value;
	return 0;
}

static int regions_child(unsigned unused)
{
	int ok = 0;

	(void)unused;
	setenv("PMU_EVENTS", "INST.RET:u", 1);
	setenv("PMU_OUTPUT", "/dev/null", 1);
	for (int i = 0; i < REGION_CALLS; i++) {
		pin(cluster_cpu[0][1]);
		pmu_region_begin("both");
		lab_spin((unsigned long)region_spin[0][i] * REGION_N);
		pin(cluster_cpu[1][1]);
		lab_spin((unsigned long)region_spin[1][i] * REGION_N);
		pmu_region_end("both");
	}
	pmu_region_foreach(0, region_result, &ok);
	LAB_CHECK(ok, "no result for region 'both'");
	/* the CSV report has the total's row, as the result gave it */
	{
		const char *csv = "/tmp/lab-hetero-regions.csv";
		char line[512], want[160];
		bool found = false;
		FILE *f;
		int rr;
		snprintf(want, sizeof(want), "\"both\",-1,%d,\"INST.RET:u\",%llu,", REGION_CALLS,
			 (unsigned long long)region_total);
		rr = pmu_region_report(csv, PMU_FORMAT_CSV, 0);
		LAB_CHECK(rr == 0, "region CSV report: %s", pmu_strerror(rr));
		for (f = fopen(csv, "r"); f && fgets(line, sizeof(line), f);)
			found = found || !strncmp(line, want, strlen(want));
		LAB_CHECK(found, "region CSV report: no row starting %s", want);
		if (f)
			fclose(f);
	}
	/* a forked child of this process, which used regions: its own set's parts and one total */
	{
		int st = -1;
		pid_t pid = fork();
		if (pid == 0) {
			int okc = 0;
			pin(cluster_cpu[0][1]);
			pmu_region_begin("child");
			lab_spin(REGION_N);
			pin(cluster_cpu[1][1]);
			lab_spin(REGION_N);
			pmu_region_end("child");
			pmu_region_foreach(0, child_result, &okc);
			_exit(okc ? 0 : 1);
		}
		LAB_CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
			  "a forked child's region: a part per cluster and one total (status %d)", st);
	}
	return lab_failures ? 1 : 0;
}

/* pmu stat on a command that runs on both clusters (this program, --spin): one CSV row per core type
 * and the total, which is their sum; the parts are not scaled. */
static void stat_rows(bool all_cpus)
{
	char line[512];
	unsigned long long part[NPMU] = { 0, 0 }, total = 0;
	int seen = 0, rows = 0;
	FILE *f;

	int out[2], st = 0;
	pid_t pid;

	fflush(stdout);
	if (pipe(out) != 0 || (pid = fork()) < 0) {
		LAB_CHECK(0, "pipe/fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) { /* the guest has no shell: the command run directly, its stderr (the rows) to the pipe */
		dup2(out[1], 2);
		dup2(out[1], 1);
		if (all_cpus) /* every CPU: a plan of CPUs, each CPU its cluster's part */
			execl("/bin/pmu", "pmu", "stat", "-a", "-x,", "-e", "INST.RET:u", "--", "/tests/lab-hetero", "--spin",
			      (char *)NULL);
		else
			execl("/bin/pmu", "pmu", "stat", "-x,", "-e", "INST.RET:u", "--", "/tests/lab-hetero", "--spin",
			      (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	f = fdopen(out[0], "r");
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		char name[128];
		double pct;
		printf("pmu stat%s: %s", all_cpus ? " -a" : "", line);
		/* value,unit,event,running,percent,... */
		if (sscanf(line, "%llu,,%127[^,],%*u,%lf", &v, name, &pct) != 3)
			continue;
		rows++;
		LAB_CHECK(pct == 100.0, "pmu stat row %s: %.2f%% of the time counted", name, pct);
		for (int p = 0; p < NPMU; p++)
			if (!strncmp(name, pmu_name[p], strlen(pmu_name[p]))) {
				part[p] = v;
				seen |= 1 << p;
			}
		if (!strcmp(name, "INST.RET:u")) {
			total = v;
			seen |= 4;
		}
	}
	fclose(f);
	LAB_CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "pmu stat failed (%#x)", st);
	LAB_CHECK(rows == 3 && seen == 7, "pmu stat: %d rows (%#x), expected a part per core PMU and the total", rows,
		  seen);
	LAB_CHECK(part[0] > 2000000 && part[1] > 2000000 && total == part[0] + part[1],
		  "pmu stat: parts %llu + %llu, total %llu", part[0], part[1], total);
}

int main(int argc, char **argv)
{
	/* every kind of name that names no PMU, and one that does */
	static const struct {
		const char *name;
		int only;
	} names[] = {
		{ "INST.RET:u", -1 },               /* standard: the table's INST_RETIRED on each PMU */
		{ "instructions:u", -1 },           /* generic: each PMU's own event 0x08 (no extended type) */
		{ "inst_retired:u", -1 },           /* sysfs (each PMU lists it) */
		{ "INST_RETIRED:u", -1 },           /* table */
		{ "r08:u", -1 },                    /* raw */
		{ "armv8_cortex_a76/INST.RET/u", 1 }, /* one PMU named */
	};
	struct pmu_ctx *ctx;
	struct pmu_caps caps;

	if (argc == 2 && !strcmp(argv[1], "--spin")) { /* the command of stat_rows(): both clusters */
		pin(cluster_cpu[0][0]);
		lab_spin(1000000);
		pin(cluster_cpu[1][0]);
		lab_spin(1000000);
		return 0;
	}

	if (read_type(pmu_name[0], &pmu_type[0]) < 0 || read_type(pmu_name[1], &pmu_type[1]) < 0)
		LAB_SKIP("not the heterogeneous guest (no %s and %s PMUs): it runs in tests/lab/run's arm64-hetero",
			 pmu_name[0], pmu_name[1]);
	ctx = lab_ctx();
	pmu_caps(ctx, &caps);
	LAB_CHECK(caps.hybrid == 2, "pmu_caps: hybrid %d, expected 2 core PMUs", caps.hybrid);
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		history(ctx, names[i].name, names[i].only, 40, false);
		history(ctx, names[i].name, names[i].only, 20, true);
	}
	cpu_plans(ctx);
	other_process(ctx, "INST.RET:u");
	other_process(ctx, "instructions:u");
	multiplexed_cluster(ctx);
	stat_rows(false);
	stat_rows(true);
	if (lab_in_child(regions_child, 0) != 0)
		LAB_CHECK(0, "regions on both clusters");
	pmu_ctx_free(ctx);
	return lab_done("lab-hetero");
}
