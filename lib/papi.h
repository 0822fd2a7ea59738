/* SPDX-License-Identifier: MIT */
/* PAPI's preset names (PAPI_TOT_INS, PAPI_L1_TCM, ...): libpmu's own mapping of each to standard names
 * (events/papi/presets.json, compiled as the built-in directory "papi": one metric per preset), and PAPI's
 * own table where it is installed (papi_events.csv: the preset's native events for this CPU's libpfm4 PMU). */
#ifndef PMU_PAPI_H
#define PMU_PAPI_H
#include <stdbool.h>
#include <stddef.h>

struct pmu_ctx;
struct pmu_event_info;
struct pmu_tentry;
struct pmu_tname;

/* Whether @name is spelled as a PAPI preset ("PAPI_" and a name PAPI 7 defines), case-insensitive. */
int pmu__papi_is_preset(const char *name);
/* libpmu's mapping of preset @name: a metric entry (MetricExpr: one standard name, or a formula of them),
 * NULL if the preset has none. Process-wide, never freed. */
const struct pmu_tentry *pmu__papi_preset(const char *name);
/* A derived preset as a metric for @ctx's CPU, as an index name (what the metric lookups return): PAPI's
 * own formula of its native events where papi_events.csv is installed and writes the preset as one for this
 * CPU, else libpmu's formula of standard names; NULL where the preset is one event here (pmu__papi_resolve)
 * or unknown. Process-wide, never freed. */
const struct pmu_tname *pmu__papi_tname(struct pmu_ctx *ctx, const char *name);
/* The same as an entry. */
const struct pmu_tentry *pmu__papi_metric(struct pmu_ctx *ctx, const char *name);
/* Whether mapping @e is a formula (a derived preset), not one standard name. */
int pmu__papi_derived(const struct pmu_tentry *e);
/* Preset @spec (@name as written) resolved as one event: PAPI's native event for this CPU where
 * papi_events.csv is installed and defines it, else libpmu's mapping to a standard name. -ENOENT when
 * @spec is no PAPI preset; other errors said (a derived preset: count it with -M; none for this CPU). */
int pmu__papi_resolve(struct pmu_ctx *ctx, const char *name, const char *spec, struct pmu_event_info *out);
/* A preset as pmu list shows it: its description, where it comes from for @ctx's CPU ("PAPI's
 * papi_events.csv for skx: NOT_DERIVED L1D:REPLACEMENT; libpmu's mapping: CACHE.L1D.FILL"), and whether
 * it is a metric here (a formula) rather than one event. */
struct pmu_papi_listed {
	const char *name, *desc, *from;
	bool metric;
};
/* Each preset known for @ctx's CPU (libpmu's mapping, or PAPI's table where it is read here) whose name
 * @accept takes (NULL: all), in PAPI's order, until @fn returns nonzero (returned). */
int pmu__papi_foreach(struct pmu_ctx *ctx, bool (*accept)(const char *name, const void *data),
		      int (*fn)(const struct pmu_papi_listed *p, void *data), void *data);

#endif
