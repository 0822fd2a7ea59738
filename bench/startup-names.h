/* SPDX-License-Identifier: MIT */
/* The 10 events bench/startup times: libpmu's names and libpfm4's for the same events (Skylake-X). */
#ifndef BENCH_STARTUP_NAMES_H
#define BENCH_STARTUP_NAMES_H
static const char *names[10] = {
	"INST.RET", "GEN.CYCLES", "INST.MISPRED.RET", "CACHE.L1D.RD.MISS", "MEM_LOAD_RETIRED.L3_MISS",
	"MEM_LOAD_RETIRED.L1_HIT", "INST.LOAD.DSRC.L2.RET", "task-clock", "cycles", "L1-dcache-load-misses",
};
static const char *pfm_names[10] = {
	"skx::INST_RETIRED:ANY_P", "skx::UNHALTED_CORE_CYCLES", "skx::BR_MISP_RETIRED:ALL_BRANCHES",
	"skx::L1D:REPLACEMENT", "skx::MEM_LOAD_RETIRED:L3_MISS", "skx::MEM_LOAD_RETIRED:L1_HIT",
	"skx::MEM_LOAD_RETIRED:L2_HIT", "perf::TASK-CLOCK", "perf::CYCLES", "perf::L1-DCACHE-LOAD-MISSES",
};
#endif
