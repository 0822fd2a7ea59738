/* SPDX-License-Identifier: MIT */
/* Topdown, the group: the kernel counts the PERF_METRICS pseudo-events only in a group led by the
 * SLOTS event (Linux Documentation/arch/x86/topdown.rst); an event list is rearranged so, wherever
 * the user put them. Roles come from lib/topdown.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "eventlist.h"
#include "resolve.h"
#include "set-layout.h"
#include "topdown.h"

/*
 * Intel topdown: the SLOTS event must lead a group holding every metric
 * event (seed: Linux topdown.txt). Wherever the user put them, collect the
 * slots and metric events into one group, led by slots (added if missing),
 * at the place of the first of them; other events that shared a brace group
 * with them get groups of their own.
 */
int pmu__topdown_arrange(struct pmu_set *s, struct pmu_speclist *l)
{
	const unsigned td = PMU_EVF_TOPDOWN_SLOTS | PMU_EVF_TOPDOWN_METRIC;
	size_t nslots = 0, first = SIZE_MAX, k = 0;
	struct pmu_ev *nev;
	struct pmu_spec *nspec;
	int tdgroup, *touched;

	for (size_t i = 0; i < s->n; i++) {
		unsigned f = s->ev[i].info.flags;
		if (!(f & td))
			continue;
		if (first == SIZE_MAX)
			first = i;
		nslots += !!(f & PMU_EVF_TOPDOWN_SLOTS);
	}
	if (first == SIZE_MAX)
		return 0;
	if (nslots > 1)
		return pmu__err(s->ctx, -EINVAL, "the event list names the topdown SLOTS event %zu times; name it once",
				nslots);
	for (size_t i = 0; i < s->n; i++)
		if ((s->ev[i].info.flags & td) && s->ev[i].info.type != s->ev[first].info.type)
			return pmu__err(s->ctx, -EINVAL,
					"topdown events of different PMUs ('%s' on %s, '%s' on %s) cannot share a group: "
					"count one core type at a time (hybrid CPU)", s->ev[first].info.name,
					s->ev[first].info.pmu, s->ev[i].info.name, s->ev[i].info.pmu);
	nev = calloc(s->n + 1, sizeof(*nev));
	nspec = calloc(s->n + 1, sizeof(*nspec));
	touched = calloc((size_t)l->ngroups_explicit + 2, sizeof(*touched));
	if (!nev || !nspec || !touched) {
		free(nev);
		free(nspec);
		free(touched);
		return pmu__err(s->ctx, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->n; i++)
		if ((s->ev[i].info.flags & td) && l->v[i].group >= 0)
			touched[l->v[i].group] = 1;
	tdgroup = l->ngroups_explicit++;
	for (size_t i = 0; i < s->n; i++) {
		if (i == first) {
			/* slots first, then the metric events in the order given */
			if (!nslots) {
				struct pmu_event_info slots;
				int r;
				r = pmu__resolve_quiet(s->ctx, "slots", &slots);
				if (r < 0 || !(slots.flags & PMU_EVF_TOPDOWN_SLOTS) || slots.type != s->ev[first].info.type) {
					free(nev);
					free(nspec);
					free(touched);
					return pmu__err(s->ctx, -EINVAL,
							"'%s' is a topdown metric event and needs the SLOTS event in its "
							"group, which this CPU (%s) does not have", s->ev[first].info.name,
							s->ctx->cpu.cpuid);
				}
				nev[k].info = slots;
				nev[k].fd = -1;
				nev[k].part_of = -1;
				nspec[k].name = strdup("slots");
				nspec[k].group = tdgroup;
				if (!nspec[k].name) {
					free(nev);
					free(nspec);
					free(touched);
					return pmu__err(s->ctx, -ENOMEM, "out of memory");
				}
				k++;
				pmu__log(s->ctx, PMU_LOG_DEBUG, "topdown: added the slots event to lead the group");
			}
			for (size_t j = first; j < s->n; j++)
				if (s->ev[j].info.flags & PMU_EVF_TOPDOWN_SLOTS) {
					nev[k] = s->ev[j];
					nspec[k] = l->v[j];
					nspec[k++].group = tdgroup;
				}
			for (size_t j = first; j < s->n; j++)
				if ((s->ev[j].info.flags & td) == PMU_EVF_TOPDOWN_METRIC) { /* each event once */
					nev[k] = s->ev[j];
					nspec[k] = l->v[j];
					nspec[k++].group = tdgroup;
				}
			if (!(s->ev[first].info.flags & PMU_EVF_TOPDOWN_SLOTS))
				pmu__log(s->ctx, PMU_LOG_DEBUG, "topdown: moved slots to lead the group");
		}
		if (s->ev[i].info.flags & td)
			continue;
		nev[k] = s->ev[i];
		nspec[k] = l->v[i];
		if (nspec[k].group >= 0 && touched[nspec[k].group]) {
			pmu__log(s->ctx, PMU_LOG_DEBUG, "topdown: '%s' left the topdown group for a group of its own",
				 s->ev[i].info.name);
			nspec[k].group = -1;
		}
		k++;
	}
	free(s->ev);
	free(l->v);
	s->ev = nev;
	l->v = nspec;
	s->n = l->n = k;
	free(touched);
	return 0;
}
