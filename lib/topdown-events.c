/* SPDX-License-Identifier: MIT */
/* Topdown, the TOPDOWN keyword of event lists: the level-1 (and level-2) topdown events of this CPU,
 * from its table, else its core PMU's sysfs events, else the standard events its table implements,
 * else the events of the level-1 formulas its table gives. Roles from topdown-role.c. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "sysfs.h"
#include "tables.h"
#include "topdown.h"

/* Does this CPU's table give roles [from, to) as metrics (of core PMU @unit's definitions: a hybrid
 * CPU's table defines them per core type; NULL: any)? */
static bool formulas_for(struct pmu_ctx *ctx, const char *unit, size_t from, size_t to)
{
	if (pmu__tables_load(ctx) < 0)
		return false;
	for (size_t r = from; r < to; r++) {
		const struct pmu_tentry *e = pmu__tables_find_pmu(ctx, pmu__td_roles[r].std, unit, PMU_TC_METRIC);
		if (!e || e->kind != PMU_T_METRIC || (unit && (!e->unit || strcmp(e->unit, unit))))
			return false;
	}
	return true;
}

bool pmu__topdown_formulas(struct pmu_ctx *ctx)
{
	return formulas_for(ctx, NULL, 0, PMU_TD_LEVEL1);
}

bool pmu__topdown_formulas_l2(struct pmu_ctx *ctx)
{
	return formulas_for(ctx, NULL, PMU_TD_LEVEL1, PMU_TD_ROLES);
}

/* Whether comma-separated @list has @name (case-insensitive). */
static bool listed(const char *list, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (!strncasecmp(p, name, l) && (p[l] == ',' || p[l] == 0))
			return true;
	return false;
}

/* Appends the events of the five level-1 formulas (core PMU @unit's definitions; NULL: the table's
 * only ones) to @buf (at *o), each once; returns their number. */
static int formula_events(struct pmu_ctx *ctx, const char *unit, char *buf, size_t len, size_t *o)
{
	char need[512], name[PMU_NAME_MAX];
	int n = 0, r;

	for (size_t f = 0; f < PMU_TD_LEVEL1; f++) {
		if (unit)
			snprintf(name, sizeof(name), "%s/%s/", unit, pmu__td_roles[f].std);
		if ((r = pmu_metric_events(ctx, unit ? name : pmu__td_roles[f].std, need, sizeof(need))) < 0)
			return r;
		for (char *save = NULL, *tok = strtok_r(need, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!listed(buf, tok)) {
				*o += (size_t)snprintf(buf + *o, len > *o ? len - *o : 0, "%s%s", *o ? "," : "", tok);
				n++;
			}
	}
	return n;
}

/* Does this CPU's table define event @name? */
static bool has_event(struct pmu_ctx *ctx, const char *name)
{
	return pmu__tables_find_pmu(ctx, name, NULL, PMU_TC_EVENT) != NULL;
}

/* -ENOENT with why this CPU has no topdown tree: what the family's method counts and what this core lacks. */
static int unavailable(struct pmu_ctx *ctx)
{
	const char *method, *lacks;
	char pmu_lacks[640], table_lacks[256];

	if (ctx->cpu.arch == PMU_ARCH_ARM64) {
		method = "Arm's top-down method counts operation slots (STALL_SLOT, STALL_SLOT_FRONTEND, "
			 "STALL_SLOT_BACKEND: Neoverse N2, V1, V2 and later)";
		lacks = has_event(ctx, "STALL_FRONTEND") && has_event(ctx, "STALL_BACKEND")
				? "this core's stall events count cycles; what it offers instead is cycle accounting, "
				  "the stalled cycles over all cycles: pmu stat -e CPU_CYCLES,STALL_FRONTEND,STALL_BACKEND"
				: "this core's PMU has neither slot nor stall events (STALL_FRONTEND, STALL_BACKEND)";
	} else if (ctx->cpu.arch == PMU_ARCH_X86 && !strcmp(ctx->cpu.vendor, "AuthenticAMD")) {
		method = "AMD's top-down method counts dispatch slots (PMCx1A0, de_no_dispatch_per_slot, and the ops "
			 "dispatched and retired: Zen 4 and later)";
		lacks = "this CPU has no dispatch-slot event";
	} else if (ctx->cpu.arch == PMU_ARCH_RISCV) {
		method = "topdown needs issue-slot counts, the standard TOPDOWN.*SLOTS events or formulas for them";
		lacks = "this core's table has neither (the stall events of the RISC-V cores libpmu knows count "
			"cycles or occurrences, not issue slots)";
	} else {
		/* what was looked for and is not here: the core PMU's sysfs slots event, the table's events; never
		 * what the CPU lacks (Rocket Lake has PERF_METRICS; without a table libpmu cannot tell) */
		const struct pmu_dev *core = pmu__core_pmu(ctx);
		method = "Intel's top-down method counts issue slots, with SLOTS and the PERF_METRICS topdown-* events "
			 "(Ice Lake and later) or with formulas over the events of the CPU's table (Skylake)";
		if (core)
			snprintf(pmu_lacks, sizeof(pmu_lacks), "the %s PMU lists no slots event in %s/bus/event_source/"
				 "devices/%s/events", core->name, ctx->sysfs_root, core->name);
		else
			snprintf(pmu_lacks, sizeof(pmu_lacks), "no core PMU is exposed (%s/bus/event_source/devices: "
				 "a virtual machine without a virtual PMU?)", ctx->sysfs_root);
		snprintf(table_lacks, sizeof(table_lacks), ctx->tables.cpu_dir ? "its table (%s) neither implements the "
			 "standard TOPDOWN events nor gives them as formulas" : "libpmu has no event table for this CPU%s",
			 ctx->tables.cpu_dir ? ctx->tables.cpu_dir : "");
		return pmu__err(ctx, -ENOENT, "topdown analysis is not available on this CPU (%s): %s; here %s, and %s",
				ctx->cpu.cpuid[0] ? ctx->cpu.cpuid : "unidentified", method, pmu_lacks, table_lacks);
	}
	return pmu__err(ctx, -ENOENT, "topdown analysis is not available on this CPU (%s): %s, and %s",
			ctx->cpu.cpuid[0] ? ctx->cpu.cpuid : "unidentified", method, lacks);
}

/* Level-1 (and level-2 where present) topdown events for the TOPDOWN keyword:
 * the CPU table's events with a topdown role, else the core PMU's sysfs
 * events of the same names, else the standard TOPDOWN.*.SLOTS events the
 * CPU can count, else the events the table's level-1 formulas need. On a
 * hybrid CPU, after the role events of one core type, the events of the
 * other types' level-1 formulas where the table gives them. */
int pmu__topdown_events(struct pmu_ctx *ctx, char *buf, size_t len)
{
	const char *found[PMU_TD_ROLES] = { 0 }, *found_pmu = NULL;
	size_t o = 0;
	int n = 0;

	buf[0] = 0;
	if ((n = pmu__tables_load(ctx)) < 0)
		return n; /* the load's error, not 'no topdown here' */
	{
		const struct pmu_tables *t = &ctx->tables;
		for (size_t r = 0; r < PMU_TD_ROLES; r++)
			for (size_t i = 0; i < t->n && !found[r]; i++) {
				const struct pmu_tentry *e;
				if (pmu__tables_kind(t, i) != PMU_T_NATIVE)
					continue; /* not made for this (the standard names' entries are made at their use) */
				e = pmu__tables_entry(t, i);
				/* prefer perf's spellings (slots, topdown-*) when a role has several */
				if (e->topdown && !strcmp(e->topdown, pmu__td_roles[r].role) &&
				    (r == 0 || !strncmp(e->name, "topdown-", 8))) {
					found[r] = e->name;
					if (r == 0)
						found_pmu = e->unit;
				}
			}
	}
	if (!found[0]) {
		const struct pmu_dev *core = pmu__core_pmu(ctx);
		for (size_t r = 0; core && r < PMU_TD_ROLES; r++)
			for (size_t i = 0; i < core->n_events; i++)
				if (!strcmp(core->events[i].name, pmu__td_roles[r].sysfs))
					found[r] = pmu__td_roles[r].sysfs;
		found_pmu = core ? core->name : NULL;
	}
	if (found[0] && found[1] && found[2] && found[3] && found[4]) {
		int level2 = found[5] && found[6] && found[7] && found[8], r;
		for (r = 0; r < (level2 ? (int)PMU_TD_ROLES : PMU_TD_LEVEL1); r++)
			o += (size_t)snprintf(buf + o, len > o ? len - o : 0, "%s%s", r ? "," : "", found[r]);
		n = level2 ? (int)PMU_TD_ROLES : PMU_TD_LEVEL1;
		/* a hybrid CPU's other core types, where the table gives their level-1 formulas (Alder and
		 * Raptor Lake's Gracemont E-cores have no slots counter): their events too, counted apart */
		for (size_t i = 0; pmu__n_core_pmus(ctx) > 1 && i < ctx->n_pmus; i++) {
			const char *unit = ctx->pmus[i].name;
			if (!ctx->pmus[i].is_core || (found_pmu && !strcmp(unit, found_pmu)) ||
			    !formulas_for(ctx, unit, 0, PMU_TD_LEVEL1))
				continue;
			if ((r = formula_events(ctx, unit, buf, len, &o)) < 0)
				return r;
			n += r;
		}
	} else {
		/* the standard events, where this CPU's table implements them */
		int ok = 1;
		for (size_t r = 0; r < PMU_TD_LEVEL1 && ok; r++)
			ok = pmu__tables_native_for(ctx, pmu__td_roles[r].std) != NULL;
		if (ok) {
			for (size_t r = 0; r < PMU_TD_LEVEL1; r++)
				o += (size_t)snprintf(buf + o, len > o ? len - o : 0, "%s%s", r ? "," : "", pmu__td_roles[r].std);
			n = PMU_TD_LEVEL1;
		} else if (pmu__topdown_formulas(ctx)) {
			if (!pmu__core_pmu(ctx))
				return pmu__err(ctx, -ENOENT,
						"topdown analysis is not available on this CPU (%s) here: its table gives the "
						"level-1 slot counts as formulas over its events, but this machine shows no core "
						"PMU to count them (a virtual machine without a virtual PMU?)",
						ctx->cpu.cpuid[0] ? ctx->cpu.cpuid : "unidentified");
			if ((n = formula_events(ctx, NULL, buf, len, &o)) < 0)
				return n;
		}
	}
	if (!n)
		return unavailable(ctx);
	if (o >= len)
		return pmu__err(ctx, -ENOSPC, "topdown event list too long");
	return n;
}
