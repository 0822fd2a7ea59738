/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs: a set's events placed on the core PMUs (lib/hybrid.c). */
#ifndef PMU_HYBRID_H
#define PMU_HYBRID_H
#include <stddef.h>

struct pmu_set;
struct pmu_speclist;
struct pmu_value;

/* On a CPU with several core PMUs, each generic hardware or cache event of @s that names no PMU
 * becomes one event per core PMU ("cpu_core/cycles/", "cpu_atom/cycles/"; only the core PMU of
 * the counted CPU with PMU_SET_CPU), a {group} holding one repeated per core type. 0, or a
 * negative errno with the message set; the caller sizes its read plan again. Nothing to do (0) on
 * other CPUs. */
int pmu__hybrid_split(struct pmu_set *s, struct pmu_speclist *l);
/* The name a part's label @label ("armv8_cortex_a55/INST.RET/:u", "cpu_core/cycles/u") is a part of,
 * as listed with the modes counted ("INST.RET:u", "cycles:u"), into @out: 0, -EINVAL (not a part's
 * label) or -ENAMETOOLONG. */
int pmu__part_total_name(const char *label, char *out, size_t len);
/* On a CPU with several core PMUs, an event of one core PMU whose name does not say which
 * ("slots", a table event, r01c2) is labelled with it: "cpu_core/slots/". */
void pmu__hybrid_label(struct pmu_set *s);

/* On a machine of several core PMUs, a task's set with events of core PMUs gets, per core PMU, a pinned
 * cycle counter (not one of the set's values) whose running time is the time the task spent on that
 * core type, enabled before the set's groups and disabled after them. 0; a counter the kernel refuses
 * is left out (said at the debug level): its core type's events are then judged by the old rule. */
int pmu__hybrid_presence_open(struct pmu_set *s);
/* Apply ioctl @req (PERF_EVENT_IOC_ENABLE, _DISABLE, _RESET) to the presence counters. */
void pmu__hybrid_presence_ioctl(struct pmu_set *s, unsigned long req);
void pmu__hybrid_presence_close(struct pmu_set *s);
/* pmu_fast_hybrid()'s work: each core PMU event's enabled time made the time the task spent on its core
 * type, from the presence counters where they count (else, for the parts of one event, their running
 * times added up); @out as pmu_set_read() fills it. */
void pmu__hybrid_times(const struct pmu_set *s, struct pmu_value *out);

#endif
