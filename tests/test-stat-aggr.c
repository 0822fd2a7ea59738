/* SPDX-License-Identifier: MIT */
/*
 * pmu stat --per-socket and the like, without counting: tools/topology.c against the written trees of
 * tests/topology/ (each id expected here from the tree's files, read by hand), and tools/stat-aggr.c's
 * sums over per-CPU rows whose counts are chosen here, each sum computed by hand in the comment beside
 * it. The counts of a real kernel are tests/test-stat-aggr.sh's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "stat-aggr.h"
#include "topology.h"

static char root[4096];

static void tree(const char *name)
{
	snprintf(root, sizeof(root), "%s/tests/topology/%s/sys", getenv("PMU_TEST_SRCDIR"), name);
}

static struct aggr_id id_of(int cpu, enum aggr_mode m, int level)
{
	struct aggr_id id = { -9, -9, -9, -9, -9, -9, -9 };
	char err[8192] = "";
	int r = aggr_id_of(root, cpu, m, level, &id, NULL, err, sizeof(err));

	CHECK(r == 0, "%s: CPU %d, mode %s: %s", root, cpu, aggr_mode_word(m), err);
	return id;
}

static const char *text_of(int cpu, enum aggr_mode m, int level)
{
	static char buf[64];
	struct aggr_id id = id_of(cpu, m, level);

	aggr_id_text(m, &id, buf, sizeof(buf));
	return buf;
}

#define TEXT(cpu, m, level, want) do { \
	const char *got_ = text_of(cpu, m, level); \
	CHECK(!strcmp(got_, want), "%s CPU %d %s: %s, want %s", root, cpu, aggr_mode_word(m), got_, want); \
} while (0)

/* each tree's ids, from its files (tests/topology/README.md) */
static void ids(void)
{
	/* two-sockets: cpu0 package 0, cpu1 package 1; die 0, core 0, cluster 0 each; L3 shared by itself
	 * alone (its shared_cpu_list: "0", "1"); node0 lists 0, node1 lists 1 */
	tree("two-sockets");
	TEXT(0, AGGR_SOCKET, 0, "S0");
	TEXT(1, AGGR_SOCKET, 0, "S1");
	TEXT(1, AGGR_DIE, 0, "S1-D0");
	TEXT(1, AGGR_CLUSTER, 0, "S1-D0-CLS0");
	TEXT(1, AGGR_CORE, 0, "S1-D0-C0");
	TEXT(1, AGGR_CACHE, 0, "S1-D0-L3-ID1");
	TEXT(1, AGGR_CACHE, 2, "S1-D0-L2-ID1");
	TEXT(0, AGGR_NODE, 0, "N0");
	TEXT(1, AGGR_NODE, 0, "N1");
	/* the id holds its mode's fields only (perf's aggr_cpu_id): a socket's has no core */
	struct aggr_id s = id_of(1, AGGR_SOCKET, 0);
	CHECK(s.socket == 1 && s.die == -1 && s.core == -1 && s.node == -1 && s.cache == -1, "socket id %d %d %d",
	      s.die, s.core, s.node);
	/* one-socket: cores 0 and 1 of package 0, die 0, cluster 0; L3 shared_cpu_list 0-1: id 0 (its first
	 * CPU) for both; L1 and L2 their own */
	tree("one-socket");
	TEXT(1, AGGR_SOCKET, 0, "S0");
	TEXT(1, AGGR_CORE, 0, "S0-D0-C1");
	TEXT(1, AGGR_CACHE, 0, "S0-D0-L3-ID0");
	TEXT(1, AGGR_CACHE, 3, "S0-D0-L3-ID0");
	TEXT(1, AGGR_CACHE, 1, "S0-D0-L1-ID1");
	TEXT(1, AGGR_NODE, 0, "N0");
	/* two-dies: cpu1 is die 1, cluster 1, core 0; its highest cache is L2 (no index3), shared by itself */
	tree("two-dies");
	TEXT(1, AGGR_DIE, 0, "S0-D1");
	TEXT(1, AGGR_CLUSTER, 0, "S0-D1-CLS1");
	TEXT(1, AGGR_CORE, 0, "S0-D1-C0");
	TEXT(0, AGGR_CORE, 0, "S0-D0-C0");
	TEXT(1, AGGR_CACHE, 0, "S0-D1-L2-ID1");
}

/* what a tree lacks: said, naming the file; die_id and cluster_id taken as 0 (perf's rule) and told */
static void missing(void)
{
	struct aggr_guess g = { false, false, -1 };
	struct aggr_id id;
	char err[8192] = "";

	tree("old-kernel");
	CHECK(aggr_id_of(root, 1, AGGR_DIE, 0, &id, &g, err, sizeof(err)) == 0 && id.die == 0 && g.no_die &&
	      g.cpu == 1, "no die_id: D0, said (%d, %d)", id.die, g.no_die);
	g = (struct aggr_guess){ false, false, -1 };
	CHECK(aggr_id_of(root, 0, AGGR_CLUSTER, 0, &id, &g, err, sizeof(err)) == 0 && id.cluster == 0 && g.no_cluster,
	      "no cluster_id: CLS0, said");
	CHECK(aggr_id_of(root, 1, AGGR_CORE, 0, &id, NULL, err, sizeof(err)) < 0 &&
	      strstr(err, "old-kernel/sys/devices/system/cpu/cpu1/topology/core_id") && strstr(err, "-A"),
	      "no core_id: refused naming the file and -A: %s", err);
	CHECK(aggr_id_of(root, 0, AGGR_NODE, 0, &id, NULL, err, sizeof(err)) < 0 &&
	      strstr(err, "old-kernel/sys/devices/system/node") && strstr(err, "--per-socket"),
	      "no node directory: refused naming it: %s", err);
	CHECK(aggr_id_of(root, 0, AGGR_CACHE, 3, &id, NULL, err, sizeof(err)) == 0 && id.die == 0 && id.cache == 0 &&
	      id.cache_level == 3, "old-kernel's L3 (shared_cpu_list 0-1): id 0, die 0");
	tree("two-dies");
	CHECK(aggr_id_of(root, 0, AGGR_CACHE, 3, &id, NULL, err, sizeof(err)) < 0 && strstr(err, "no level 3 cache") &&
	      strstr(err, "cpu0/cache/index*/level"), "--per-cache=L3 without an L3: refused: %s", err);
	CHECK(aggr_id_of(root, 5, AGGR_SOCKET, 0, &id, NULL, err, sizeof(err)) < 0 &&
	      strstr(err, "cpu5/topology/physical_package_id"), "a CPU the tree lacks: refused: %s", err);
}

static void words(void)
{
	int l = -1;

	CHECK(aggr_cache_level(NULL, &l) == 0 && l == 0, "--per-cache alone: the highest (0)");
	CHECK(aggr_cache_level("L3", &l) == 0 && l == 3, "L3");
	CHECK(aggr_cache_level("l1", &l) == 0 && l == 1, "l1");
	CHECK(aggr_cache_level("L5", &l) < 0 && aggr_cache_level("3", &l) < 0 && aggr_cache_level("L10", &l) < 0 &&
	      aggr_cache_level("", &l) < 0, "perf's form only, L1..L4");
	CHECK(cpulist_first("4-7,2\n") == 2 && cpulist_first("12\n") == 12 && cpulist_first("\n") == -1 &&
	      cpulist_first("x") == -1, "the first CPU of a list");
	CHECK(cpulist_has("0-3,8-9\n", 9) && cpulist_has("0-3,8-9\n", 2) && !cpulist_has("0-3,8-9\n", 5) &&
	      !cpulist_has("", 0), "a CPU in a list");
	/* perf's widths (aggr_header_lens) and words (its -j keys) */
	CHECK(aggr_mode_width(AGGR_SOCKET) == 6 && aggr_mode_width(AGGR_DIE) == 12 && aggr_mode_width(AGGR_CLUSTER) == 20 &&
	      aggr_mode_width(AGGR_CACHE) == 22 && aggr_mode_width(AGGR_CORE) == 18 && aggr_mode_width(AGGR_NODE) == 6,
	      "widths");
	CHECK(!strcmp(aggr_mode_word(AGGR_CACHE), "cache") && !strcmp(aggr_mode_word(AGGR_NODE), "node"), "words");
}

/* A CPU unit of rows: cycles (@cyc), duration_time (@dur), uncore (counted where @unc >= 0), never (unsupported
 * everywhere), and cycles counted in cgroup "g" (@cyc + 1). */
static void unit(struct stat_unit *u, int cpu, uint64_t cyc, uint64_t dur, int64_t unc)
{
	struct { const char *name, *cg; uint64_t v; bool sup; unsigned flags; } r[] = {
		{ "cycles", "", cyc, true, 0 },
		{ "duration_time", "", dur, true, PMU_EVF_TOOL },
		{ "uncore_imc/cas_count_read/", "", unc < 0 ? 0 : (uint64_t)unc, unc >= 0, 0 },
		{ "never", "", 0, false, 0 },
		{ "cycles", "g", cyc + 1, true, 0 },
	};
	memset(u, 0, sizeof(*u));
	u->cpu = cpu;
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		bool added;
		struct stat_row *row = stat_rows_of(&u->rows, r[i].name, r[i].cg, &added);
		snprintf(row->info.name, sizeof(row->info.name), "%s", r[i].name);
		row->info.flags = r[i].flags;
		row->supported = r[i].sup;
		row->v = (struct pmu_value){ r[i].v, r[i].sup ? 1000 : 0, r[i].sup ? 1000 : 0 };
	}
}

static const struct stat_row *row(const struct stat_unit *u, const char *name, const char *cg)
{
	for (size_t i = 0; i < u->rows.n; i++)
		if (!strcmp(u->rows.v[i].info.name, name) && !strcmp(u->rows.v[i].cgroup, cg))
			return &u->rows.v[i];
	return NULL;
}

static void fold(void)
{
	/* CPUs 0..3; sockets: 0 and 2 in S1 (given first), 1 and 3 in S0 -> perf's order S0, S1 */
	const int cpus[4] = { 0, 1, 2, 3 };
	const struct aggr_id e = { -1, -1, -1, -1, -1, -1, -1 };
	struct aggr_id ids[4] = { e, e, e, e };
	struct stat_counts c;
	struct aggr_map m;

	ids[0].socket = ids[2].socket = 1;
	ids[1].socket = ids[3].socket = 0;
	CHECK(aggr_map_of_ids(&m, AGGR_SOCKET, cpus, ids, 4) == 0, "map");
	CHECK(m.ngroups == 2 && !strcmp(m.groups[0].text, "S0") && !strcmp(m.groups[1].text, "S1") &&
	      m.groups[0].ncpus == 2 && m.groups[0].cpus[0] == 1 && m.groups[0].cpus[1] == 3 && m.cpu[2] == 1,
	      "groups in perf's order, CPUs ascending");
	memset(&c, 0, sizeof(c));
	c.units = calloc(4, sizeof(*c.units));
	c.nunits = 4;
	/* cycles 100, 200, 300, 400; duration_time 50, 60, 55, 58; uncore counted on CPU 0 (7) and CPU 1 (9) */
	unit(&c.units[0], 0, 100, 50, 7);
	unit(&c.units[1], 1, 200, 60, 9);
	unit(&c.units[2], 2, 300, 55, -1);
	unit(&c.units[3], 3, 400, 58, -1);
	CHECK(aggr_fold(&m, &c) == 0 && c.nunits == 2, "fold");
	const struct stat_unit *s0 = &c.units[0], *s1 = &c.units[1];
	CHECK(s0->group == &m.groups[0] && s0->mode == AGGR_SOCKET && s0->cpu == -1, "S0's unit");
	/* S0 = CPUs 1 and 3: cycles 200 + 400 = 600; S1 = CPUs 0 and 2: 100 + 300 = 400 */
	CHECK(row(s0, "cycles", "")->v.value == 600 && row(s0, "cycles", "")->cpus == 2, "S0 cycles %llu",
	      (unsigned long long)row(s0, "cycles", "")->v.value);
	CHECK(row(s1, "cycles", "")->v.value == 400 && row(s1, "cycles", "")->v.enabled == 2000, "S1 cycles");
	/* in cgroup g: 201 + 401 = 602, 101 + 301 = 402, apart from every task's */
	CHECK(row(s0, "cycles", "g")->v.value == 602 && row(s1, "cycles", "g")->v.value == 402, "cgroup rows");
	/* wall-clock time: the longest of the group's, not the sum: S0 max(60, 58) = 60, S1 max(50, 55) = 55.
	 * The rows' enabled times are equal here, so the larger count decides (rows.c's rule) */
	CHECK(row(s0, "duration_time", "")->v.value == 60 && row(s1, "duration_time", "")->v.value == 55,
	      "duration_time %llu %llu", (unsigned long long)row(s0, "duration_time", "")->v.value,
	      (unsigned long long)row(s1, "duration_time", "")->v.value);
	/* the uncore event, counted on CPU 1 (S0) and CPU 0 (S1) only: 9 and 7, each from one CPU */
	const struct stat_row *u0 = row(s0, "uncore_imc/cas_count_read/", ""), *u1 = row(s1, "uncore_imc/cas_count_read/", "");
	CHECK(u0->supported && u0->v.value == 9 && u0->cpus == 1, "S0 uncore %llu on %d CPUs",
	      (unsigned long long)u0->v.value, u0->cpus);
	CHECK(u1->supported && u1->v.value == 7 && u1->cpus == 1, "S1 uncore");
	/* counted nowhere: not supported, the group's CPUs (2) as perf's number */
	CHECK(!row(s0, "never", "")->supported && row(s0, "never", "")->cpus == 2, "never counted");
	CHECK(s0->rows.n == 5, "S0's rows: %zu", s0->rows.n);
	for (size_t u = 0; u < c.nunits; u++)
		stat_rows_free(&c.units[u].rows);
	free(c.units);

	/* a CPU counted that the map lacks: refused, the counts left as they were */
	memset(&c, 0, sizeof(c));
	c.units = calloc(1, sizeof(*c.units));
	c.nunits = 1;
	unit(&c.units[0], 7, 1, 1, -1);
	CHECK(aggr_fold(&m, &c) < 0 && c.nunits == 1 && c.units[0].cpu == 7, "CPU 7: in no group");
	stat_rows_free(&c.units[0].rows);
	free(c.units);
	aggr_map_free(&m);
}

/* aggr_map_make over a written tree: CPUs offline in it are left out; the note of a guessed die */
static void make(void)
{
	const int cpus[3] = { 0, 1, 2 }; /* 2: not online in the trees (online: 0-1) */
	struct strv notes = { NULL, 0 };
	struct aggr_map m;

	tree("one-socket");
	CHECK(aggr_map_make(&m, root, AGGR_CORE, 0, cpus, 3, &notes) == 0 && m.ngroups == 2 && notes.n == 0 &&
	      !strcmp(m.groups[1].text, "S0-D0-C1") && m.groups[1].ncpus == 1 && m.groups[1].cpus[0] == 1,
	      "one-socket --per-core: S0-D0-C0, S0-D0-C1");
	aggr_map_free(&m);
	CHECK(aggr_map_make(&m, root, AGGR_CACHE, 0, cpus, 3, &notes) == 0 && m.ngroups == 1 &&
	      !strcmp(m.groups[0].text, "S0-D0-L3-ID0") && m.groups[0].ncpus == 2, "one-socket --per-cache: one L3");
	aggr_map_free(&m);
	tree("old-kernel");
	CHECK(aggr_map_make(&m, root, AGGR_DIE, 0, cpus, 3, &notes) == 0 && m.ngroups == 1 && notes.n == 1 &&
	      strstr(notes.v[0], "cpu0/topology has no die_id") && strstr(notes.v[0], "as perf does"),
	      "old-kernel --per-die: S0-D0, the note: %s", notes.n ? notes.v[0] : "none");
	aggr_map_free(&m);
	strv_free(&notes);
}

int main(void)
{
	if (!getenv("PMU_TEST_SRCDIR"))
		SKIP("PMU_TEST_SRCDIR is not set (meson test sets it)");
	ids();
	missing();
	words();
	fold();
	make();
	return test_done("test-stat-aggr");
}
