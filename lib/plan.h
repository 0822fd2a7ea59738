/* SPDX-License-Identifier: MIT */
/* Plans (lib/plan.c), private: the arrangement a plan opens on a CPU, for the regions, which open their
 * plan's arrangement on each thread, and for the tests, which compare it with a set planned alone. */
#ifndef PMU_PLAN_H
#define PMU_PLAN_H
struct pmu_plan;
struct pmu_set;

/* The arrangement plan @p opens on CPU @cpu (-1: any target) into *@out (plan.c; tests compare it with
 * pmu__set_plan's for that CPU): 0; the error planning it gave, said again; -ENOENT when no arrangement is
 * made for that CPU (pmu_plan_open plans for it alone). */
int pmu__plan_planned(const struct pmu_plan *p, int cpu, const struct pmu_set **out);
#endif
