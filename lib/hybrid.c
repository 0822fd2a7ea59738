/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs (Intel cpu_core + cpu_atom, Arm big.LITTLE with one PMU per core type): a set's
 * events placed on the core PMUs. A generic event that names no PMU becomes one event per core
 * type; an event of one core PMU is labelled with it, as perf names them. The other hybrid rule
 * — a table or standard name that exists on several core PMUs must name one — is resolve.c's
 * (it refuses the name before a set exists). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hybrid.h"
#include "set.h"
#include "modifiers.h"

/* Does cpulist @list ("0-7,16,18-19") contain @cpu? */
static bool cpulist_has(const char *list, int cpu)
{
	const char *p = list;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;
		if (end == p)
			return false;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		p = end;
		while (*p == ',' || *p == '\n' || *p == ' ')
			p++;
	}
	return false;
}

/* A core PMU's event in config bits 32-63 (extended type), or its sysfs type. */
static bool counts_on(const struct pmu_ev *e, const struct pmu_dev *d)
{
	if (e->info.type == PERF_TYPE_HARDWARE || e->info.type == PERF_TYPE_HW_CACHE)
		return (e->info.config >> 32) == d->type;
	return e->info.type == d->type;
}

/* A generic hardware/cache event that names no PMU, or a table name each core PMU counts with its
 * own event: on a hybrid CPU it is split per core type. */
static bool splits(const struct pmu_ev *e)
{
	return e->per_core_name || ((e->info.type == PERF_TYPE_HARDWARE || e->info.type == PERF_TYPE_HW_CACHE) &&
				    (e->info.config >> 32) == 0);
}

/* Name @in as counted by PMU @pmu, as perf does on a hybrid CPU: "cpu_core/cycles/", "cpu_core/cycles/:u". */
static void pmu_label(struct pmu_event_info *in, const char *pmu)
{
	size_t base = pmu__mode_base(in->name);
	char name[PMU_NAME_MAX];

	snprintf(name, sizeof(name), "%s/%.*s/%s", pmu, (int)base, in->name, in->name + base);
	pmu__strlcpy(in->name, name, sizeof(in->name));
}

/*
 * Intel hybrid CPUs (cpu_core + cpu_atom): the kernel gives a generic
 * hardware event without a PMU type to cpu_core only, so a thread running on
 * an E-core would go uncounted. Such an event becomes one event per core PMU
 * (named "cpu_core/cycles/", "cpu_atom/cycles/" as perf names them), each
 * with its PMU type in config bits 32-63. A {group} holding split events is
 * repeated per core type with the members that count there (events of no
 * core PMU, e.g. software ones, stay in the first copy). Counting one CPU
 * (PMU_SET_CPU) uses only the core PMU that CPU belongs to.
 */
int pmu__hybrid_split(struct pmu_set *s, struct pmu_speclist *l)
{
	struct pmu_ctx *ctx = s->ctx;
	const struct pmu_dev *core[8];
	size_t ncore = 0, nsplit = 0, k = 0, cap;
	struct pmu_ev *nev;
	struct pmu_spec *nspec;

	if (pmu__n_core_pmus(ctx) < 2)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		nsplit += splits(&s->ev[i]);
	if (!nsplit)
		return 0;
	for (size_t p = 0; p < ctx->n_pmus && ncore < 8; p++) {
		const struct pmu_dev *d = &ctx->pmus[p];
		if (!d->is_core)
			continue;
		if (s->flags & PMU_SET_CPU) {
			char path[512], list[256];
			if (pmu__path(path, sizeof(path), "%s/bus/event_source/devices/%s/cpus", ctx->sysfs_root,
				      d->name) == 0 &&
			    pmu__read_file(path, list, sizeof(list)) >= 0 && !cpulist_has(list, s->cpu))
				continue;
		}
		core[ncore++] = d;
	}
	if (ncore == 0)
		return pmu__err(ctx, -ENODEV, "CPU %d belongs to none of the core PMUs of this hybrid CPU", s->cpu);
	cap = s->n + nsplit * (ncore - 1) + 1;
	nev = calloc(cap, sizeof(*nev));
	nspec = calloc(cap, sizeof(*nspec));
	if (!nev || !nspec) {
		free(nev);
		free(nspec);
		return pmu__err(ctx, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->n;) {
		size_t end = i + 1;
		bool any = splits(&s->ev[i]);
		if (l->v[i].group >= 0)
			for (; end < s->n && l->v[end].group == l->v[i].group; end++)
				any = any || splits(&s->ev[end]);
		if (!any) {
			for (; i < end; i++, k++) {
				nev[k] = s->ev[i];
				nspec[k] = l->v[i];
				l->v[i].name = l->v[i].group_mods = NULL;
			}
			continue;
		}
		for (size_t c = 0; c < ncore; c++) {
			int group = l->v[i].group < 0 ? -1 : c == 0 ? l->v[i].group : l->ngroups_explicit++;
			for (size_t j = i; j < end; j++) {
				struct pmu_ev *e = &s->ev[j];
				bool other = false;
				for (size_t q = 0; q < ncore; q++)
					other = other || counts_on(e, core[q]);
				if (!splits(e) && !(other ? counts_on(e, core[c]) : c == 0))
					continue;
				nev[k] = *e;
				nspec[k].group = group;
				if (e->per_core_name) {
					/* the core PMU's own event for the name: "cpu_core/INST.RET/u" */
					char spelled[PMU_NAME_MAX + 80];
					size_t b = pmu__mode_base(e->info.name);
					const char *mods = e->info.name + b + (e->info.name[b] == ':');
					int r;
					snprintf(spelled, sizeof(spelled), "%s/%.*s/%s", core[c]->name, (int)b, e->info.name, mods);
					nev[k].per_core_name = false;
					if ((r = pmu__resolve_mode(ctx, spelled, l->v[j].group_mods, &nev[k].info,
								   &nev[k].mode_written)) < 0) {
						/* the names moved to nspec so far are freed with it; s keeps its events */
						struct pmu_speclist done = { .v = nspec, .n = k };
						pmu__speclist_free(&done);
						free(nev);
						return r;
					}
					pmu__strlcpy(nev[k].info.name, e->info.name, sizeof(nev[k].info.name));
				}
				if (splits(e)) {
					struct pmu_event_info *in = &nev[k].info;
					nev[k].part_of = (int)j;
					pmu_label(in, core[c]->name);
					pmu__strlcpy(in->pmu, core[c]->name, sizeof(in->pmu));
					if (!e->per_core_name)
						in->config |= (uint64_t)core[c]->type << 32;
					in->flags |= PMU_EVF_HYBRID_PART;
				}
				k++;
			}
		}
		i = end;
	}
	pmu__log(ctx, PMU_LOG_DEBUG, "hybrid CPU: %zu generic events counted on %zu core types", nsplit, ncore);
	{
		int ngroups = l->ngroups_explicit;
		pmu__speclist_free(l);
		l->ngroups_explicit = ngroups;
	}
	free(s->ev);
	s->ev = nev;
	l->v = nspec;
	s->n = l->n = k;
	return 0;
}

/*
 * On a hybrid CPU an event of one core PMU that the name does not place
 * (topdown-retiring, slots, a table event, r01c2) is labelled with its PMU,
 * as perf does: "cpu_core/topdown-retiring/". Both core types may have an
 * event of that name.
 */
void pmu__hybrid_label(struct pmu_set *s)
{
	if (pmu__n_core_pmus(s->ctx) < 2)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct pmu_event_info *in = &s->ev[i].info;
		const struct pmu_dev *d = pmu__pmu_by_name(s->ctx, in->pmu);
		if (d && d->is_core && !strchr(in->name, '/'))
			pmu_label(in, d->name);
	}
}
