/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs: a set's events placed on the core PMUs (lib/hybrid.c). */
#ifndef PMU_HYBRID_H
#define PMU_HYBRID_H

struct pmu_set;
struct pmu_speclist;

/* On a CPU with several core PMUs, each generic hardware or cache event of @s that names no PMU
 * becomes one event per core PMU ("cpu_core/cycles/", "cpu_atom/cycles/"; only the core PMU of
 * the counted CPU with PMU_SET_CPU), a {group} holding one repeated per core type. 0, or a
 * negative errno with the message set; the caller sizes its read plan again. Nothing to do (0) on
 * other CPUs. */
int pmu__hybrid_split(struct pmu_set *s, struct pmu_speclist *l);
/* On a CPU with several core PMUs, an event of one core PMU whose name does not say which
 * ("slots", a table event, r01c2) is labelled with it: "cpu_core/slots/". */
void pmu__hybrid_label(struct pmu_set *s);

#endif
