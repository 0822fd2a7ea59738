/* SPDX-License-Identifier: MIT */
/* Topdown, the one module for its rules: the role table (which events are Intel's SLOTS and which the
 * PERF_METRICS fields, by encoding, by table TopdownRole, by sysfs and standard name;
 * topdown-role.c), decoding (topdown.c), the TOPDOWN keyword and the level-1 formulas of CPUs
 * without those events (topdown-events.c), and the group the kernel requires, SLOTS leading every
 * metric event (topdown-group.c). */
#ifndef PMU_TOPDOWN_H
#define PMU_TOPDOWN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pmu_ctx;
struct pmu_event_info;
struct pmu_set;
struct pmu_speclist;

/* ---- roles (topdown-role.c) ---- */
/* The roles, in PERF_METRICS order after SLOTS (role i > 0 is field i - 1): the table's
 * TopdownRole, the core PMU's sysfs event, the standard table name. Level 1 is the first
 * PMU_TD_LEVEL1, level 2 adds the rest. */
enum { PMU_TD_ROLES = 9, PMU_TD_LEVEL1 = 5 };
struct pmu_td_role {
	const char *role, *sysfs, *std;
};
extern const struct pmu_td_role pmu__td_roles[PMU_TD_ROLES];
/* An event's role: 0 slots, 1..8 the PERF_METRICS field + 1, -1 not a topdown event. */
int pmu__topdown_role(const struct pmu_event_info *e);
/* Sets PMU_EVF_TOPDOWN_SLOTS or _METRIC on @info when it is encoded as the SLOTS event or a
 * PERF_METRICS pseudo-event on an Intel x86 core PMU of @ctx. */
void pmu__topdown_mark(const struct pmu_ctx *ctx, struct pmu_event_info *info);
/* The PMU_EVF_TOPDOWN_* flags a table entry's TopdownRole gives: "slots" the SLOTS event, another
 * PERF_METRICS role ("retiring", "mem-bound") a metric event; hierarchical roles of the
 * tables' own method ("L1.retiring", with a dot) are no PERF_METRICS events: 0. */
unsigned pmu__topdown_role_flags(const char *role);
/* Is EventCode @event with UMask @umask a PERF_METRICS pseudo-event (no counter of its own)? */
bool pmu__topdown_metric_code(uint64_t event, uint64_t umask);

/* ---- the TOPDOWN keyword (topdown-events.c) ---- */
/* The events the TOPDOWN keyword stands for on this CPU, comma separated; returns their number. */
int pmu__topdown_events(struct pmu_ctx *ctx, char *buf, size_t len);
/* Whether this CPU's table gives the five level-1 counts (the standard names of roles 0..4) as
 * metrics: formulas over its native events, on CPUs without a slots counter (Skylake, AMD Zen 4/5,
 * Neoverse N2). */
bool pmu__topdown_formulas(struct pmu_ctx *ctx);
/* Whether it gives the four level-2 counts (the standard names of roles 5..8) as metrics (Skylake,
 * Skylake-X, Zen 4/5 over the level-1 formulas; Ice Lake, Ice Lake-X over PERF_METRICS' level 1:
 * metric group TopdownL2Slots). Their events are not in the TOPDOWN keyword (they would not fit
 * its one group): level 2 is computed where they were counted ('pmu stat --topdown -M TopdownL2Slots'). */
bool pmu__topdown_formulas_l2(struct pmu_ctx *ctx);

/* ---- the group (topdown-group.c) ---- */
/* Collects @s's SLOTS and metric events into one group led by SLOTS (added when missing), at the
 * place of the first of them; events that shared a brace group with them get groups of their
 * own. 0 or a negative errno with the message set; the caller sizes its read plan again. */
int pmu__topdown_arrange(struct pmu_set *s, struct pmu_speclist *l);

#endif
