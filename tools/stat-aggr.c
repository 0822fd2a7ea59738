/* SPDX-License-Identifier: MIT */
/* pmu stat's counts summed per socket, die, cluster, cache, core or node (stat-aggr.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stat-aggr.h"

void aggr_map_free(struct aggr_map *m)
{
	for (size_t i = 0; i < m->ngroups; i++)
		free(m->groups[i].cpus);
	free(m->groups);
	free(m->cpu);
	memset(m, 0, sizeof(*m));
}

static int cpu_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int group_cmp(const void *a, const void *b)
{
	return aggr_id_cmp(&((const struct aggr_group *)a)->id, &((const struct aggr_group *)b)->id);
}

int aggr_map_of_ids(struct aggr_map *m, enum aggr_mode mode, const int *cpus, const struct aggr_id *ids, size_t n)
{
	int top = -1;

	memset(m, 0, sizeof(*m));
	m->mode = mode;
	for (size_t k = 0; k < n; k++)
		top = cpus[k] > top ? cpus[k] : top;
	if (!(m->groups = calloc(n + 1, sizeof(*m->groups))) || !(m->cpu = malloc(((size_t)top + 2) * sizeof(*m->cpu))))
		goto nomem;
	m->ncpu = (size_t)top + 1;
	for (size_t k = 0; k < m->ncpu; k++)
		m->cpu[k] = -1;
	for (size_t k = 0; k < n; k++) {
		struct aggr_group *g = NULL;
		for (size_t i = 0; i < m->ngroups && !g; i++)
			if (!aggr_id_cmp(&m->groups[i].id, &ids[k]))
				g = &m->groups[i];
		if (!g) {
			g = &m->groups[m->ngroups++];
			g->id = ids[k];
			aggr_id_text(mode, &ids[k], g->text, sizeof(g->text));
			if (!(g->cpus = calloc(n, sizeof(*g->cpus))))
				goto nomem;
		}
		g->cpus[g->ncpus++] = cpus[k];
	}
	/* perf's order of the groups; each group's CPUs ascending */
	qsort(m->groups, m->ngroups, sizeof(*m->groups), group_cmp);
	for (size_t i = 0; i < m->ngroups; i++) {
		qsort(m->groups[i].cpus, m->groups[i].ncpus, sizeof(int), cpu_cmp);
		for (size_t j = 0; j < m->groups[i].ncpus; j++)
			m->cpu[m->groups[i].cpus[j]] = (int)i;
	}
	return 0;
nomem:
	aggr_map_free(m);
	return -ENOMEM;
}

int aggr_map_make(struct aggr_map *m, const char *root, enum aggr_mode mode, int cache_level, const int *cpus,
		  size_t n, struct strv *notes)
{
	char path[4096], online[8192], err[8192];
	struct aggr_id *ids = calloc(n + 1, sizeof(*ids));
	int *placed = calloc(n + 1, sizeof(*placed));
	struct aggr_guess guess = { false, false, -1 };
	bool have_online;
	size_t np = 0;
	int r = 0;

	memset(m, 0, sizeof(*m));
	if (!ids || !placed) {
		fprintf(stderr, "pmu stat: out of memory\n");
		r = -1;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root);
	have_online = read_text(path, online, sizeof(online)) >= 0;
	for (size_t k = 0; r == 0 && k < n; k++) {
		if (have_online && !cpulist_has(online, cpus[k]))
			continue; /* offline: no set opens on it, so no count to place */
		if (aggr_id_of(root, cpus[k], mode, cache_level, &ids[np], &guess, err, sizeof(err)) < 0) {
			fprintf(stderr, "pmu stat: %s\n", err);
			r = -1;
			break;
		}
		placed[np++] = cpus[k];
	}
	if (r == 0 && aggr_map_of_ids(m, mode, placed, ids, np) < 0) {
		fprintf(stderr, "pmu stat: out of memory\n");
		r = -1;
	}
	m->cache_level = cache_level;
	if (r == 0 && (guess.no_die || guess.no_cluster)) {
		char note[512];
		snprintf(note, sizeof(note), "%s/devices/system/cpu/cpu%d/topology has no %s (a kernel before Linux %s): "
			 "%s, as perf does", root, guess.cpu, guess.no_die ? "die_id" : "cluster_id",
			 guess.no_die ? "5.2" : "5.16", guess.no_die ? "each socket taken as one die, D0" :
			 "each die taken as one cluster, CLS0");
		if (strv_add(notes, note, strlen(note)) < 0) {
			fprintf(stderr, "pmu stat: out of memory\n");
			r = -1;
		}
	}
out:
	free(ids);
	free(placed);
	if (r < 0)
		aggr_map_free(m);
	return r;
}

/* The rows of CPU unit @u added to group unit @g (their rows' keys alike: the event, #k, the cgroup). */
static int rows_fold(struct stat_unit *g, struct stat_unit *u)
{
	const char **keys = stat_rows_keys(&u->rows);

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < u->rows.n; i++) {
		const struct stat_row *src = &u->rows.v[i];
		bool added;
		struct stat_row *row = stat_rows_named(&g->rows, keys[i], &added);
		if (!row) {
			free(keys);
			return -ENOMEM;
		}
		if (added || (src->supported && !row->supported)) {
			struct pmu_value v = added ? (struct pmu_value){ 0, 0, 0 } : row->v;
			int cpus = added ? 0 : row->cpus;
			*row = *src; /* described as a CPU that counted it describes it */
			row->v = v;
			row->cpus = cpus;
		}
		if (!src->supported)
			continue;
		stat_row_add(row, &src->info, &src->v);
		row->cpus++;
	}
	free(keys);
	return 0;
}

int aggr_fold(const struct aggr_map *m, struct stat_counts *c)
{
	struct stat_unit *gs = calloc(m->ngroups + 1, sizeof(*gs));
	int r = 0;

	if (!gs)
		return -ENOMEM;
	for (size_t i = 0; i < m->ngroups; i++) {
		gs[i].cpu = -1;
		gs[i].mode = m->mode;
		gs[i].group = &m->groups[i];
	}
	for (size_t u = 0; r == 0 && u < c->nunits; u++) {
		int cpu = c->units[u].cpu;
		if (cpu < 0 || (size_t)cpu >= m->ncpu || m->cpu[cpu] < 0) {
			fprintf(stderr, "pmu stat: CPU %d was counted but its %s is not known (it was offline when pmu "
				"stat read the topology?)\n", cpu, aggr_mode_word(m->mode));
			r = -EINVAL;
			break;
		}
		r = rows_fold(&gs[m->cpu[cpu]], &c->units[u]);
	}
	/* an event none of a group's CPUs counted: every CPU of the group (perf's count there) */
	for (size_t i = 0; r == 0 && i < m->ngroups; i++)
		for (size_t k = 0; k < gs[i].rows.n; k++)
			if (!gs[i].rows.v[k].cpus)
				gs[i].rows.v[k].cpus = (int)m->groups[i].ncpus;
	if (r < 0) {
		for (size_t i = 0; i < m->ngroups; i++)
			stat_rows_free(&gs[i].rows);
		free(gs);
		return r;
	}
	for (size_t u = 0; u < c->nunits; u++)
		stat_rows_free(&c->units[u].rows);
	free(c->units);
	c->units = gs;
	c->nunits = m->ngroups;
	return 0;
}
