/* SPDX-License-Identifier: MIT */
/* libpfm4 as the encoder of last resort and the reference for Intel encodings (lib/pfm.c): depends
 * on no other file of lib/ but the core. Private. */
#ifndef PMU_PFM_H
#define PMU_PFM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_event_attr;
struct pmu_ctx;
struct pmu_event_info;

/* Encode a vendor name with libpfm4: "PMU::EVENT..." as written, another name for libpfm4 PMU @model
 * ("skx"; NULL: the core PMU libpfm4 finds on this machine). -ENOENT if libpfm4 does not know it
 * (or is not built in). */
int pmu__pfm_resolve(struct pmu_ctx *ctx, const char *name, const char *model, struct pmu_event_info *out);
/* libpfm4 PMU name for a table directory ("x86/skylakex" -> "skx"; "skylakex" in a tree of x86
 * alone, perf's arch/x86; "arm64/neoverse-n1", "arm/neoverse-n1" in arch/arm64 -> "arm_n1"), or NULL. */
const char *pmu__pfm_model(const char *dir);
/* The table directory of libpfm4 PMU @model ("skx" -> "x86/skylakex"; the built-in one where several
 * share it: "icl" -> "x86/icelake"), or NULL. */
const char *pmu__pfm_dir(const char *model);
/* libpfm4 loaded (dlopen: libpfm.so.4, or $PMU_LIBPFM) and set up, once, thread-safe: 0; -ENODEV where
 * it is no encoder (not built in, cannot be loaded, or cannot initialise here); -ENOMEM. */
int pmu__pfm_ready(void);
/* Whether libpfm4 PMU @model (one pmu__pfm_model gives) is an x86 one; else arm64. */
bool pmu__pfm_x86(const char *model);
/* The config bits a table and libpfm4 both define: x86 event (bits 32-35: AMD's high event bits), umask,
 * edge, any, inv, cmask; arm64's event number (bits 0-15) is within them. */
#define PMU_PFM_COMPARED 0xfffa4ffffull
/* Do a table's encoding @ours (pmu__tables_raw_config; @ours1: its MSR value, 0 if none) and libpfm4 PMU
 * @model's @pfm/@pfm1 count the same: equal in PMU_PFM_COMPARED (and config1 where the table sets it), or
 * Intel's two encodings of fixed counter 0. The validator and the resolver compare with it. */
bool pmu__pfm_same_count(const char *model, uint64_t ours, uint64_t ours1, uint64_t pfm, uint64_t pfm1);
/* True, with why into @why (dlerror's words), when pmu__pfm_ready() could not load libpfm4 at its last try. */
bool pmu__pfm_missing(char *why, size_t len);
/* "PMU::EVENT:UMASK..." encoded by libpfm4 into @attr (user and kernel counted), after
 * pmu__pfm_ready() said 0: 0; -ENOENT when libpfm4 cannot encode it; -ENOMEM; -ENODEV without
 * libpfm4. */
int pmu__pfm_attr(const char *name, struct perf_event_attr *attr);
/* One name of libpfm4's: its PMU's name, the event's ("EVENT" or "EVENT:UMASK"), its description.
 * Non-zero stops the walk. */
typedef int (*pmu__pfm_event_fn)(const char *pmu, const char *event, const char *desc, void *data);
/* Whether the libpfm4 loaded here has PMU @model ("arm_n1"): each libpfm4 is built with the PMUs of its
 * own architecture only. false where it cannot be loaded, and where it has the PMU but encodes this
 * machine's alone (its set-up could not be told otherwise): then @why (@len bytes) says why, else "". */
bool pmu__pfm_knows(const char *model, char *why, size_t len);
/* The names libpfm4 encodes here as written (each event bare, and with each of its unit masks) of
 * libpfm4 PMU @model ("skx"), or with @model NULL of every PMU libpfm4 detects here
 * but its two "perf" PMUs (the kernel's events), loading libpfm4 first: 0 or @fn's value; -ELIBACC
 * (libpfm4 cannot be loaded: pmu__pfm_missing() says why), -ENOTSUP (built without libpfm4), -ENOMEM. */
int pmu__pfm_foreach(const char *model, pmu__pfm_event_fn fn, void *data);

#endif
