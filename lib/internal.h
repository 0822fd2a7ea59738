/* SPDX-License-Identifier: MIT */
/* Private declarations shared by the files in lib/. Never installed. */
#ifndef PMU_INTERNAL_H
#define PMU_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include "pmu.h"
#include "tables.h"

#define PMU_EXPORT __attribute__((visibility("default")))
#define PMU_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- sysfs PMUs (sysfs.c) ---- */
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

/* ---- CPU identity (cpu.c) ---- */
struct pmu_cpu {
	int arch;
	char cpuid[64];
	char name[128];
	char vendor[16];
	unsigned family, model, stepping;
	uint64_t midr;
	uint64_t mvendorid, marchid, mimpid;
	bool overridden;
};

struct pmu_ctx {
	pmu_log_fn log_fn;
	void *log_data;
	int log_level;
	char sysfs_root[256];
	char procfs_root[256];
	char *events_path;
	struct pmu_cpu cpu;
	struct pmu_dev *pmus;
	size_t n_pmus;
	struct pmu_caps caps;
	struct { char name[64]; double value; } params[32]; /* pmu_ctx_set_param */
	size_t nparams;
	pthread_mutex_t tables_lock;
	struct pmu_tables tables;   /* loaded on first use (pmu__tables_load) */
	bool core_child;            /* the context of one core PMU's tables (pmu__core_ctx): makes none itself */
	struct pmu_ctx *live_prev, *live_next; /* the contexts of the process (context.c: fork takes their locks) */
	bool live;
};

/* ---- contexts (context.c) ---- */
/* The context whose event tables are core PMU @d's: on arm64, where @d's CPUs are another core than
 * CPU 0 (a big.LITTLE cluster), a context of its own, made at the first need with @d's identity (and
 * the same roots, tables path and log), kept with @ctx and freed with it; else @ctx. NULL when out of
 * memory or that context cannot be made (said). Thread-safe. pmu_ctx_free frees it with @ctx. */
struct pmu_ctx *pmu__core_ctx(struct pmu_ctx *ctx, const struct pmu_dev *d);
/* Whether the kernel of @ctx's procfs root is release @major.@minor or later, by its sys/kernel/osrelease
 * ("6.1.0-18-arm64": 6.1): a written tree states its kernel there. False where the file is absent or
 * does not begin with MAJOR.MINOR. */
bool pmu__kernel_at_least(const struct pmu_ctx *ctx, int major, int minor);

/* What perf_event_open() was asked for, to explain a refusal (EACCES, EPERM). */
struct pmu_access {
	const char *name;       /* the event's label */
	bool kernel;            /* counts kernel mode (exclude_kernel clear) */
	bool tracepoint;        /* fires in kernel mode only: counting it in user mode counts nothing */
	bool cpu_wide;          /* every task of one CPU (pid -1) */
	int cpu;
	bool other_process;     /* a process given by pid, other than the caller */
};

/*
 * The sentence for perf_event_open() refusing @a with EACCES or EPERM under
 * @ctx's settings (kernel.perf_event_paranoid, capabilities): the cause and a
 * fix that allows what was asked: a paranoid level low enough for it, a
 * user-mode label only where that would be allowed and counts something, and
 * never a modifier the name already has. Written into @buf like snprintf;
 * returns the length it needed.
 */
int pmu__access_advice(const struct pmu_ctx *ctx, const struct pmu_access *a, char *buf, size_t len);

/* ---- errors and logging (error.c) ---- */
/* Log at @level; for PMU_LOG_ERR also remembers the text for pmu_strerror(err). */
void pmu__log(struct pmu_ctx *ctx, int level, const char *fmt, ...) PMU_PRINTF(3, 4);
/* Record a failure: message for pmu_strerror() and the log; returns @err (< 0). */
int pmu__err(struct pmu_ctx *ctx, int err, const char *fmt, ...) PMU_PRINTF(3, 4);
/* pmu__err() without logging: the caller logs it with pmu__err_emit() at the
 * level it chooses (a failure it may tolerate is a warning), or not at all. */
int pmu__err_hold(int err, const char *fmt, ...) PMU_PRINTF(2, 3);
/* Log the recorded message at @level. */
void pmu__err_emit(struct pmu_ctx *ctx, int level);
/* While on, pmu__err() records without logging (probes whose failure is an
 * answer: pmu__resolve_quiet()). Calls nest: each pmu__err_quiet(true) is
 * undone by one pmu__err_quiet(false). */
void pmu__err_quiet(bool on);
bool pmu__err_is_quiet(void);
/* Forget the calling thread's last failure (call on entry of public functions). */
void pmu__err_clear(void);
/* The calling thread's last message, "" if none. */
const char *pmu__err_msg(void);

/* ---- helpers (util.c) ---- */
/* Read a small file into buf (NUL-terminated, trailing whitespace trimmed).
 * Returns length or a negative errno. */
int pmu__read_file(const char *path, char *buf, size_t len);
/* The same, @path relative to the open directory @dirfd (openat(2); AT_FDCWD: as pmu__read_file): a file
 * of a directory already open is found without walking the whole path again (sysfs's walk is most of
 * a small file's cost). */
int pmu__read_file_at(int dirfd, const char *path, char *buf, size_t len);
/* Read a file as an integer. Returns 0 or a negative errno. */
int pmu__read_int(const char *path, long long *out);
int pmu__read_int_at(int dirfd, const char *path, long long *out);
/* A list of CPUs as the kernel writes it ("0-3,8,10-11", a PMU's cpumask): how many, the lowest, the
 * highest + 1, and whether CPU @cpu is one of them (@cpu -1: asks none). */
struct pmu_cpulist {
	long count, first, top;
	bool has;
};
/* Parse @s into *@c: 0, or -EINVAL (malformed or empty). */
int pmu__cpulist(const char *s, long cpu, struct pmu_cpulist *c);
/* snprintf into a fixed buffer; returns -ENAMETOOLONG on truncation. */
int pmu__path(char *buf, size_t len, const char *fmt, ...) PMU_PRINTF(3, 4);
#include "editdist.h" /* pmu__edit_distance */
/* The library's own variables (PMU_*): secure_getenv(), so a program
 * running with more privileges than its user (setuid, setgid, file
 * capabilities such as cap_perfmon: AT_SECURE) ignores them. */
const char *pmu__getenv(const char *name);
/* Copy with truncation, always NUL-terminated. */
void pmu__strlcpy(char *dst, const char *src, size_t len);
/* Parse an unsigned integer (decimal, 0x hex) fully; returns 0 or -EINVAL/-ERANGE. */
int pmu__parse_u64(const char *s, uint64_t *out);
/* Case-insensitive prefix test. */
bool pmu__prefix(const char *s, const char *prefix);
/* A JSON object's field @key as text: strings as they are, numbers and booleans printed; NULL if
 * absent or of another type. The table loaders' one rule for reading a field. */
struct json_object;
const char *pmu__json_field(struct json_object *o, const char *key);
/* Append @item to the ", "-separated list in @buf (@len bytes, NUL-terminated)
 * if it fits with room left for ", ..."; otherwise end the list with ", ..."
 * (once) and return false: a list cut short says so. */
bool pmu__list_add(char *buf, size_t len, const char *item);
/* Make room in a full array: *@v (a pointer to the array's pointer) of *@cap items of @size is
 * reallocated to twice as many items, or to @first when it has none, and *@cap updated. Call it when
 * the count reaches *@cap. Returns 0, or -ENOMEM with *@v and *@cap unchanged. */
int pmu__grow(void *v, size_t *cap, size_t first, size_t size);
/* Make room for @need items at once (one allocation where growing by doubling leaves copies behind,
 * each a page touched for the first time): *@v reallocated to @need items of @size if *@cap is less.
 * Returns 0, or -ENOMEM with *@v and *@cap unchanged. */
int pmu__reserve(void *v, size_t *cap, size_t need, size_t size);

/* ---- CPU identity (cpu.c): the functions ---- */
int pmu__cpu_detect(struct pmu_ctx *ctx, const char *override);
int pmu__cpu_parse_id(const char *id, struct pmu_cpu *cpu);

/* ---- sysfs PMUs (sysfs.c): the functions ---- */
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

/* ---- generic kernel events (generic.c) ---- */
struct pmu_generic {
	const char *name;
	uint32_t type;
	uint64_t config;
	const char *desc;
	const char *unit;
};
/* Look up a generic name (hardware, software, cache). Returns 0 or -ENOENT. */
int pmu__generic_lookup(const char *name, struct pmu_generic *out);
/* Fill @out with generic hardware/cache event @g on core PMU @d (on a machine of several core PMUs placed
 * on @d: pmu__generic_place of generic-native.h). 0, or -ENOENT said: @d has no event for it. */
int pmu__generic_on(struct pmu_ctx *ctx, const struct pmu_dev *d, const struct pmu_generic *g,
		     struct pmu_event_info *out);
/* Visit every generic name; stops when cb returns non-zero. */
int pmu__generic_foreach(int (*cb)(const struct pmu_generic *g, void *data), void *data);
/* Does core PMU @d have generic hardware event @id (PERF_COUNT_HW_*)? From its sysfs events/ where the
 * kernel lists them (x86, arm64); true where nothing says otherwise. */
bool pmu__generic_hw_on(const struct pmu_ctx *ctx, const struct pmu_dev *d, uint64_t id);

/* ---- resolution (resolve.c) ---- */
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

/* ---- libpfm4 (pfm.c): depends on no other file of lib/ but the core ---- */
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

/* ---- event lists (eventlist.c) ---- */
struct pmu_spec {
	char *name;
	int group;              /* explicit group number, or -1 */
	char *group_mods;       /* modifiers written after '}' or NULL */
};
struct pmu_speclist {
	struct pmu_spec *v;
	size_t n;
	int ngroups_explicit;
};
int pmu__speclist_parse(struct pmu_ctx *ctx, const char *events, struct pmu_speclist *out);
void pmu__speclist_free(struct pmu_speclist *l);

#endif
