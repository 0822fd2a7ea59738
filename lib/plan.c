/* SPDX-License-Identifier: MIT */
/* Plans: an event list parsed, resolved and grouped once (a planned set per core type), opened on many
 * targets (threads, CPUs) by copying the planned set and opening the copy, as perf's evlist is opened
 * over its CPU and thread maps. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "common.h"
#include "context.h"
#include "error.h"
#include "plan.h"
#include "set.h"
#include "sysfs.h"
#include "util.h"

#define PLAN_TYPES 8 /* core types a plan arranges apart (PMU_SET_CPU on a machine of several core PMUs) */

/* One arrangement of the list: for the CPUs of core PMU @pmu (NULL: every target), planned once. */
struct plan_type {
	const struct pmu_dev *pmu;
	struct pmu_set *set;    /* the planned set, never opened; NULL when planning failed: */
	int err;                /* ... its error, */
	char *msg;              /* ... and its message, said again by each open on the type's CPUs */
};

struct pmu_plan {
	struct pmu_ctx *ctx;
	struct pmu_set_opts o;  /* the options taken; pid and cpu each open's */
	char *events;           /* planned again for a CPU of no core type (its error said as a set's would be) */
	size_t ntypes;
	struct plan_type t[PLAN_TYPES];
};

PMU_EXPORT void pmu_plan_free(struct pmu_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ntypes; i++) {
		pmu_set_close(p->t[i].set);
		free(p->t[i].msg);
	}
	free(p->events);
	free(p);
}

/* Plan @p's list for the CPUs of core PMU @d (NULL: for any target) with @o: 0, or -ENOMEM said; planning's
 * own failure is kept in the type, not returned. */
static int plan_type(struct pmu_plan *p, const struct pmu_dev *d, const struct pmu_set_opts *o)
{
	struct plan_type *t = &p->t[p->ntypes++];

	t->pmu = d;
	if ((t->err = pmu__set_plan(p->ctx, p->events, o, &t->set)) >= 0)
		return 0;
	if (t->err == -ENOMEM)
		return t->err;
	if (!(t->msg = strdup(pmu__err_msg())))
		return pmu__err(p->ctx, -ENOMEM, "out of memory planning '%s'", p->events);
	return 0;
}

/* The arrangements of @p: one per core type for CPU targets on a machine of several core PMUs (planning
 * counts only the core PMU of the set's CPU, the first of each type standing for them all), else one. */
static int plan_types(struct pmu_plan *p)
{
	struct pmu_set_opts o = p->o;
	int r;

	o.pid = (o.flags & PMU_SET_CPU) ? -1 : 0;
	o.cpu = 0;
	if (!(o.flags & PMU_SET_CPU) || pmu__n_core_pmus(p->ctx) < 2)
		return plan_type(p, NULL, &o);
	for (size_t i = 0; i < p->ctx->n_pmus && p->ntypes < PLAN_TYPES; i++) {
		const struct pmu_dev *d = &p->ctx->pmus[i];
		struct pmu_cpulist c;
		if (!d->is_core || !d->cpus || pmu__cpulist(d->cpus, -1, &c) < 0)
			continue; /* its CPUs are planned when opened */
		o.cpu = (int)c.first;
		if ((r = plan_type(p, d, &o)) < 0)
			return r;
	}
	return 0;
}

PMU_EXPORT int pmu_plan_new(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *opts,
			    struct pmu_plan **out)
{
	struct pmu_plan *p;
	int r;

	pmu__err_clear();
	if (out)
		*out = NULL;
	if (!ctx || !events || !out)
		return pmu__err(ctx, -EINVAL, "pmu_plan_new: NULL context, events or output pointer");
	if (!(p = calloc(1, sizeof(*p))) || !(p->events = strdup(events))) {
		free(p);
		return pmu__err(ctx, -ENOMEM, "out of memory planning '%s'", events);
	}
	p->ctx = ctx;
	if ((r = pmu__set_opts_take(ctx, opts, &p->o, false, "pmu_plan_new")) < 0 || (r = plan_types(p)) < 0)
		goto fail;
	size_t ok = 0;
	while (ok < p->ntypes && !p->t[ok].set)
		ok++;
	if (p->ntypes && ok == p->ntypes) { /* every arrangement failed: the plan does, as a set would (the first's) */
		r = pmu__err(ctx, p->t[0].err, "%s", p->t[0].msg);
		goto fail;
	}
	pmu__err_clear(); /* a core type's failure is said by the opens on its CPUs */
	*out = p;
	return 0;
fail:
	pmu_plan_free(p);
	return r;
}

/* The arrangement of @p for CPU @cpu (-1: any): it, NULL when none is made for that CPU. */
static const struct plan_type *type_of(const struct pmu_plan *p, int cpu)
{
	struct pmu_cpulist c;

	for (size_t i = 0; i < p->ntypes; i++)
		if (!p->t[i].pmu || (pmu__cpulist(p->t[i].pmu->cpus, cpu, &c) == 0 && c.has))
			return &p->t[i];
	return NULL;
}

int pmu__plan_planned(const struct pmu_plan *p, int cpu, const struct pmu_set **out)
{
	const struct plan_type *ty = type_of(p, cpu);

	*out = ty ? ty->set : NULL;
	if (!ty)
		return -ENOENT;
	return ty->set ? 0 : pmu__err(p->ctx, ty->err, "%s", ty->msg);
}

PMU_EXPORT int pmu_plan_open(const struct pmu_plan *p, pid_t pid, int cpu, struct pmu_set **out)
{
	struct pmu_set_opts t, o;
	struct pmu_set *s = NULL;
	const struct plan_type *ty;
	int r;

	pmu__err_clear();
	if (out)
		*out = NULL;
	if (!p || !out)
		return pmu__err(p ? p->ctx : NULL, -EINVAL, "pmu_plan_open: NULL plan or output pointer");
	if (!(p->o.flags & PMU_SET_PID) && pid != 0)
		return pmu__err(p->ctx, -EINVAL, "pmu_plan_open: pid %d, but the plan counts %s; pass 0, or plan with "
				"PMU_SET_PID", (int)pid, (p->o.flags & PMU_SET_CPU) ? "the tasks of a CPU" : "the calling thread");
	if (!(p->o.flags & PMU_SET_CPU) && cpu != -1)
		return pmu__err(p->ctx, -EINVAL, "pmu_plan_open: cpu %d, but the plan counts on any CPU; pass -1, or "
				"plan with PMU_SET_CPU", cpu);
	t = p->o;
	t.pid = pid;
	t.cpu = cpu;
	if ((r = pmu__set_opts_take(p->ctx, &t, &o, true, "pmu_plan_open")) < 0)
		return r;
	if ((ty = type_of(p, cpu)) && !ty->set)
		return pmu__err(p->ctx, ty->err, "%s", ty->msg);
	if (ty)
		return pmu__set_open_planned(ty->set, &o, out);
	/* a CPU of no core type planned: planned for it alone, as pmu_set_open() would */
	if ((r = pmu__set_plan(p->ctx, p->events, &o, &s)) < 0)
		return r;
	r = pmu__set_open_planned(s, &o, out);
	pmu_set_close(s);
	return r;
}
