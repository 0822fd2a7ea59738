/* SPDX-License-Identifier: MIT */
/* The listing: every event name known here (generic events, the PMUs' sysfs events, the tables'
 * entries), each with whether it can be counted here (pmu_event_foreach, behind `pmu list`); and
 * libpfm4's events of this CPU (pmu_libpfm_event_foreach), which cost loading libpfm4. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "generic.h"
#include "papi.h"
#include "pfm.h"
#include "resolve.h"
#include "sysfs.h"
#include "tables.h"
#include "tool.h"
#include "util.h"

struct foreach_state {
	struct pmu_ctx *ctx;
	const char *prefix;
	pmu_event_cb cb;
	void *data;
	int count;
	int stopped;            /* the callback's non-zero value that stopped a walk */
};

static int foreach_generic(const struct pmu_generic *g, void *data)
{
	struct foreach_state *st = data;
	struct pmu_event_entry e;
	int r;

	if (!pmu__prefix(g->name, st->prefix))
		return 0;
	e.name = g->name;
	e.pmu = g->type == PERF_TYPE_SOFTWARE ? "software" : pmu__core_pmu_name(st->ctx);
	e.desc = g->desc;
	e.long_desc = e.desc;
	e.source = PMU_SRC_GENERIC;
	e.kind = PMU_ENTRY_KERNEL;
	e.usable = pmu__name_countable(st->ctx, g->name);
	st->count++;
	r = st->cb(&e, st->data);
	return r;
}

/* An entry named @name ("PMU/EVENT/", "skx::EVENT"): given to the callback, whether it can be counted
 * here asked of that name; @long_desc NULL: none longer than @desc. */
static int give_named(struct foreach_state *st, const char *name, const char *pmu, const char *desc,
			  const char *long_desc, int source, int kind)
{
	struct pmu_event_entry e;

	e.name = name;
	e.pmu = pmu;
	e.desc = desc;
	e.long_desc = long_desc ? long_desc : desc;
	e.source = source;
	e.kind = kind;
	e.usable = pmu__name_countable(st->ctx, name);
	st->count++;
	return st->cb(&e, st->data);
}

/* A table entry's longer description (PublicDescription), else @desc, its brief one as the entry gives
 * it (also where the two are the same text), as perf list --long-desc prints it. */
static const char *long_desc(const struct pmu_tentry *te, const char *desc)
{
	return te->pdesc && *te->pdesc && strcmp(te->pdesc, desc) ? te->pdesc : desc;
}

/* A metric can be evaluated here when every event it needs can be counted here. */
static bool metric_countable(struct pmu_ctx *ctx, const char *metric)
{
	bool ok;
	char *buf = NULL, *save = NULL;
	int n;

	pmu__err_quiet(true);
	n = pmu_metric_events(ctx, metric, NULL, 0);
	/* + 2: pmu_metric_events() wants room for a ',' after the first name too */
	ok = n >= 0 && (buf = malloc((size_t)n + 2)) && pmu_metric_events(ctx, metric, buf, (size_t)n + 2) >= 0;
	pmu__err_quiet(false);
	for (char *ev = ok ? strtok_r(buf, ",", &save) : NULL; ev && ok; ev = strtok_r(NULL, ",", &save))
		ok = pmu__name_countable(ctx, ev);
	free(buf);
	return ok;
}

/* A PAPI preset (papi.c): a name of PAPI's vocabulary, a kind of its own (one PAPI writes as a formula is
 * evaluated as a metric, pmu stat -M, but is no table's metric: 'pmu list metric' lists those); where it
 * comes from for this CPU in the long description. */
static bool papi_accept(const char *name, const void *data)
{
	return pmu__prefix(name, ((const struct foreach_state *)data)->prefix);
}

static int foreach_papi(const struct pmu_papi_listed *p, void *data)
{
	struct foreach_state *st = data;
	struct pmu_event_entry e;
	char ld[1600];

	snprintf(ld, sizeof(ld), "%s (PAPI preset). From %s%s", p->desc, p->from,
		 p->metric ? " (a formula: count it with pmu stat -M)" : "");
	e.name = p->name;
	e.pmu = "";
	e.desc = p->desc;
	e.long_desc = ld;
	e.source = PMU_SRC_TABLE;
	e.kind = PMU_ENTRY_PAPI;
	e.usable = p->metric ? metric_countable(st->ctx, p->name) : pmu__name_countable(st->ctx, p->name);
	st->count++;
	return st->cb(&e, st->data);
}

PMU_EXPORT int pmu_event_foreach(struct pmu_ctx *ctx, const char *prefix, pmu_event_cb cb, void *data)
{
	struct foreach_state st = { ctx, prefix ? prefix : "", cb, data, 0 };
	char name[PMU_NAME_MAX];
	int r;

	pmu__err_clear();
	if (!ctx || !cb)
		return pmu__err(ctx, -EINVAL, "pmu_event_foreach: NULL context or callback");
	if ((r = pmu__tables_load(ctx)) < 0)
		return r; /* a list without the tables' names would be a short list said as complete */
	{
		const struct pmu_tables *t = &ctx->tables;
		for (size_t i = 0; i < t->n; i++) {
			const struct pmu_tentry *te = pmu__tables_entry(t, i);
			struct pmu_event_entry e;
			if (!pmu__prefix(te->name, st.prefix) || !pmu__tables_indexed(ctx, te))
				continue; /* not in the subtree, or shadowed by an earlier table */
			e.name = te->name;
			e.pmu = te->unit ? te->unit : te->kind == PMU_T_NATIVE ? pmu__core_pmu_name(ctx) : "";
			e.desc = te->desc ? te->desc : "";
			e.long_desc = long_desc(te, e.desc);
			e.source = PMU_SRC_TABLE;
			e.kind = te->kind == PMU_T_METRIC ? PMU_ENTRY_METRIC :
				 te->kind == PMU_T_STANDARD ? PMU_ENTRY_STANDARD : PMU_ENTRY_NATIVE;
			e.usable = te->kind == PMU_T_METRIC ? metric_countable(ctx, te->name) :
				   pmu__name_countable(ctx, te->name);
			st.count++;
			if ((r = cb(&e, data)))
				return r;
		}
	}
	/* a machine of several core types: each other core type's own table (a big.LITTLE cluster's), its
	 * events under its PMU ("armv8_cortex_a76/L1D_TLB_RD/") */
	for (size_t p = 0; p < ctx->n_pmus; p++) {
		const struct pmu_dev *d = &ctx->pmus[p];
		struct pmu_ctx *own;
		if (!d->is_core || (own = pmu__core_ctx(ctx, d)) == ctx)
			continue;
		if (!own || (r = pmu__tables_load(own)) < 0)
			return own ? r : -ENOMEM;
		for (size_t i = 0; i < own->tables.n; i++) {
			const struct pmu_tentry *te = pmu__tables_entry(&own->tables, i);
			const char *desc = te->desc ? te->desc : "";
			if (te->kind != PMU_T_NATIVE || !pmu__tables_indexed(own, te) ||
			    (size_t)snprintf(name, sizeof(name), "%s/%s/", d->name, te->name) >= sizeof(name) ||
			    (!pmu__prefix(name, st.prefix) && !pmu__prefix(te->name, st.prefix)))
				continue;
			if ((r = give_named(&st, name, d->name, desc, long_desc(te, desc), PMU_SRC_TABLE,
					    PMU_ENTRY_NATIVE)))
				return r;
		}
	}
	if ((r = pmu__papi_foreach(ctx, papi_accept, foreach_papi, &st)))
		return r;
	if ((r = pmu__generic_foreach(foreach_generic, &st)))
		return r;
	/* the tool events, as perf list has them ("[Tool event]") */
	for (size_t k = 0; pmu__tool_name(k); k++) {
		struct pmu_event_info info;
		if (!pmu__prefix(pmu__tool_name(k), st.prefix) || pmu__tool_resolve(ctx, pmu__tool_name(k), &info))
			continue;
		if ((r = give_named(&st, pmu__tool_name(k), "tool", info.desc, NULL, PMU_SRC_TOOL, PMU_ENTRY_TOOL)))
			return r;
	}
	for (size_t p = 0; p < ctx->n_pmus; p++) {
		const struct pmu_dev *d = &ctx->pmus[p];
		if ((r = pmu__pmu_load(ctx, d)) == -ENOMEM)
			return r;
		if (r < 0) /* its type file cannot be read (gone since the scan): not listed, as not found */
			continue;
		for (size_t i = 0; i < d->n_events; i++) {
			snprintf(name, sizeof(name), "%s/%s/", d->name, d->events[i].name);
			if (!pmu__prefix(name, st.prefix) && !(d->is_core && pmu__prefix(d->events[i].name, st.prefix)))
				continue;
			if ((r = give_named(&st, name, d->name, "named event of the PMU (sysfs)", NULL, PMU_SRC_SYSFS,
						PMU_ENTRY_SYSFS)))
				return r;
		}
	}
	pmu__err_clear(); /* the quiet look-ups above recorded messages nobody asked for */
	return st.count;
}

/* One of libpfm4's events, as the caller of pmu_libpfm_event_foreach() sees it. */
static int foreach_pfm(const char *pmu, const char *event, const char *desc, void *data)
{
	struct foreach_state *st = data;
	char name[PMU_NAME_MAX];

	if ((size_t)snprintf(name, sizeof(name), "%s::%s", pmu, event) >= sizeof(name) ||
	    !pmu__prefix(name, st->prefix))
		return 0; /* a name too long to resolve is not listed */
	return st->stopped = give_named(st, name, pmu, desc, NULL, PMU_SRC_LIBPFM, PMU_ENTRY_LIBPFM);
}

PMU_EXPORT int pmu_libpfm_event_foreach(struct pmu_ctx *ctx, const char *prefix, pmu_event_cb cb, void *data)
{
	struct foreach_state st = { ctx, prefix ? prefix : "", cb, data, 0 };
	const char *model;
	char why[256];
	int r;

	pmu__err_clear();
	if (!ctx || !cb)
		return pmu__err(ctx, -EINVAL, "pmu_libpfm_event_foreach: NULL context or callback");
	if ((r = pmu__pfm_model_of(ctx, &model)) == -ENOMEM)
		return pmu__err(ctx, r, "out of memory loading the event tables to find the libpfm4 PMU of CPU %s",
				ctx->cpu.cpuid);
	if (r < 0)
		return 0; /* PMU_CPUID names a CPU libpfm4 has no PMU for */
	r = pmu__pfm_foreach(model, foreach_pfm, &st);
	if (st.stopped)
		return st.stopped;
	if (r == -ELIBACC)
		return pmu__err(ctx, r, "libpfm4's events cannot be listed: libpfm4 cannot be loaded (%s); install "
				"Debian's libpfm4 package", pmu__pfm_missing(why, sizeof(why)) ? why : "libpfm.so.4");
	if (r == -ENOTSUP)
		return pmu__err(ctx, r, "libpfm4's events cannot be listed: this libpmu was built without libpfm4");
	if (r == -ENOMEM)
		return pmu__err(ctx, r, "out of memory setting up libpfm4 to list its events");
	if (r)
		return r;
	pmu__err_clear(); /* the quiet look-ups above recorded messages nobody asked for */
	return st.count;
}
