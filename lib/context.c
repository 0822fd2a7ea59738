/* SPDX-License-Identifier: MIT */
/* Context: CPU identity, PMUs, access settings, and what to tell the user. */
#include <errno.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "pmu.h"
#include "context.h"
#include "common.h"
#include "coretype.h"
#include "cpu.h"
#include "error.h"
#include "fork.h"
#include "modifiers.h"
#include "sysfs.h"
#include "tables.h"
#include "util.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

/*
 * Where perf's pmu-events tree is looked for when neither the options nor PMU_EVENTS_PATH name table
 * directories (PMU_EVENTS_PATH set and empty: none, not these): each directory's arch/<x86|arm64|riscv>
 * (perf's tools/perf/pmu-events/arch layout, doc/events.md says how to unpack Debian's linux-source
 * there), used when it has a mapfile.csv, as if PMU_EVENTS_PATH named it.
 */
static const char *const events_search[] = { "/usr/local/share/libpmu/pmu-events", "/usr/share/libpmu/pmu-events" };

/* ctx->events_path: @opt, else PMU_EVENTS_PATH, else the directories of events_search found here for
 * the CPU's architecture (NULL when none). 0 or -ENOMEM. */
static int events_path(struct pmu_ctx *ctx, const char *opt)
{
	const char *env = pmu__getenv("PMU_EVENTS_PATH");
	const char *arch = ctx->cpu.arch == PMU_ARCH_X86 ? "x86" : ctx->cpu.arch == PMU_ARCH_ARM64 ? "arm64" :
			   ctx->cpu.arch == PMU_ARCH_RISCV ? "riscv" : NULL;
	char found[1024] = "";
	size_t n = 0;

	if (opt && *opt)
		env = opt;
	if (env)
		return *env && !(ctx->events_path = strdup(env)) ? -ENOMEM : 0;
	for (size_t i = 0; arch && i < ARRAY_SIZE(events_search); i++) {
		char map[512];
		struct stat st;
		snprintf(map, sizeof(map), "%s/arch/%s/mapfile.csv", events_search[i], arch);
		if (stat(map, &st) == 0 && S_ISREG(st.st_mode))
			n += snprintf(found + n, sizeof(found) - n, "%s%s/arch/%s", n ? ":" : "", events_search[i], arch);
	}
	return n && !(ctx->events_path = strdup(found)) ? -ENOMEM : 0;
}

static const char *env_or(const char *opt, const char *env, const char *dflt)
{
	const char *e;

	if (opt && *opt)
		return opt;
	e = pmu__getenv(env);
	return e && *e ? e : dflt;
}

/* The C library's wrapper of capget(2) (glibc and musl have it; no header of theirs declares it). Not
 * syscall(): a program that defines its own syscall() (test-faults) reads six arguments from it. */
int capget(cap_user_header_t header, cap_user_data_t data);

/* The effective capability set: capget(2) for this process, one system call; /proc/self/status's CapEff
 * line under another procfs root (a test's). False if neither says. */
static bool effective_caps(const struct pmu_ctx *ctx, unsigned long long *eff)
{
	char path[512], buf[4096], *p;

	if (!strcmp(ctx->procfs_root, "/proc")) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
		memset(d, 0, sizeof(d)); /* valgrind marks only the first as written */
		if (capget(&h, d) == 0) {
			*eff = (unsigned long long)d[1].effective << 32 | d[0].effective;
			return true;
		}
	}
	if (pmu__path(path, sizeof(path), "%s/self/status", ctx->procfs_root) < 0 ||
	    pmu__read_file(path, buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "CapEff:")))
		return false;
	*eff = strtoull(p + 7, NULL, 16);
	return true;
}

bool pmu__kernel_at_least(const struct pmu_ctx *ctx, int major, int minor)
{
	char path[512], v[128];
	int ma, mi;

	if (pmu__path(path, sizeof(path), "%s/sys/kernel/osrelease", ctx->procfs_root) < 0 ||
	    pmu__read_file(path, v, sizeof(v)) <= 0 || sscanf(v, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

static void read_caps(struct pmu_ctx *ctx)
{
	struct pmu_caps *c = &ctx->caps;
	char path[512];
	long long v;
	unsigned long long eff;
	const struct pmu_dev *core = pmu__core_pmu(ctx);

	c->arch = ctx->cpu.arch;
	pmu__strlcpy(c->cpuid, ctx->cpu.cpuid, sizeof(c->cpuid));
	pmu__strlcpy(c->cpu_name, ctx->cpu.name, sizeof(c->cpu_name));
	c->cpuid_overridden = ctx->cpu.overridden;
	c->n_pmus = (unsigned)ctx->n_pmus;
	c->hw_pmu = core != NULL;
	pmu__strlcpy(c->core_pmu, core ? core->name : "", sizeof(c->core_pmu));
	c->hybrid = pmu__n_core_pmus(ctx) > 1 ? (int)pmu__n_core_pmus(ctx) : 0;
	c->paranoid = PMU_UNKNOWN;
	if (pmu__path(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid", ctx->procfs_root) == 0 &&
	    pmu__read_int(path, &v) == 0)
		c->paranoid = (int)v;
	c->user_access = PMU_UNKNOWN; /* arm64's and riscv's sysctl: x86 has none */
	if (c->arch != PMU_ARCH_X86 &&
	    pmu__path(path, sizeof(path), "%s/sys/kernel/perf_user_access", ctx->procfs_root) == 0 &&
	    pmu__read_int(path, &v) == 0)
		c->user_access = (int)v;
	c->rdpmc_mode = core ? core->rdpmc : PMU_UNKNOWN;
	c->cap_perfmon = c->cap_sys_admin = 0;
	if (effective_caps(ctx, &eff)) {
		c->cap_perfmon = (eff >> CAP_PERFMON_BIT) & 1;
		c->cap_sys_admin = (eff >> CAP_SYS_ADMIN_BIT) & 1;
	}
	c->can_count_kernel = c->cap_perfmon || c->cap_sys_admin ||
			      (c->paranoid != PMU_UNKNOWN && c->paranoid <= 1);
	c->fast_read = 0;
	if (c->hw_pmu && !ctx->cpu.overridden) {
#if defined(__x86_64__) || defined(__i386__)
		c->fast_read = c->arch == PMU_ARCH_X86 && c->rdpmc_mode >= 1;
#elif defined(__aarch64__)
		c->fast_read = c->arch == PMU_ARCH_ARM64 && c->user_access == 1;
#elif defined(__riscv)
		c->fast_read = c->arch == PMU_ARCH_RISCV && c->user_access >= 1;
#endif
	}
}

/* The contexts of the process, whose tables' locks fork takes (a child may use a context another thread
 * was loading), under live_lock. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pmu_ctx *live_head;

static void live_add(struct pmu_ctx *ctx)
{
	pthread_mutex_lock(&live_lock);
	ctx->live_next = live_head;
	if (live_head)
		live_head->live_prev = ctx;
	live_head = ctx;
	ctx->live = true;
	pthread_mutex_unlock(&live_lock);
}

static void live_remove(struct pmu_ctx *ctx)
{
	pthread_mutex_lock(&live_lock);
	if (ctx->live) {
		if (ctx->live_prev)
			ctx->live_prev->live_next = ctx->live_next;
		else
			live_head = ctx->live_next;
		if (ctx->live_next)
			ctx->live_next->live_prev = ctx->live_prev;
		ctx->live = false;
	}
	pthread_mutex_unlock(&live_lock);
}

static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;

void pmu__ctx_fork_lock(bool take)
{
	/* own_lock is held while a core context is made (live_lock inside it) */
	if (take) {
		pthread_mutex_lock(&own_lock);
		pthread_mutex_lock(&live_lock);
	}
	for (struct pmu_ctx *c = live_head; c; c = c->live_next)
		pmu__fork_mutex(&c->tables_lock, take);
	if (!take) {
		pthread_mutex_unlock(&live_lock);
		pthread_mutex_unlock(&own_lock);
	}
}

PMU_EXPORT int pmu_ctx_new(struct pmu_ctx **out, const struct pmu_ctx_opts *opts)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx;
	int r;

	pmu__err_clear();
	if (!out)
		return pmu__err(NULL, -EINVAL, "pmu_ctx_new: NULL output pointer");
	*out = NULL; /* on every failure below */
	memset(&o, 0, sizeof(o));
	if (opts) {
		if (opts->size < offsetof(struct pmu_ctx_opts, log_fn) || opts->size > 4096)
			return pmu__err(NULL, -EINVAL,
					"pmu_ctx_new: opts->size is %zu; set it to sizeof(struct pmu_ctx_opts)",
					opts->size);
		memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return pmu__err(NULL, -ENOMEM, "out of memory creating a context");
	pthread_mutex_init(&ctx->tables_lock, NULL);
	ctx->log_fn = o.log_fn;
	ctx->log_data = o.log_data;
	ctx->log_level = o.log_level;
	pmu__strlcpy(ctx->sysfs_root, env_or(o.sysfs_root, "PMU_SYSFS_ROOT", "/sys"), sizeof(ctx->sysfs_root));
	pmu__strlcpy(ctx->procfs_root, env_or(o.procfs_root, "PMU_PROCFS_ROOT", "/proc"),
		     sizeof(ctx->procfs_root));
	r = pmu__cpu_detect(ctx, env_or(o.cpuid, "PMU_CPUID", NULL));
	if (r == 0 && (r = events_path(ctx, o.events_path)) < 0)
		pmu__err(ctx, r, "out of memory creating a context");
	if (r == 0 && (r = pmu__sysfs_scan(ctx)) == -ENOMEM)
		pmu__err(ctx, r, "out of memory scanning the PMUs under %s/bus/event_source/devices", ctx->sysfs_root);
	if (r < 0) {
		pmu_ctx_free(ctx);
		return r;
	}
	read_caps(ctx);
	live_add(ctx);
	pmu__log(ctx, PMU_LOG_DEBUG, "cpu %s (%s), %zu PMUs under %s, core PMU %s", ctx->cpu.cpuid,
		 ctx->cpu.name, ctx->n_pmus, ctx->sysfs_root, ctx->caps.core_pmu[0] ? ctx->caps.core_pmu : "none");
	*out = ctx;
	return 0;
}

struct pmu_ctx *pmu__core_ctx(struct pmu_ctx *ctx, const struct pmu_dev *d)
{
	struct pmu_dev *w = (struct pmu_dev *)d; /* its context is kept in the shared context */
	struct pmu_ctx *own;
	struct pmu_ctx_opts o;
	int r;

	if (ctx->core_child || !d->is_core || !d->cpuid[0] || !strcmp(d->cpuid, ctx->cpu.cpuid))
		return ctx;
	if ((own = __atomic_load_n(&w->own, __ATOMIC_ACQUIRE)))
		return own;
	pthread_mutex_lock(&own_lock);
	if (!(own = w->own)) {
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.log_fn = ctx->log_fn;
		o.log_data = ctx->log_data;
		o.log_level = ctx->log_level;
		o.sysfs_root = ctx->sysfs_root;
		o.procfs_root = ctx->procfs_root;
		o.cpuid = d->cpuid;
		o.events_path = ctx->events_path;
		if ((r = pmu_ctx_new(&own, &o)) < 0) {
			char why[256];
			pmu__strlcpy(why, pmu__err_msg(), sizeof(why)); /* pmu__err writes the message it reads */
			pmu__err(ctx, r, "the %s PMU's CPUs (%s, %s): cannot make the context of their event tables: %s",
				 d->name, d->cpus ? d->cpus : "?", d->cpuid, why);
			own = NULL;
		} else {
			own->core_child = true;
			__atomic_store_n(&w->own, own, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&own_lock);
	return own;
}

PMU_EXPORT void pmu_ctx_free(struct pmu_ctx *ctx)
{
	if (!ctx)
		return;
	live_remove(ctx);
	for (size_t i = 0; i < ctx->n_pmus; i++)
		pmu_ctx_free(ctx->pmus[i].own); /* a core PMU's tables' context (pmu__core_ctx) */
	pmu__sysfs_free(ctx);
	pmu__tables_free(&ctx->tables);
	pthread_mutex_destroy(&ctx->tables_lock);
	free(ctx->events_path);
	free(ctx);
}

PMU_EXPORT int pmu_caps(struct pmu_ctx *ctx, struct pmu_caps *out)
{
	int r;

	pmu__err_clear();
	if (!ctx || !out)
		return pmu__err(ctx, -EINVAL, "pmu_caps: NULL context or output");
	*out = ctx->caps;
	/* the other fields are filled either way */
	if ((r = pmu__tables_load(ctx)) < 0)
		return pmu__err(ctx, r, "pmu_caps: cannot load the event tables to name the one for CPU %s: %s",
				ctx->cpu.cpuid, strerror(-r));
	if (ctx->tables.cpu_dir) {
		pmu__strlcpy(out->events_table, ctx->tables.cpu_dir, sizeof(out->events_table));
		pmu__strlcpy(out->events_table_root, ctx->tables.cpu_dir_root ? ctx->tables.cpu_dir_root : "",
			     sizeof(out->events_table_root));
	}
	return 0;
}

PMU_EXPORT size_t pmu_pmu_count(struct pmu_ctx *ctx)
{
	return ctx ? ctx->n_pmus : 0;
}

PMU_EXPORT int pmu_pmu_get(struct pmu_ctx *ctx, size_t i, struct pmu_pmu_info *out)
{
	int r;

	pmu__err_clear();
	if (!ctx || !out || i >= ctx->n_pmus)
		return pmu__err(ctx, -EINVAL, "pmu_pmu_get: index %zu out of range", i);
	if ((r = pmu__pmu_load(ctx, &ctx->pmus[i])) < 0)
		return r;
	memset(out, 0, sizeof(*out));
	pmu__strlcpy(out->name, ctx->pmus[i].name, sizeof(out->name));
	out->type = ctx->pmus[i].type;
	out->is_core = ctx->pmus[i].is_core;
	out->n_formats = (unsigned)ctx->pmus[i].n_formats;
	out->n_events = (unsigned)ctx->pmus[i].n_events;
	if (ctx->pmus[i].is_core && ctx->pmus[i].cpus) {
		const struct pmu_dev *d = &ctx->pmus[i];
		struct pmu_ctx *own = pmu__core_ctx(ctx, d);
		pmu__strlcpy(out->cpus, d->cpus, sizeof(out->cpus));
		pmu__strlcpy(out->cpuid, d->cpuid, sizeof(out->cpuid));
		pmu__core_type_name(ctx, d, out->core_type, sizeof(out->core_type));
		if (!own)
			return -ENOMEM; /* said by pmu__core_ctx */
		if (pmu__tables_load(own) == 0 && own->tables.cpu_dir)
			pmu__strlcpy(out->events_table, own->tables.cpu_dir, sizeof(out->events_table));
	}
	return 0;
}

struct sbuf {
	char *buf;
	size_t len, used;
};

static void PMU_PRINTF(2, 3) sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->used < b->len ? b->buf + b->used : NULL, b->used < b->len ? b->len - b->used : 0,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		b->used += (size_t)n;
}

PMU_EXPORT int pmu_advice(struct pmu_ctx *ctx, char *buf, size_t len)
{
	struct sbuf b = { buf, len, 0 };
	const struct pmu_caps *c;

	pmu__err_clear();
	if (!ctx || (!buf && len))
		return pmu__err(ctx, -EINVAL, "pmu_advice: NULL context or buffer");
	if (len)
		buf[0] = 0;
	c = &ctx->caps;
	if (!c->hw_pmu) {
		sb_add(&b, "No hardware PMU is exposed: %s/bus/event_source/devices holds only ", ctx->sysfs_root);
		for (size_t i = 0; i < ctx->n_pmus; i++)
			sb_add(&b, "%s%s", i ? ", " : "", ctx->pmus[i].name);
		if (!ctx->n_pmus)
			sb_add(&b, "nothing");
		sb_add(&b, ". This is what a virtual machine without a virtual PMU looks like. "
			    "Hardware events (cycles, instructions, cache and branch events) cannot be counted "
			    "here; software events can (task-clock, page-faults, context-switches, "
			    "cpu-migrations, minor-faults, major-faults). To count hardware events, run on "
			    "bare metal or enable the hypervisor's virtual PMU (QEMU/KVM: -cpu host,pmu=on; "
			    "libvirt: <pmu state='on'/>; VMware: 'Virtualize CPU performance counters'; "
			    "cloud: a bare-metal instance type).\n");
	} else if (c->hybrid) {
		/* named as this machine's core PMUs are: cpu_core and cpu_atom, armv8_cortex_a55 and ... */
		const char *first = NULL, *last = NULL;
		for (size_t i = 0; i < ctx->n_pmus; i++)
			if (ctx->pmus[i].is_core) {
				first = first ? first : ctx->pmus[i].name;
				last = ctx->pmus[i].name;
			}
		sb_add(&b, "%s CPU: %d core PMUs (pmu info lists each core type); an event that names no PMU "
			    "(cycles, INST.RET, a table event, rNNNN) is counted on each core type with its own "
			    "encoding, one value per type (%s/cycles/, %s/cycles/) and their total; name a PMU "
			    "(%s/cycles/) to count one type only.\n",
		       c->arch == PMU_ARCH_X86 ? "Hybrid" : "Heterogeneous", c->hybrid, first, last, last);
	}
	if (c->paranoid == PMU_UNKNOWN) {
		sb_add(&b, "kernel.perf_event_paranoid is unreadable: the kernel may lack perf events "
			    "(CONFIG_PERF_EVENTS).\n");
	} else if (!c->cap_sys_admin && (!c->cap_perfmon || c->paranoid >= 3)) {
		/* the levels: 2 own processes in user mode, 1 kernel mode too (and tracepoints, which fire
		 * there), 0 whole CPUs; above 2 (a distribution's addition) nothing without CAP_SYS_ADMIN */
		if (c->paranoid >= 3)
			sb_add(&b, "kernel.perf_event_paranoid=%d: processes without CAP_SYS_ADMIN cannot open any "
				    "perf event (a level above 2 is a distribution's addition; CAP_PERFMON is not "
				    "enough). Lower it: sudo sysctl kernel.perf_event_paranoid=2 counts your own "
				    "processes in user mode, 1 kernel mode and tracepoints too, 0 whole CPUs (pmu stat "
				    "-a); CAP_PERFMON then allows everything.\n", c->paranoid);
		else if (c->paranoid == 2)
			sb_add(&b, "kernel.perf_event_paranoid=2: your own processes can be counted in user "
				    "mode only (events get :u). To count kernel mode and tracepoints too: sudo sysctl "
				    "kernel.perf_event_paranoid=1 (0 to count whole CPUs, pmu stat -a), or grant "
				    "CAP_PERFMON.\n");
		else if (c->paranoid == 1)
			sb_add(&b, "kernel.perf_event_paranoid=1: user and kernel mode of your own processes can "
				    "be counted; counting whole CPUs (pmu stat -a) needs 0 (sudo sysctl "
				    "kernel.perf_event_paranoid=0) or CAP_PERFMON.\n");
		else
			sb_add(&b, "kernel.perf_event_paranoid=%d: user and kernel mode of your own "
				    "processes can be counted, and CPU-wide events too.\n", c->paranoid);
	} else {
		sb_add(&b, "Privileged (%s): every event and mode may be counted.\n",
		       c->cap_sys_admin ? "CAP_SYS_ADMIN" : "CAP_PERFMON");
	}
	if (c->hw_pmu && c->arch == PMU_ARCH_X86) {
		if (c->rdpmc_mode == 0)
			sb_add(&b, "User-space reads (rdpmc) are disabled: echo 1 | sudo tee "
				    "%s/bus/event_source/devices/%s/rdpmc (reads then go through read(2), "
				    "~50x slower).\n", ctx->sysfs_root, c->core_pmu);
		else if (c->rdpmc_mode >= 1)
			sb_add(&b, "User-space reads (rdpmc) are allowed (mode %d).\n", c->rdpmc_mode);
	}
	if (c->hw_pmu && (c->arch == PMU_ARCH_ARM64 || c->arch == PMU_ARCH_RISCV)) {
		if (c->user_access == 0)
			sb_add(&b, "User-space counter reads are disabled: sudo sysctl kernel.perf_user_access=1 "
				    "(reads then go through read(2) instead).\n");
		else if (c->user_access == 1)
			sb_add(&b, "User-space counter reads are allowed (kernel.perf_user_access=1).\n");
		else if (c->user_access == 2)
			sb_add(&b, "kernel.perf_user_access=2 (RISC-V legacy): cycle, time and instret CSRs are "
				    "readable by every process; libpmu still reads through the perf user page.\n");
	}
	if (c->cpuid_overridden)
		sb_add(&b, "CPU identity %s is an override (PMU_CPUID): tables are chosen for it, counting "
			    "happens on this machine.\n", c->cpuid);
	return (int)b.used;
}

int pmu__access_advice(const struct pmu_ctx *ctx, const struct pmu_access *a, char *buf, size_t len)
{
	const struct pmu_caps *c = &ctx->caps;
	/* perf_event_open(): whole CPUs need paranoid <= 0, kernel mode <= 1, user mode of one's own
	 * processes <= 2 (each, or CAP_PERFMON); above 2 (Debian's 3) nothing without CAP_SYS_ADMIN */
	int need = a->cpu_wide ? 0 : a->kernel ? 1 : 2;
	char what[96], user[PMU_NAME_MAX], alt[PMU_NAME_MAX + 48] = "";

	if (a->cpu_wide)
		snprintf(what, sizeof(what), "counting every task of CPU %d", a->cpu);
	else
		snprintf(what, sizeof(what), "%s", !a->kernel ? "counting user mode" : a->tracepoint ?
			 "counting a tracepoint (they fire in kernel mode)" : "counting kernel mode");
	if (c->paranoid == PMU_UNKNOWN)
		return snprintf(buf, len, "cannot open '%s': permission denied, and kernel.perf_event_paranoid cannot be "
				"read (%s/sys/kernel/perf_event_paranoid); %s needs it at %d or lower, or CAP_PERFMON",
				a->name, ctx->procfs_root, what, need);
	if (c->cap_sys_admin || (c->cap_perfmon && c->paranoid <= 2))
		return snprintf(buf, len, "cannot open '%s': refused although this process has %s, which allows %s: "
				"a security module (SELinux, AppArmor), lockdown or a container's seccomp policy denies "
				"perf events", a->name, c->cap_sys_admin ? "CAP_SYS_ADMIN" : "CAP_PERFMON", what);
	if (c->paranoid > need) {
		/* user mode only is a way out where that is allowed (2), counts something (not a tracepoint)
		 * and is not what the name already says */
		if (a->kernel && !a->cpu_wide && !a->tracepoint && c->paranoid == 2 &&
		    pmu__label_mode(user, sizeof(user), a->name, "u") == 0 && strcmp(user, a->name))
			snprintf(alt, sizeof(alt), "; or count user mode only with '%s'", user);
		if (c->paranoid > 2)
			return snprintf(buf, len, "cannot open '%s': kernel.perf_event_paranoid=%d forbids every perf "
					"event without CAP_SYS_ADMIN (a level above 2 is a distribution's addition), and %s "
					"needs %d or lower; run: sudo sysctl kernel.perf_event_paranoid=%d (CAP_PERFMON "
					"then allows everything)", a->name, c->paranoid, what, need, need);
		return snprintf(buf, len, "cannot open '%s': kernel.perf_event_paranoid=%d forbids %s without "
				"CAP_PERFMON (it needs %d or lower); run: sudo sysctl kernel.perf_event_paranoid=%d, or "
				"grant CAP_PERFMON (sudo setcap cap_perfmon+ep BINARY)%s", a->name, c->paranoid, what,
				need, need, alt);
	}
	if (a->other_process)
		return snprintf(buf, len, "cannot open '%s': counting another process needs the right to trace it (the "
				"same user, where kernel.yama.ptrace_scope allows it, or CAP_SYS_PTRACE) or CAP_PERFMON",
				a->name);
	return snprintf(buf, len, "cannot open '%s': kernel.perf_event_paranoid=%d allows %s, yet the kernel refused: "
			"a security module (SELinux, AppArmor), lockdown or a container's seccomp policy denies perf "
			"events", a->name, c->paranoid, what);
}
