/* SPDX-License-Identifier: MIT */
/*
 * libpmu — hardware performance counters from user space.
 *
 * This header is the whole public API. Conventions:
 *  - Every function that can fail returns 0 (or a count) on success and a
 *    negative errno on failure (-ENOENT unknown event, -EINVAL bad input,
 *    -EACCES not permitted, ...). A sentence naming the problem and the fix
 *    is sent to the context's log callback and kept per thread for
 *    pmu_strerror().
 *  - Objects are opaque handles; destroyers accept NULL. A function that
 *    makes one through an out pointer (pmu_ctx_new(), pmu_set_open(),
 *    pmu_region_get()) writes NULL there before any failure return.
 *  - NULL where an object, a name or an output is required gives -EINVAL
 *    (with a message); functions without an error return say below what
 *    they do with NULL. The inline pmu_fast_read() and pmu_page_read() do
 *    not check their arguments (that would cost every read); their exported
 *    twins (_fn) do.
 *  - Option structs start with `size_t size` (set it to sizeof the struct)
 *    so they can grow without breaking callers. A NULL options pointer
 *    means "all defaults".
 *  - Every static inline function has an exported twin with the same
 *    semantics (suffix `_fn`), for bindings that load libpmu.so.
 *
 * Threads, fork, unloading, signals: the contract (the test that holds each
 * line to it in brackets).
 *  - A context may be shared by threads for resolution, listing and opening
 *    sets, its tables loaded by whichever thread needs them first
 *    [test-stress, test-sysfs-lazy, test-tables-lazy]. A set is enabled,
 *    disabled and closed by one thread at a time; any thread may read it
 *    (read(2) where it is not the owner's) [test-stress].
 *  - Regions may be used in any number of threads. A report (pmu_region_report,
 *    pmu_region_foreach, the report at exit) may run while other threads make
 *    region calls and use new names; it reads their counts without stopping
 *    them, so a call that ends meanwhile is in it or not [test-region-race].
 *  - A thread's region counts outlive it: the last 64 threads that exited keep
 *    their own per-thread rows, older ones are summed into one row (tid 0) and
 *    their state freed; a pmu_region handle dies with its thread
 *    [test-region-reclaim].
 *  - fork() from a threaded process: the child may call any function at
 *    once; it never waits for a lock that another thread of the parent held
 *    [test-fork-stress]. Contexts made before the fork can be used in the
 *    child; sets and handles are the parent's there (-ECHILD, -EINVAL)
 *    [test-sw-events, test-region-handle]; the child's regions start empty
 *    [test-region].
 *  - The library may be unloaded (dlclose(), Python's ctypes) while threads
 *    that used regions still run, once none of them is inside a libpmu
 *    call; the unload writes the region report and closes every thread's
 *    events [test-dlclose]. Contexts and sets still open are not freed by it.
 *  - A signal handler may begin and end regions of names already used in
 *    its thread [test-region] (one that interrupts its thread's own region
 *    call is refused, -EBUSY). No other function may be called from a handler.
 *  - A log callback and a pmu_region_foreach() callback run while the
 *    library holds a lock: they must not call libpmu or fork().
 *  - libpmu never changes the process's environment; a setenv() in another
 *    thread while libpfm4 is set up stays [test-pfm-setenv].
 */
#ifndef PMU_H
#define PMU_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMU_VERSION_MAJOR 0
#define PMU_VERSION_MINOR 1
#define PMU_VERSION_MICRO 0

/** Library version as "MAJOR.MINOR.MICRO"; static storage. */
const char *pmu_version(void);

/* ------------------------------------------------------------------ */
/* Errors and logging                                                  */
/* ------------------------------------------------------------------ */

enum pmu_log_level {
	PMU_LOG_ERR = 3,
	PMU_LOG_WARN = 4,
	PMU_LOG_INFO = 6,
	PMU_LOG_DEBUG = 7,
};

/** Log callback: @level is a pmu_log_level, @msg one line without '\n'. */
typedef void (*pmu_log_fn)(void *data, int level, const char *msg);

/**
 * pmu_strerror - describe a negative errno returned by libpmu.
 * @err: a value returned by a libpmu function (negative errno).
 *
 * If @err is the most recent failure of a libpmu call in the calling thread,
 * returns the detailed sentence written for it (event name, cause, fix);
 * otherwise a generic description of the errno. The string lives in
 * thread-local storage and stays valid until the next libpmu call in the
 * same thread. Thread-safe.
 */
const char *pmu_strerror(int err);

/* ------------------------------------------------------------------ */
/* Context                                                             */
/* ------------------------------------------------------------------ */

struct pmu_ctx;

struct pmu_ctx_opts {
	size_t size;          /* sizeof(struct pmu_ctx_opts) */
	pmu_log_fn log_fn;    /* NULL: no log output (the library never prints) */
	void *log_data;       /* passed to log_fn */
	int log_level;        /* maximum level passed to log_fn; 0 = PMU_LOG_WARN */
	const char *sysfs_root; /* replaces /sys; NULL: $PMU_SYSFS_ROOT or /sys */
	const char *procfs_root;/* replaces /proc; NULL: $PMU_PROCFS_ROOT or /proc */
	const char *cpuid;    /* CPU identity to assume; NULL: $PMU_CPUID or detected */
	const char *events_path;/* extra table directories, ':'-separated; NULL or "": $PMU_EVENTS_PATH, else
				 * perf's tree on the search path (doc/events.md) */
};

/**
 * pmu_ctx_new - create a context: detect the CPU, scan the PMUs, read access
 * settings.
 * @out:  receives the new context; NULL on failure (unless @out is NULL).
 * @opts: options, or NULL for defaults.
 *
 * The caller owns *out and releases it with pmu_ctx_free(); sets opened from
 * a context must be closed before it. Returns 0 or a negative errno
 * (-ENOMEM; -EINVAL for a malformed cpuid override).
 */
int pmu_ctx_new(struct pmu_ctx **out, const struct pmu_ctx_opts *opts);

/** pmu_ctx_free - release a context and everything it owns. NULL is fine. */
void pmu_ctx_free(struct pmu_ctx *ctx);

enum pmu_arch {
	PMU_ARCH_UNKNOWN = 0,
	PMU_ARCH_X86 = 1,
	PMU_ARCH_ARM64 = 2,
	PMU_ARCH_RISCV = 3,
};

/** What this machine (or the overridden identity) offers. */
struct pmu_caps {
	int arch;               /* enum pmu_arch */
	char cpuid[64];         /* perf-style id: GenuineIntel-6-55-4, MIDR, mvendorid-marchid-mimpid */
	char cpu_name[128];     /* model name where known */
	int cpuid_overridden;   /* 1 if cpuid came from PMU_CPUID / opts */
	int hw_pmu;             /* 1 if a core hardware PMU is exposed */
	int hybrid;             /* number of core PMUs when > 1 (Intel hybrid), else 0 */
	char core_pmu[64];      /* name of the (first) core PMU, "" if none */
	unsigned n_pmus;        /* PMUs under bus/event_source/devices */
	int paranoid;           /* kernel.perf_event_paranoid; PMU_UNKNOWN if unreadable */
	int cap_perfmon;        /* CAP_PERFMON in the effective set (1/0) */
	int cap_sys_admin;      /* CAP_SYS_ADMIN in the effective set (1/0) */
	int rdpmc_mode;         /* x86 <core pmu>/rdpmc (0,1,2); PMU_UNKNOWN if absent */
	int user_access;        /* arm64/riscv kernel.perf_user_access; PMU_UNKNOWN if absent */
	int fast_read;          /* 1 if counters can be read from user space as configured */
	int can_count_kernel;   /* 1 if kernel-mode counting is permitted */
	char events_table[128]; /* event table chosen for the CPU ("x86/skylakex+x86/intel/skylakex"), "" if none */
	char events_table_root[256]; /* "built-in" or the PMU_EVENTS_PATH directory it came from */
};

#define PMU_UNKNOWN (-1000)

/**
 * pmu_caps - fill @out with the context's view of the machine. Loads the
 * event tables on first use (to report which one applies).
 * Returns 0, -EINVAL (NULL argument), or the tables' load error (-ENOMEM,
 * ...) with every field still filled. Thread-safe.
 */
int pmu_caps(struct pmu_ctx *ctx, struct pmu_caps *out);

/** One PMU found under <sysfs>/bus/event_source/devices. */
struct pmu_pmu_info {
	char name[64];
	uint32_t type;          /* perf_event_attr.type */
	int is_core;            /* a CPU core PMU (cpu, cpu_core, armv8_*, ...) */
	unsigned n_formats;     /* files in format/ */
	unsigned n_events;      /* named events in events/ */
	/* A core PMU of a machine of several (Intel hybrid, Arm big.LITTLE/DynamIQ); "" otherwise: */
	char cpus[128];         /* the CPUs it counts on, as sysfs lists them ("0-3") */
	char cpuid[64];         /* their identity as pmu_caps' cpuid spells it (arm64: their MIDR) */
	char core_type[96];     /* in the architecture's words: "Cortex-A76 r4p0 (MIDR ...)", "P-core
	                           (Intel Core)" */
	char events_table[64];  /* the table its events are encoded from ("arm64/cortex-a76"); "" none */
};

/** Number of PMUs found; 0 with no sysfs. */
size_t pmu_pmu_count(struct pmu_ctx *ctx);

/**
 * Describe PMU @i (0 <= i < pmu_pmu_count()); its type, formats and events are read now if the scan
 * left them for their first use. Returns 0, -EINVAL (no such index), -ENOENT (its sysfs type file
 * cannot be read: the PMU has gone; the message names the file), or -ENOMEM.
 */
int pmu_pmu_get(struct pmu_ctx *ctx, size_t i, struct pmu_pmu_info *out);

/**
 * pmu_advice - plain-language statement about access and hardware, with what
 * to change (the text `pmu info` prints). Writes a NUL-terminated string of at
 * most @len bytes into @buf; returns the length it needed (like snprintf).
 */
int pmu_advice(struct pmu_ctx *ctx, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

enum pmu_source {
	PMU_SRC_SYSFS = 1,      /* pmu/term=value,.../ or a named sysfs event */
	PMU_SRC_GENERIC = 2,    /* kernel portable event (hardware, cache, software) */
	PMU_SRC_RAW = 3,        /* rNNNN */
	PMU_SRC_TABLE = 4,      /* a JSON event table */
	PMU_SRC_LIBPFM = 5,     /* libpfm4 */
	PMU_SRC_TRACEPOINT = 6, /* SYS:NAME, its id read from tracefs (events/SYS/NAME/id) */
	PMU_SRC_TOOL = 7,       /* duration_time, user_time, system_time: measured by libpmu itself */
};

enum pmu_event_flags {
	PMU_EVF_SOFTWARE = 1u << 0,       /* counted by the kernel, not a hardware PMU */
	PMU_EVF_TOPDOWN_SLOTS = 1u << 1,  /* the topdown SLOTS event (leads its group) */
	PMU_EVF_TOPDOWN_METRIC = 1u << 2, /* a topdown metric pseudo-event */
	PMU_EVF_APPROX = 1u << 3,         /* mapping to a standard name is approximate */
	PMU_EVF_HYBRID_PART = 1u << 4,    /* in a set: one core type's part of a generic event (hybrid CPU) */
	PMU_EVF_TOOL = 1u << 5,           /* a tool event (duration_time, user_time, system_time): measured
	                                     by libpmu while the set is enabled, no perf_event behind it */
	PMU_EVF_EXCL_USER = 1u << 8,      /* modifier :k / :h — user mode not counted */
	PMU_EVF_EXCL_KERNEL = 1u << 9,    /* modifier :u / :h — kernel mode not counted */
	PMU_EVF_EXCL_HV = 1u << 10,       /* hypervisor not counted */
	PMU_EVF_EXCL_HOST = 1u << 11,     /* modifier :G (without H) — host not counted (exclude_host) */
	PMU_EVF_EXCL_GUEST = 1u << 12,    /* modifier :H (without G), or :p without G or H as perf
	                                     does — guest not counted (exclude_guest) */
	PMU_EVF_PINNED = 1u << 13,        /* modifier :D — its group is pinned (the leader's attr.pinned) */
	PMU_EVF_PRECISE = 3u << 14,       /* modifier :p, :pp, :ppp — precise_ip 1..3, PMU_EVF_PRECISE_IP() */
	PMU_EVF_UNSUPPORTED = 1u << 16,   /* in a set: not counted, the kernel refused it */
	PMU_EVF_USER_FALLBACK = 1u << 17, /* in a set: the name had no mode modifier and
	                                     kernel.perf_event_paranoid forbids kernel mode, so
	                                     user mode only is counted (as perf does) and ":u"
	                                     ("u" after PMU/.../) was added to the name */
	PMU_EVF_SCALED = 1u << 18,        /* the count is in fractions of `unit`: multiply it by
	                                     pmu_event_scale() (a PMU's sysfs events/NAME.scale:
	                                     RAPL energy counts 2^-32 Joules, a memory
	                                     controller's CAS count 64 bytes of a MiB; a table
	                                     event's ScaleUnit, "64Bytes") */
	PMU_EVF_CPU_WIDE = 1u << 19,      /* in a set of a task: its PMU counts CPUs, not tasks
	                                     (RAPL, uncore: a sysfs cpumask), so every task on the
	                                     CPUs of that cpumask (a package or die each, summed)
	                                     was counted, not the task alone, as perf stat does */
	PMU_EVF_BOXES = 1u << 20,         /* an event of an uncore unit of several boxes (PMUs
	                                     uncore_imc_0 ... uncore_imc_N, uncore_cha_*, amd_umc_*,
	                                     arm_cmn_*): counted on each of its `boxes` box PMUs,
	                                     each with its own type and format files, and summed, as
	                                     perf does; `pmu` is the unit's name ("uncore_imc"),
	                                     type and config* box 0's encoding (the boxes':
	                                     pmu_event_resolve_each()) */
};

/** The precise_ip level (0..3) that modifiers :p, :pp, :ppp wrote into flags. */
#define PMU_EVF_PRECISE_IP(flags) (((flags) >> 14) & 3u)

#define PMU_NAME_MAX 128

/** A resolved event: what the kernel will be asked to count and why. */
struct pmu_event_info {
	char name[PMU_NAME_MAX];  /* the name as written (modifiers included); in a set, the label of
	                             what is counted: on a hybrid CPU with the core PMU that counts
	                             it ("cpu_core/cycles/" for a core type's part,
	                             "cpu_core/topdown-retiring/"), ":u" added when only user mode
	                             is counted (PMU_SET_USER_ONLY, PMU_EVF_USER_FALLBACK) */
	char pmu[64];             /* PMU name: "cpu", "software", "armv8_pmuv3_0", ... */
	uint32_t type;            /* perf_event_attr.type */
	uint32_t boxes;           /* PMU_EVF_BOXES: the number of box PMUs that count it and whose
	                             counts are summed (2 or more); else 0 */
	uint64_t config, config1, config2, config3;
	unsigned flags;           /* enum pmu_event_flags */
	int source;               /* enum pmu_source */
	char origin[256];         /* where the encoding came from (file, entry, rule) */
	const char *desc;         /* description; static or owned by the context */
	const char *unit;         /* unit of the value ("ns" for task-clock) or "" */
	const char *note;         /* errata or caveat to show the user, or "" */
	const char *approx_note;  /* with PMU_EVF_APPROX: how it differs from the name's meaning, or "" */
};

/**
 * pmu_event_resolve - turn an event name into a perf_event_attr encoding.
 * @name: "cycles", "L1-dcache-load-misses", "r01c2", "cpu/event=0xd1,umask=0x1/",
 *        "cpu/cpu-cycles/", "task-clock", a table event ("INST_RETIRED.ANY",
 *        or "cpu_core/INST_RETIRED.ANY/" for the PMU's own definition), a
 *        tracepoint ("sched:sched_switch"), a tool event ("duration_time"),
 *        optionally with modifiers. Case-insensitive for symbolic names
 *        (tracepoints are as tracefs spells them).
 * @out:  filled on success; strings point at static or context storage.
 *
 * Modifiers, perf's letters after ':' (after the closing '/' of PMU/.../,
 * or after the '}' of a group for every member), each once:
 *  - u, k, h: count user, kernel, hypervisor mode (the letters written are
 *    counted, the others excluded); an event written with one is opened so
 *    or refused, one without counts what the kernel allows (pmu_set_open()).
 *  - p, pp, ppp: attr.precise_ip 1, 2, 3 (PMU_EVF_PRECISE_IP(flags)); a
 *    group's p adds to a member's, at most 3. Without G or H it also sets
 *    exclude_guest, as perf does. precise_ip is a sampling attribute: it
 *    does not change a count, and x86 PMUs refuse it for counting (the open
 *    fails with -EINVAL saying so); software events and tracepoints take it.
 *  - G: count the guest only (exclude_host); H: the host only
 *    (exclude_guest); GH: both (PMU_EVF_EXCL_HOST, PMU_EVF_EXCL_GUEST).
 *  - D: pin the event's group to the PMU (attr.pinned on the group's
 *    leader, which the kernel reads it from; PMU_EVF_PINNED). A pinned group
 *    that loses its counters stops; reading it then fails with -EIO.
 *  - S: accepted and ignored. It asks perf's sampling to read the group's
 *    values into each sample (PERF_SAMPLE_READ); libpmu counts, and always
 *    reads every member, so a list written for perf record works unchanged.
 *  - perf's P, I, W, b, R are refused, each with its reason; "pppp" and a
 *    letter written twice are refused.
 * A {group}'s modifiers are not in a member's name: its label gets them
 * ("{cycles:p,instructions}:u" labels "cycles:pu" and "instructions:u").
 *
 * Tracepoints: "SYS:NAME" is PERF_TYPE_TRACEPOINT with config = the id in
 * tracefs's events/SYS/NAME/id (PMU_SRC_TRACEPOINT; pmu "tracepoint").
 * tracefs is looked for where perf looks: <sysfs>/kernel/tracing, then
 * <sysfs>/kernel/debug/tracing (under the context's sysfs root, so fixture
 * trees work), then, for the real /sys, any tracefs or debugfs mount in
 * <procfs>/self/mounts. tracefs is root-only by default: where it is not
 * mounted or not readable the message says how to mount it or let a group
 * read it (-ENOENT, -EACCES). A tracepoint fires in kernel mode: counting
 * one needs kernel.perf_event_paranoid <= 1 or CAP_PERFMON (<= 0 for a whole
 * CPU), and it never falls back to user mode (":u" counts only uprobes'
 * tracepoints, which fire in user mode). A glob ("sched:sched_*", "*:irq_*")
 * names several tracepoints: it is taken in event lists (pmu_set_open()),
 * refused here (-EINVAL). Unknown subsystems and tracepoints get the closest
 * names (-ENOENT).
 *
 * Tool events, perf's names: "duration_time" (wall-clock ns while the set
 * is enabled), "user_time" and "system_time" (ns of user / kernel CPU time
 * of the counted process, all its threads, while the set is enabled). As
 * precise as the kernel splits user from system time for it: for the
 * calling process getrusage(RUSAGE_SELF), microseconds (the process, not
 * the thread: a set may be read from any thread); for another process
 * (PMU_SET_PID) /proc/PID/stat's utime and stime, whole clock ticks
 * (1/sysconf(_SC_CLK_TCK) s, 10 ms where USER_HZ is 100), the finest split
 * the kernel gives for another process: its /proc/PID/schedstat and CPU
 * clock (clock_getcpuclockid()) count ns of user + system together, and its
 * rusage in microseconds goes only to its parent, by wait4() once it has
 * ended (pmu stat reports that for its command, as perf stat does). Its
 * waited-for children are not included. Unit "ns", pmu "tool", source PMU_SRC_TOOL,
 * flag PMU_EVF_TOOL; the encoding is what perf 6.12 records for them
 * (PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY) but no perf_event is opened: the
 * library measures them (see pmu_set_open()). No modifiers.
 *
 * Machines of several core PMUs (Intel hybrid, Arm big.LITTLE): a table or
 * standard name that names no PMU is counted on each core PMU with its own
 * event (pmu_set_open()), which one encoding cannot say: it is refused with
 * -EINVAL naming the PMU/NAME/ spellings, never resolved to one of them
 * silently; pmu_event_resolve_each() gives every part.
 *
 * Returns 0, -ENOENT (unknown; the message lists the closest names), or
 * -EINVAL (malformed syntax, unknown format term, value out of range, a name
 * that needs its PMU, a modifier refused), -EACCES (tracefs not readable).
 * Thread-safe for a shared context.
 */
int pmu_event_resolve(struct pmu_ctx *ctx, const char *name, struct pmu_event_info *out);

/**
 * pmu_event_resolve_each - every encoding @name is counted as: one per core
 * PMU on a machine of several (Intel hybrid, Arm big.LITTLE/DynamIQ), where a
 * name that names no PMU (a standard, generic, table or raw name) is counted
 * on each core PMU that gives it a meaning, each part with that PMU's own
 * encoding, as pmu_set_open() opens it ("armv8_cortex_a55/INST.RET/",
 * "armv8_cortex_a76/INST.RET/", flag PMU_EVF_HYBRID_PART); the event's count
 * is the sum of its parts. An event of an uncore unit of several boxes
 * (PMU_EVF_BOXES: "UNC_M_CAS_COUNT.RD", "uncore_imc/event=0x4,umask=0x3/")
 * gives one encoding per box in box order, each that box PMU's own type and
 * format ("uncore_imc_0/UNC_M_CAS_COUNT.RD/", "uncore_imc_1/..."), as a set
 * opens them; a server has dozens (ask with @n 0 for the number). Elsewhere,
 * or for a name of one PMU, the one encoding pmu_event_resolve() gives.
 * @name:   one event name (not a list).
 * @out:    receives up to @n encodings (strings owned by the context).
 * Returns the number of encodings (more than @n: only @n written), or
 * pmu_event_resolve()'s errors; -ENOENT when no core PMU gives it a meaning.
 * Thread-safe for a shared context.
 */
int pmu_event_resolve_each(struct pmu_ctx *ctx, const char *name, struct pmu_event_info *out, size_t n);

/**
 * pmu_event_scale - the factor that turns a count of @e into its unit.
 * Some PMUs count in fractions of the unit their sysfs names (events/NAME.unit
 * beside events/NAME.scale, as perf reads them): RAPL's energy-pkg counts units
 * of 2^-32 Joules, an uncore memory controller's cas_count_read 64-byte lines
 * in MiB; a table event's ScaleUnit says the same ("64Bytes": 64, "Bytes").
 * Such an event has PMU_EVF_SCALED, and its count (pmu_scale()) times *@scale
 * is in @e->unit; perf stat prints it so. For every other event *@scale is 1.
 * Returns 0, -EINVAL (NULL argument), or -ENOENT when @e has PMU_EVF_SCALED but
 * is none of @ctx's scaled sysfs or table events (an @e resolved by another
 * context, or a sysfs event written with terms that change its encoding):
 * print the count without the unit then. Thread-safe for a shared context.
 */
int pmu_event_scale(struct pmu_ctx *ctx, const struct pmu_event_info *e, double *scale);

enum pmu_entry_kind {
	PMU_ENTRY_KERNEL = 1,   /* kernel generic or software event */
	PMU_ENTRY_SYSFS = 2,    /* named event of a PMU in sysfs */
	PMU_ENTRY_STANDARD = 3, /* standard hierarchical name (INST.RET, ...) */
	PMU_ENTRY_NATIVE = 4,   /* event of this CPU's table */
	PMU_ENTRY_METRIC = 5,   /* metric of a table */
	PMU_ENTRY_LIBPFM = 6,   /* event of libpfm4 (pmu_libpfm_event_foreach) */
	PMU_ENTRY_TOOL = 7,     /* tool event measured by libpmu (duration_time, user_time, system_time) */
	PMU_ENTRY_PAPI = 8,     /* PAPI preset (PAPI_TOT_INS): PAPI's own native events for this CPU where
	                           Debian's papi_events.csv is installed, else libpmu's mapping to standard
	                           names; one PAPI derives is a formula, counted as a metric (pmu stat -M) */
};

/** One entry passed to a pmu_event_foreach() callback. */
struct pmu_event_entry {
	const char *name;
	const char *pmu;
	const char *desc;
	int source;             /* enum pmu_source */
	int kind;               /* enum pmu_entry_kind */
	int usable;             /* 1 if pmu stat can count it here: its PMU is present (a core PMU
	                           for hardware events), a generic hardware event is listed in the
	                           core PMU's sysfs events/ (x86, arm64), kernel mode is allowed
	                           where the PMU cannot count user mode alone, a PMU that counts
	                           CPUs, not tasks (RAPL, uncore) may count every task of a CPU
	                           (pmu_set_open()); a metric when every event it needs is usable.
	                           Suggestions name only such events. */
	const char *long_desc;  /* the longer description, as perf list --long-desc prints it: a
	                           table entry's PublicDescription (native events, standard names,
	                           metrics) where it has one other than @desc, else @desc itself
	                           (the same pointer: never NULL) */
};

typedef int (*pmu_event_cb)(const struct pmu_event_entry *e, void *data);

/**
 * pmu_event_foreach - call @cb for every event name known here whose name
 * starts with @prefix (case-insensitive; NULL or "" lists all). Stops early
 * and returns the callback's value if it returns non-zero; otherwise returns
 * the number of entries visited. Strings are valid during the call only.
 */
int pmu_event_foreach(struct pmu_ctx *ctx, const char *prefix, pmu_event_cb cb, void *data);

/**
 * pmu_libpfm_event_foreach - call @cb for every event libpfm4 knows for this
 * context's CPU, named "PMU::EVENT" with libpfm4's names (skx::L1D), whose
 * name starts with @prefix (case-insensitive; NULL or "" lists all): source
 * PMU_SRC_LIBPFM, kind PMU_ENTRY_LIBPFM, @pmu libpfm4's PMU name, @desc its
 * description, @usable as pmu_event_foreach() says it. The PMUs are those
 * libpfm4 detects on this machine (core, uncore; not its "perf" PMUs, whose
 * events are the kernel's), or, where PMU_CPUID names another CPU, libpfm4's
 * core PMU of that CPU (the one a bare vendor name is encoded for), and none
 * where libpfm4 has no PMU for it. Apart from pmu_event_foreach() because it
 * loads and initialises libpfm4 (dlopen of libpfm.so.4, or $PMU_LIBPFM),
 * which nothing else does until a name only libpfm4 knows is resolved. Returns
 * the number of entries visited, the callback's non-zero value, or
 * -ELIBACC (libpfm4 cannot be loaded: the message says why and to install
 * Debian's libpfm4 package), -ENOTSUP (libpmu built without libpfm4),
 * -ENOMEM, -EINVAL (NULL context or callback). Thread-safe for a shared context.
 */
int pmu_libpfm_event_foreach(struct pmu_ctx *ctx, const char *prefix, pmu_event_cb cb, void *data);

/**
 * pmu_arch_name, pmu_source_name, pmu_kind_name, pmu_constant_source_name -
 * the name of an enum value, as the pmu command and the Python binding print it.
 * @v: an enum pmu_arch, pmu_source, pmu_entry_kind or pmu_constant_source value.
 *
 * pmu_arch_name: "x86", "arm64", "riscv", else "unknown".
 * pmu_source_name: "sysfs", "generic", "raw", "table", "libpfm4",
 * "tracepoint", "tool", else "unknown". pmu_kind_name: "kernel", "sysfs",
 * "standard", "native", "metric", "libpfm4", "tool", "papi", else "unknown".
 * pmu_constant_source_name:
 * "param", "machine", else "unknown". Static strings.
 */
const char *pmu_arch_name(int v);
const char *pmu_source_name(int v);
const char *pmu_kind_name(int v);
const char *pmu_constant_source_name(int v);

/**
 * pmu_flags_format - the names of the flags set in @flags (enum
 * pmu_event_flags), comma-separated, into @buf (@len bytes, NUL-terminated,
 * cut if short).
 *
 * Each flag's name: software, topdown-slots, topdown-metric, approximate,
 * hybrid-part, tool, exclude-user, exclude-kernel, exclude-hv, exclude-host,
 * exclude-guest, pinned, precise=N (N = PMU_EVF_PRECISE_IP(flags)),
 * unsupported, user-fallback, scaled, cpu-wide; bits no flag has are left
 * out. Returns the length the whole list needs (as snprintf), so a return
 * >= @len means cut.
 */
int pmu_flags_format(unsigned flags, char *buf, size_t len);

/** Called once per problem found by pmu_tables_check(); @entry may be NULL. */
typedef void (*pmu_problem_cb)(void *data, const char *file, const char *entry, const char *msg);

/**
 * pmu_tables_check - validate event tables before using them.
 * @dir: a tree laid out like events/ (mapfile.csv + directories, a row's
 *       "A+B" naming two, each checked), or a flat directory of perf-format
 *       .json files (checked together with the built-in standard names).
 *
 * Checks: JSON syntax and structure, numbers, duplicate names and aliases,
 * StdNames and Generic references, MetricExpr syntax, names and constants a
 * metric uses, cycles between metrics and chains deeper than pmu_metric_eval()
 * follows (in time linear in the number of metrics), and (with libpfm4) that the
 * encodings of the x86 and arm64 directories of CPUs libpfm4 knows (Intel Bonnell and
 * Nehalem to Sapphire Rapids, AMD Zen 1 to 4; Arm Cortex-A53, A57, Neoverse N1, N2, V1,
 * V2, X-Gene/eMAG, ThunderX2, A64FX, Kunpeng 920; named x86/skylakex as in events/, or
 * skylakex, arm/neoverse-n1 in a tree of one architecture such as perf's arch/x86)
 * equal libpfm4's for the same name (or PfmName; a difference in Intel's own data,
 * x86/intel/, is a note: libpmu follows that data, as perf does). libpfm4 is built with its own
 * architecture's PMUs only: an arm64 directory is compared on an arm64 machine, an x86
 * one on x86 (elsewhere an info message says it was not). A name a metric uses that only a machine can
 * tell (a PMU this machine does not have, a kernel sysfs event it lacks, as
 * in perf's own tables: cstate_core@c6\-residency@, TSC) and a definition
 * repeated alike are notes: @cb gets them with a message starting "note: ",
 * and they are not counted. Returns the number of problems (0 = clean) or a
 * negative errno if @dir cannot be read.
 */
int pmu_tables_check(struct pmu_ctx *ctx, const char *dir, pmu_problem_cb cb, void *data);

/* ------------------------------------------------------------------ */
/* Event sets                                                          */
/* ------------------------------------------------------------------ */

struct pmu_set;

enum pmu_set_flags {
	PMU_SET_PID = 1u << 0,          /* count process/thread `pid` instead of the caller */
	PMU_SET_CPU = 1u << 1,          /* count on CPU `cpu` only (with pid -1: every task) */
	PMU_SET_INHERIT = 1u << 2,      /* count children created after open */
	PMU_SET_ENABLE_ON_EXEC = 1u << 3, /* start counting at the target's next exec (what no exec
	                                     can start waits for pmu_set_enable_before_exec():
	                                     every task of a CPU, a PMU that counts CPUs, tool
	                                     events) */
	PMU_SET_ENABLE = 1u << 4,       /* start counting at once (default: opened disabled) */
	PMU_SET_NO_FAST = 1u << 5,      /* never read from user space; always read(2) */
	PMU_SET_USER_ONLY = 1u << 6,    /* exclude kernel and hypervisor for every event (names get
	                                   ":u"; an event whose modifier asks for kernel or
	                                   hypervisor mode is refused with -EINVAL) */
	PMU_SET_SKIP_UNSUPPORTED = 1u << 7, /* keep going when the kernel does not support an
	                                       event outside braces (ENOENT/EOPNOTSUPP/ENODEV):
	                                       it stays in the set flagged PMU_EVF_UNSUPPORTED
	                                       and reads as 0 with enabled = running = 0 */
	PMU_SET_KERNEL_ONLY = 1u << 8,  /* exclude user and hypervisor for every event, as the :k
	                                   modifier does (names get ":k"; an event whose modifier
	                                   asks for user or hypervisor mode is refused with
	                                   -EINVAL, and so is PMU_SET_USER_ONLY with it) */
	PMU_SET_CGROUP = 1u << 9,       /* count the tasks of the cgroup `cgroup_fd` on CPU `cpu`
	                                   (needs PMU_SET_CPU; not with PMU_SET_PID; see
	                                   pmu_set_open()) */
	PMU_SET_QUIET_FALLBACK = 1u << 10, /* the caller says the user-mode fallback itself (the
	                                      events' PMU_EVF_USER_FALLBACK and ":u" labels): no
	                                      warning is logged for it (one per set otherwise) */
};

struct pmu_set_opts {
	size_t size;            /* sizeof(struct pmu_set_opts) */
	unsigned flags;         /* enum pmu_set_flags */
	pid_t pid;              /* with PMU_SET_PID: the task, or -1 (with PMU_SET_CPU) */
	int cpu;                /* with PMU_SET_CPU */
	int cgroup_fd;          /* with PMU_SET_CGROUP: an open descriptor of the cgroup's directory
	                           (open("/sys/fs/cgroup/NAME", O_RDONLY | O_DIRECTORY)), kept open by
	                           the caller until the set is opened; read only with that flag, so a
	                           caller built before this field (a smaller size) never gives one */
};

/**
 * pmu_set_open - resolve and open an event list as perf_event groups.
 * @events: comma-separated names; "{a,b}" forces a and b into one group,
 *          "{a,b}:u" applies a modifier to all members. Events outside braces
 *          are opened on their own, each scheduled (and multiplexed) alone,
 *          as perf stat does. A tracepoint glob ("sched:sched_*", "*:irq_*:k")
 *          stands, in its place, for every tracepoint it matches, sorted by
 *          subsystem then name (-ENOENT when none does).
 * @opts:   NULL: the calling thread, any CPU, opened disabled, fast reads.
 * @out:    receives the set; caller owns it (pmu_set_close()). NULL on
 *          failure (unless @out is NULL), which pmu_set_close() takes.
 *
 * Every group is read with PERF_FORMAT_GROUP (one read(2) per group) and each
 * event's user page is mapped for the fast path.
 *
 * Machines of several core PMUs (Intel cpu_core + cpu_atom, Arm big.LITTLE:
 * armv8_cortex_a55 + armv8_cortex_a76, ...): a core PMU counts only while
 * the thread is on its cores, and the kernel gives an event that names no
 * PMU to one of them. So an event that names no PMU and counts on a core
 * PMU (a generic event such as cycles, a standard name such as INST.RET, a
 * table event, a raw code rNNNN) is opened once per core PMU that gives it a
 * meaning, each part encoded by that core type: its own table (on arm64 the
 * table of its CPUs' MIDR), generic events with the PMU's type in config
 * bits 32-63 where the kernel takes it, else as the PMU's own event. The set
 * gets one value per part, named as perf names them ("cpu_core/cycles/",
 * "armv8_cortex_a76/INST.RET/:u") and flagged PMU_EVF_HYBRID_PART; a {group}
 * holding such events is repeated per core type. Their sum is the event's
 * count; pmu_metric_eval() sums them for a metric that names the event; see
 * pmu_fast_hybrid() for their times. A core type where the name has no
 * meaning is left out, with a warning; with none, -ENOENT. With PMU_SET_CPU
 * only the core PMU of that CPU is used. Name a PMU (cpu_atom/cycles/) to
 * count one type only. pmu_event_resolve_each() gives the parts.
 *
 * Uncore units of several boxes (a server's memory controllers are PMUs
 * uncore_imc_0 ... uncore_imc_N; so are uncore_cha_*, uncore_upi_*,
 * uncore_iio_*, AMD's amd_umc_*, Arm's arm_cmn_*): an event of the unit, a
 * table event whose Unit names several such PMUs here ("iMC": every
 * uncore_imc_<N>) or a PMU name without its box number (perf's
 * "uncore_imc/event=0x4,umask=0x3/", "imc/.../", "uncore_imc/cas_count_read/"),
 * is one value of the set (PMU_EVF_BOXES, pmu_event_info.boxes, its pmu the
 * unit's name "uncore_imc"), opened on every box with that box's type and
 * format files and read as their sum, as perf stat sums them. Naming one box
 * ("uncore_imc_1/.../") counts that box alone. A {group} of the unit's events
 * is opened once per box (perf regroups such a list per PMU the same way); a
 * group mixing them with another PMU's or unit's events is refused (-EINVAL).
 * A box that cannot encode the event (its format lacks a term) fails the
 * resolution naming that box. The boxes' copies are read with read(2) and
 * added, like a cpumask's CPUs below (a task's set: each box on each CPU of
 * its cpumask; a set of a CPU: each box whose cpumask has that CPU).
 *
 * PMUs that count CPUs, not tasks (a sysfs cpumask: RAPL's power, uncore,
 * cstate): the kernel refuses their events for a task, and counts a whole
 * package or die at any CPU of it. A set of a task opens such a group on
 * each CPU of the PMU's cpumask (one per package or die) for every task
 * (pid -1), flagged PMU_EVF_CPU_WIDE, as perf stat does: its value is the
 * sum over those CPUs (a 2-socket machine's two packages), its enabled and
 * running times the first CPU's; enabled with the set (with
 * PMU_SET_ENABLE_ON_EXEC: by pmu_set_enable_before_exec(), having no exec of
 * its own), never inherited, read with read(2); counting every task of a CPU needs
 * kernel.perf_event_paranoid <= 0 or CAP_PERFMON. A set of a CPU (PMU_SET_CPU, pid
 * -1) outside the cpumask refuses it (-ENODEV), or with
 * PMU_SET_SKIP_UNSUPPORTED leaves it out (PMU_EVF_UNSUPPORTED, no warning),
 * so that the sum of a set per CPU counts each package once.
 *
 * Privilege modes: an event with a mode modifier (:u, :k, :h, PMU/.../u,
 * {group}:u) is opened exactly as written or not at all (-EACCES when
 * kernel.perf_event_paranoid forbids the mode asked for). An event without
 * one (other modifiers such as :p or :D do not choose a mode) counts every
 * mode the kernel allows: where kernel mode is forbidden (paranoid >= 2
 * without CAP_PERFMON) it counts user mode only, as perf does, flagged
 * PMU_EVF_USER_FALLBACK and named with the 'u' added ("cycles:u",
 * "cycles:pu", "cpu/event=0x3c/u"); pmu_set_event() gives that label and the
 * applied PMU_EVF_EXCL_* flags. A tracepoint never falls back (it would
 * count nothing). A refusal's message names a kernel.perf_event_paranoid
 * level that allows what was asked (0 for a whole CPU, 1 for kernel mode and
 * tracepoints, 2 for user mode), offers a user-mode spelling only where that
 * level is 2 and it would count, and never repeats a modifier the name has.
 * PMU_SET_USER_ONLY and PMU_SET_KERNEL_ONLY write a mode for every event but
 * the tool events, with the attribute bits and label of the modifier (":u"
 * or ":k" added as perf writes it: "cycles:k", "cpu/event=0x3c/k", on each
 * member of a {group}): an event of such a set is opened exactly so, never
 * with the user-mode fallback, and one whose own modifier counts another
 * mode is refused (-EINVAL), as are both flags together.
 *
 * Cgroups (PMU_SET_CGROUP, as perf stat -G): the set counts the tasks of the
 * cgroup whose directory @opts->cgroup_fd is, while they run on CPU
 * @opts->cpu: every perf_event_open() gets the descriptor for its pid and
 * PERF_FLAG_PID_CGROUP. The kernel counts a cgroup per CPU, so PMU_SET_CPU is
 * needed (-EINVAL without; open a set per CPU and add their counts up, as
 * perf stat -a -G does), PMU_SET_PID is refused with it (-EINVAL), and so is a
 * negative descriptor (-EBADF). Counting every task of a CPU, it needs the
 * same permission (kernel.perf_event_paranoid <= 0 or CAP_PERFMON). The
 * kernel's refusals get sentences: -EBADF, the descriptor is not a cgroup's
 * directory; -ENOENT, the perf_event controller is not in its hierarchy. An
 * event of a PMU that counts CPUs (a cpumask: RAPL, uncore) would count its
 * package while a task of the cgroup runs on that CPU, neither the cgroup's
 * share nor the whole: it is refused (-EOPNOTSUPP), or with
 * PMU_SET_SKIP_UNSUPPORTED left out with a warning (PMU_EVF_UNSUPPORTED).
 * Tool events: duration_time counts the wall-clock time; user_time and
 * system_time refuse PMU_SET_CPU. The descriptor stays the caller's: it may
 * be closed once pmu_set_open() returns.
 *
 * Tool events (duration_time, user_time, system_time; see
 * pmu_event_resolve()) are measured by libpmu: each is a group of its own
 * with no perf_event, read by pmu_set_read() / pmu_set_read_group(), enabled,
 * disabled and reset with the set (with PMU_SET_ENABLE from the open; with
 * PMU_SET_ENABLE_ON_EXEC from pmu_set_enable_before_exec()). Their value is
 * ns; enabled = running = the wall-clock ns the set was enabled. They cannot
 * be in a {group} (-EINVAL), and user_time, system_time cannot be counted
 * per CPU (PMU_SET_CPU: -EINVAL). For another process (PMU_SET_PID) they
 * read /proc/PID/stat, which goes away when the process is reaped: the last
 * value read stays; read the set before reaping it (waitid(WNOWAIT)) to get
 * its final value. The inline read never reads them: pmu_fast_read() of a
 * set with a tool event always makes its one call, pmu_fast_slow().
 *
 * The set keeps a pointer to
 * @ctx, which must outlive it. On failure nothing stays open. Returns 0,
 * -ENOENT (unknown event), -EINVAL (syntax, or an attribute the kernel
 * rejects: the message names event and attribute), -EACCES/-EPERM (the
 * message names perf_event_paranoid and the fix), -EMFILE, -ENOMEM, ...
 */
int pmu_set_open(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *opts,
		 struct pmu_set **out);

/** pmu_set_close - disable, unmap and close everything. NULL is fine. */
void pmu_set_close(struct pmu_set *s);

/** Start counting (all groups). Returns 0 or a negative errno. */
int pmu_set_enable(struct pmu_set *s);
/**
 * Start counting what the target's exec will not start: every group of @s
 * but those waiting for the exec (PMU_SET_ENABLE_ON_EXEC), that is the
 * groups of a PMU that counts CPUs (PMU_EVF_CPU_WIDE), the tool events
 * (duration_time, user_time, system_time) and, in a set of every task of a
 * CPU (PMU_SET_CPU, pid -1), every group. In a set opened with
 * PMU_SET_ENABLE_ON_EXEC they wait for this call: make it just before the
 * target may exec (a forked child held until then), so that they count from
 * its start as the exec's own groups do, and not the caller's work between
 * the open and the exec (perf stat enables them just before it starts its
 * workload). Never called, they count nothing: 0 with enabled = running = 0.
 * In any other set it is pmu_set_enable(). Returns 0 or a negative errno.
 */
int pmu_set_enable_before_exec(struct pmu_set *s);
/** Stop counting (all groups). Returns 0 or a negative errno. */
int pmu_set_disable(struct pmu_set *s);
/**
 * Zero the counts (times keep running). An enabled set that is read from
 * user space is stopped around the reset (disable, reset, enable: three
 * system calls per group), because the kernel's reset of a running counter
 * republishes its user page in a state the user-space read cannot use.
 * Returns 0 or a negative errno.
 */
int pmu_set_reset(struct pmu_set *s);

/**
 * pmu_set_check - what pmu_set_open() would say of @events with @opts before
 * opening anything: @opts (its size, flags that cannot go together), the
 * list's syntax, each name resolved, the plan of groups
 * (an unknown name, a '{' without '}', a tool event in a group, a name no
 * core PMU gives a meaning). Opens nothing: the kernel's answers (access, a
 * counter it refuses) come only from pmu_set_open(). Returns 0, or the
 * negative errno with the message set. Thread-safe for a shared context.
 */
int pmu_set_check(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *opts);

/* ------------------------------------------------------------------ */
/* Plans: what to count, resolved once, opened on many targets         */
/* ------------------------------------------------------------------ */

struct pmu_plan;

/**
 * pmu_plan_new - @events parsed, resolved and grouped once, to be opened on
 * many targets with pmu_plan_open() (threads, CPUs), as perf's evlist is
 * opened over its maps of CPUs and threads.
 * @ctx:    the context; it must outlive the plan and every set opened from it.
 * @events: as pmu_set_open().
 * @opts:   as pmu_set_open() (NULL: the calling thread), but the target is
 *          each pmu_plan_open()'s: @opts->pid and @opts->cpu are not read.
 *          Its flags say what a target is: a task (PMU_SET_PID), a task on
 *          one CPU or with pid -1 every task of it (PMU_SET_PID |
 *          PMU_SET_CPU), every task of a CPU (PMU_SET_CPU), a cgroup's tasks
 *          on a CPU (PMU_SET_CGROUP | PMU_SET_CPU with @opts->cgroup_fd, kept
 *          open until the last pmu_plan_open()), the opening thread (none).
 * @out:    receives the plan; pmu_plan_free() frees it. NULL on failure.
 *
 * Machines of several core PMUs: with PMU_SET_CPU the plan holds one
 * arrangement per core type (a CPU counts its own core PMU's part only, see
 * pmu_set_open()), each resolved once; a core type whose arrangement fails
 * (a name with no meaning there) fails only the opens on its CPUs, with the
 * message pmu_set_open() gives there. A plan fails when every arrangement does.
 *
 * Returns 0, or what pmu_set_open() returns for the same list and flags
 * before it opens anything (see pmu_set_check()). Thread-safe for a shared
 * context.
 */
int pmu_plan_new(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *opts,
		 struct pmu_plan **out);

/**
 * pmu_plan_open - open @plan on one target: the set pmu_set_open() would
 * open for the plan's list and flags with this @pid and @cpu, without
 * parsing or resolving a name again.
 * @pid: with PMU_SET_PID the task (-1 with PMU_SET_CPU: every task of @cpu);
 *       without it, 0.
 * @cpu: with PMU_SET_CPU the CPU; without it, -1.
 * @out: receives the set, as pmu_set_open()'s; pmu_set_close() closes it.
 *       The set does not refer to the plan: free either first.
 *
 * Thread-safe: threads may open one plan at once (a plan is not changed by
 * opening it). Returns 0 or pmu_set_open()'s errors; -EINVAL for a @pid or
 * @cpu the plan's flags do not take.
 */
int pmu_plan_open(const struct pmu_plan *plan, pid_t pid, int cpu, struct pmu_set **out);

/** pmu_plan_free - free a plan; its open sets stay open. NULL is fine. */
void pmu_plan_free(struct pmu_plan *plan);

/** Number of values a read returns (one per event; per core type for a split event, see pmu_set_open()). */
size_t pmu_set_count(const struct pmu_set *s);

/** Event @i of the set, as resolved. Returns 0 or -EINVAL. */
int pmu_set_event(const struct pmu_set *s, size_t i, struct pmu_event_info *out);

/** Group number of event @i (events with the same number are read together), or -EINVAL. */
int pmu_set_group_of(const struct pmu_set *s, size_t i);

/**
 * pmu_set_total_of - the name that value @i of @s is one core type's part of.
 * On a machine of several core PMUs a name is counted on each core PMU that
 * gives it a meaning, one value per core type (PMU_EVF_HYBRID_PART, labelled
 * "armv8_cortex_a55/INST.RET/:u", see pmu_set_open()); the parts' sum is the
 * name's total, exact when no part was multiplexed. Writes that name as the
 * list gave it, with the modes counted ("INST.RET:u"), into @name (@len
 * bytes; NULL for none) and returns the index of the name's last part: the
 * values whose calls return the same index add up to one total, which
 * pmu stat and region reports show after that part. -1: value @i is no part;
 * -EINVAL: @s NULL or @i out of range; -ENAMETOOLONG: @name too short.
 */
int pmu_set_total_of(const struct pmu_set *s, size_t i, char *name, size_t len);

/** A count with the times the kernel reports for it. */
struct pmu_value {
	uint64_t value;     /* events counted */
	uint64_t enabled;   /* ns the event was enabled */
	uint64_t running;   /* ns it was actually on a counter (< enabled when multiplexed) */
};

/**
 * pmu_set_read - read every event of the set into @out[0..pmu_set_count()-1].
 *
 * Uses the user-space path (rdpmc / PMU registers / csrr under the user-page
 * seqlock) for each group whose counters are currently loaded and readable
 * from this thread, and one read(2) per group otherwise. Same semantics as
 * pmu_fast_read(pmu_set_fast(s), out). Returns 0, -ECHILD in a child process
 * after fork() (the set counts the parent), or a negative errno from read(2).
 */
int pmu_set_read(struct pmu_set *s, struct pmu_value *out);

/** pmu_set_read_syscall - like pmu_set_read() but always through read(2). */
int pmu_set_read_syscall(struct pmu_set *s, struct pmu_value *out);

/**
 * pmu_delta - out[i] = b[i] - a[i] for value, enabled and running (modulo
 * 2^64, so a wrapped 64-bit counter still gives the right difference).
 * @out may alias @a or @b. With any of them NULL nothing is written.
 */
void pmu_delta(const struct pmu_value *a, const struct pmu_value *b, size_t n,
	       struct pmu_value *out);

/**
 * pmu_scale - the count extrapolated to the whole enabled time:
 * value * enabled / running, rounded to nearest, computed in 128 bits and
 * saturated at UINT64_MAX. running == enabled (including 0 == 0, when no time
 * is known) returns value unchanged, and so does running > enabled (which
 * the kernel never reports); running == 0 < enabled (never on a
 * counter) returns 0 — check pmu_confidence(). NULL returns 0.
 */
uint64_t pmu_scale(const struct pmu_value *v);

/**
 * pmu_confidence - running / enabled in [0, 1]: 1.0 means counted the whole
 * time (exact), less means multiplexed and pmu_scale() is an estimate, 0 means
 * never counted. Returns 1.0 when enabled == 0 and value == 0 and nothing is
 * known, 0.0 when running == 0 < enabled, and for NULL. An event a set or a
 * region could not count (PMU_EVF_UNSUPPORTED, a region result's unsupported
 * bit) reads 0 with enabled == running == 0: it was never counted, whatever
 * this function says of those zeros.
 */
double pmu_confidence(const struct pmu_value *v);

/* ------------------------------------------------------------------ */
/* Fast path (user-space counter reads)                                */
/* ------------------------------------------------------------------ */

struct pmu_fast;

/**
 * pmu_set_fast_abi - the set's read plan for pmu_fast_read(), for a program
 * compiled against plan layout @abi of size @size: what the inline
 * pmu_set_fast() of <pmu/fast.h> calls with its PMU_FAST_ABI and sizeof.
 * Owned by the set, valid until pmu_set_close(). For a NULL set, or a layout
 * other than the library's, a static plan that every read refuses (-EINVAL,
 * or -EPROTO with a message saying to rebuild against this library's header).
 */
const struct pmu_fast *pmu_set_fast_abi(struct pmu_set *s, unsigned abi, size_t size);

/**
 * pmu_fast_slow - the one call pmu_fast_read() makes, for what its inline
 * part does not do: a set of several groups, of a group not readable from
 * user space (software events, tracepoints, tool events such as
 * duration_time), or with hybrid parts, read by its owner thread (group by
 * group: user space where possible, read(2) otherwise, then the hybrid
 * parts' times, see pmu_fast_hybrid()); a set that counts another thread,
 * task or CPU, or read in another thread (read(2)); a process that is a
 * child of the one that opened the set (-ECHILD, see pmu_fast_forked()); a
 * refusing plan (-EINVAL, -EPROTO). @f is what pmu_set_fast() returned
 * (the library finds the set from it). Returns as pmu_set_read().
 */
int pmu_fast_slow(const struct pmu_fast *f, struct pmu_value *out);

/** One copy of a value that a set counts in several places (pmu_set_read_copies()). */
struct pmu_copy_value {
	int cpu;                /* the CPU the copy was opened on; -1: the set's own target (a task
	                           on any CPU) */
	int package;            /* that CPU's package (socket: sysfs topology/physical_package_id),
	                           -1 when unknown or @cpu is -1 */
	uint32_t box;           /* an event of an uncore unit's boxes (PMU_EVF_BOXES): which box,
	                           0 to pmu_event_info.boxes - 1, in box order; else 0 */
	uint32_t reserved;      /* 0 */
	struct pmu_value value; /* its count, enabled and running times, as the kernel reads them */
};

/**
 * pmu_set_read_copies - value @i of @s, copy by copy. A value that
 * pmu_set_read() gives as a sum is counted by several perf_events: an event
 * of a PMU that counts CPUs (a cpumask: RAPL, uncore) in a set of a task, on
 * each CPU of the cpumask (one per package or die); an event of an uncore
 * unit's boxes (PMU_EVF_BOXES), on each box (and, in a set of a task, on each
 * CPU of the box's cpumask). This gives each of them apart, with the CPU,
 * package and box it counts, so that a caller can sum per socket (or per
 * box) what the set sums: the values of the copies add up to pmu_set_read()'s
 * value at the time of the read. Any other value is one copy (its CPU the
 * set's, -1 for a task's set). Every copy is read with read(2), whichever
 * thread calls; a tool event or a value left out (PMU_EVF_UNSUPPORTED) is one
 * copy of zeros.
 * @out: receives up to @n copies, in the order box by box, CPU by CPU (NULL
 *       with @n 0: ask for the number).
 * Returns the number of copies (more than @n: only @n written), -EINVAL (@s
 * NULL, @i out of range, @out NULL with @n), -ECHILD after fork() in the
 * child, or read(2)'s error.
 */
int pmu_set_read_copies(struct pmu_set *s, size_t i, struct pmu_copy_value *out, size_t n);

/**
 * pmu_set_read_group - read group @g of the set through one read(2) into the
 * group's slots of @out (indices as in pmu_set_read()). pmu_fast_slow() uses
 * it for a group it cannot read from user space. Returns 0 or a negative errno.
 */
int pmu_set_read_group(struct pmu_set *s, unsigned g, struct pmu_value *out);

/**
 * pmu_fast_forked - what a read of a set inherited through fork() returns:
 * -ECHILD (the set counts the parent; open a new set in the child), with a
 * message for pmu_strerror(); -EINVAL for NULL or a refusing plan (see
 * pmu_set_fast_abi()).
 */
int pmu_fast_forked(const struct pmu_fast *f);

/**
 * pmu_fast_hybrid - on a machine of several core PMUs, make the enabled
 * time of each value counted by a core PMU (a part, cpu_core/cycles/ or
 * armv8_cortex_a55/INST.RET/, or an event of one named core PMU) the time
 * the task spent on that core type. A thread runs on one core type at a
 * time, so a counter is "not running" while the thread is on another, which
 * is not multiplexing: without this, pmu_scale() would extrapolate it over
 * the whole time.
 *
 * A task's set has, per core PMU it uses, a pinned cycle counter of its own
 * (not one of its values) whose running time is that time. A value that ran
 * all of it, to within 1% (each counter is enabled and disabled by a call of
 * its own, microseconds apart, and a thread on that core type in between is
 * counted by one and not the other), gets its running time as its enabled
 * time: pmu_scale() returns the raw count, and the parts' sum is the count,
 * exactly. A value multiplexed on its core type gets that core type's time:
 * pmu_scale() extrapolates to it and pmu_confidence() is the share counted.
 * Where the kernel refused those counters, the parts of one name are judged
 * together: their running times added up against the least of their enabled
 * times (to within 1%), or, multiplexed, each given the share
 * enabled x running(part) / sum of running(parts).
 *
 * pmu_fast_read(), pmu_set_read() and pmu_set_read_syscall() call it (it
 * reads the cycle counters with read(2), one per core type); it does nothing
 * for other values.
 */
void pmu_fast_hybrid(const struct pmu_fast *f, struct pmu_value *out);

/* ------------------------------------------------------------------ */
/* Metrics (perf's MetricExpr language)                                 */
/* ------------------------------------------------------------------ */

/** A value for a name used in a metric (an event name, or any name). */
struct pmu_named_value {
	const char *name;
	double value;
};

/** A metric of the tables. Strings are owned by the context. */
struct pmu_metric_info {
	const char *name, *expr, *desc, *group;
	const char *scale_unit;  /* perf's ScaleUnit: "100%" = multiply by 100, show "%" */
	const char *threshold;   /* MetricThreshold expression or "" */
	const char *params;      /* MetricParams "name=default,..." or "" */
	const char *file;        /* the table it came from */
};

/**
 * pmu_metric_eval - evaluate a metric of the tables, or an expression in
 * perf's MetricExpr language ("1e3 * MEM_LOAD_RETIRED.L3_MISS / INST.RET"),
 * over named values. A name is matched against @vals by name
 * (case-insensitive), then as a metric (evaluated recursively), then by
 * encoding (a value counted as "instructions" satisfies "INST.RET" where
 * that maps to it). #constants (any case): pmu_ctx_set_param(), the
 * metric's MetricParams defaults, then the machine (see
 * pmu_constant_foreach()). Division by zero gives NaN; d_ratio() gives 0.
 * perf's functions that ask the machine are answered by this context's:
 * has_event(X) is 1 when a value named X is in @vals or X is an event of
 * this machine (it resolves and its PMU is here), else 0; source_count(X) the
 * number of PMUs that count X here (each box of an uncore PMU, uncore_cha_0,
 * uncore_cha_1, ...; 1 for other events; a missing value when X is no event
 * here); strcmp_cpuid_str(ID) 1 when this CPU is ID (arm64: the MIDR, variant
 * and revision at least ID's; others: ID as a mapfile pattern).
 *
 * Hybrid CPUs: perf's tables define some metrics once per core PMU, with
 * different formulas. "cpu_core/NAME/" evaluates that PMU's definition; a
 * bare NAME is evaluated with the one definition whose values @vals holds
 * (-EINVAL, naming the spellings, when they fit several; -ENOENT when they
 * fit none). Inside a metric, other metrics and bare event names are those
 * of the metric's own PMU (as perf resolves them), and perf's "PMU@EVENT@"
 * is the value named "PMU/EVENT/".
 *
 * Machines of several core PMUs: a name counted on each core PMU is given as
 * its parts ("armv8_cortex_a55/INST.RET/:u", see pmu_set_total_of()); a
 * metric takes their sum. "PMU/NAME/" of a core PMU, where NAME is a metric of
 * no PMU of its own (arm64's tables, libpmu's standard metrics), is NAME as
 * that core type's tables define it, over that core type's parts only: one
 * core type's value (-ENOENT when that core type has no part of a name the
 * metric needs; never the other core types' counts).
 *
 * Returns 0, -ENOENT (the message lists every value that was missing),
 * -EINVAL (syntax: the message gives the position; or a NULL argument, a
 * value with a NULL name), -ELOOP (metrics refer to each other in a cycle, or
 * nest deeper than evaluation follows: 64 metrics, or expressions 2048 levels
 * deep along such a chain, or take more than 65,536 steps (metrics evaluated,
 * kept values compared, #constant lookups; perf's tables need a few hundred);
 * the message says which and names the chain). A metric that several others
 * use is evaluated once per call for each way the #constants it depends on
 * resolve (MetricParams of the metrics above it).
 * Thread-safe for a shared context.
 */
int pmu_metric_eval(struct pmu_ctx *ctx, const char *metric_or_expr, const struct pmu_named_value *vals,
		    size_t n, double *out);

/**
 * pmu_metric_eval_set - pmu_metric_eval() over a set's values (one per
 * event, typically deltas; each is scaled with pmu_scale()).
 */
int pmu_metric_eval_set(struct pmu_ctx *ctx, const char *metric_or_expr, struct pmu_set *s,
			const struct pmu_value *vals, double *out);

/**
 * pmu_metric_eval_events - pmu_metric_eval() over values whose events are
 * known: @events[i] is what @vals[i] counted (as pmu_set_event() or
 * pmu_event_resolve() filled it). Where the metric names an event otherwise
 * than a value does, the value is found by its encoding in @events: no
 * value's name is resolved again, so values summed or kept after counting
 * (over runs, threads, intervals) meet the metric as the events that were
 * counted. An entry whose pmu is "" (a value no set counted, such as a
 * duration_time of your own, or a row read back from a report) is matched
 * by its name as pmu_metric_eval() does. @events may be NULL (then this is
 * pmu_metric_eval()). Returns as pmu_metric_eval().
 */
int pmu_metric_eval_events(struct pmu_ctx *ctx, const char *metric_or_expr, const struct pmu_named_value *vals,
			   const struct pmu_event_info *events, size_t n, double *out);

/**
 * pmu_metric_threshold - evaluate the metric's MetricThreshold: *crossed = 1
 * when it holds (perf shows such metrics highlighted). Returns 0, -ENODATA
 * (no threshold), or as pmu_metric_eval().
 */
int pmu_metric_threshold(struct pmu_ctx *ctx, const char *metric, const struct pmu_named_value *vals, size_t n,
			 int *crossed);

/**
 * pmu_metric_threshold_events - pmu_metric_threshold() over values whose
 * events are known, as pmu_metric_eval_events() takes them.
 */
int pmu_metric_threshold_events(struct pmu_ctx *ctx, const char *metric, const struct pmu_named_value *vals,
				const struct pmu_event_info *events, size_t n, int *crossed);

/**
 * pmu_metric_events - the events a metric (or expression) needs, comma
 * separated and deduplicated, metric references expanded: a list to pass to
 * pmu_set_open() (perf's "PMU@EVENT@" written "PMU/EVENT/"). Of an 'a if c
 * else b' whose condition has_event()/strcmp_cpuid_str() decide here, only
 * the branch taken (as perf counts it); source_count(X) needs X. Returns the
 * length (like snprintf, even when @len is too small: then -ENOSPC with
 * nothing written) or a negative errno; -EINVAL for a metric defined once per
 * PMU and named without one (see pmu_metric_eval(): name it "PMU/NAME/").
 */
int pmu_metric_events(struct pmu_ctx *ctx, const char *metric_or_expr, char *buf, size_t len);

/**
 * pmu_metric_info - describe a metric of the tables ("NAME" or "PMU/NAME/").
 * Returns 0, -ENOENT, or -EINVAL for a metric defined once per PMU and named
 * without one.
 */
int pmu_metric_info(struct pmu_ctx *ctx, const char *name, struct pmu_metric_info *out);

/**
 * pmu_ctx_set_param - set a #constant for metric evaluation (MetricParams
 * such as the cache-rate parameters "a" and "b", or overrides of machine
 * constants such as "slots"). Not thread-safe against concurrent evaluation
 * on the same context. Returns 0, -EINVAL, -ENOSPC (more than 32).
 */
int pmu_ctx_set_param(struct pmu_ctx *ctx, const char *name, double value);

/** Where a #constant's value comes from (struct pmu_constant_info). */
enum pmu_constant_source {
	PMU_CONST_PARAM = 1,    /* pmu_ctx_set_param() */
	PMU_CONST_MACHINE = 2,  /* read from the machine of the context (its sysfs root, its CPU) */
};

/** One #constant of metric expressions, as pmu_constant_foreach() reports it. */
struct pmu_constant_info {
	const char *name;       /* as a metric writes it after '#' (any case): "smt_on", "num_cpus_online" */
	double value;
	int source;             /* enum pmu_constant_source */
	const char *origin;     /* where it came from: "pmu_ctx_set_param", the file it was read from
	                           ("/sys/devices/system/cpu/smt/active",
	                           "/sys/devices/system/cpu/cpu*" "/topology/core_cpus_list (8 distinct)"),
	                           "CPUID leaf 0x15 (...)", "the CPU's model name (...)", ... */
};

typedef int (*pmu_constant_cb)(const struct pmu_constant_info *c, void *data);

/**
 * pmu_constant_foreach - the #constants metric expressions get on this context,
 * with their values and where they came from: first each one pmu_ctx_set_param()
 * set (source PMU_CONST_PARAM), then each machine constant the machine tells and
 * no parameter overrides (PMU_CONST_MACHINE): smt_on, num_cpus (the highest
 * present CPU + 1), num_cpus_online, num_packages, num_dies, num_cores (distinct
 * package/die/core CPU lists of the online CPUs, as perf counts them), core_wide,
 * has_pmem, slots, chas_per_socket, system_tsc_freq. One the machine does not
 * tell (slots without caps/slots, system_tsc_freq on a CPU that names no
 * frequency) is left out. A metric's MetricParams defaults are its own, not
 * listed.
 *
 * To evaluate counts saved on one machine as that machine (pmu report): record
 * each (name, value) where they were counted and give them to pmu_ctx_set_param()
 * on the reporting context. @cb is called for each; a non-zero return stops the
 * walk and is returned. Otherwise returns the number of constants reported, or a
 * negative errno (-EINVAL, -ENOMEM). Strings are valid during the call only. Not
 * thread-safe against pmu_ctx_set_param() on the same context.
 */
int pmu_constant_foreach(struct pmu_ctx *ctx, pmu_constant_cb cb, void *data);

/* ------------------------------------------------------------------ */
/* Topdown (Intel SLOTS + PERF_METRICS, and the standard TOPDOWN events) */
/* ------------------------------------------------------------------ */

/**
 * Fractions of pipeline slots in a period. Level 1 always; level 2 (Sapphire
 * Rapids and later, or standard events that express it) when level == 2,
 * else those fields are NaN. The four derived level-2 values are differences
 * (light_ops = retiring - heavy_ops, machine_clears = bad_spec -
 * br_mispredict, fetch_bw = fe_bound - fetch_lat, core_bound = be_bound -
 * mem_bound) and are not clamped: 8-bit rounding can make them slightly
 * negative.
 */
struct pmu_topdown {
	double retiring, bad_spec, fe_bound, be_bound;
	double heavy_ops, light_ops, br_mispredict, machine_clears;
	double fetch_lat, fetch_bw, mem_bound, core_bound;
	uint64_t slots;         /* slots in the period */
	int level;              /* 1 or 2 */
	unsigned flags;         /* PMU_TOPDOWN_* */
};

#define PMU_TOPDOWN_RESET 1u /* the counters were reset between the samples: the
                                values cover the time since that reset only */
#define PMU_TOPDOWN_AMD 2u /* AMD's method (an AMD CPU's table formulas). Level 1 has a
                              fifth category, the slots given to the other SMT thread
                              (smt_contention), that none of the four holds: they add up
                              to less than 1 by it when SMT shares the core. At level 2
                              heavy_ops holds the retired ops from microcode and light_ops
                              the fast-path ops, machine_clears the pipeline restarts
                              (resyncs) other than mispredictions, core_bound the backend
                              stalls not caused by memory ("backend bound CPU"): AMD's
                              names, which tools print for these rows */

/**
 * A raw user-space topdown reading: the SLOTS fixed counter and the
 * PERF_METRICS register read together (rdpmc), with the slots user page's
 * offset, which changes whenever the kernel folds and resets the counters.
 */
struct pmu_topdown_sample {
	uint64_t slots;         /* raw SLOTS counter since the last kernel reset */
	uint64_t metrics;       /* raw PERF_METRICS: eight 8-bit fractions of 0xff */
	uint64_t epoch;         /* slots page offset when read */
};

/** Slot counts of a period (deltas), e.g. from read(2) of the topdown events. */
struct pmu_topdown_counts {
	uint64_t slots, retiring, bad_spec, fe_bound, be_bound;
	uint64_t heavy_ops, br_mispredict, fetch_lat, mem_bound;
	int level;              /* 1: only the first five are set; 2: all */
};

/**
 * pmu_topdown_sample - read SLOTS and PERF_METRICS from user space for the
 * set's topdown group (x86 with rdpmc; the set opened for this thread).
 * Returns 0, -EOPNOTSUPP (no such group, not x86, or not readable from user
 * space right now: use pmu_set_read() and pmu_topdown_from_set() instead).
 */
int pmu_topdown_sample(struct pmu_set *s, struct pmu_topdown_sample *out);

/**
 * pmu_topdown_decode - the fractions for the period between two samples,
 * slot-weighted: part_i = fraction_i * slots / 0xff at each sample, then
 * (part_i(b) - part_i(a)) / (slots(b) - slots(a)). @level 1 or 2 (2 reads the
 * upper four fields). If the counters were reset in between (epoch changed
 * or slots went down) the result covers b alone and has PMU_TOPDOWN_RESET.
 * Returns 0, -ENODATA (no slots elapsed) or -EINVAL.
 *
 * The fractions are 8 bits wide, so precision drops as slots accumulate:
 * for runs longer than a few seconds call pmu_set_reset() periodically
 * (it opens a new period; the next decode then reports PMU_TOPDOWN_RESET).
 */
int pmu_topdown_decode(const struct pmu_topdown_sample *a, const struct pmu_topdown_sample *b, int level,
		       struct pmu_topdown *out);

/** pmu_topdown_from_counts - fractions from slot counts. Returns 0, -ENODATA (slots 0), -EINVAL. */
int pmu_topdown_from_counts(const struct pmu_topdown_counts *c, struct pmu_topdown *out);

/**
 * pmu_topdown_from_set - fractions from a set's values (typically deltas of
 * two pmu_set_read() calls), finding the slots and metric events by their
 * roles (Intel slots/topdown-* events, or the standard TOPDOWN.*.SLOTS
 * events). Values are scaled with pmu_scale(). On a CPU whose table gives
 * the slot counts as formulas (Skylake, Skylake-X, AMD Zen 4/5, Neoverse
 * N2/V1/V2) they are evaluated over the set's values: level 1, and level 2
 * (@out->level 2) where the table has level-2 formulas (Skylake, Skylake-X,
 * Zen 4/5; Ice Lake and Ice Lake-X over PERF_METRICS' level 1: metric group
 * TopdownL2Slots) and the set counted their events. Returns 0,
 * -ENOENT (the set has no topdown events; on a CPU without topdown, such as
 * Neoverse N1, Zen 2/3 or the RISC-V cores, pmu_strerror() says why, as the
 * TOPDOWN keyword does), -ENODATA (no slots elapsed).
 *
 * A hybrid CPU (Alder Lake, Raptor Lake) has a tree per core type: the
 * P-cores' from SLOTS and PERF_METRICS, the E-cores' from their table's
 * formulas (Gracemont: 5 slots per cycle; the TOPDOWN keyword counts both).
 * The values decoded are one core type's: the P-cores' where their events
 * are among them (never a mix of both types' counts); for the E-cores'
 * tree give their values alone to pmu_topdown_from_named() (pmu stat and
 * pmu report print one tree per core type, named).
 */
int pmu_topdown_from_set(struct pmu_set *s, const struct pmu_value *vals, struct pmu_topdown *out);

/**
 * pmu_topdown_from_named - fractions from named counts (a saved run: the
 * names are resolved in @ctx to find the slots and metric events). Returns
 * as pmu_topdown_from_set().
 */
int pmu_topdown_from_named(struct pmu_ctx *ctx, const struct pmu_named_value *vals, size_t n,
			   struct pmu_topdown *out);

/* ------------------------------------------------------------------ */
/* Regions: mark code, get counts per region at exit                    */
/* ------------------------------------------------------------------ */

/**
 * pmu_region_begin / pmu_region_end - count the events of the calling
 * thread between the two calls, accumulated per (thread, name).
 *
 * No set-up call: the first call in a thread opens that thread's events
 * from $PMU_EVENTS (an event list, metric names, TOPDOWN, or performance
 * groups as likwid:NAME or group:NAME, see pmu_group_open(): their events,
 * and their metrics on each region's row; default:
 * instructions, cycles, branch and cache misses in user mode where a
 * hardware PMU exists, else task-clock, page-faults, context-switches), and
 * at exit a report goes to $PMU_OUTPUT (default stderr; "-" stdout; "%p"
 * becomes the pid, "%r" the MPI rank, a character other than a letter, digit,
 * '-' or '_' of it as '_') in $PMU_FORMAT (text, json, csv). A report is
 * written whole or not at all: to a temporary file beside its name, which
 * then takes the name; a full disk or a SIGKILL leave the file as it was.
 * A regular file named by $PMU_OUTPUT is never written over: each process
 * takes the name only where no file has it, and one that finds it taken (another rank's or
 * forked child's report, an earlier run's) writes to a name derived from it,
 * "dir/report.json" -> "dir/report.rank3.pid4242.json" (".pid4242" without a
 * rank; "-2", "-3"... after the pid if that exists too), and says once on
 * stderr where and why; a process's own later report replaces its earlier
 * one. A FIFO or device (/dev/null, /dev/stdout) is written as before. These
 * variables, $PMU_CALIBRATE and $PMU_PER_THREAD are read once, at the first
 * region call. A misconfiguration (an unknown event, format or yes/no
 * value, a report that cannot be written, a thread that cannot open its
 * events) is said once on stderr, naming the variable, its value and the
 * fix; an unknown event turns regions off in the process (every call
 * returns the error, pmu_strerror() has the sentence), an unknown format
 * gives text, an unwritable report goes to stderr.
 *
 * Calibration ($PMU_CALIBRATE=1, the default): when a thread opens its
 * events, libpmu measures an empty pair, pmu_region_begin(N);
 * pmu_region_end(N); with N a string literal, called through these
 * functions from a function of libpmu itself, and subtracts its cost (per
 * event, the smallest of 16 pairs) from each of the thread's regions, never
 * below 0. What that guarantees, and no more: for an event counting
 * user-mode instructions, a region's count is exactly the instructions
 * executed between the two calls when the caller passes the name to
 * pmu_region_end with the same instructions as the calibration pair does.
 * The QEMU lab checks it for literal names compiled by GCC -O2 (an empty
 * region counts 0, a 2,000-iteration loop 4,001, on arm64 and riscv64). A
 * caller that passes the name otherwise shifts the count by the
 * difference: a name kept in a register can count one instruction low (seen
 * on riscv64, where the calibration loads the literal's address with two
 * instructions), a name loaded from memory or computed counts higher, and a
 * function whose last statement is pmu_region_end() may be compiled to a
 * tail call that moves its epilogue into the region. Where the event also
 * counts kernel mode (riscv64 under QEMU), interrupts and faults land in
 * regions and only the smallest count of one call (min) is exact. Other
 * events (cycles, cache misses) get the same subtraction: close, not exact.
 *
 * Names are compared by content, not by address: a name built in a reused
 * buffer, or freed and allocated again, is counted under what it says at
 * each call. Regions with different names may nest or overlap; the same
 * name nested (recursion) counts once, from the outermost begin to its end.
 * After the first use of a name in a thread, begin and end neither
 * allocate nor lock (they compare the name with the thread's copy of it).
 * Returns 0, -EINVAL (end without begin, NULL, empty or overlong name: nothing is
 * recorded), -EBUSY (called from a signal handler that interrupted a
 * begin/end of the same thread: refused, nothing recorded), -ENOMEM, or the
 * error of opening the events (then every later call returns it quickly).
 * The first use of a name in a thread allocates: do not make it in a
 * signal handler. After fork() the child starts with no regions; exec()
 * discards what was not reported (call pmu_region_report() before).
 */
int pmu_region_begin(const char *name);
int pmu_region_end(const char *name);

/**
 * pmu_region_configure - choose the regions' events in code instead of the
 * environment: @events (an event list, metric names, TOPDOWN or groups, as in
 * $PMU_EVENTS; NULL: $PMU_EVENTS or the default) and @calibrate (1 or 0, as
 * $PMU_CALIBRATE; -1: $PMU_CALIBRATE or the default). Call it once, before
 * any other pmu_region_* function: the events of every thread are fixed at
 * the first region call of the process. The list is checked now (metric
 * names are expanded, the context is created), so a bad name fails here.
 * Returns 0, -EINVAL for a @calibrate other than 1, 0 or -1 (nothing
 * changed), -EBUSY (regions already in use: nothing changed), -ENOMEM, or
 * the error of the list (an unknown name, a malformed list); after such an
 * error every region call returns it, as when a thread fails to open its
 * events. Events the CPU cannot count are reported when a thread opens
 * them, as without this call.
 *
 * Socket-wide events: an event of a PMU that counts CPUs, not tasks (an
 * uncore unit, RAPL energy: see pmu_set_open()), here or in $PMU_EVENTS,
 * is not a thread's. It is opened once for the process, on the CPUs of its
 * PMU's cpumask (every socket or die, summed), and read with read(2) where a
 * name's interval begins (a begin that finds no thread of the process inside
 * that name) and ends (the end that leaves none), as LIKWID's marker API
 * reads its socket counters once per socket: each instant some thread spent
 * inside the name is counted once, with whatever else ran on the sockets
 * then. The report gives these values on the name's row over threads only,
 * labelled socket-wide, with the number of intervals (pmu_region_result's
 * socket_wide and intervals); metrics of the list are evaluated on that row,
 * duration_time being the intervals' wall time (their enabled time), so a
 * bandwidth metric (MEM.DRAM.RW.BW) is the bandwidth inside the region. With
 * such events every begin and end reads the thread's own events with read(2)
 * as well (microseconds; the calibration subtracts what the thread's pair
 * costs). Opening them needs what counting a CPU needs
 * (perf_event_paranoid 0 or lower, or CAP_PERFMON): otherwise this returns
 * the error naming the level, the capability and the fix, and regions are off.
 * A group ({...}) may not mix them with the thread's events (-EINVAL); at
 * most 8 socket-wide values (-E2BIG).
 */
int pmu_region_configure(const char *events, int calibrate);

/** A named region of one thread (opaque), from pmu_region_get(). */
struct pmu_region;

/**
 * pmu_region_get - the calling thread's handle for region @name, for code
 * that enters a region so often that finding it by name matters. Opens the
 * thread's events on first use, like pmu_region_begin(), and allocates the
 * first time @name is used in the thread (not in a signal handler). The
 * handle is the same accumulator as the name: pmu_region_begin(name) and
 * pmu_region_leave(handle) pair up. It stays valid until the process exits
 * (also after pmu_region_reset()), only in the thread that got it; other
 * threads, and a forked child, get their own. Returns 0 and *@out, or a
 * negative errno as pmu_region_begin() does (*@out is then NULL).
 */
int pmu_region_get(const char *name, struct pmu_region **out);

/**
 * pmu_region_enter / pmu_region_leave - pmu_region_begin / pmu_region_end
 * through a handle: no lookup of the name. Calibration measures an empty
 * enter/leave pair separately (the handle held in a register), so an
 * empty region is 0 this way too, on the terms of pmu_region_begin (a
 * pair mixing a handle and a name subtracts the smaller of the two costs).
 * Returns 0; -EINVAL for a NULL handle, a handle of another thread or of
 * the parent process (refused with a message, never followed), or leave
 * without enter/begin; -EBUSY from a signal handler that interrupted the
 * same thread's region call.
 */
int pmu_region_enter(struct pmu_region *h);
int pmu_region_leave(struct pmu_region *h);

enum pmu_report_format {
	PMU_FORMAT_ENV = -1,    /* as $PMU_FORMAT says (text where unset), read as the report at exit reads it */
	PMU_FORMAT_TEXT = 0,
	PMU_FORMAT_JSON = 1,
	PMU_FORMAT_CSV = 2,
};

/**
 * pmu_region_report - write the report now (threads summed, per thread with
 * @per_thread) to @path (NULL: $PMU_OUTPUT or stderr; "-" stdout) in
 * @format (PMU_FORMAT_ENV: as $PMU_FORMAT says; @per_thread -1: as
 * $PMU_PER_THREAD says; both read as the report at exit reads them, so
 * that a layer over the regions writes what its users set). A @path given
 * here ("%p", "%r" expanded) is the caller's choice:
 * created or replaced (whole, once written), as fopen(path, "w") would
 * leave it; NULL follows
 * $PMU_OUTPUT's rule (see pmu_region_begin): never over another process's
 * report. Regions still open are reported as of their last end. Can be
 * called many times; the report at exit still happens unless
 * pmu_region_reset() cleared everything. Returns 0 or a negative errno.
 */
int pmu_region_report(const char *path, int format, int per_thread);

/** pmu_region_reset - forget every region's counts, in every thread. */
void pmu_region_reset(void);

/** Results of one region (summed over threads, or one thread). */
struct pmu_region_result {
	const char *name;
	long tid;                   /* thread id, -1 for the sum over threads, 0 for the threads that exited
				     * before the last 64 (their counts summed, their state freed) */
	uint64_t calls;             /* completed begin/end pairs */
	size_t nvalues;             /* events; on a machine of several core PMUs, after the last
	                               part of a name counted on each (pmu_set_total_of()), one
	                               more: the name's total */
	const char *const *events;  /* their names (a total: the name as listed, "INST.RET:u") */
	const struct pmu_value *values; /* sums of the deltas (value, enabled, running); a total's
	                               are its parts' added up */
	const uint64_t *min, *max;  /* smallest and largest delta of each event in one call (a
	                               total: of the parts' deltas of one call added up) */
	uint32_t unsupported;       /* bit k: event k could not be counted here: never counted,
	                               confidence 0, as every report says (text "<not counted>",
	                               JSON null, CSV confidence 0 and unsupported 1). Its values
	                               are 0, of which pmu_confidence() says 1.0 (nothing known):
	                               test the bit first */
	uint32_t socket_wide;       /* bit k: event k is socket-wide (a PMU that counts CPUs: uncore,
	                               energy), counted for the process, not the thread (see
	                               pmu_region_configure()): its values are the name's, in the
	                               row over threads (tid -1); in a thread's row they are 0 */
	uint64_t intervals;         /* tid -1 with socket-wide events: the intervals they were counted
	                               over (from a begin that found no thread inside the name to the
	                               end that left none), their min and max per interval; else 0 */
};

typedef int (*pmu_region_cb)(const struct pmu_region_result *r, void *data);

/**
 * pmu_region_foreach - call @cb for every region with completed calls
 * (summed over threads, and also per thread with @per_thread), in order of
 * first use; regions cleared by pmu_region_reset() are left out until used
 * again. Pointers are
 * valid during the call. Stops when @cb returns non-zero and returns that;
 * else the number of results.
 */
int pmu_region_foreach(int per_thread, pmu_region_cb cb, void *data);

/**
 * pmu_region_overhead - the calibrated cost of an empty begin/end pair for
 * the calling thread's events (@out[0..n-1]); returns the number of events,
 * or a negative errno (-ENODATA: no events opened yet in this thread;
 * -EINVAL: @out NULL with @n > 0).
 */
int pmu_region_overhead(uint64_t *out, size_t n);

#include <pmu/fast.h>

/* ------------------------------------------------------------------ */
/* Exported twins of the inline functions above                         */
/* ------------------------------------------------------------------ */

/* For bindings and languages that cannot inline: each twin has its inline's
 * arguments and result, and refuses the NULL arguments its inline does not
 * check (-EINVAL). Defined by gen/gen-twins.py from lib/twins.list, which
 * names every inline function of this header and <pmu/fast.h>. */

/** Exported twin of pmu_set_fast(): the plan in this library's own layout (or the refusing one for NULL). */
const struct pmu_fast *pmu_set_fast_fn(struct pmu_set *s);

/** Exported twin of pmu_fast_read(). */
int pmu_fast_read_fn(const struct pmu_fast *f, struct pmu_value *out);

/** Exported twin of pmu_page_read(). */
int pmu_page_read_fn(const struct perf_event_mmap_page *pc, struct pmu_value *out);

/** Exported twin of pmu_page_read_with(). */
int pmu_page_read_with_fn(const struct perf_event_mmap_page *pc, pmu_counter_fn counter, pmu_time_fn time,
			  void *arg, struct pmu_value *out);

/** Exported twin of pmu_topdown_page_sample(). */
int pmu_topdown_page_sample_fn(const struct perf_event_mmap_page *pc, struct pmu_topdown_sample *out);

/** Exported twin of pmu_topdown_page_sample_with(). */
int pmu_topdown_page_sample_with_fn(const struct perf_event_mmap_page *pc, pmu_counter_fn counter, void *arg,
				    struct pmu_topdown_sample *out);

/** Exported twin of pmu_x86_rdpmc_fixed(). */
uint32_t pmu_x86_rdpmc_fixed_fn(unsigned n);

/** Exported twin of pmu_x86_rdpmc_metrics(). */
uint32_t pmu_x86_rdpmc_metrics_fn(unsigned n);

/* ------------------------------------------------------------------ */
/* Performance groups (LIKWID's group files, and libpmu's own)          */
/* ------------------------------------------------------------------ */

/* A group file has LIKWID's shape: SHORT (one line), EVENTSET ("COUNTER
 * EVENT[:OPTIONS]" lines), METRICS ("Name [unit] formula" lines, the
 * formula over counter names, "time" and "inverseClock"), LONG. LIKWID's
 * are read where Debian's likwid package installs them,
 * $PMU_LIKWID_GROUPS/<arch>/ (else /usr/share/likwid/perfgroups/<arch>/,
 * <arch> the directory LIKWID chooses for this CPU: skylakeX, CLX, ICX,
 * zen3, arm8_n1, ...); libpmu's own for CPUs LIKWID has none for,
 * $PMU_GROUPS_DIR/<arch>/ (else the installed events/groups). */
struct pmu_group;

/** One EVENTSET line: LIKWID's counter and event, and libpmu's spelling. */
struct pmu_group_event {
	const char *counter;   /* "FIXC0", "PMC1", "MBOX0C0", "PWR0"; with LIKWID's options where
	                          the file puts them on the counter ("PMC3:EDGEDETECT") */
	const char *likwid;    /* the event as the file writes it, options included */
	const char *event;     /* libpmu's spelling ("FP_ARITH_INST_RETIRED.SCALAR_DOUBLE",
	                          "uncore_imc_0/UNC_M_CAS_COUNT.RD/", "power/energy-pkg/"); "" for
	                          a pseudo event that counts nothing (AMD's MERGE); NULL: not mapped */
	const char *why;       /* NULL, or why it is not mapped and what to do (PMU_GROUP_PARTIAL) */
};

/** One METRICS line, and its formula in perf's MetricExpr language. */
struct pmu_group_metric {
	const char *name;      /* "Memory bandwidth" */
	const char *unit;      /* "MBytes/s", or "" */
	const char *formula;   /* LIKWID's */
	const char *expr;      /* for pmu_metric_eval(): counters written as their events (RAPL's
	                          in joules), time as duration_time (seconds), inverseClock as
	                          (1 / #system_tsc_freq); NULL where it cannot be evaluated */
	const char *why;       /* NULL, or why expr is NULL (an event not mapped, a counter the
	                          EVENTSET lacks) */
};

/** What a group is; valid while the group is. */
struct pmu_group_info {
	const char *name, *arch, *path;   /* "MEM_DP", "skylakeX", the file */
	const char *short_desc, *long_desc;
	const char *events;    /* the mapped events, comma-separated, each once: a list for pmu_set_open() */
	size_t nevents;
	const struct pmu_group_event *event;
	size_t nmetrics;
	const struct pmu_group_metric *metric;
	const char *clock;     /* what inverseClock stands for, in words */
};

#define PMU_GROUP_PARTIAL 1u /* keep an event that cannot be mapped (its why says so), not refuse the group */

/**
 * pmu_group_open - find group @name ("MEM_DP", "likwid:MEM_DP", any case;
 * a name with a '/' is a group file's path) for @ctx's CPU, parse it, map
 * its events and translate its metrics. @flags: 0 or PMU_GROUP_PARTIAL.
 * Returns 0 and *@out (free it with pmu_group_free()), or -ENOENT (no such
 * group here: the message says where it looked), -EINVAL (a malformed file:
 * the message quotes the line), -EOPNOTSUPP (an event libpmu cannot map:
 * the message names the line, why, and the fix), -ENOMEM. Thread-safe for
 * a shared context.
 */
int pmu_group_open(struct pmu_ctx *ctx, const char *name, unsigned flags, struct pmu_group **out);

/** pmu_group_free - free @g (NULL is fine). */
void pmu_group_free(struct pmu_group *g);

/** pmu_group_info - what @g is (valid while @g is); NULL for NULL. */
const struct pmu_group_info *pmu_group_info(const struct pmu_group *g);

/** Called by pmu_group_foreach() with a group's name, its directory's arch, its file and SHORT line. */
typedef int (*pmu_group_cb)(const char *name, const char *arch, const char *path, const char *short_desc,
			    void *data);

/**
 * pmu_group_foreach - call @cb for every group of @ctx's CPU (LIKWID's, then
 * libpmu's own, each by name). Stops when @cb returns non-zero and returns
 * that; else the number of groups (0: none here). -EINVAL for NULL.
 */
int pmu_group_foreach(struct pmu_ctx *ctx, pmu_group_cb cb, void *data);

/**
 * pmu_group_arch - the groups' directory name for @ctx's CPU (LIKWID's
 * choice, else libpmu's own) into @buf: 0, -ENOENT (none), -EINVAL.
 */
int pmu_group_arch(struct pmu_ctx *ctx, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PMU_H */
