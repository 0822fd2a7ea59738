/* SPDX-License-Identifier: MIT */
/*
 * The #constants of metric expressions come from the context's machine, and
 * pmu_constant_foreach() says each with its value and origin, so that counts
 * saved on one machine are evaluated with that machine's topology elsewhere
 * (record the list, pmu_ctx_set_param() it back).
 *
 * The machine is written here as a sysfs/procfs tree: 2 packages x 2 cores x
 * 2 threads = CPUs 0-7 online, 0-9 present; SMT active; an Intel core PMU
 * with caps/slots 6; three CHA boxes; model name "... @ 2.50GHz". By hand:
 * smt_on 1, num_cpus 10 (highest present + 1, as perf), num_cpus_online 8,
 * num_packages 2, num_dies 2, num_cores 4, slots 6, chas_per_socket 3,
 * system_tsc_freq 2.5e9, core_wide 0, has_pmem 0. A second machine (one
 * package, 2 cores, no SMT, CPUs 0-1) evaluates with the first one's list.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <pmu.h>
#include "fixture.h"
#include "harness.h"

/* @packages x @cores x @threads CPUs numbered package-major, @present CPUs present */
static void machine(const char *root, int packages, int cores, int threads, int present, int boxes)
{
	int n = packages * cores * threads;
	char rel[256], text[64];

	snprintf(text, sizeof(text), "0-%d\n", n - 1);
	fixture_put(root, "sys/devices/system/cpu/online", text);
	snprintf(text, sizeof(text), "0-%d\n", present - 1);
	fixture_put(root, "sys/devices/system/cpu/present", text);
	fixture_put(root, "sys/devices/system/cpu/smt/active", threads > 1 ? "1\n" : "0\n");
	for (int cpu = 0; cpu < n; cpu++) {
		int pkg = cpu / (cores * threads), core = cpu / threads;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/package_cpus_list", cpu);
		snprintf(text, sizeof(text), "%d-%d\n", pkg * cores * threads, (pkg + 1) * cores * threads - 1);
		fixture_put(root, rel, text);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/die_cpus_list", cpu);
		fixture_put(root, rel, text);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
		if (threads > 1)
			snprintf(text, sizeof(text), "%d-%d\n", core * threads, core * threads + threads - 1);
		else
			snprintf(text, sizeof(text), "%d\n", cpu);
		fixture_put(root, rel, text);
	}
	fixture_put(root, "sys/bus/event_source/devices/cpu/type", "4\n");
	fixture_put(root, "sys/bus/event_source/devices/cpu/format/event", "config:0-7\n");
	fixture_put(root, "sys/bus/event_source/devices/cpu/caps/slots", "6\n");
	for (int b = 0; b < boxes; b++) {
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/uncore_cha_%d/type", b);
		snprintf(text, sizeof(text), "%d\n", 30 + b);
		fixture_put(root, rel, text);
	}
	fixture_put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
	    "model name\t: Test Processor @ 2.50GHz\nstepping\t: 4\n\n");
	fixture_put(root, "proc/sys/kernel/perf_event_paranoid", "2\n");
}

struct seen {
	int n;
	char name[24][32];
	double value[24];
	int source[24];
	char origin[24][256];
};

static int collect(const struct pmu_constant_info *c, void *data)
{
	struct seen *s = data;

	if (s->n < 24) {
		snprintf(s->name[s->n], sizeof(s->name[0]), "%s", c->name);
		s->value[s->n] = c->value;
		s->source[s->n] = c->source;
		snprintf(s->origin[s->n], sizeof(s->origin[0]), "%s", c->origin);
	}
	s->n++;
	return 0;
}

static int find(const struct seen *s, const char *name)
{
	for (int i = 0; i < s->n && i < 24; i++)
		if (!strcasecmp(s->name[i], name))
			return i;
	return -1;
}

static void has(const struct seen *s, const char *name, double value, int source, const char *origin_part)
{
	int i = find(s, name);

	CHECK(i >= 0, "%s not listed", name);
	if (i < 0)
		return;
	CHECK(s->value[i] == value && s->source[i] == source && strstr(s->origin[i], origin_part),
	      "%s = %g (source %d, origin '%s'), by hand %g (source %d, origin with '%s')", name, s->value[i],
	      s->source[i], s->origin[i], value, source, origin_part);
}

static double eval(struct pmu_ctx *ctx, const char *expr)
{
	double x = NAN;
	int r = pmu_metric_eval(ctx, expr, NULL, 0, &x);

	CHECK(r == 0, "'%s': %s", expr, pmu_strerror(r));
	return x;
}

int main(void)
{
	char tmpl[] = "/tmp/libpmu-constants-XXXXXX", a[512], b[512];
	struct pmu_ctx *ca, *cb;
	struct seen s;
	const char *topo = "#num_packages * 1000 + #num_cores * 100 + #num_cpus_online * 10 + #smt_on";

	if (!mkdtemp(tmpl))
		return 1;
	snprintf(a, sizeof(a), "%s/two-sockets", tmpl);
	snprintf(b, sizeof(b), "%s/small", tmpl);
	machine(a, 2, 2, 2, 10, 3);
	machine(b, 1, 2, 1, 2, 0);
	ca = root_ctx(a, NULL, NULL);
	cb = root_ctx(b, NULL, NULL);
	CHECK(ca && cb, "contexts on the written machines");
	if (!ca || !cb)
		return test_done("test-constants");

	memset(&s, 0, sizeof(s));
	CHECK(pmu_constant_foreach(ca, collect, &s) == s.n && s.n == 11, "11 machine constants, got %d", s.n);
	has(&s, "smt_on", 1, PMU_CONST_MACHINE, "/devices/system/cpu/smt/active");
	has(&s, "num_cpus", 10, PMU_CONST_MACHINE, "/devices/system/cpu/present");
	has(&s, "num_cpus_online", 8, PMU_CONST_MACHINE, "/devices/system/cpu/online");
	has(&s, "num_packages", 2, PMU_CONST_MACHINE, "package_cpus_list (2 distinct)");
	has(&s, "num_dies", 2, PMU_CONST_MACHINE, "die_cpus_list");
	has(&s, "num_cores", 4, PMU_CONST_MACHINE, "core_cpus_list (4 distinct)");
	has(&s, "slots", 6, PMU_CONST_MACHINE, "cpu/caps/slots");
	has(&s, "chas_per_socket", 3, PMU_CONST_MACHINE, "3 CHA PMUs");
	has(&s, "system_tsc_freq", 2.5e9, PMU_CONST_MACHINE, "model name");
	has(&s, "core_wide", 0, PMU_CONST_MACHINE, "per thread");
	has(&s, "has_pmem", 0, PMU_CONST_MACHINE, "NFIT is absent");
	/* metrics get the same: 2*1000 + 4*100 + 8*10 + 1 */
	CHECK(eval(ca, topo) == 2481, "topology on the two-socket machine: %g", eval(ca, topo));
	CHECK(eval(cb, topo) == 1000 + 200 + 20 + 0, "topology on the small machine: %g", eval(cb, topo));

	/* a parameter overrides, and is said as one */
	CHECK(pmu_ctx_set_param(ca, "num_cores", 5) == 0, "set num_cores");
	memset(&s, 0, sizeof(s));
	pmu_constant_foreach(ca, collect, &s);
	has(&s, "num_cores", 5, PMU_CONST_PARAM, "pmu_ctx_set_param");
	CHECK(s.n == 11, "the parameter replaces the machine's num_cores: %d listed", s.n);
	CHECK(eval(ca, topo) == 2581, "with num_cores 5: %g", eval(ca, topo));
	pmu_ctx_set_param(ca, "num_cores", 4);

	/* counts saved on the two-socket machine, evaluated on the small one with its constants */
	memset(&s, 0, sizeof(s));
	pmu_constant_foreach(ca, collect, &s);
	for (int i = 0; i < s.n && i < 24; i++)
		CHECK(pmu_ctx_set_param(cb, s.name[i], s.value[i]) == 0, "set %s", s.name[i]);
	CHECK(eval(cb, topo) == 2481, "the small machine with the recorded constants: %g", eval(cb, topo));

	CHECK(pmu_constant_foreach(NULL, collect, &s) == -EINVAL, "NULL context");
	CHECK(pmu_constant_foreach(ca, NULL, NULL) == -EINVAL, "NULL callback");
	pmu_ctx_free(ca);
	pmu_ctx_free(cb);
	fixture_remove(tmpl);
	return test_done("test-constants");
}
