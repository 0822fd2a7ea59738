/* SPDX-License-Identifier: MIT */
/*
 * Uncore units of several boxes (issue 43): a server's memory controllers are PMUs uncore_imc_0 ...
 * uncore_imc_N, and perf counts an event of the unit (a table event whose Unit is "iMC", or
 * uncore_imc/event=.../, imc/.../) on every box, each with that box's type and format files, and
 * reports the sum. So must libpmu.
 *
 * 1. Resolution on a written machine (no kernel): three boxes whose format files differ (box 1 has
 *    umask at config:16-23, the others at config:8-15), a table event of Unit iMC and the sysfs
 *    spellings (uncore_imc/.../, imc/.../, EVENT/TERMS/, uncore_imc/EVENT/): one logical event
 *    (PMU_EVF_BOXES, 3 boxes, PMU "uncore_imc", box 0's encoding), each box's own encoding from
 *    pmu_event_resolve_each(), worked out by hand from the formats; a unit one of whose boxes lacks a
 *    format term is refused naming that box; groups of one unit's events are planned, a group mixing
 *    a unit with another PMU refused; source_count() is the number of boxes. Sapphire Rapids' built-in
 *    tables on four CHA boxes: perf's llc_demand_data_read_miss_latency (source_count() of a CHA
 *    event) plans and evaluates to its value by hand.
 * 2. The kernel as the oracle: a written machine whose boxes uncore_imc_0 and uncore_imc_1 are both the
 *    real msr PMU of this machine (its type), event tsc (config 0), cpumask 0. A task's set of the
 *    unit's event sleeping 100 ms counts every box on CPU 0, so its value must be about twice a raw
 *    CPU-wide perf_event_open of msr tsc on CPU 0 enabled around it: at most 2x the raw count (the raw
 *    count runs longer) and at least 2x its three quarters. Then three boxes of cpumask 0-1 (a
 *    2-socket machine): 3x the raw counts of CPUs 0 and 1 summed, and copy by copy
 *    (pmu_set_read_copies: each box on each CPU, with its package) the copies adding up to the value,
 *    each package's sum 3x its CPU's raw count. And a set of CPU 0 (PMU_SET_CPU): both boxes there.
 *    And boxes without a cpumask (PMUs that count tasks): this thread's own set, read by pmu_set_read(),
 *    about 2x a raw msr tsc of this task around it.
 * Part 2 needs root (every task of a CPU) and the msr PMU with tsc; otherwise it is skipped (77)
 * after part 1 passed.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <pmu.h>
#include "util.h"
#include "harness.h"
#include "fixture.h"
#include "msr-oracle.h"

#define DEV "sys/bus/event_source/devices/"

static void put_box(const char *root, const char *box, const char *type, const char *mask, const char *umask)
{
	char rel[256];

	snprintf(rel, sizeof(rel), DEV "%s/type", box);
	fixture_put(root, rel, type);
	snprintf(rel, sizeof(rel), DEV "%s/cpumask", box);
	if (mask) /* NULL: a PMU that counts tasks */
		fixture_put(root, rel, mask);
	snprintf(rel, sizeof(rel), DEV "%s/format/event", box);
	fixture_put(root, rel, "config:0-7\n");
	if (umask) {
		snprintf(rel, sizeof(rel), DEV "%s/format/umask", box);
		fixture_put(root, rel, umask);
	}
	snprintf(rel, sizeof(rel), DEV "%s/events/clockticks", box);
	fixture_put(root, rel, "event=0x01\n");
}

/* The tables of both machines: a unit's events and metrics over them. */
static void put_tables(const char *dir)
{
	fixture_put(dir, "events.json",
		    "[\n"
		    "{\"EventName\": \"BOX.READS\", \"EventCode\": \"0x04\", \"UMask\": \"0x03\", \"Unit\": \"iMC\",\n"
		    " \"BriefDescription\": \"reads, each box\"},\n"
		    "{\"EventName\": \"BOX.TSC\", \"EventCode\": \"0x00\", \"Unit\": \"iMC\", \"BriefDescription\": \"tsc\"},\n"
		    "{\"EventName\": \"BOX.OTHER\", \"EventCode\": \"0x02\", \"Unit\": \"CHA\", \"BriefDescription\": \"other\"},\n"
		    "{\"MetricName\": \"m_per_box\", \"MetricExpr\": \"BOX.READS / source_count(BOX.READS)\",\n"
		    " \"BriefDescription\": \"reads per box\"}\n"
		    "]\n");
}

/* name resolves to one event of @boxes boxes of PMU @pmu, box 0's config @config; its boxes' configs @each */
static void logical(struct pmu_ctx *ctx, const char *name, unsigned boxes, uint64_t config, const uint64_t *each)
{
	struct pmu_event_info info, v[8];
	int r = pmu_event_resolve(ctx, name, &info), n;

	CHECK(r == 0, "%s: %s", name, pmu_strerror(r));
	if (r)
		return;
	CHECK((info.flags & PMU_EVF_BOXES) && info.boxes == boxes && !strcmp(info.pmu, "uncore_imc") &&
	      info.type == 30 && info.config == config && !strcmp(info.name, name),
	      "%s: flags 0x%x boxes %u pmu %s type %u config 0x%llx name %s (want %u boxes of uncore_imc, type 30, "
	      "0x%llx)", name, info.flags, info.boxes, info.pmu, info.type, (unsigned long long)info.config, info.name,
	      boxes, (unsigned long long)config);
	CHECK(strstr(info.origin, "counted on each of the 3 uncore_imc boxes"), "%s: origin '%s'", name, info.origin);
	n = pmu_event_resolve_each(ctx, name, v, 8);
	CHECK(n == (int)boxes, "%s: %d encodings (%s), want %u", name, n, n < 0 ? pmu_strerror(n) : "", boxes);
	for (int b = 0; b < n && b < 8; b++) {
		char box[32];
		snprintf(box, sizeof(box), "uncore_imc_%d", b);
		CHECK(v[b].type == 30u + (unsigned)b && v[b].config == each[b] && !strcmp(v[b].pmu, box) &&
		      !strncmp(v[b].name, box, strlen(box)) && !(v[b].flags & PMU_EVF_BOXES),
		      "%s box %d: %s type %u config 0x%llx pmu %s (want type %d 0x%llx %s)", name, b, v[b].name, v[b].type,
		      (unsigned long long)v[b].config, v[b].pmu, 30 + b, (unsigned long long)each[b], box);
	}
}

static void resolution(const char *root, const char *tables)
{
	/* by hand: event 0x04 at config 0-7, umask 0x03 at 8-15 (boxes 0, 2) or 16-23 (box 1) */
	const uint64_t reads[3] = { 0x0304, 0x030004, 0x0304 }, ticks[3] = { 0x01, 0x01, 0x01 };
	struct pmu_ctx *ctx;
	struct pmu_set_opts o = { sizeof(o), PMU_SET_CPU | PMU_SET_PID, -1, 0 };
	struct pmu_named_value v[] = { { "BOX.READS", 900 } };
	double x = 0;
	int r;

	put_box(root, "uncore_imc_0", "30\n", "0\n", "config:8-15\n");
	put_box(root, "uncore_imc_1", "31\n", "0\n", "config:16-23\n");
	put_box(root, "uncore_imc_2", "32\n", "0\n", "config:8-15\n");
	put_box(root, "uncore_cha_0", "40\n", "0\n", "config:8-15\n");
	put_box(root, "uncore_cha_1", "41\n", "0\n", NULL); /* no umask */
	put_box(root, "uncore_cha_2", "42\n", "0\n", "config:8-15\n");
	fixture_put(root, "sys/devices/system/cpu/online", "0-1\n");
	fixture_put(root, "proc/sys/kernel/perf_event_paranoid", "-1\n");
	ctx = root_ctx(root, "GenuineIntel-6-8F-8", tables);
	CHECK(ctx != NULL, "context on %s", root);
	if (!ctx)
		return;
	logical(ctx, "BOX.READS", 3, 0x0304, reads);
	logical(ctx, "uncore_imc/event=0x4,umask=0x3/", 3, 0x0304, reads);
	logical(ctx, "imc/event=0x4,umask=0x3/", 3, 0x0304, reads);
	logical(ctx, "uncore_imc/BOX.READS/", 3, 0x0304, reads);
	logical(ctx, "BOX.READS/event=0x4/", 3, 0x0304, reads);
	logical(ctx, "uncore_imc/clockticks/", 3, 0x01, ticks);
	/* one box named: that box alone */
	{
		struct pmu_event_info info;
		r = pmu_event_resolve(ctx, "uncore_imc_1/BOX.READS/", &info);
		CHECK(r == 0 && !(info.flags & PMU_EVF_BOXES) && info.boxes == 0 && info.type == 31 &&
		      info.config == 0x030004, "uncore_imc_1/BOX.READS/: %d flags 0x%x type %u config 0x%llx", r,
		      info.flags, info.type, (unsigned long long)info.config);
	}
	/* a box without the umask term: refused, naming it */
	{
		struct pmu_event_info info[4];
		r = pmu_event_resolve_each(ctx, "uncore_cha/event=0x2,umask=0x1/", info, 4);
		CHECK(r == -EINVAL && strstr(pmu_strerror(r), "box uncore_cha_1 cannot count it") &&
		      strstr(pmu_strerror(r), "umask"), "a box lacking umask: %d %s", r, pmu_strerror(r));
		r = pmu_set_check(ctx, "uncore_cha/event=0x2,umask=0x1/", &o);
		CHECK(r == -EINVAL && strstr(pmu_strerror(r), "box uncore_cha_1 cannot count it"),
		      "a set of it: %d %s", r, pmu_strerror(r));
	}
	/* groups: one unit's events together (the group copied to each box); another PMU's refused */
	r = pmu_set_check(ctx, "{BOX.READS,uncore_imc/clockticks/}", &o);
	CHECK(r == 0, "a group of one unit: %s", pmu_strerror(r));
	r = pmu_set_check(ctx, "{BOX.READS,uncore_imc_0/clockticks/}", &o);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "cannot be in one {group}") &&
	      strstr(pmu_strerror(r), "3 boxes of uncore_imc"), "a group of the unit and one box: %d %s", r,
	      pmu_strerror(r));
	r = pmu_set_check(ctx, "{BOX.READS,uncore_cha/clockticks/}", &o);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "the boxes of uncore_cha"), "a group of two units: %d %s", r,
	      pmu_strerror(r));
	/* source_count(): the number of boxes; the metric divides by it (900 / 3) */
	r = pmu_metric_eval(ctx, "m_per_box", v, 1, &x);
	CHECK(r == 0 && x == 300, "m_per_box = %g (%s), by hand 900 / 3 = 300", x, pmu_strerror(r));
	r = pmu_metric_eval(ctx, "source_count(uncore_imc@clockticks@) * 10 + source_count(BOX.OTHER)", v, 1, &x);
	CHECK(r == 0 && x == 33, "source_count of a sysfs name and of a CHA event = %g (%s), by hand 3 * 10 + 3", x,
	      pmu_strerror(r));
	pmu_ctx_free(ctx);
}

/* Sapphire Rapids' built-in tables on a machine of four CHA boxes (the kernel's SPR cha format: umask
 * config:8-15,32-57): perf's LLC latency metric, which divides by source_count() of a CHA event,
 * resolves, plans and is evaluated with source_count() 4. The encoding by hand: UNC_CHA_TOR_OCCUPANCY.
 * IA_MISS_DRD is EventCode 0x36, UMask 0xc817fe01: 0x36 | 0x01 << 8 | 0xc817fe << 32. */
static void sapphire_rapids(const char *root)
{
	struct pmu_set_opts o = { sizeof(o), PMU_SET_CPU | PMU_SET_PID, -1, 0 };
	struct pmu_named_value v[] = { { "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD", 8000 },
				       { "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", 100 },
				       { "UNC_CHA_CLOCKTICKS", 4e9 }, { "duration_time", 1 } };
	struct pmu_event_info info;
	struct pmu_ctx *ctx;
	char events[1024] = "", rel[256];
	double x = 0;
	int r;

	fixture_put(root, DEV "cpu/type", "4\n");
	fixture_put(root, DEV "cpu/format/event", "config:0-7\n");
	fixture_put(root, DEV "cpu/format/umask", "config:8-15\n");
	for (int b = 0; b < 4; b++) {
		char t[16];
		snprintf(t, sizeof(t), "%d\n", 50 + b);
		snprintf(rel, sizeof(rel), DEV "uncore_cha_%d/type", b);
		fixture_put(root, rel, t);
		snprintf(rel, sizeof(rel), DEV "uncore_cha_%d/cpumask", b);
		fixture_put(root, rel, "0\n");
		snprintf(rel, sizeof(rel), DEV "uncore_cha_%d/format/event", b);
		fixture_put(root, rel, "config:0-7\n");
		snprintf(rel, sizeof(rel), DEV "uncore_cha_%d/format/umask", b);
		fixture_put(root, rel, "config:8-15,32-57\n");
	}
	fixture_put(root, "sys/devices/system/cpu/online", "0-1\n");
	fixture_put(root, "proc/sys/kernel/perf_event_paranoid", "-1\n");
	ctx = root_ctx(root, "GenuineIntel-6-8F-8", NULL);
	CHECK(ctx != NULL, "context on %s", root);
	if (!ctx)
		return;
	r = pmu_event_resolve(ctx, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD", &info);
	CHECK(r == 0 && (info.flags & PMU_EVF_BOXES) && info.boxes == 4 && !strcmp(info.pmu, "uncore_cha") &&
	      info.type == 50 && info.config == (0x36 | 0x01 << 8 | 0xc817feull << 32),
	      "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD: %d %s, boxes %u pmu %s type %u config 0x%llx", r, pmu_strerror(r),
	      info.boxes, info.pmu, info.type, (unsigned long long)info.config);
	r = pmu_metric_events(ctx, "llc_demand_data_read_miss_latency", events, sizeof(events));
	CHECK(r >= 0, "llc_demand_data_read_miss_latency's events: %s", pmu_strerror(r));
	if (r >= 0) {
		r = pmu_set_check(ctx, events, &o);
		CHECK(r == 0, "a set of CPU 0 of '%s': %s", events, pmu_strerror(r));
	}
	/* by hand: 1e9 * (8000 / 100) / (4e9 / (4 * #num_packages 1)) * 1 = 80 */
	r = pmu_metric_eval(ctx, "llc_demand_data_read_miss_latency", v, 4, &x);
	CHECK(r == 0 && x > 80 - 1e-9 && x < 80 + 1e-9, "llc_demand_data_read_miss_latency = %g (%s), by hand 80", x,
	      pmu_strerror(r));
	pmu_ctx_free(ctx);
}

/* @ev of @ctx (flags/cpu: the set's target; 0 a task's set) counted over a 100 ms sleep, with the raw tsc
 * of CPUs 0 .. @cpus-1 enabled around it (their sum into *@raw); its @nv values and the first event's info. */
static uint64_t raw_cpu[2];              /* the last count()'s raw counts, per CPU */
static struct pmu_copy_value copies[8];  /* its first value's copies (pmu_set_read_copies) */
static int ncopies;

static int count(struct pmu_ctx *ctx, const char *ev, unsigned flags, int cpu, long type, int cpus, uint64_t *raw,
		 struct pmu_value *v, size_t nv, struct pmu_event_info *info)
{
	struct pmu_set_opts o = { sizeof(o), flags, -1, cpu };
	struct pmu_set *s;
	int fd[2] = { -1, -1 }, r;

	if ((r = raw_tsc_open_cpus(type, cpus, fd)) < 0)
		return r;
	if ((r = pmu_set_open(ctx, ev, flags ? &o : NULL, &s)) < 0) {
		raw_tsc_close(fd, cpus);
		return r;
	}
	raw_tsc_ioctl(fd, cpus, PERF_EVENT_IOC_ENABLE);
	pmu_set_enable(s);
	sleep_ms(100);
	pmu_set_disable(s);
	raw_tsc_ioctl(fd, cpus, PERF_EVENT_IOC_DISABLE);
	r = pmu_set_read(s, v);
	CHECK(r == 0, "%s: read: %s", ev, pmu_strerror(r));
	ncopies = pmu_set_read_copies(s, 0, copies, 8);
	r = raw_tsc_read_close(fd, cpus, raw_cpu, raw);
	CHECK(r == 0, "raw read, CPU %d", r - 1);
	CHECK(pmu_set_count(s) == nv, "%s: %zu values, want %zu (the boxes summed)", ev, pmu_set_count(s), nv);
	pmu_set_event(s, 0, info);
	pmu_set_close(s);
	return 0;
}

/* value within [k x 3/4 raw, k x raw] (the raw counters run a little longer than the set's) */
static void about(const char *what, const struct pmu_value *v, uint64_t raw, unsigned k)
{
	CHECK(v->value <= k * raw && v->value >= k * (raw / 4 * 3) && v->enabled > 0 && v->running == v->enabled,
	      "%s: %llu, want about %u x the raw %llu (at most %llu, at least %llu); enabled %llu running %llu", what,
	      (unsigned long long)v->value, k, (unsigned long long)raw, (unsigned long long)(k * raw),
	      (unsigned long long)(k * (raw / 4 * 3)), (unsigned long long)v->enabled, (unsigned long long)v->running);
	printf("%s: %llu = %.3f x the raw count around it (%llu)\n", what, (unsigned long long)v->value,
	       raw ? (double)v->value / (double)raw : 0.0, (unsigned long long)raw);
}

/* Boxes without a cpumask (PMUs that count tasks, as msr itself does): a task's own set, read by
 * pmu_set_read() (which tries user space for a set of the calling thread), must still add the other box:
 * about twice a raw msr tsc of this task (pid 0) around it while the task spins. */
static void task_boxes(const char *root, const char *tables, long type)
{
	char t[32], path[1024];
	struct perf_event_attr a;
	struct pmu_ctx *ctx;
	struct pmu_set *s = NULL;
	struct pmu_value v;
	uint64_t raw = 0;
	struct timespec t0, t1;
	int fd, r;

	snprintf(t, sizeof(t), "%ld\n", type);
	put_box(root, "uncore_imc_0", t, NULL, NULL);
	put_box(root, "uncore_imc_1", t, NULL, NULL);
	snprintf(path, sizeof(path), "%s/proc", root);
	CHECK(symlink("/proc", path) == 0 || errno == EEXIST, "symlink %s", path);
	ctx = root_ctx(root, NULL, tables);
	CHECK(ctx != NULL, "context on %s", root);
	if (!ctx)
		return;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	CHECK(fd >= 0, "raw msr tsc of this task: %s", strerror(errno));
	r = pmu_set_open(ctx, "BOX.TSC", NULL, &s);
	CHECK(r == 0, "BOX.TSC, boxes without cpumask, this task: %s", pmu_strerror(r));
	if (fd >= 0 && r == 0) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		pmu_set_enable(s);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do /* spin: msr counts this task only while it runs */
			clock_gettime(CLOCK_MONOTONIC, &t1);
		while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 50000000L);
		pmu_set_disable(s);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		CHECK(read(fd, &raw, sizeof(raw)) == sizeof(raw), "raw read");
		r = pmu_set_read(s, &v);
		CHECK(r == 0, "read: %s", pmu_strerror(r));
		if (r == 0)
			about("BOX.TSC, this task's set, 2 boxes without cpumask (raw: this task)", &v, raw, 2);
	}
	if (fd >= 0)
		close(fd);
	pmu_set_close(s);
	pmu_ctx_free(ctx);
}

static void kernel(const char *one, const char *three, const char *tables, long type)
{
	char t[32], path[1024];
	struct pmu_ctx *c1, *c3;
	struct pmu_event_info info;
	struct pmu_value v[2];
	uint64_t raw = 0;
	int r;

	snprintf(t, sizeof(t), "%ld\n", type);
	for (int b = 0; b < 2; b++) {
		snprintf(path, sizeof(path), "uncore_imc_%d", b);
		put_box(one, path, t, "0\n", NULL);
	}
	for (int b = 0; b < 3; b++) {
		snprintf(path, sizeof(path), "uncore_imc_%d", b);
		put_box(three, path, t, "0-1\n", NULL);
	}
	/* and a PMU of one box counting both packages (RAPL's way) */
	fixture_put(three, DEV "power/type", t);
	fixture_put(three, DEV "power/cpumask", "0-1\n");
	fixture_put(three, DEV "power/format/event", "config:0-63\n");
	fixture_put(three, DEV "power/events/energy-pkg", "event=0x00\n");
	/* two packages: CPU 0 in package 0, CPU 1 in package 1 */
	fixture_put(three, "sys/devices/system/cpu/cpu0/topology/physical_package_id", "0\n");
	fixture_put(three, "sys/devices/system/cpu/cpu1/topology/physical_package_id", "1\n");
	/* these machines' /proc: this machine's paranoid setting and this process's capabilities */
	snprintf(path, sizeof(path), "%s/proc", one);
	CHECK(symlink("/proc", path) == 0 || errno == EEXIST, "symlink %s", path);
	snprintf(path, sizeof(path), "%s/proc", three);
	CHECK(symlink("/proc", path) == 0 || errno == EEXIST, "symlink %s", path);
	c1 = root_ctx(one, NULL, tables);
	c3 = root_ctx(three, NULL, tables);
	CHECK(c1 && c3, "contexts");
	if (!c1 || !c3)
		return;

	r = count(c1, "BOX.TSC", 0, -1, type, 1, &raw, v, 1, &info);
	CHECK(r == 0, "BOX.TSC, 2 boxes: %s", pmu_strerror(r));
	if (r == 0) {
		about("BOX.TSC, a task's set, 2 boxes of cpumask 0", &v[0], raw, 2);
		CHECK((info.flags & PMU_EVF_BOXES) && (info.flags & PMU_EVF_CPU_WIDE) && info.boxes == 2 &&
		      !strcmp(info.pmu, "uncore_imc") && !strcmp(info.name, "BOX.TSC"),
		      "its label: %s pmu %s boxes %u flags 0x%x", info.name, info.pmu, info.boxes, info.flags);
	}
	r = count(c1, "uncore_imc/event=0/", 0, -1, type, 1, &raw, v, 1, &info);
	CHECK(r == 0, "uncore_imc/event=0/: %s", pmu_strerror(r));
	if (r == 0)
		about("uncore_imc/event=0/, a task's set, 2 boxes", &v[0], raw, 2);
	/* a group of the unit's events: one group per box, each member the sum over the boxes */
	r = count(c1, "{BOX.TSC,imc/event=0/}", 0, -1, type, 1, &raw, v, 2, &info);
	CHECK(r == 0, "{BOX.TSC,imc/event=0/}: %s", pmu_strerror(r));
	if (r == 0) {
		about("{BOX.TSC,imc/event=0/}, its leader, 2 boxes", &v[0], raw, 2);
		about("{BOX.TSC,imc/event=0/}, its member, 2 boxes", &v[1], raw, 2);
	}
	r = count(c1, "BOX.TSC", PMU_SET_CPU | PMU_SET_PID, 0, type, 1, &raw, v, 1, &info);
	CHECK(r == 0, "BOX.TSC, a set of CPU 0: %s", pmu_strerror(r));
	if (r == 0)
		about("BOX.TSC, a set of CPU 0, 2 boxes", &v[0], raw, 2);
	r = count(c3, "BOX.TSC", 0, -1, type, 2, &raw, v, 1, &info);
	CHECK(r == 0, "BOX.TSC, 3 boxes of cpumask 0-1: %s", pmu_strerror(r));
	if (r == 0) {
		/* copy by copy (pmu_set_read_copies): box 0 on CPUs 0 and 1, box 1 on both, box 2 on both; they
		 * add up to the value read; per package (CPU 0 is package 0, CPU 1 package 1 in this tree) 3x
		 * the raw count of that CPU */
		static const int want_cpu[6] = { 0, 1, 0, 1, 0, 1 };
		static const unsigned want_box[6] = { 0, 0, 1, 1, 2, 2 };
		struct pmu_value pkg[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
		uint64_t sum = 0;
		about("BOX.TSC, a task's set, 3 boxes of cpumask 0-1 (raw: CPUs 0 + 1)", &v[0], raw, 3);
		CHECK(ncopies == 6, "copies of BOX.TSC, 3 boxes x 2 CPUs: %d (%s)", ncopies,
		      ncopies < 0 ? pmu_strerror(ncopies) : "");
		for (int c = 0; c < ncopies && c < 6; c++) {
			CHECK(copies[c].cpu == want_cpu[c] && copies[c].box == want_box[c] &&
			      copies[c].package == want_cpu[c], "copy %d: cpu %d box %u package %d, want cpu %d box %u "
			      "package %d", c, copies[c].cpu, copies[c].box, copies[c].package, want_cpu[c], want_box[c],
			      want_cpu[c]);
			sum += copies[c].value.value;
			if (copies[c].package == 0 || copies[c].package == 1) {
				pkg[copies[c].package].value += copies[c].value.value;
				pkg[copies[c].package].enabled = copies[c].value.enabled;
				pkg[copies[c].package].running = copies[c].value.running;
			}
		}
		CHECK(sum == v[0].value, "the copies add up to %llu, the value read is %llu", (unsigned long long)sum,
		      (unsigned long long)v[0].value);
		about("BOX.TSC, package 0 (3 boxes on CPU 0; raw: CPU 0)", &pkg[0], raw_cpu[0], 3);
		about("BOX.TSC, package 1 (3 boxes on CPU 1; raw: CPU 1)", &pkg[1], raw_cpu[1], 3);
	}
	/* a PMU of one box on the CPUs of its cpumask: a copy per CPU, each about its CPU's raw count */
	r = count(c3, "power/energy-pkg/", 0, -1, type, 2, &raw, v, 1, &info);
	CHECK(r == 0 && ncopies == 2 && copies[0].cpu == 0 && copies[1].cpu == 1 && copies[0].package == 0 &&
	      copies[1].package == 1 && copies[0].box == 0 && copies[1].box == 0 &&
	      copies[0].value.value + copies[1].value.value == v[0].value,
	      "power/energy-pkg/, cpumask 0-1: %d (%s), %d copies (cpu %d package %d, cpu %d package %d)", r,
	      pmu_strerror(r), ncopies, copies[0].cpu, copies[0].package, copies[1].cpu, copies[1].package);
	if (r == 0 && ncopies == 2) {
		about("power/energy-pkg/, package 0's copy (raw: CPU 0)", &copies[0].value, raw_cpu[0], 1);
		about("power/energy-pkg/, package 1's copy (raw: CPU 1)", &copies[1].value, raw_cpu[1], 1);
	}
	/* a value of one copy: a task's software event (its target: any CPU), the set of CPU 0's boxes */
	r = count(c1, "task-clock", 0, -1, type, 0, &raw, v, 1, &info);
	CHECK(r == 0 && ncopies == 1 && copies[0].cpu == -1 && copies[0].package == -1 && copies[0].box == 0 &&
	      copies[0].value.value == v[0].value, "task-clock: %d, %d copies, cpu %d package %d value %llu of %llu",
	      r, ncopies, copies[0].cpu, copies[0].package, (unsigned long long)copies[0].value.value,
	      (unsigned long long)v[0].value);
	r = count(c1, "BOX.TSC", PMU_SET_CPU | PMU_SET_PID, 0, type, 1, &raw, v, 1, &info);
	CHECK(r == 0 && ncopies == 2 && copies[0].cpu == 0 && copies[1].cpu == 0 && copies[0].box == 0 &&
	      copies[1].box == 1 && copies[0].value.value + copies[1].value.value == v[0].value,
	      "a set of CPU 0, 2 boxes: %d copies (cpu %d box %u, cpu %d box %u)", ncopies, copies[0].cpu,
	      copies[0].box, copies[1].cpu, copies[1].box);
	pmu_ctx_free(c1);
	pmu_ctx_free(c3);
}

int main(void)
{
	char tmp[] = "/tmp/test-boxes-XXXXXX", a[512], one[512], three[512], tables[512];
	long long type;

	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(a, sizeof(a), "%s/written", tmp);
	snprintf(one, sizeof(one), "%s/one", tmp);
	snprintf(three, sizeof(three), "%s/three", tmp);
	snprintf(tables, sizeof(tables), "%s/tables", tmp);
	put_tables(tables);
	resolution(a, tables);
	snprintf(a, sizeof(a), "%s/spr", tmp);
	sapphire_rapids(a);
	if (test_failures) /* a failure is said, never hidden under a skip */
		return test_done("test-boxes");
	if (geteuid() != 0)
		SKIP("counting every task of a CPU needs root here; resolution checked (%d checks)", test_checks);
	if (pmu__read_int("/sys/bus/event_source/devices/msr/type", &type) < 0 ||
	    access("/sys/bus/event_source/devices/msr/events/tsc", R_OK) < 0)
		SKIP("no msr PMU with tsc here; resolution checked (%d checks)", test_checks);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("one CPU online: two packages cannot be written; resolution checked (%d checks)", test_checks);
	kernel(one, three, tables, (long)type);
	snprintf(a, sizeof(a), "%s/task", tmp);
	task_boxes(a, tables, (long)type);
	return test_done("test-boxes");
}
