/* SPDX-License-Identifier: MIT */
/* One event name to an encoding (lib/resolve.c). Private. */
#ifndef PMU_RESOLVE_H
#define PMU_RESOLVE_H
#include <stdbool.h>

struct pmu_ctx;
struct pmu_event_info;

/* Resolve one event spec; @mods_extra are modifiers from a {group}:mods suffix. */
int pmu__resolve(struct pmu_ctx *ctx, const char *name, const char *mods_extra,
		 struct pmu_event_info *out);
/* pmu__resolve() for a caller that only tests a name: nothing recorded or searched for a message
 * (the one place the resolver is made quiet). */
int pmu__resolve_quiet(struct pmu_ctx *ctx, const char *name, struct pmu_event_info *out);
/* pmu__resolve(), and *@mode_written: whether a :u/:k/:h modifier (or {group}:mods) chose the mode. */
int pmu__resolve_mode(struct pmu_ctx *ctx, const char *name, const char *mods_extra,
		      struct pmu_event_info *out, bool *mode_written);
/* NULL if `pmu stat` can count encoding @e on this machine, else why not (static text). The one
 * rule behind "usable" in pmu_event_foreach(), suggestions and "Countable here". */
const char *pmu__uncountable(const struct pmu_ctx *ctx, const struct pmu_event_info *e);
/* 1 if @name resolves to an encoding pmu__uncountable() accepts, else 0. Quiet: logs nothing. */
bool pmu__name_countable(struct pmu_ctx *ctx, const char *name);
/* The libpfm4 PMU whose event a vendor name without "PMU::" is, into *@model: where PMU_CPUID names
 * a CPU, libpfm4's core PMU for its table directory ("skx"); else NULL, this machine's core PMU as
 * libpfm4 detects it. 0; -ENOENT when libpfm4 has no PMU for the named CPU; -ENOMEM. */
int pmu__pfm_model_of(struct pmu_ctx *ctx, const char **model);
/* Is @name (perf's :u/:k/... allowed) a table name that must say its PMU on this hybrid CPU, each
 * core PMU counting it with its own event (the refusal of pmu_event_resolve())? A set counts it
 * on each core PMU instead, as "cpu_core/NAME/", "cpu_atom/NAME/" (hybrid.c). Quiet. */
bool pmu__name_per_core_pmu(struct pmu_ctx *ctx, const char *name);

#endif
