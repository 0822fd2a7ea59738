/* SPDX-License-Identifier: MIT */
/* A LIKWID group's counter lines mapped to libpmu's events: the architecture directory LIKWID picks
 * for a CPU, its fixed counters, its PMC events (Intel's table names with '.' written '_', AMD's names
 * of its own), uncore boxes (MBOXnCm: uncore_imc_n, CBOX, QBOX/UPI, ...) and its power counters (RAPL). */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>
#include <pmu.h>
#include "common.h"
#include "cpu.h"
#include "likwid.h"
#include "tables.h"
#include "util.h"

/* The tables below hold their strings in arrays, not pointers: no relocation when the library loads
 * (tests/test-load-cost.sh). */

/* LIKWID 5.2's choice of perfgroups directory by x86 family 6 model (its topology code's table). */
static const struct { unsigned model; char arch[16]; } intel_models[] = {
	{ 0x1A, "nehalem" }, { 0x1E, "nehalem" }, { 0x1F, "nehalem" }, { 0x2E, "nehalemEX" },
	{ 0x25, "westmere" }, { 0x2C, "westmere" }, { 0x2F, "westmereEX" },
	{ 0x2A, "sandybridge" }, { 0x2D, "sandybridgeEP" }, { 0x3A, "ivybridge" }, { 0x3E, "ivybridgeEP" },
	{ 0x3C, "haswell" }, { 0x45, "haswell" }, { 0x46, "haswell" }, { 0x3F, "haswellEP" },
	{ 0x3D, "broadwell" }, { 0x47, "broadwell" }, { 0x56, "broadwellD" }, { 0x4F, "broadwellEP" },
	{ 0x4E, "skylake" }, { 0x5E, "skylake" }, { 0x8E, "skylake" }, { 0x9E, "skylake" }, { 0xA5, "skylake" },
	{ 0xA6, "skylake" }, { 0x55, "skylakeX" }, { 0x6A, "ICX" }, { 0x6C, "ICX" }, { 0x7D, "ICL" },
	{ 0x7E, "ICL" }, { 0x8C, "TGL" }, { 0x8D, "TGL" }, { 0xA7, "RKL" }, { 0x57, "knl" }, { 0x85, "knl" },
	{ 0x37, "silvermont" }, { 0x4A, "silvermont" }, { 0x4D, "silvermont" }, { 0x5A, "silvermont" },
	{ 0x5C, "goldmont" }, { 0x5F, "goldmont" }, { 0x7A, "goldmont" },
};

const char *pmu__likwid_arch(const struct pmu_cpu *c)
{
	if (c->arch == PMU_ARCH_X86 && !strcmp(c->vendor, "GenuineIntel") && c->family == 6) {
		if (c->model == 0x55) /* Cascade Lake and Cooper Lake: stepping 5 and later */
			return c->stepping >= 5 ? "CLX" : "skylakeX";
		for (size_t i = 0; i < ARRAY_SIZE(intel_models); i++)
			if (intel_models[i].model == c->model)
				return intel_models[i].arch;
		return NULL;
	}
	if (c->arch == PMU_ARCH_X86 && (!strcmp(c->vendor, "AuthenticAMD") || !strcmp(c->vendor, "HygonGenuine"))) {
		if (c->family == 0x17) /* Zen and Zen+ below model 0x30, Zen 2 from it */
			return c->model < 0x30 ? "zen" : "zen2";
		if (c->family == 0x19 && (c->model < 0x10 || (c->model >= 0x20 && c->model < 0x60)))
			return "zen3";
		return NULL;
	}
	if (c->arch == PMU_ARCH_ARM64) {
		unsigned impl = (unsigned)(c->midr >> 24) & 0xff, part = (unsigned)(c->midr >> 4) & 0xfff;
		if (impl == 0x41 && part == 0xd0c)
			return "arm8_n1";
		if (impl == 0x46 && part == 0x001)
			return "arm64fx";
		if ((impl == 0x43 && part == 0x0af) || (impl == 0x42 && part == 0x516))
			return "arm8_tx2";
		if (impl == 0x41 && (part == 0xd07 || part == 0xd08 || part == 0xd03)) /* A57, A72, A53 */
			return "arm8";
	}
	return NULL;
}

const char *pmu__groups_arch(const struct pmu_cpu *c)
{
	/* Arm's cores whose tables give the standard names of events/groups/ (checked on their fixtures) */
	static const unsigned arm[] = { 0xd0c, 0xd40, 0xd49, 0xd0b, 0xd05 }; /* N1, V1, N2, A76, A55 */

	if (c->arch == PMU_ARCH_ARM64 && ((c->midr >> 24) & 0xff) == 0x41)
		for (size_t i = 0; i < ARRAY_SIZE(arm); i++)
			if (arm[i] == ((c->midr >> 4) & 0xfff))
				return "arm64";
	if (c->arch == PMU_ARCH_RISCV)
		return "riscv";
	return NULL;
}

/* LIKWID's names of events that are not an Intel table name with '.' written '_': the fixed counters,
 * AMD's (LIKWID names them itself), the energy counters. Each is tried in order; the first the
 * tables (or, for a PMU/NAME/ spelling, the PMU's sysfs name) define is taken. */
static const struct { char likwid[32]; char names[2][32]; } named[] = {
	{ "INSTR_RETIRED_ANY", { "INST_RETIRED.ANY", "instructions" } },
	{ "CPU_CLK_UNHALTED_CORE", { "CPU_CLK_UNHALTED.THREAD", "cycles" } },
	{ "CPU_CLK_UNHALTED_REF", { "CPU_CLK_UNHALTED.REF_TSC", "ref-cycles" } },
	{ "TOPDOWN_SLOTS", { "TOPDOWN.SLOTS", "slots" } },
	{ "ACTUAL_CPU_CLOCK", { "msr/aperf/" } },
	{ "MAX_CPU_CLOCK", { "msr/mperf/" } },
	{ "RETIRED_INSTRUCTIONS", { "ex_ret_instr" } },
	{ "CPU_CLOCKS_UNHALTED", { "ls_not_halted_cyc" } },
	{ "RETIRED_BRANCH_INSTR", { "ex_ret_brn" } },
	{ "RETIRED_MISP_BRANCH_INSTR", { "ex_ret_brn_misp" } },
	{ "RETIRED_UOPS", { "ex_ret_ops", "ex_ret_cops" } },
	{ "DATA_CACHE_ACCESSES", { "all_data_cache_accesses" } },
	{ "LS_DISPATCH_LOADS", { "ls_dispatch.ld_dispatch" } },
	{ "LS_DISPATCH_STORES", { "ls_dispatch.store_dispatch" } },
	{ "REQUESTS_TO_L2_GRP1_ALL_NO_PF", { "l2_request_g1.all_no_prefetch" } },
	{ "PWR_PKG_ENERGY", { "power/energy-pkg/" } },
	{ "PWR_PP0_ENERGY", { "power/energy-cores/" } },
	{ "PWR_PP1_ENERGY", { "power/energy-gpu/" } },
	{ "PWR_DRAM_ENERGY", { "power/energy-ram/" } },
	{ "PWR_PLATFORM_ENERGY", { "power/energy-psys/" } },
	{ "RAPL_PKG_ENERGY", { "power/energy-pkg/" } },
	{ "RAPL_CORE_ENERGY", { "power/energy-cores/" } },
};

/* LIKWID's PWR0..PWR4 (its numbering) */
static const char pwr_events[][24] = {
	"power/energy-pkg/", "power/energy-cores/", "power/energy-gpu/", "power/energy-ram/", "power/energy-psys/",
};

/* The RAPL driver counts in 2^-32 J (its sysfs .scale): LIKWID's PWR counters are joules */
#define RAPL_JOULES "2.3283064365386962890625e-10"

/* Uncore boxes: LIKWID's counter prefix, perf's PMU name (box number appended), the prefix of the
 * tables' event names. Server parts (skylakeX, CLX, ICX) first: their CBOX is the CHA. */
struct box { char prefix[8], pmu[24], evprefix[16]; };
static const struct box server_boxes[] = {
	{ "MBOX", "uncore_imc_", "UNC_M_" }, { "CBOX", "uncore_cha_", "UNC_CHA_" }, { "QBOX", "uncore_upi_", "UNC_UPI_" },
	{ "SBOX", "uncore_upi_", "UNC_UPI_" }, { "BBOX", "uncore_m2m_", "UNC_M2M_" }, { "WBOX", "uncore_pcu", "UNC_P_" },
	{ "UBOX", "uncore_ubox", "UNC_U_" }, { "IBOX", "uncore_irp_", "UNC_I_" }, { "PBOX", "uncore_m2pcie_", "UNC_M2P_" },
	{ "RBOX", "uncore_m3upi_", "UNC_M3UPI_" }, { "", "", "" },
};
static const struct box ep_boxes[] = { /* sandybridgeEP .. broadwellEP */
	{ "MBOX", "uncore_imc_", "UNC_M_" }, { "CBOX", "uncore_cbox_", "UNC_C_" }, { "SBOX", "uncore_qpi_", "UNC_Q_" },
	{ "QBOX", "uncore_qpi_", "UNC_Q_" }, { "BBOX", "uncore_ha_", "UNC_H_" }, { "WBOX", "uncore_pcu", "UNC_P_" },
	{ "UBOX", "uncore_ubox", "UNC_U_" }, { "RBOX", "uncore_r3qpi_", "UNC_R3_" }, { "", "", "" },
};
static const struct box client_boxes[] = {
	{ "CBOX", "uncore_cbox_", "UNC_CBO_" }, { "UBOX", "uncore_arb", "UNC_ARB_" }, { "", "", "" },
};

static bool is_ep(const char *arch)
{
	size_t n = strlen(arch);
	return n > 2 && !strcmp(arch + n - 2, "EP");
}

static bool is_server(const char *arch)
{
	return !strcmp(arch, "skylakeX") || !strcmp(arch, "CLX") || !strcmp(arch, "ICX");
}

/* The table's native event named @name (any case) on a core PMU (@core) or an uncore one: its name. */
static const char *table_event(struct pmu_ctx *ctx, const char *name, bool core)
{
	const struct pmu_tentry *e = pmu__tables_find(ctx, name);

	if (!e || (e->kind != PMU_T_NATIVE && !(core && e->kind == PMU_T_STANDARD)))
		return NULL;
	if (e->kind == PMU_T_STANDARD) /* libpmu's standard names (its own groups): counted on every CPU */
		return e->name;
	if (core != (!e->unit || !*e->unit || pmu__tables_core_unit(e->unit)))
		return NULL;
	return e->name;
}

/* The table event whose name is @lik with one '_' turned back into '.' (or @lik itself), after @prefix:
 * 0 and *@out, -ENOENT none, -EEXIST several (both named in @why). */
static int dotted(struct pmu_ctx *ctx, const char *prefix, const char *lik, bool core, const char **out, char *why,
		  size_t wl)
{
	char name[256];
	const char *found = NULL;
	size_t pl = strlen(prefix);

	if (pl + strlen(lik) >= sizeof(name))
		return -ENOENT;
	snprintf(name, sizeof(name), "%s%s", prefix, lik);
	if ((found = table_event(ctx, name, core))) {
		*out = found;
		return 0;
	}
	for (char *p = name + pl; *p; p++) {
		const char *e;
		if (*p != '_')
			continue;
		*p = '.';
		e = table_event(ctx, name, core);
		*p = '_';
		if (!e || (found && !strcasecmp(found, e)))
			continue;
		if (found) {
			snprintf(why, wl, "'%s%s' is two of this CPU's table events, %s and %s: write the event as one of "
				 "them (pmu stat -e)", prefix, lik, found, e);
			return -EEXIST;
		}
		found = e;
	}
	if (!found)
		return -ENOENT;
	*out = found;
	return 0;
}

/* LIKWID's own names of core events that are neither a table name with '_' for '.' nor in named[]: LIKWID's
 * encoding of each (its perfmon_<arch>_events.txt of LIKWID 5.2.2: event code, umask, threshold, invert,
 * edge, any-thread), and how that encoding stands in the perf table of the CPU tests/test-likwid-groups.py
 * counts for the arch (perf's first match in events/mapfile.csv): SAME, @perf is the one event with exactly
 * that encoding (the name is mapped to it); NONE, no event has it; ELSEWHERE, none has it, but the table
 * of arch @where (the nearest that has it) names it @perf; ABSENT, LIKWID's own table has no such event.
 * Only LIKWID's facts, not its text; tests/test-likwid-groups.py checks every SAME row's encoding against
 * libpmu's encoding of @perf. No row names an encoding that several events of a table have. */
enum likwid_arch { L_NONE, L_nehalem, L_nehalemEX, L_westmere, L_westmereEX, L_sandybridge, L_sandybridgeEP,
	L_ivybridge, L_ivybridgeEP, L_haswell, L_haswellEP, L_broadwell, L_broadwellD, L_broadwellEP, L_skylake,
	L_skylakeX, L_CLX, L_ICX, L_ICL, L_TGL, L_RKL, L_knl, L_silvermont, L_goldmont, L_zen, L_zen2, L_zen3,
	L_arm8_n1, L_arm8, L_arm64fx, L_arm8_tx2 };
#define A(x) (1u << L_##x)
static const char alias_arch[][16] = { "", "nehalem", "nehalemEX", "westmere", "westmereEX", "sandybridge",
	"sandybridgeEP", "ivybridge", "ivybridgeEP", "haswell", "haswellEP", "broadwell", "broadwellD", "broadwellEP",
	"skylake", "skylakeX", "CLX", "ICX", "ICL", "TGL", "RKL", "knl", "silvermont", "goldmont", "zen", "zen2",
	"zen3", "arm8_n1", "arm8", "arm64fx", "arm8_tx2" };
enum { SAME, NONE, ELSEWHERE, ABSENT };
enum { INV = 1, EDGE = 2, ANY = 4 };
static const struct likwid_alias {
	uint32_t archs;
	char likwid[40], perf[48];
	uint8_t how;
	uint16_t code;
	uint8_t umask, cmask, flags, where;
} aliases[] = {
	{ A(nehalem) | A(westmere) | A(westmereEX), "ARITH_NUM_DIV", "ARITH.DIV", SAME, 0x14, 0x01, 1, INV|EDGE,
	  L_NONE },
	{ A(nehalem) | A(nehalemEX), "BR_MISP_RETIRED_ALL_BRANCHES", "BR_MISP_RETIRED.ALL_BRANCHES", ELSEWHERE, 0xC5,
	  0x00, 0, 0, L_sandybridge },
	{ A(westmere), "L2_LINES_OUT_DIRTY_ANY", "L2_LINES_OUT.DIRTY_ALL", ELSEWHERE, 0xF2, 0x0A, 0, 0, L_sandybridge },
	{ A(westmere), "UOPS_EXECUTED_THREAD", "", NONE, 0xB1, 0xC0, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP), "ARITH_NUM_DIV", "ARITH.FPU_DIV", SAME, 0x14, 0x01, 1, EDGE, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(skylake) |
	  A(skylakeX) | A(CLX), "CPU_CLOCK_UNHALTED_TOTAL_CYCLES", "CPU_CLK_UNHALTED.TOTAL_CYCLES", ELSEWHERE, 0x3C,
	  0x00, 2, INV, L_westmereEX },
	{ A(sandybridge) | A(sandybridgeEP), "CYCLE_ACTIVITY_CYCLES_NO_EXECUTE", "CYCLE_ACTIVITY.CYCLES_NO_DISPATCH",
	  SAME, 0xA3, 0x04, 4, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP), "CYCLE_ACTIVITY_STALLS_TOTAL", "CYCLE_ACTIVITY.CYCLES_NO_DISPATCH", SAME,
	  0xA3, 0x04, 4, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(haswell) | A(haswellEP) | A(broadwell) | A(broadwellD) |
	  A(broadwellEP) | A(skylake) | A(skylakeX) | A(CLX), "DTLB_LOAD_MISSES_CAUSES_A_WALK",
	  "DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK", SAME, 0x08, 0x01, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(broadwell) |
	  A(broadwellD) | A(broadwellEP) | A(skylake) | A(skylakeX) | A(CLX), "DTLB_STORE_MISSES_CAUSES_A_WALK",
	  "DTLB_STORE_MISSES.MISS_CAUSES_A_WALK", SAME, 0x49, 0x01, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP), "FP_COMP_OPS_EXE_SSE_FP_PACKED_DOUBLE",
	  "FP_COMP_OPS_EXE.SSE_PACKED_DOUBLE", SAME, 0x10, 0x10, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP), "FP_COMP_OPS_EXE_SSE_FP_PACKED_SINGLE",
	  "FP_COMP_OPS_EXE.SSE_PACKED_SINGLE", SAME, 0x10, 0x40, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP), "FP_COMP_OPS_EXE_SSE_FP_SCALAR_DOUBLE",
	  "FP_COMP_OPS_EXE.SSE_SCALAR_DOUBLE", SAME, 0x10, 0x80, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP), "FP_COMP_OPS_EXE_SSE_FP_SCALAR_SINGLE",
	  "FP_COMP_OPS_EXE.SSE_SCALAR_SINGLE", SAME, 0x10, 0x20, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(broadwell) |
	  A(broadwellD) | A(broadwellEP), "ICACHE_ACCESSES", "ICACHE.ACCESSES", ELSEWHERE, 0x80, 0x03, 0, 0, L_knl },
	{ A(sandybridge) | A(sandybridgeEP), "ICACHE_IFETCH_STALL", "ICACHE.IFETCH_STALL", ELSEWHERE, 0x80, 0x04, 0, 0,
	  L_ivybridge },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP), "INT_MISC_RECOVERY_COUNT",
	  "INT_MISC.RECOVERY_STALLS_COUNT", SAME, 0x0D, 0x03, 1, EDGE, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(broadwell) |
	  A(broadwellD) | A(broadwellEP) | A(skylake) | A(skylakeX) | A(CLX), "ITLB_MISSES_CAUSES_A_WALK",
	  "ITLB_MISSES.MISS_CAUSES_A_WALK", SAME, 0x85, 0x01, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP), "L1D_M_EVICT", "L1D.EVICTION", SAME, 0x51, 0x04, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP), "L2_RQSTS_MISS", "L2_RQSTS.MISS",
	  ELSEWHERE, 0x24, 0xAA, 0, 0, L_westmereEX },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP), "MEM_LOAD_UOPS_RETIRED_ALL", "", NONE,
	  0xD1, 0x7F, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP),
	  "MEM_UOPS_RETIRED_LOADS", "MEM_UOPS_RETIRED.ALL_LOADS", SAME, 0xD0, 0x81, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP),
	  "MEM_UOPS_RETIRED_STORES", "MEM_UOPS_RETIRED.ALL_STORES", SAME, 0xD0, 0x82, 0, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP), "UOPS_EXECUTED_STALL_CYCLES", "UOPS_EXECUTED.STALL_CYCLES", ELSEWHERE,
	  0xB1, 0x01, 1, INV, L_ivybridge },
	{ A(sandybridge) | A(sandybridgeEP), "UOPS_EXECUTED_THREAD", "UOPS_DISPATCHED.THREAD", SAME, 0xB1, 0x01, 0, 0,
	  L_NONE },
	{ A(sandybridge) | A(sandybridgeEP), "UOPS_EXECUTED_USED_CYCLES", "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC",
	  ELSEWHERE, 0xB1, 0x01, 1, 0, L_ivybridge },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(skylake) |
	  A(skylakeX) | A(CLX), "UOPS_ISSUED_USED_CYCLES", "", NONE, 0x0E, 0x01, 1, 0, L_NONE },
	{ A(sandybridge) | A(sandybridgeEP) | A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(skylake) |
	  A(skylakeX) | A(CLX), "UOPS_RETIRED_USED_CYCLES", "UOPS_RETIRED.ACTIVE_CYCLES", ELSEWHERE, 0xC2, 0x01, 1, 0,
	  L_westmereEX },
	{ A(ivybridge) | A(ivybridgeEP), "ARITH_NUM_DIV", "ARITH.FPU_DIV", ELSEWHERE, 0x14, 0x01, 1, EDGE,
	  L_sandybridgeEP },
	{ A(ivybridge) | A(ivybridgeEP), "DTLB_LOAD_MISSES_CAUSES_A_WALK", "DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK", SAME,
	  0x08, 0x81, 0, 0, L_NONE },
	{ A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(skylake) | A(skylakeX) | A(CLX), "L1D_M_EVICT",
	  "L1D.M_EVICT", ELSEWHERE, 0x51, 0x04, 0, 0, L_westmereEX },
	{ A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(broadwell) | A(broadwellD) | A(broadwellEP),
	  "MEM_LOAD_UOPS_RETIRED_L3_ALL", "", NONE, 0xD1, 0x24, 0, 0, L_NONE },
	{ A(ivybridge) | A(ivybridgeEP), "MEM_LOAD_UOPS_RETIRED_L3_MISS", "MEM_LOAD_UOPS_RETIRED.LLC_MISS", SAME, 0xD1,
	  0x20, 0, 0, L_NONE },
	{ A(ivybridge) | A(ivybridgeEP) | A(haswell) | A(haswellEP) | A(skylake) | A(skylakeX) | A(CLX),
	  "UOPS_EXECUTED_USED_CYCLES", "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", SAME, 0xB1, 0x01, 1, 0, L_NONE },
	{ A(haswell), "ARITH_DIVIDER_CYCLES", "ARITH.FPU_DIV_ACTIVE", ELSEWHERE, 0x14, 0x01, 0, 0, L_ivybridgeEP },
	{ A(haswell) | A(haswellEP), "AVX_INSTS_CALC", "", NONE, 0xC6, 0x04, 0, 0, L_NONE },
	{ A(haswell) | A(haswellEP), "CYCLE_ACTIVITY_STALLS_TOTAL", "CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", SAME, 0xA3,
	  0x04, 4, 0, L_NONE },
	{ A(haswell) | A(haswellEP) | A(broadwell) | A(broadwellD), "INT_MISC_RECOVERY_COUNT",
	  "INT_MISC.RECOVERY_STALLS_COUNT", ELSEWHERE, 0x0D, 0x03, 1, EDGE, L_ivybridgeEP },
	{ A(haswell) | A(haswellEP), "MEM_LOAD_UOPS_RETIRED_ALL_ALL", "", NONE, 0xD1, 0x3F, 0, 0, L_NONE },
	{ A(haswell), "UOPS_EXECUTED_THREAD", "UOPS_EXECUTED.THREAD", ELSEWHERE, 0xB1, 0x01, 0, 0, L_ivybridgeEP },
	{ A(haswellEP), "ARITH_DIVIDER_CYCLES", "ARITH.FPU_DIV_ACTIVE", ELSEWHERE, 0x14, 0x01, 0, 0, L_broadwell },
	{ A(haswellEP), "UOPS_EXECUTED_THREAD", "UOPS_EXECUTED.THREAD", ELSEWHERE, 0xB1, 0x01, 0, 0, L_broadwell },
	{ A(broadwell) | A(broadwellD) | A(broadwellEP), "MEM_UOPS_RETIRED_LOADS_ALL", "MEM_UOPS_RETIRED.ALL_LOADS",
	  SAME, 0xD0, 0x81, 0, 0, L_NONE },
	{ A(broadwell) | A(broadwellD) | A(broadwellEP), "MEM_UOPS_RETIRED_STORES_ALL", "MEM_UOPS_RETIRED.ALL_STORES",
	  SAME, 0xD0, 0x82, 0, 0, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX) | A(ICX) | A(ICL) | A(TGL) | A(RKL), "ARITH_DIVIDER_COUNT", "ARITH.FPU_DIV",
	  ELSEWHERE, 0x14, 0x01, 1, EDGE, L_sandybridgeEP },
	{ A(skylake) | A(skylakeX) | A(CLX), "CYCLE_ACTIVITY_CYCLES_L1D_PENDING", "CYCLE_ACTIVITY.CYCLES_L1D_MISS",
	  SAME, 0xA3, 0x08, 8, 0, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX), "CYCLE_ACTIVITY_CYCLES_L2_PENDING", "CYCLE_ACTIVITY.CYCLES_L2_MISS", SAME,
	  0xA3, 0x01, 1, 0, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX), "CYCLE_ACTIVITY_CYCLES_LDM_PENDING", "CYCLE_ACTIVITY.CYCLES_MEM_ANY", SAME,
	  0xA3, 0x10, 16, 0, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX), "CYCLE_ACTIVITY_CYCLES_NO_EXECUTE", "CYCLE_ACTIVITY.STALLS_TOTAL", SAME,
	  0xA3, 0x04, 4, 0, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX), "CYCLE_ACTIVITY_STALLS_L1D_PENDING", "CYCLE_ACTIVITY.STALLS_L1D_MISS",
	  SAME, 0xA3, 0x0C, 12, 0, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX), "CYCLE_ACTIVITY_STALLS_L2_PENDING", "CYCLE_ACTIVITY.STALLS_L2_MISS", SAME,
	  0xA3, 0x05, 5, 0, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX), "CYCLE_ACTIVITY_STALLS_LDM_PENDING", "CYCLE_ACTIVITY.STALLS_MEM_ANY", SAME,
	  0xA3, 0x14, 20, 0, L_NONE },
	{ A(skylake) | A(ICL), "ICACHE_64B_IFTAG_ALL", "", NONE, 0x83, 0x03, 0, 0, L_NONE },
	{ A(skylake), "INT_MISC_RECOVERY_COUNT", "", NONE, 0x0D, 0x01, 0, EDGE, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX) | A(ICX) | A(ICL), "L2_TRANS_ALL_REQUESTS", "L2_TRANS.ALL_REQUESTS",
	  ELSEWHERE, 0xF0, 0x80, 0, 0, L_broadwellEP },
	{ A(skylake), "MEM_INST_RETIRED_ALL", "MEM_INST_RETIRED.ANY", SAME, 0xD0, 0x83, 0, 0, L_NONE },
	{ A(skylake) | A(skylakeX) | A(CLX), "UOPS_RETIRED_ALL", "UOPS_RETIRED.ALL", ELSEWHERE, 0xC2, 0x01, 0, 0,
	  L_broadwellEP },
	{ A(ICX), "L2_RQSTS_MISS", "", NONE, 0x24, 0x2F, 0, 0, L_NONE },
	{ A(ICX) | A(ICL), "L2_TRANS_L1D_WB", "L2_TRANS.L1D_WB", ELSEWHERE, 0xF0, 0x10, 0, 0, L_broadwellEP },
	{ A(knl), "CYCLES_DIV_BUSY", "CYCLES_DIV_BUSY.ALL", SAME, 0xCD, 0x01, 0, 0, L_NONE },
	{ A(knl), "CYCLES_DIV_BUSY_COUNT", "", NONE, 0xCD, 0x01, 1, EDGE, L_NONE },
	{ A(knl), "NO_ALLOC_CYCLES_ALL_COUNT", "", NONE, 0xCA, 0x7F, 0, EDGE, L_NONE },
	{ A(knl), "PAGE_WALKS_DTLB_COUNT", "", NONE, 0x05, 0x01, 1, EDGE, L_NONE },
	{ A(knl) | A(silvermont), "PAGE_WALKS_DTLB_CYCLES", "PAGE_WALKS.D_SIDE_CYCLES", SAME, 0x05, 0x01, 0, 0,
	  L_NONE },
	{ A(knl), "PAGE_WALKS_ITLB_COUNT", "", NONE, 0x05, 0x02, 1, EDGE, L_NONE },
	{ A(knl) | A(silvermont), "PAGE_WALKS_ITLB_CYCLES", "PAGE_WALKS.I_SIDE_CYCLES", SAME, 0x05, 0x02, 0, 0,
	  L_NONE },
	{ A(knl), "UOPS_RETIRED_STALLED_CYCLES", "", NONE, 0xC2, 0x10, 1, INV, L_NONE },
	{ A(knl), "UOPS_RETIRED_STALLS", "", NONE, 0xC2, 0x10, 1, INV|EDGE, L_NONE },
	{ A(silvermont), "CYCLES_DIV_BUSY_ANY", "CYCLES_DIV_BUSY.ALL", SAME, 0xCD, 0x01, 0, 0, L_NONE },
	{ A(silvermont), "PAGE_WALKS_DTLB_COUNT", "PAGE_WALKS.D_SIDE_WALKS", SAME, 0x05, 0x01, 0, EDGE, L_NONE },
	{ A(silvermont), "PAGE_WALKS_ITLB_COUNT", "PAGE_WALKS.I_SIDE_WALKS", SAME, 0x05, 0x02, 0, EDGE, L_NONE },
	{ A(goldmont), "CYCLES_DIV_BUSY_ALL_COUNT", "", NONE, 0xCD, 0x00, 1, EDGE, L_NONE },
	{ A(goldmont), "PAGE_WALKS_D_SIDE_COUNT", "PAGE_WALKS.D_SIDE_WALKS", ELSEWHERE, 0x05, 0x01, 0, EDGE,
	  L_silvermont },
	{ A(goldmont), "PAGE_WALKS_I_SIDE_COUNT", "PAGE_WALKS.I_SIDE_WALKS", ELSEWHERE, 0x05, 0x02, 0, EDGE,
	  L_silvermont },
	{ A(zen2), "DATA_CACHE_ACCESSES", "", NONE, 0x40, 0x00, 0, 0, L_NONE },
	{ A(zen2), "DATA_CACHE_REFILLS_ALL", "", NONE, 0x43, 0x5B, 0, 0, L_NONE },
	{ A(zen2), "DATA_CACHE_REFILLS_LOCAL_ALL", "", NONE, 0x43, 0x0B, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "DATA_CACHE_REFILLS_REMOTE_ALL", "", NONE, 0x43, 0x50, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "DIV_BUSY_CYCLES", "", NONE, 0xD3, 0x00, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "DIV_OP_COUNT", "", NONE, 0xD4, 0x00, 0, 0, L_NONE },
	{ A(zen2), "HWPREF_DATA_CACHE_FILLS_LOCAL_ALL", "", NONE, 0x5A, 0x0B, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "HWPREF_DATA_CACHE_FILLS_REMOTE_ALL", "", NONE, 0x5A, 0x50, 0, 0, L_NONE },
	{ A(zen2), "ICACHE_FETCHES", "ic_fw32", SAME, 0x80, 0x00, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "ICACHE_L2_REFILLS", "", NONE, 0x82, 0x00, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "ICACHE_SYSTEM_REFILLS", "", NONE, 0x83, 0x00, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "L1_DTLB_MISS_ANY_L2_HIT", "", NONE, 0x45, 0x0F, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "L1_DTLB_MISS_ANY_L2_MISS", "l2_dtlb_misses", SAME, 0x45, 0xF0, 0, 0, L_NONE },
	{ A(zen2) | A(zen3), "RETIRED_SSE_AVX_FLOPS_ALL", "", NONE, 0x03, 0x0F, 0, 0, L_NONE },
	{ A(zen3), "CORE_TO_L2_CACHE_REQUESTS_HITS", "", NONE, 0x64, 0xF6, 0, 0, L_NONE },
	{ A(zen3), "DATA_CACHE_REFILLS_ALL", "", NONE, 0x43, 0xFF, 0, 0, L_NONE },
	{ A(zen3), "DATA_CACHE_REFILLS_LOCAL_ALL", "", NONE, 0x43, 0x0F, 0, 0, L_NONE },
	{ A(zen3), "HWPREF_DATA_CACHE_FILLS_LOCAL_ALL", "", NONE, 0x5A, 0x0F, 0, 0, L_NONE },
	{ A(zen3), "ICACHE_FETCHES", "ic_fw32", ELSEWHERE, 0x80, 0x00, 0, 0, L_zen2 },
	{ A(zen3), "L1_ITLB_MISS_L2_ITLB_HIT", "bp_l1_tlb_miss_l2_tlb_hit", SAME, 0x84, 0x00, 0, 0, L_NONE },
	{ A(zen3), "L1_ITLB_MISS_L2_ITLB_MISS_ANY", "", NONE, 0x85, 0x0F, 0, 0, L_NONE },
	{ A(zen3), "L2_CACHE_MISS_AFTER_L1_MISS", "l2_cache_req_stat.ic_dc_miss_in_l2", SAME, 0x64, 0x09, 0, 0,
	  L_NONE },
	{ A(zen3), "L2_PF_HIT_IN_L2", "", NONE, 0x70, 0xFF, 0, 0, L_NONE },
	{ A(zen3), "L2_PF_HIT_IN_L3", "", NONE, 0x71, 0xFF, 0, 0, L_NONE },
	{ A(zen3), "L2_PF_MISS_IN_L3", "", NONE, 0x72, 0xFF, 0, 0, L_NONE },
	{ A(zen3), "LS_DISPATCH_LOAD_OP_STORES", "", NONE, 0x29, 0x04, 0, 0, L_NONE },
	{ A(arm8), "LD_RETIRED", "", ABSENT, 0x00, 0x00, 0, 0, L_NONE },
	{ A(arm8), "ST_RETIRED", "", ABSENT, 0x00, 0x00, 0, 0, L_NONE },
};
#undef A

/* An alias row's encoding in the terms of perf's cpu PMU: "event=0xa3,umask=0x05,cmask=5,inv,edge,any" */
static void alias_terms(const struct likwid_alias *a, char *out, size_t ol)
{
	snprintf(out, ol, "event=%#x,umask=0x%02x", a->code, a->umask);
	if (a->cmask)
		snprintf(out + strlen(out), ol - strlen(out), ",cmask=%u", a->cmask);
	snprintf(out + strlen(out), ol - strlen(out), "%s%s%s", a->flags & INV ? ",inv" : "",
		 a->flags & EDGE ? ",edge" : "", a->flags & ANY ? ",any" : "");
}

/* LIKWID's own name @name on @arch by its encoding (aliases[]): 0 and *@out, the table event of LIKWID's
 * encoding; -ENOENT, a name aliases[] does not hold; -EOPNOTSUPP with @why, one it holds that no event of
 * this CPU's tables has the encoding of. */
static int alias(struct pmu_ctx *ctx, const char *arch, const char *counter, const char *name, const char **out,
		 char *why, size_t wl)
{
	uint32_t bit = 0;
	char terms[96];

	for (size_t i = 1; i < ARRAY_SIZE(alias_arch); i++)
		if (!strcmp(alias_arch[i], arch))
			bit = 1u << i;
	for (size_t i = 0; bit && i < ARRAY_SIZE(aliases); i++) {
		const struct likwid_alias *a = &aliases[i];
		if (!(a->archs & bit) || strcmp(a->likwid, name))
			continue;
		alias_terms(a, terms, sizeof(terms));
		switch (a->how) {
		case SAME:
			if ((*out = table_event(ctx, a->perf, true)))
				return 0;
			snprintf(why, wl, "%s %s: LIKWID 5.2.2 encodes it on %s as %s, %s in the perf table libpmu checked for %s, "
				 "but this CPU's tables have no %s: count it as cpu/%s/", counter, name, arch, terms, a->perf,
				 arch, a->perf, terms);
			break;
		case ABSENT:
			snprintf(why, wl, "%s %s: LIKWID 5.2.2's own event table for %s has no %s, so its encoding is not "
				 "known: count the event by another name (pmu list)", counter, name, arch, name);
			break;
		default: { /* NONE, ELSEWHERE */
			char note[128] = "";
			if (a->how == ELSEWHERE)
				snprintf(note, sizeof(note), " (the perf table of LIKWID's %s CPU names it %s)",
					 alias_arch[a->where], a->perf);
			snprintf(why, wl, "%s %s: LIKWID 5.2.2 encodes it on %s as %s, and no event of this CPU's tables has that "
				 "encoding%s: count it as cpu/%s/", counter, name, arch, terms, note, terms);
			break;
		}
		}
		return -EOPNOTSUPP;
	}
	return -ENOENT;
}

/* LIKWID's options of a core event as libpmu's modifiers (":c1:i:e:any" wording of perf's Intel
 * modifiers) appended to @out; -EOPNOTSUPP with @why for one libpmu cannot say. */
static int options(char *out, size_t ol, const char *opts, char *why, size_t wl)
{
	char buf[256], *save = NULL;

	pmu__strlcpy(buf, opts, sizeof(buf));
	for (char *o = strtok_r(buf, ":", &save); o; o = strtok_r(NULL, ":", &save)) {
		char *eq = strchr(o, '=');
		char term[48];
		unsigned long long v = 1;
		if (eq) {
			*eq = '\0';
			errno = 0;
			char *end;
			v = strtoull(eq + 1, &end, 0);
			if (errno || *end || end == eq + 1) {
				snprintf(why, wl, "option %s's value '%s' is no number: write %s=0xN", o, eq + 1, o);
				return -EOPNOTSUPP;
			}
		}
		if (!strcasecmp(o, "EDGEDETECT"))
			snprintf(term, sizeof(term), ":e");
		else if (!strcasecmp(o, "INVERT"))
			snprintf(term, sizeof(term), ":i");
		else if (!strcasecmp(o, "THRESHOLD") && v <= 0xff)
			snprintf(term, sizeof(term), ":c%llu", v);
		else if (!strcasecmp(o, "ANYTHREAD"))
			snprintf(term, sizeof(term), ":any");
		else {
			snprintf(why, wl, "LIKWID's option %s%s%s has no libpmu modifier (libpmu has :c<N> for THRESHOLD, "
				 ":i for INVERT, :e for EDGEDETECT): count the event with a raw encoding, "
				 "cpu/event=..,umask=..,<term>=../", o, eq ? "=" : "", eq ? eq + 1 : "");
			return -EOPNOTSUPP;
		}
		if (strlen(out) + strlen(term) >= ol)
			return -EOPNOTSUPP;
		strcat(out, term);
	}
	return 0;
}

/* A spelling is known when the tables define it, or its PMU/NAME/ form names a PMU's sysfs event of
 * this machine, or (machines without that PMU: it is known by name) the spelling is one of LIKWID's
 * fixed kernel names. */
static bool known(struct pmu_ctx *ctx, const char *s, bool core)
{
	if (strchr(s, '/') || !strcmp(s, "instructions") || !strcmp(s, "cycles") || !strcmp(s, "ref-cycles") ||
	    !strcmp(s, "slots"))
		return true;
	return table_event(ctx, s, core) != NULL;
}

static int out_var(const char *spelling, const char *scale, char **event, char **var)
{
	char v[512];

	if (strchr(spelling, '/')) { /* perf's PMU@NAME@ is the value named PMU/NAME/ */
		char tmp[400];
		size_t k = 0;
		for (const char *p = spelling; *p && k + 3 < sizeof(tmp); p++) {
			if (*p == '/' && p != spelling && p[1] == '\0')
				break;
			if (*p == '/') {
				tmp[k++] = '@';
				continue;
			}
			if (*p == '-')
				tmp[k++] = '\\';
			tmp[k++] = *p;
		}
		tmp[k] = '\0';
		snprintf(v, sizeof(v), scale ? "(%s@ * %s)" : "%s@%s", tmp, scale ? scale : "");
	} else { /* '-' is minus in an expression: ref\-cycles */
		size_t k = 0;
		for (const char *p = spelling; *p && k + 3 < sizeof(v); p++) {
			if (*p == '-')
				v[k++] = '\\';
			v[k++] = *p;
		}
		v[k] = '\0';
	}
	*event = strdup(spelling);
	*var = strdup(v);
	if (!*event || !*var) {
		free(*event);
		free(*var);
		*event = *var = NULL;
		return -ENOMEM;
	}
	return 0;
}

int pmu__likwid_map(struct pmu_ctx *ctx, const char *arch, const char *counter, const char *event, char **spelling,
		    char **var, char *why, size_t wl)
{
	char name[256], opts[256] = "", mods[128] = "", sp[400];
	const char *colon = strchr(event, ':'), *found = NULL;
	unsigned box = 0;
	int r;

	*spelling = *var = NULL;
	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - event) : (int)strlen(event), event);
	if (colon)
		pmu__strlcpy(opts, colon + 1, sizeof(opts));
	if (!strcmp(name, "MERGE")) /* AMD: LIKWID pairs the counter before it; perf's driver pairs itself */
		return out_var("", NULL, spelling, var);
	/* power: LIKWID's PWRn in joules */
	if (!strncmp(counter, "PWR", 3)) {
		const char *rapl = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(named); i++)
			if (!strcmp(named[i].likwid, name))
				rapl = named[i].names[0];
		if (!rapl && isdigit((unsigned char)counter[3]) && (size_t)(counter[3] - '0') < ARRAY_SIZE(pwr_events))
			rapl = pwr_events[counter[3] - '0'];
		if (!rapl || *opts) {
			snprintf(why, wl, "power counter %s %s is none of RAPL's domains (pkg, cores, gpu, ram, psys) "
				 "libpmu counts as power/energy-*/: count it with -e power/energy-pkg/ and the like", counter,
				 event);
			return -EOPNOTSUPP;
		}
		return out_var(rapl, RAPL_JOULES, spelling, var);
	}
	/* libpmu's own groups: SWn counts one of the kernel's software events (task-clock, page-faults, ...) */
	if (!strncmp(counter, "SW", 2)) {
		struct pmu_event_info info;
		if (*opts || pmu_event_resolve(ctx, name, &info) < 0 || info.type != PERF_TYPE_SOFTWARE) {
			snprintf(why, wl, "%s %s: an SW counter counts one of the kernel's software events (task-clock, "
				 "page-faults, context-switches, ...; pmu list sw), without options", counter, event);
			return -EOPNOTSUPP;
		}
		return out_var(name, NULL, spelling, var);
	}
	/* the fixed counters and the names LIKWID gives itself */
	for (size_t i = 0; i < ARRAY_SIZE(named) && !found; i++)
		if (!strcmp(named[i].likwid, name))
			for (size_t k = 0; k < ARRAY_SIZE(named[i].names) && *named[i].names[k] && !found; k++)
				if (known(ctx, named[i].names[k], true)) {
					const char *t = table_event(ctx, named[i].names[k], true);
					found = t ? t : named[i].names[k];
				}
	if (!strncmp(counter, "FIXC", 4) || !strncmp(counter, "PMC", 3)) {
		if (!found) {
			r = dotted(ctx, "", name, true, &found, why, wl);
			if (r == -EEXIST)
				return -EOPNOTSUPP;
		}
		if (!found && (r = alias(ctx, arch, counter, name, &found, why, wl)) == -EOPNOTSUPP)
			return r;
		if (!found) {
			snprintf(why, wl, "%s %s: no event of this CPU's tables is named %s with one '_' written '.'%s: "
				 "count it by another name (pmu list) or add its name to libpmu's list of LIKWID's "
				 "names (lib/likwid-map.c)", counter, name, name,
				 strncmp(arch, "zen", 3) ? "" : " (LIKWID names AMD's events itself)");
			return -EOPNOTSUPP;
		}
		if (*opts && (r = options(mods, sizeof(mods), opts, why, wl)) < 0)
			return r;
		snprintf(sp, sizeof(sp), "%s%s", found, mods);
		return out_var(sp, NULL, spelling, var);
	}
	/* desktop parts: LIKWID's MBOX0 is the IMC's free-running counters, the kernel's uncore_imc/data_reads/ and
	 * data_writes/ (a count of 64-byte lines, as LIKWID's formulas take them) */
	if (!is_server(arch) && !is_ep(arch) && !strncmp(counter, "MBOX0C", 6) && !*opts &&
	    (!strcmp(name, "DRAM_READS") || !strcmp(name, "DRAM_WRITES")))
		return out_var(strcmp(name, "DRAM_READS") ? "uncore_imc/data_writes/" : "uncore_imc/data_reads/", NULL,
			       spelling, var);
	/* uncore boxes: PREFIX<box>C<n>, PREFIX<box>FIX, or PREFIXC<n> of one box */
	const struct box *boxes = is_server(arch) ? server_boxes : is_ep(arch) ? ep_boxes : client_boxes;
	for (const struct box *b = boxes; *b->prefix; b++) {
		size_t pl = strlen(b->prefix);
		const char *p = counter + pl;
		if (strncmp(counter, b->prefix, pl))
			continue;
		if (isdigit((unsigned char)*p))
			box = (unsigned)strtoul(p, (char **)&p, 10);
		if (*p != 'C' || !isdigit((unsigned char)p[1])) {
			snprintf(why, wl, "%s %s: LIKWID's fixed or special counter of the %s box has no event in "
				 "libpmu's tables: count it by its perf name (pmu list %s)", counter, name, b->prefix, b->pmu);
			return -EOPNOTSUPP;
		}
		r = dotted(ctx, b->evprefix, name, false, &found, why, wl);
		if (r == -EEXIST)
			return -EOPNOTSUPP;
		if (r < 0) {
			snprintf(why, wl, "%s %s: no uncore event of this CPU's tables is named %s%s with one '_' "
				 "written '.': count it by another name (pmu list %s)", counter, name, b->evprefix, name,
				 b->evprefix);
			return -EOPNOTSUPP;
		}
		if (*opts) {
			snprintf(why, wl, "%s %s: LIKWID's uncore options (%s) have no libpmu spelling: count it as "
				 "%s%u/event=..,umask=..,<term>=../", counter, event, opts, b->pmu, box);
			return -EOPNOTSUPP;
		}
		if (b->pmu[strlen(b->pmu) - 1] == '_')
			snprintf(sp, sizeof(sp), "%s%u/%s/", b->pmu, box, found);
		else
			snprintf(sp, sizeof(sp), "%s/%s/", b->pmu, found);
		return out_var(sp, NULL, spelling, var);
	}
	snprintf(why, wl, "%s %s: LIKWID's counter %s is no unit libpmu maps (FIXC, PMC, PWR, and the uncore boxes "
		 "%s): count the event by its perf name (pmu list)", counter, event, counter,
		 is_server(arch) ? "MBOX, CBOX, QBOX, SBOX, BBOX, WBOX, UBOX, IBOX, PBOX, RBOX" :
		 is_ep(arch) ? "MBOX, CBOX, SBOX, QBOX, BBOX, WBOX, UBOX, RBOX" : "CBOX, UBOX");
	return -EOPNOTSUPP;
}
