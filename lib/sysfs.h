/* SPDX-License-Identifier: MIT */
/* PMUs under bus/event_source/devices: their format terms, named events, and the core PMUs
 * (lib/sysfs.c). Private. */
#ifndef PMU_SYSFS_H
#define PMU_SYSFS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pmu_ctx;
struct pmu_event_info;

struct pmu_format {
	char name[32];
	int field;              /* 0 config, 1 config1, 2 config2, 3 config3 */
	uint64_t mask;          /* bits within the field */
	uint64_t width_mask;    /* all-ones of the value width (popcount(mask) bits) */
};

struct pmu_named_event {
	char *name;
	char *terms;            /* contents of events/<name>, read at the event's first use (pmu__sysfs_encode_event);
	                           NULL until then */
	char *unit;             /* events/<name>.unit or NULL */
	char *scale;            /* events/<name>.scale or NULL */
	double factor;          /* its value: 1 without one (or without a usable one: then no unit either) */
};

#define PMU_NO_TYPE UINT32_MAX /* struct pmu_dev's type before it is read: no PMU has it */
struct pmu_dev {
	char name[64];
	uint32_t type;          /* valid when typed: read at the first need for a PMU the scan may skip
	                           (sysfs.c: type_can_wait), PMU_NO_TYPE until then */
	bool typed;
	bool is_core;
	struct pmu_format *formats;
	size_t n_formats;
	struct pmu_named_event *events;
	size_t n_events;
	int rdpmc;              /* x86 rdpmc file (core PMUs), PMU_UNKNOWN if absent */
	char *cpumask;          /* a PMU that counts CPUs, not tasks (RAPL, uncore, cstate: sysfs cpumask, the
	                           CPUs perf opens it on, one per package or die): that list, malloc'd and read
	                           with its events; NULL for a PMU that counts tasks (no cpumask; a core PMU) */
	bool loaded;            /* type, formats and events read: a core PMU's at the scan, another's by
	                           pmu__pmu_load() before they are used */
	int ext_type;           /* a core PMU of several: whether the kernel takes its type in a generic event's
	                           config bits 32-63 (1, 0), PMU_UNKNOWN until asked (generic-native.c) */
	char *cpus;             /* a core PMU of several: its CPUs (sysfs cpus), malloc'd; NULL otherwise */
	char cpuid[64];         /* ... and their identity, as cpu.c spells it ("" otherwise; both read by the scan) */
	struct pmu_ctx *own;    /* ... the context of its own event tables where they are not the machine's */
};

int pmu__sysfs_scan(struct pmu_ctx *ctx);
/* @pmu's format terms and named events read, if they are not yet (a PMU that is not a core PMU's are
 * read at the first need): 0, or -ENOMEM (said; a later call tries again). Thread-safe: a shared context
 * completes its PMUs while resolving. */
int pmu__pmu_load(const struct pmu_ctx *ctx, const struct pmu_dev *pmu);
/* The factor of @e's count into its unit when @e is one of its PMU's sysfs events with a .scale (the one
 * of the same encoding): 0 with *scale, -ENOENT, or -ENOMEM (said). */
int pmu__sysfs_scale(struct pmu_ctx *ctx, const struct pmu_event_info *e, double *scale);
void pmu__sysfs_free(struct pmu_ctx *ctx);
const struct pmu_dev *pmu__pmu_by_name(const struct pmu_ctx *ctx, const char *name);
const struct pmu_dev *pmu__pmu_by_type(const struct pmu_ctx *ctx, uint32_t type);
const struct pmu_dev *pmu__core_pmu(const struct pmu_ctx *ctx);
/* Its name, "cpu" when there is none (as perf names the core PMU of x86). */
const char *pmu__core_pmu_name(const struct pmu_ctx *ctx);
/* Number of core PMUs (2 on Intel hybrid CPUs). */
size_t pmu__n_core_pmus(const struct pmu_ctx *ctx);
/* Encode "term=value,term,..." for @pmu into @info (config fields): each term placed by
 * pmu__sysfs_place(), a term without value that is no format term one of the PMU's named events. */
int pmu__sysfs_encode(struct pmu_ctx *ctx, const struct pmu_dev *pmu, const char *terms,
		      const char *event_name, struct pmu_event_info *info, int depth);
/* Encode @pmu's named event @ev (events/<name>) into @info as pmu__sysfs_encode() does, reading the
 * file at the event's first use (the scan lists the names only). 0, -ENOENT said (the file has gone
 * or cannot be read), -ENOMEM, or pmu__sysfs_encode()'s errors. Thread-safe. */
int pmu__sysfs_encode_event(struct pmu_ctx *ctx, const struct pmu_dev *pmu, const struct pmu_named_event *ev,
			    const char *event_name, struct pmu_event_info *info, int depth);
/* Place @v as term @term of @pmu into @info: "config".."config3" as they are, a format term's bits
 * where the PMU's format file puts them. 0, or -EINVAL said with @event_name: @pmu has no format term
 * @term (the message lists those it has), or @v is wider than the term. */
int pmu__sysfs_place(struct pmu_ctx *ctx, const struct pmu_dev *pmu, const char *term, uint64_t v,
		     const char *event_name, struct pmu_event_info *info);

#endif
