/* SPDX-License-Identifier: MIT */
/* Event sets: resolve an event list, open perf_event groups, map the user
 * pages, enable/disable/reset through the group leaders. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>
#include "pmu.h"
#include "set.h"
#include "boxes.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "eventlist.h"
#include "fork.h"
#include "hybrid.h"
#include "modifiers.h"
#include "resolve.h"
#include "set-layout.h"
#include "sysfs.h"
#include "tables.h"
#include "tool.h"
#include "topdown.h"
#include "util.h"

#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)
/* The most events one group can hold with READ_FORMAT: the kernel (perf_validate_size) refuses a
 * group whose read, nr, enabled and running then a value and an id per event, passes 16 KiB */
#define GROUP_MAX_EVENTS ((size_t)(16 * 1024 - 3 * 8) / 16)

/* The plan's guard: a word holding the owner's thread pointer in a page the
 * kernel zeroes in a forked child. Where there is no such page (kernels
 * before 4.14), or the set counts another task or CPU, the guard is a word
 * that stays 0 and every read takes pmu_fast_slow(). */
static const uintptr_t guard_never;

/* perf_event_open() of @attr for @s: task @pid (-1: every task) on CPU @cpu. In a cgroup's set every
 * task of the CPU is the tasks of the cgroup: the kernel takes its descriptor for the pid. */
static int sys_perf_event_open(const struct pmu_set *s, struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd)
{
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;

	if (s->cgroup_fd >= 0 && pid == -1) {
		pid = s->cgroup_fd;
		flags |= PERF_FLAG_PID_CGROUP;
	}
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static const char *type_name(uint32_t t)
{
	switch (t) {
	case PERF_TYPE_HARDWARE: return "hardware";
	case PERF_TYPE_SOFTWARE: return "software";
	case PERF_TYPE_TRACEPOINT: return "tracepoint";
	case PERF_TYPE_HW_CACHE: return "hw-cache";
	case PERF_TYPE_RAW: return "raw";
	case PERF_TYPE_BREAKPOINT: return "breakpoint";
	default: return "dynamic PMU";
	}
}

static bool needs_hw_pmu(const struct pmu_ev *e)
{
	return e->attr.type == PERF_TYPE_HARDWARE || e->attr.type == PERF_TYPE_HW_CACHE ||
	       e->attr.type == PERF_TYPE_RAW;
}

/* The kernel refused @e (EACCES, EPERM), asked for task @pid on CPU @cpu (perf_event_open's), counting
 * kernel mode or not (@kernel): why, and what allows it. */
static int access_error(struct pmu_set *s, const struct pmu_ev *e, int err, bool kernel, pid_t pid, int cpu)
{
	struct pmu_access a;
	char msg[900];

	memset(&a, 0, sizeof(a));
	a.name = e->info.name;
	a.kernel = kernel;
	a.tracepoint = e->attr.type == PERF_TYPE_TRACEPOINT;
	a.cpu_wide = pid == -1;
	a.cpu = cpu;
	a.other_process = (s->flags & PMU_SET_PID) && pid > 0 && pid != getpid();
	pmu__access_advice(s->ctx, &a, msg, sizeof(msg));
	return pmu__err_hold(-err, "%s", msg);
}

/* Is @cpu among the CPUs online in the context's sysfs (true where that cannot be read)? @online gets
 * the list ("0-1"). The kernel refuses a CPU beyond its last with EINVAL, as it refuses an attribute. */
static bool cpu_online(const struct pmu_ctx *ctx, int cpu, char *online, size_t len)
{
	struct pmu_cpulist c;
	char path[512];

	if (pmu__path(path, sizeof(path), "%s/devices/system/cpu/online", ctx->sysfs_root) < 0 ||
	    pmu__read_file(path, online, len) < 0 || pmu__cpulist(online, cpu, &c) < 0)
		return true;
	online[strcspn(online, "\n")] = 0;
	return c.has;
}

/*
 * The kernel refused @e of a cgroup's set with EBADF or ENOENT, on CPU @cpu: because of the cgroup's
 * descriptor? EBADF: it is not a cgroup directory. ENOENT: either the perf_event controller is not in
 * the cgroup's hierarchy or the event does not exist; a software event opened the same way tells them
 * apart. The sentence held, or 0 when the cgroup is not the cause.
 */
static int cgroup_error(struct pmu_set *s, const struct pmu_ev *e, int err, int cpu)
{
	struct perf_event_attr probe;
	struct statfs fs;
	struct stat st;
	int fd = s->cgroup_fd, pfd;

	if (fstat(fd, &st) < 0)
		return pmu__err_hold(-EBADF, "cannot open '%s' for cgroup_fd %d: it is not an open descriptor (%s); "
				     "open the cgroup's directory and keep it open until pmu_set_open() returns",
				     e->info.name, fd, strerror(errno));
	if (!S_ISDIR(st.st_mode) || fstatfs(fd, &fs) < 0 ||
	    (fs.f_type != CGROUP2_SUPER_MAGIC && fs.f_type != CGROUP_SUPER_MAGIC))
		return pmu__err_hold(-EBADF, "cannot open '%s' for cgroup_fd %d: it is not a cgroup's directory; "
				     "open the directory of the cgroup in its cgroup file system (cgroup2 mounted at "
				     "/sys/fs/cgroup, see /proc/self/mounts)", e->info.name, fd);
	if (err != ENOENT)
		return 0;
	memset(&probe, 0, sizeof(probe));
	probe.size = sizeof(probe);
	probe.type = PERF_TYPE_SOFTWARE;
	probe.config = PERF_COUNT_SW_DUMMY;
	probe.disabled = 1;
	if ((pfd = sys_perf_event_open(s, &probe, -1, cpu, -1)) >= 0)
		close(pfd); /* the cgroup takes events: the event is what does not exist */
	if (pfd >= 0 || errno != ENOENT)
		return 0;
	return pmu__err_hold(-err, "cannot open '%s' for cgroup_fd %d: the kernel has no perf_event controller in "
			     "that cgroup's hierarchy (cgroup v1 without perf_event, or cgroup v2 while perf_event "
			     "is bound to a v1 hierarchy: /proc/self/cgroup names it); open the cgroup in the "
			     "hierarchy that has perf_event", e->info.name, fd);
}

/* One sentence naming the event, the cause and the fix (@pid, @cpu: what perf_event_open was asked). */
static int open_error(struct pmu_set *s, const struct pmu_ev *e, int err, bool member, pid_t pid, int cpu)
{
	struct pmu_ctx *ctx = s->ctx;
	const struct pmu_caps *c = &ctx->caps;
	char enc[160], online[256];
	int r;

	if (s->cgroup_fd >= 0 && (err == EBADF || err == ENOENT) && !(needs_hw_pmu(e) && !c->hw_pmu) &&
	    (r = cgroup_error(s, e, err, cpu)) < 0)
		return r;
	snprintf(enc, sizeof(enc), "type %u (%s) config 0x%llx%s", e->attr.type, type_name(e->attr.type),
		 (unsigned long long)e->attr.config, e->attr.config1 ? " config1 set" : "");
	switch (err) {
	case EACCES:
	case EPERM:
		return access_error(s, e, err, !e->attr.exclude_kernel, pid, cpu);
	case ENOENT:
		if (needs_hw_pmu(e) && !c->hw_pmu)
			return pmu__err_hold(-ENOENT,
					"cannot open '%s': no hardware PMU is exposed on this machine (a virtual "
					"machine without a virtual PMU?); only software events such as task-clock, "
					"page-faults, context-switches can be counted ('pmu info' explains)",
					e->info.name);
		return pmu__err_hold(-ENOENT,
				"cannot open '%s' (%s): the kernel's %s PMU does not support this event here",
				e->info.name, enc, e->info.pmu);
	case EINVAL:
		if (member)
			return pmu__err_hold(-EINVAL,
					"cannot add '%s' to its group: the kernel refused the group (more events "
					"than counters, or events of different PMUs: %s); split the {...} group or "
					"list the events without braces so they are multiplexed",
					e->info.name, e->info.pmu);
		if (e->attr.precise_ip)
			return pmu__err_hold(-EINVAL,
					"cannot open '%s' (%s): the %s PMU rejected precise_ip %u (modifier p): it is "
					"a sampling attribute, which x86 PMUs refuse for counting; drop the p",
					e->info.name, enc, e->info.pmu, (unsigned)e->attr.precise_ip);
		if (cpu >= 0 && !cpu_online(ctx, cpu, online, sizeof(online)))
			return pmu__err_hold(-EINVAL,
					"cannot open '%s' on CPU %d: this machine has no CPU %d online (the CPUs "
					"online are %s, %s/devices/system/cpu/online); open the set on one of those",
					e->info.name, cpu, cpu, online, ctx->sysfs_root);
		return pmu__err_hold(-EINVAL,
				"cannot open '%s' (%s): the %s PMU rejected an attribute (config bits it does "
				"not know, or an exclude_* mode it cannot filter; try without modifiers)",
				e->info.name, enc, e->info.pmu);
	case EOPNOTSUPP:
		if (e->attr.precise_ip || e->attr.exclude_host || e->attr.exclude_guest)
			return pmu__err_hold(-EOPNOTSUPP,
					"cannot open '%s': the %s PMU does not support %s here; drop the %s modifier",
					e->info.name, e->info.pmu, e->attr.precise_ip ? "this precise_ip level" :
					"counting host or guest alone", e->attr.precise_ip ? "p" : "G or H");
		return pmu__err_hold(-EOPNOTSUPP,
				"cannot open '%s': the %s PMU does not support this mode (e.g. user/kernel "
				"filtering); drop the :u/:k modifier", e->info.name, e->info.pmu);
	case EMFILE:
	case ENFILE:
		return pmu__err_hold(-err,
				"cannot open '%s': out of file descriptors (one per event); raise the limit "
				"(ulimit -n) or count fewer events", e->info.name);
	case EBUSY:
		return pmu__err_hold(-EBUSY,
				"cannot open '%s': the PMU is busy (an exclusive user such as another profiler "
				"or the hypervisor holds it)", e->info.name);
	case ESRCH:
		return pmu__err_hold(-ESRCH, "cannot open '%s': no task with pid %d", e->info.name,
				(int)s->pid);
	case ENODEV:
		return pmu__err_hold(-ENODEV, "cannot open '%s': the CPU or PMU it needs does not exist here",
				e->info.name);
	case ENOSPC:
		return pmu__err_hold(-ENOSPC, "cannot open '%s': no counter or breakpoint slot left",
				e->info.name);
	case E2BIG:
		/* a member: the kernel's limit on one read of the whole group (GROUP_MAX_EVENTS) */
		if (member)
			return pmu__err_hold(-E2BIG,
					"cannot add '%s' to its group of %u events: the kernel reads a group whole, "
					"in at most 16 KiB, which holds %zu events as libpmu reads them; split the "
					"{...} group (or list the events without braces)", e->info.name,
					s->g[e->group].n, GROUP_MAX_EVENTS);
		return pmu__err_hold(-E2BIG,
				"cannot open '%s': this kernel does not understand the perf_event_attr size "
				"libpmu was built with (kernel older than the headers)", e->info.name);
	default:
		return pmu__err_hold(-err, "cannot open '%s' (%s): %s", e->info.name, enc, strerror(err));
	}
}

static void fill_attr(struct pmu_set *s, struct pmu_ev *e)
{
	struct perf_event_attr *a = &e->attr;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = e->info.type;
	a->config = e->info.config;
	a->config1 = e->info.config1;
	a->config2 = e->info.config2;
#ifdef PERF_ATTR_SIZE_VER8
	a->config3 = e->info.config3;
#endif
	a->read_format = READ_FORMAT;
	a->exclude_user = !!(e->info.flags & PMU_EVF_EXCL_USER);
	a->exclude_kernel = !!(e->info.flags & PMU_EVF_EXCL_KERNEL);
	a->exclude_hv = !!(e->info.flags & PMU_EVF_EXCL_HV);
	a->exclude_host = !!(e->info.flags & PMU_EVF_EXCL_HOST);
	a->exclude_guest = !!(e->info.flags & PMU_EVF_EXCL_GUEST);
	a->precise_ip = PMU_EVF_PRECISE_IP(e->info.flags);
	a->inherit = !!(s->flags & PMU_SET_INHERIT);
}

#if defined(__aarch64__)
/* Whether to ask the arm64 PMU driver for EL0 counter access (config1 bit 1) for @e opened for task @pid:
 * an event of a core PMU counting a task (the driver refuses it for every task of a CPU, pid -1: EINVAL),
 * read in user space (not PMU_SET_NO_FAST). Decided at the open: a plan's targets differ. */
static bool el0_access(const struct pmu_set *s, const struct pmu_ev *e, pid_t pid)
{
	const struct pmu_dev *d;

	if (pid == -1 || (e->info.flags & PMU_EVF_SOFTWARE) || e->tool || s->ctx->cpu.arch != PMU_ARCH_ARM64 ||
	    (s->flags & PMU_SET_NO_FAST))
		return false;
	return e->info.type == PERF_TYPE_HARDWARE || e->info.type == PERF_TYPE_HW_CACHE ||
	       e->info.type == PERF_TYPE_RAW || ((d = pmu__pmu_by_type(s->ctx, e->info.type)) && d->is_core);
}
#endif

/* A mode a whole set counts (PMU_SET_USER_ONLY, PMU_SET_KERNEL_ONLY): the modifier that spells it,
 * the PMU_EVF_EXCL_* bits that leave only it, and the words its refusal uses. */
struct set_mode {
	unsigned flag;          /* enum pmu_set_flags */
	const char *mod;        /* "u", "k" */
	unsigned excl;          /* the modes it excludes */
	const char *flag_name, *others;
};

static const struct set_mode set_modes[] = {
	/* first: the user-mode fallback's mode too (open_one) */
	{ PMU_SET_USER_ONLY, "u", PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV, "PMU_SET_USER_ONLY", "kernel or hypervisor" },
	{ PMU_SET_KERNEL_ONLY, "k", PMU_EVF_EXCL_USER | PMU_EVF_EXCL_HV, "PMU_SET_KERNEL_ONLY", "user or hypervisor" },
};

/* Count @e in mode @m only, named as perf names it ("cycles:u", "cpu/event=0x3c/k"), its flags and
 * attribute as the modifier would make them. */
static int make_mode_only(struct pmu_ev *e, const struct set_mode *m)
{
	char label[PMU_NAME_MAX];
	int r = pmu__label_mode(label, sizeof(label), e->info.name, m->mod);

	if (r < 0)
		return r;
	pmu__strlcpy(e->info.name, label, sizeof(e->info.name));
	e->info.flags |= m->excl;
	e->attr.exclude_user = !!(e->info.flags & PMU_EVF_EXCL_USER);
	e->attr.exclude_kernel = !!(e->info.flags & PMU_EVF_EXCL_KERNEL);
	e->attr.exclude_hv = !!(e->info.flags & PMU_EVF_EXCL_HV);
	return 0;
}

/* The events of @s that count user mode only because kernel.perf_event_paranoid forbids kernel mode
 * (PMU_EVF_USER_FALLBACK), said in one warning naming them all (it was one warning per event). */
static void fallback_said(const struct pmu_set *s)
{
	char names[1024] = "";
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		if ((s->ev[i].info.flags & PMU_EVF_USER_FALLBACK) && n++ < 16)
			pmu__list_add(names, sizeof(names), s->ev[i].info.name);
	if (n && !(s->flags & PMU_SET_QUIET_FALLBACK))
		pmu__log(s->ctx, PMU_LOG_WARN, "%s count%s user mode only%s: kernel.perf_event_paranoid=%d forbids "
			 "kernel mode (sudo sysctl kernel.perf_event_paranoid=1, or CAP_PERFMON, counts it)", names,
			 n == 1 ? "s" : "", n > 16 ? " (and more)" : "", s->ctx->caps.paranoid);
}

static int open_one(struct pmu_set *s, struct pmu_ev *e, pid_t pid, int cpu, int group_fd, bool member)
{
	int fd, err;

	fd = sys_perf_event_open(s, &e->attr, pid, cpu, group_fd);
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !e->mode_written && !e->attr.exclude_kernel &&
	    !s->ctx->caps.can_count_kernel && e->attr.type != PERF_TYPE_TRACEPOINT) {
		/*
		 * As perf does: paranoid >= 2 still allows user-mode counting, for
		 * an event whose mode nobody chose. The label says so; an event
		 * with a modifier is opened as written or not at all. Not a
		 * tracepoint: it fires in kernel mode, and would count nothing.
		 */
		struct pmu_ev u = *e;
		err = errno;
		if (make_mode_only(&u, &set_modes[0]) == 0) {
			fd = sys_perf_event_open(s, &u.attr, pid, cpu, group_fd);
			if (fd < 0 && (errno == EACCES || errno == EPERM))
				return access_error(s, e, errno, false, pid, cpu); /* not even user mode: why */
			if (fd < 0 && (errno == ENOENT || errno == ENODEV)) {
				/* no mode counts it: the event or its PMU is absent (cycles without a
				 * hardware PMU), as perf says "<not supported>" of "cycles:u" */
				*e = u;
				return open_error(s, e, errno, member, pid, cpu);
			}
			if (fd < 0)
				return pmu__err_hold(-err,
						"cannot open '%s': kernel.perf_event_paranoid=%d forbids kernel mode "
						"without CAP_PERFMON, and the %s PMU cannot count user mode only (%s); "
						"lower the setting (sudo sysctl kernel.perf_event_paranoid=1) or grant "
						"CAP_PERFMON", e->info.name, s->ctx->caps.paranoid, e->info.pmu,
						strerror(errno));
		}
		if (fd >= 0) {
			*e = u; /* said once for the set (fallback_said) */
			e->info.flags |= PMU_EVF_USER_FALLBACK;
		}
		errno = err;
	}
	if (fd < 0) {
		err = errno;
		return open_error(s, e, err, member, pid, cpu);
	}
	e->fd = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &e->id) < 0) {
		err = errno;
		return pmu__err_hold(-err, "'%s': cannot get the event id (PERF_EVENT_IOC_ID): %s",
				e->info.name, strerror(err));
	}
	return 0;
}

/* The PMU of @e when it counts CPUs, not tasks (a cpumask: RAPL, uncore), else NULL. */
static const struct pmu_dev *cpu_counting(const struct pmu_set *s, const struct pmu_ev *e)
{
	const struct pmu_dev *d;

	if (e->tool || (e->info.flags & PMU_EVF_SOFTWARE) || e->info.type < PERF_TYPE_MAX ||
	    !(d = pmu__pmu_by_type(s->ctx, e->info.type)) || pmu__pmu_load(s->ctx, d) < 0)
		return NULL;
	return d->cpumask ? d : NULL;
}

const char *pmu__set_cpu_counted(const struct pmu_set *s, const char **pmu)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct pmu_dev *d = cpu_counting(s, &s->ev[i]);
		if (d) {
			*pmu = d->name;
			return s->ev[i].info.name;
		}
	}
	return NULL;
}

/*
 * Where to open a group led by @e, an event of @d, a PMU that counts CPUs, not tasks: one package or
 * die each, on the CPUs of its cpumask (the kernel refuses a task, and counts the package of another
 * CPU there too: summed over every CPU of -a, each package would be counted once per CPU, not once).
 * A set of all tasks of a CPU: there when the cpumask has that CPU (0); else -ENODEV, or with @skip
 * (PMU_SET_SKIP_UNSUPPORTED) not at all and quietly (1). A set of a task: on the cpumask's first CPU
 * (*@cpu), every task, as perf stat does; on its other CPUs too (open_replicas), the packages summed.
 * Each error with its fix.
 */
static int cpu_wide_place(struct pmu_set *s, const struct pmu_ev *e, const struct pmu_dev *d, bool skip, int *cpu)
{
	struct pmu_cpulist c;

	if (pmu__cpulist(d->cpumask, s->cpu, &c) < 0)
		return 0; /* checked when read */
	if (s->pid == -1 && (c.has || skip))
		return c.has ? 0 : 1;
	if (s->pid == -1)
		return pmu__err_hold(-ENODEV,
				"cannot open '%s' on CPU %d: the %s PMU counts a package or die on the CPUs of its "
				"cpumask (%s), not on CPU %d; open it on one of those", e->info.name, s->cpu, d->name,
				d->cpumask, s->cpu);
	*cpu = (int)c.first;
	return 0;
}

/* Group @g (cpu-wide, opened on the first CPU of @d's cpumask) opened again on each other CPU of the
 * cpumask, every task there, its leader's settings as the group's: 0, or the error held (said by the
 * caller); what was opened is closed by pmu_set_close. */
static int open_replicas(struct pmu_set *s, struct pmu_grp *g, const struct pmu_dev *d)
{
	struct pmu_cpulist c, in;
	uint32_t r = 0;

	if (pmu__cpulist(d->cpumask, -1, &c) < 0 || c.count < 2)
		return 0;
	if (!(g->rep_fd = malloc((size_t)(c.count - 1) * g->n * sizeof(*g->rep_fd))) ||
	    !(g->rep_id = calloc((size_t)(c.count - 1) * g->n, sizeof(*g->rep_id))) ||
	    !(g->rep_cpu = calloc((size_t)(c.count - 1), sizeof(*g->rep_cpu))) ||
	    !(g->rep_box = calloc((size_t)(c.count - 1), sizeof(*g->rep_box))))
		return pmu__err_hold(-ENOMEM, "out of memory opening '%s' on the CPUs of its cpumask (%s)",
				     s->ev[g->first].info.name, d->cpumask);
	for (size_t k = 0; k < (size_t)(c.count - 1) * g->n; k++)
		g->rep_fd[k] = -1;
	for (long cpu = c.first + 1; cpu < c.top && r < c.count - 1; cpu++) {
		if (pmu__cpulist(d->cpumask, cpu, &in) < 0 || !in.has)
			continue;
		g->nrep = r + 1; /* closed by pmu_set_close from here on */
		g->rep_cpu[r] = (int)cpu;
		for (uint32_t k = 0; k < g->n; k++) {
			struct pmu_ev one = s->ev[g->first + k]; /* its attr as the first CPU's opened it */
			int err;
			one.fd = -1;
			err = open_one(s, &one, -1, (int)cpu, k ? g->rep_fd[r * g->n] : -1, k && g->explicit_group);
			g->rep_fd[r * g->n + k] = one.fd; /* closed with the set, also when its id could not be read */
			g->rep_id[r * g->n + k] = one.id;
			if (err < 0)
				return err;
		}
		r++;
	}
	return 0;
}

/* Where the copies of a group of an uncore unit's boxes go beyond the one opened (box @pbox, CPU @cpu0):
 * each other box on @cpu0; in a task's set counting CPUs (@cpu_wide) each box on each CPU of its cpumask,
 * box 0's first CPU excepted, as perf opens each box on its cpumask's CPUs; in a set of a CPU, a box whose
 * cpumask lacks that CPU is left to the set of one it has. With @fd NULL counts them; else box b and CPU
 * of copy r into @box[r], @cpu[r]. */
static uint32_t box_copies(struct pmu_set *s, const struct pmu_ev *e, uint32_t pbox, bool cpu_wide, int cpu0,
			   uint32_t *box, int *cpu)
{
	uint32_t r = 0;

	for (uint32_t b = 0; b < e->nboxes; b++) {
		const struct pmu_dev *d = s->box[e->box + b].dev;
		struct pmu_cpulist c, in;
		bool mask = d && pmu__pmu_load(s->ctx, d) == 0 && d->cpumask && pmu__cpulist(d->cpumask, s->cpu, &c) == 0;
		if (!cpu_wide || !mask) {
			if (b != pbox && (!mask || s->pid != -1 || c.has)) {
				if (box) {
					box[r] = b;
					cpu[r] = cpu0;
				}
				r++;
			}
			continue;
		}
		for (long k = c.first; k < c.top; k++) {
			if (pmu__cpulist(d->cpumask, k, &in) < 0 || !in.has || (b == pbox && k == cpu0))
				continue;
			if (box) {
				box[r] = b;
				cpu[r] = (int)k;
			}
			r++;
		}
	}
	return r;
}

/*
 * In a set of a CPU (every task of it: -a), the box group @g of an uncore unit's boxes is opened on: the
 * first box whose cpumask has the CPU, its encodings made the members' own (g->pbox), its PMU returned;
 * NULL (box 0 as resolved) when that is box 0, for a task's set, or when no box counts on the CPU. Boxes
 * of one unit may count different packages (AMD's amd_umc_N, a memory channel each: cpumask 0 on socket
 * 0's, 4 on socket 1's): box 0's cpumask alone would leave the other socket's boxes uncounted.
 */
static const struct pmu_dev *primary_box(struct pmu_set *s, struct pmu_grp *g)
{
	const struct pmu_ev *lead = &s->ev[g->first];
	struct pmu_cpulist c;

	if (s->pid != -1 || lead->nboxes < 2)
		return NULL;
	for (uint32_t b = 0; b < lead->nboxes; b++) {
		const struct pmu_dev *d = s->box[lead->box + b].dev;
		if (!d || pmu__pmu_load(s->ctx, d) < 0 || !d->cpumask || pmu__cpulist(d->cpumask, s->cpu, &c) < 0)
			return NULL;
		if (!c.has)
			continue;
		if (b == 0)
			return NULL;
		g->pbox = b;
		for (uint32_t k = 0; k < g->n; k++) {
			struct pmu_ev *e = &s->ev[g->first + k];
			const struct pmu_box_enc *x = &s->box[e->box + b];
			e->attr.type = x->type;
			e->attr.config = x->config;
			e->attr.config1 = x->config1;
			e->attr.config2 = x->config2;
#ifdef PERF_ATTR_SIZE_VER8
			e->attr.config3 = x->config3;
#endif
		}
		return d;
	}
	return NULL;
}

/* Group @g of an uncore unit's boxes (opened on box g->pbox, CPU @cpu0, task @pid) opened again on each other box
 * with that box's encodings, on the CPUs box_copies() says, its leader's settings as the group's: 0, or
 * the error held (said by the caller); what was opened is closed by pmu_set_close. */
static int open_boxes(struct pmu_set *s, struct pmu_grp *g, bool cpu_wide, pid_t pid, int cpu0)
{
	const struct pmu_ev *lead = &s->ev[g->first];
	uint32_t n = box_copies(s, lead, g->pbox, cpu_wide, cpu0, NULL, NULL), *box;
	int *cpu, err = 0;

	if (!n)
		return 0;
	box = calloc(n, sizeof(*box));
	cpu = calloc(n, sizeof(*cpu));
	if (!box || !cpu || !(g->rep_fd = malloc((size_t)n * g->n * sizeof(*g->rep_fd))) ||
	    !(g->rep_id = calloc((size_t)n * g->n, sizeof(*g->rep_id)))) {
		free(box);
		free(cpu);
		return pmu__err_hold(-ENOMEM, "out of memory opening '%s' on each box of %s", lead->info.name,
				     lead->info.pmu);
	}
	box_copies(s, lead, g->pbox, cpu_wide, cpu0, box, cpu);
	g->rep_box = box; /* freed with the group */
	g->rep_cpu = cpu;
	for (size_t k = 0; k < (size_t)n * g->n; k++)
		g->rep_fd[k] = -1;
	for (uint32_t r = 0; r < n && !err; r++) {
		g->nrep = r + 1; /* closed by pmu_set_close from here on */
		for (uint32_t k = 0; k < g->n && !err; k++) {
			struct pmu_ev one = s->ev[g->first + k]; /* its attr as box pbox's opened it */
			const struct pmu_box_enc *b = &s->box[one.box + box[r]];
			one.fd = -1;
			one.attr.type = b->type;
			one.attr.config = b->config;
			one.attr.config1 = b->config1;
			one.attr.config2 = b->config2;
#ifdef PERF_ATTR_SIZE_VER8
			one.attr.config3 = b->config3;
#endif
			if (b->dev) /* the box in what the kernel's refusal is said of */
				pmu__strlcpy(one.info.pmu, b->dev->name, sizeof(one.info.pmu));
			err = open_one(s, &one, pid, cpu[r], k ? g->rep_fd[r * g->n] : -1, k && g->explicit_group);
			g->rep_fd[r * g->n + k] = one.fd; /* closed with the set, also when its id could not be read */
			g->rep_id[r * g->n + k] = one.id;
		}
	}
	return err;
}

static void map_page(struct pmu_set *s, size_t i)
{
	void *p = mmap(NULL, s->page_size, PROT_READ, MAP_SHARED, s->ev[i].fd, 0);

	if (p == MAP_FAILED) {
		pmu__log(s->ctx, PMU_LOG_DEBUG, "'%s': no user page (mmap: %s); reads use read(2)",
			 s->ev[i].info.name, strerror(errno));
		s->pages[i] = NULL;
		return;
	}
	s->pages[i] = p;
	/* touch it now so the first fast read does not fault */
	(void)*(volatile uint32_t *)&s->pages[i]->lock;
}

PMU_EXPORT void pmu_set_close(struct pmu_set *s)
{
	if (!s)
		return;
	/* also a set whose allocation failed half way (s->n set, arrays NULL) */
	for (size_t i = 0; i < s->n; i++) {
		if (s->pages && i < s->npages && s->pages[i])
			munmap(s->pages[i], s->page_size);
		if (s->ev && s->ev[i].fd >= 0)
			close(s->ev[i].fd);
		if (s->ev)
			pmu__tool_close(s->ev[i].tool);
	}
	for (size_t g = 0; g < s->ngroups && s->g; g++) {
		for (size_t k = 0; k < (size_t)s->g[g].nrep * s->g[g].n; k++)
			if (s->g[g].rep_fd[k] >= 0)
				close(s->g[g].rep_fd[k]);
		free(s->g[g].rep_fd);
		free(s->g[g].rep_id);
		free(s->g[g].rep_cpu);
		free(s->g[g].rep_box);
		free(s->g[g].buf);
		if (s->g[g].buf)
			pthread_mutex_destroy(&s->g[g].lock);
	}
	if (s->guard_page)
		munmap(s->guard_page, s->page_size);
	pmu__hybrid_presence_close(s);
	free(s->box);
	free(s->g);
	free(s->ev);
	free(s->pages);
	free(s->fgroups);
	free(s);
}

static int build_groups(struct pmu_set *s, const struct pmu_speclist *l)
{
	int last_explicit = -1;

	s->g = calloc(s->n ? s->n : 1, sizeof(*s->g));
	if (!s->g)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		int eg = l->v[i].group;
		if (eg < 0 || eg != last_explicit) {
			struct pmu_grp *g = &s->g[s->ngroups++];
			g->first = (uint32_t)i;
			g->leader_fd = -1;
			g->explicit_group = eg >= 0;
		}
		s->g[s->ngroups - 1].n++;
		s->ev[i].group = (unsigned)(s->ngroups - 1);
		last_explicit = eg;
	}
	for (size_t gi = 0; gi < s->ngroups; gi++) {
		struct pmu_grp *g = &s->g[gi];
		g->buflen = (3 + 2 * (size_t)g->n) * sizeof(uint64_t);
		g->buf = malloc(g->buflen);
		pthread_mutex_init(&g->lock, NULL);
		if (!g->buf)
			return -ENOMEM;
	}
	return 0;
}

/* The read plan arrays are sized by the number of events: resize them after the list changed. */
static int resize_plan(struct pmu_set *s)
{
	size_t k = s->n ? s->n : 1;
	struct perf_event_mmap_page **np = realloc(s->pages, k * sizeof(*np));
	struct pmu_fast_group *nf = realloc(s->fgroups, k * sizeof(*nf));

	if (np)
		s->pages = np;
	if (nf)
		s->fgroups = nf;
	if (!np || !nf) {
		if (np && k < s->npages)
			s->npages = k;
		return pmu__err(s->ctx, -ENOMEM, "out of memory");
	}
	memset(s->pages, 0, k * sizeof(*np));
	s->npages = k;
	return 0;
}

/* PMU_SET_USER_ONLY, PMU_SET_KERNEL_ONLY: every event counts that mode only, and its label says so; an
 * event whose own modifier chose another mode is refused, not changed. Then each is opened exactly so,
 * never with the user-mode fallback (mode_written). Tool events have no mode. */
static int mode_only(struct pmu_set *s)
{
	const unsigned all = PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV;
	const struct set_mode *m = NULL;

	for (size_t k = 0; k < ARRAY_SIZE(set_modes); k++)
		if (s->flags & set_modes[k].flag)
			m = &set_modes[k];
	if (!m)
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		struct pmu_ev *e = &s->ev[i];
		if (e->info.flags & PMU_EVF_TOOL)
			continue; /* measured by libpmu: no mode */
		if (e->mode_written && (e->info.flags & all) != m->excl)
			return pmu__err(s->ctx, -EINVAL,
					"'%s' asks for %s mode, but the set is opened with %s; drop the modifier "
					"or the flag", e->info.name, m->others, m->flag_name);
		if (!e->mode_written && make_mode_only(e, m) < 0)
			return pmu__err(s->ctx, -EINVAL, "event name '%s' is too long to add ':%s' to", e->info.name,
					m->mod);
		e->mode_written = true;
	}
	return 0;
}

/* @s counts the target of @o, with its flags. */
static void set_target(struct pmu_set *s, const struct pmu_set_opts *o)
{
	s->flags = o->flags;
	s->pid = (o->flags & PMU_SET_PID) ? o->pid : (o->flags & PMU_SET_CPU) ? -1 : 0;
	s->cpu = (o->flags & PMU_SET_CPU) ? o->cpu : -1;
	s->cgroup_fd = (o->flags & PMU_SET_CGROUP) ? o->cgroup_fd : -1;
}

/* Each box's encoding of every event of an uncore unit's boxes (PMU_EVF_BOXES, resolved on its first box),
 * as list @l wrote it (boxes.c), kept in the set's box array. 0, or the error said. */
static int plan_boxes(struct pmu_set *s, const struct pmu_speclist *l)
{
	for (size_t i = 0; i < s->n; i++) {
		struct pmu_ev *e = &s->ev[i];
		struct pmu_event_info *v;
		struct pmu_box_enc *nb = NULL;
		const struct pmu_dev **dev;
		int n;
		if (!(e->info.flags & PMU_EVF_BOXES))
			continue;
		v = calloc(e->info.boxes, sizeof(*v));
		dev = calloc(e->info.boxes, sizeof(*dev));
		if (!v || !dev) {
			free(v);
			free(dev);
			return pmu__err(s->ctx, -ENOMEM, "out of memory resolving '%s' on each box", e->info.name);
		}
		n = pmu__boxes_resolve(s->ctx, l->v[i].name, l->v[i].group_mods, &e->info, v, e->info.boxes);
		if (n > (int)e->info.boxes)
			n = pmu__err(s->ctx, -EINVAL, "'%s': its unit %s has %d boxes now, %u when resolved", e->info.name,
				     e->info.pmu, n, (unsigned)e->info.boxes);
		if (n > 0 && !(nb = realloc(s->box, (s->nbox + (size_t)n) * sizeof(*nb))))
			n = pmu__err(s->ctx, -ENOMEM, "out of memory resolving '%s' on each box", e->info.name);
		else if (n > 0)
			s->box = nb;
		if (n < 0) {
			free(v);
			free(dev);
			return n;
		}
		/* the boxes in the order they were resolved in (two boxes may share a type in a written tree) */
		pmu__tables_unit_boxes(s->ctx, e->info.pmu, dev, (size_t)n);
		s->box = nb;
		e->box = (uint32_t)s->nbox;
		e->nboxes = (uint32_t)n;
		for (int b = 0; b < n; b++) {
			struct pmu_box_enc *x = &nb[s->nbox + (size_t)b];
			x->dev = dev[b];
			x->type = v[b].type;
			x->config = v[b].config;
			x->config1 = v[b].config1;
			x->config2 = v[b].config2;
			x->config3 = v[b].config3;
		}
		s->nbox += (size_t)n;
		free(v);
		free(dev);
	}
	return 0;
}

/* A {group} with an event of an uncore unit's boxes: every member counted on the same boxes, the group
 * copied to each box, as perf regroups such a list per box; a member of another PMU or unit refused. */
static int boxes_grouped(const struct pmu_set *s)
{
	for (size_t gi = 0; gi < s->ngroups; gi++) {
		const struct pmu_grp *g = &s->g[gi];
		const struct pmu_ev *a = &s->ev[g->first];
		for (uint32_t k = 1; k < g->n; k++) {
			const struct pmu_ev *e = &s->ev[g->first + k];
			bool same = a->nboxes == e->nboxes;
			for (uint32_t b = 0; same && b < a->nboxes; b++)
				same = s->box[a->box + b].dev == s->box[e->box + b].dev;
			if (same)
				continue;
			const struct pmu_ev *x = a->nboxes ? a : e, *y = a->nboxes ? e : a;
			return pmu__err(s->ctx, -EINVAL, "'%s' and '%s' cannot be in one {group}: '%s' is counted on "
					"each of the %u boxes of %s (the group copied to each box) and '%s' on %s%s; a "
					"group is counted at once by one PMU: group events of the same unit only, or list "
					"these outside the braces", a->info.name, e->info.name, x->info.name,
					(unsigned)x->nboxes, x->info.pmu, y->info.name, y->nboxes ? "the boxes of " : "PMU ",
					y->info.pmu);
		}
	}
	return 0;
}

/* Parse, resolve, arrange and group, without opening anything. */
int pmu__set_plan(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *o, struct pmu_set **out)
{
	struct pmu_speclist l;
	struct pmu_set *s;
	int r;

	if ((r = pmu__speclist_parse(ctx, events, &l)) < 0)
		return r;
	s = calloc(1, sizeof(*s));
	if (!s) {
		pmu__speclist_free(&l);
		return pmu__err(ctx, -ENOMEM, "out of memory opening a set");
	}
	s->ctx = ctx;
	set_target(s, o);
	s->n = l.n;
	s->page_size = (size_t)sysconf(_SC_PAGESIZE);
	s->ev = calloc(l.n, sizeof(*s->ev));
	s->pages = calloc(l.n, sizeof(*s->pages));
	s->fgroups = calloc(l.n, sizeof(*s->fgroups));
	s->npages = s->pages ? l.n : 0;
	if (!s->ev || !s->pages || !s->fgroups) {
		r = pmu__err(ctx, -ENOMEM, "out of memory opening a set");
		goto fail;
	}
	for (size_t i = 0; i < l.n; i++) {
		s->ev[i].fd = -1;
		s->ev[i].part_of = -1;
	}
	for (size_t i = 0; i < l.n; i++) {
		if (pmu__name_per_core_pmu(ctx, l.v[i].name)) { /* counted on each core PMU: split below */
			pmu__strlcpy(s->ev[i].info.name, l.v[i].name, sizeof(s->ev[i].info.name));
			s->ev[i].per_core_name = true;
			continue;
		}
		if ((r = pmu__resolve_mode(ctx, l.v[i].name, l.v[i].group_mods, &s->ev[i].info,
					   &s->ev[i].mode_written)) < 0)
			goto fail;
		if (!(s->ev[i].info.flags & PMU_EVF_TOOL))
			continue;
		if (l.v[i].group >= 0) {
			r = pmu__err(ctx, -EINVAL, "'%s' is a tool event, measured by libpmu rather than the kernel, "
				     "and cannot be in a {group} (the kernel reads a group at once); list it outside "
				     "the braces", s->ev[i].info.name);
			goto fail;
		}
		if ((r = pmu__tool_check(ctx, &s->ev[i].info, s->flags)) < 0)
			goto fail;
	}
	if ((r = plan_boxes(s, &l)) < 0)
		goto fail;
	/* both may change the list (events split per core type, SLOTS added): the plan follows */
	if ((r = pmu__hybrid_split(s, &l)) < 0 || (r = pmu__topdown_arrange(s, &l)) < 0 || (r = resize_plan(s)) < 0)
		goto fail;
	pmu__hybrid_label(s);
	if ((r = mode_only(s)) < 0)
		goto fail;
	for (size_t i = 0; i < s->n; i++) {
		s->ev[i].fd = -1;
		fill_attr(s, &s->ev[i]);
	}
	if ((r = build_groups(s, &l)) < 0) {
		r = pmu__err(ctx, r, "out of memory opening a set");
		goto fail;
	}
	if ((r = boxes_grouped(s)) < 0)
		goto fail;
	pmu__speclist_free(&l);
	s->fast.guard = &guard_never;
	s->gen = pmu__fork_generation();
	s->opener = getpid();
	for (size_t i = 0; i < s->n; i++)
		s->hybrid_parts += s->ev[i].part_of >= 0;
	*out = s;
	return 0;
fail:
	pmu__speclist_free(&l);
	pmu_set_close(s);
	return r;
}

static void arm_guard(struct pmu_set *s)
{
	void *p;

	s->fast.guard = &guard_never;
	p = mmap(NULL, s->page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	if (madvise(p, s->page_size, MADV_WIPEONFORK) != 0) {
		pmu__log(s->ctx, PMU_LOG_DEBUG, "no MADV_WIPEONFORK (%s): reads use read(2)", strerror(errno));
		munmap(p, s->page_size);
		return;
	}
	s->guard_page = p;
	/* the owner's thread pointer; 1 (no thread's) for a set of another task or CPU, or
	 * one never read in user space: then only a forked child sees 0 */
	s->guard_page[0] = s->owned ? s->owner : 1;
	/* the inline read takes one group read from user space, without hybrid parts;
	 * other sets go to the library's loop (pmu_fast_slow) */
	if (s->owned && s->ngroups == 1 && s->fgroups[0].fast && !s->hybrid_parts && !s->npresence)
		s->fast.guard = s->guard_page;
}

/* Every flag of enum pmu_set_flags */
static const unsigned set_flags_known = PMU_SET_PID | PMU_SET_CPU | PMU_SET_INHERIT | PMU_SET_ENABLE_ON_EXEC |
	PMU_SET_ENABLE | PMU_SET_NO_FAST | PMU_SET_USER_ONLY | PMU_SET_SKIP_UNSUPPORTED | PMU_SET_KERNEL_ONLY |
	PMU_SET_CGROUP | PMU_SET_QUIET_FALLBACK;

/* The target @o names checked against its flags, each refusal with its fix (@fn: the function to name). */
static int target_check(struct pmu_ctx *ctx, const struct pmu_set_opts *o, const char *fn)
{
	if ((o->flags & PMU_SET_CPU) && o->cpu < 0)
		return pmu__err(ctx, -EINVAL, "%s: PMU_SET_CPU with cpu %d", fn, o->cpu);
	if ((o->flags & PMU_SET_PID) && o->pid == -1 && !(o->flags & PMU_SET_CPU))
		return pmu__err(ctx, -EINVAL, "%s: pid -1 (all tasks) needs PMU_SET_CPU", fn);
	return 0;
}

/*
 * The caller's @opts (NULL: the defaults) into @o, as large as this library's: a caller built with a
 * smaller struct (an older header) gets the defaults of the fields it lacks. Then the combinations no
 * set can be opened with, each refused with its fix (@fn: the function to name); with @target false
 * (a plan's options) the pid and cpu are not the target's and are not checked.
 */
int pmu__set_opts_take(struct pmu_ctx *ctx, const struct pmu_set_opts *opts, struct pmu_set_opts *o, bool target,
		       const char *fn)
{
	int r;

	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	o->cpu = -1;
	o->cgroup_fd = -1;
	if (opts) {
		if (opts->size < offsetof(struct pmu_set_opts, flags) + sizeof(unsigned) || opts->size > 4096)
			return pmu__err(ctx, -EINVAL, "%s: opts->size is %zu; set it to sizeof(struct pmu_set_opts)", fn,
					opts->size);
		memcpy(o, opts, opts->size < sizeof(*o) ? opts->size : sizeof(*o));
	}
	if (!(o->flags & PMU_SET_CGROUP))
		o->cgroup_fd = -1; /* not given: the padding of an older caller's struct may be anything */
	if (o->flags & ~set_flags_known)
		return pmu__err(ctx, -EINVAL, "%s: flags 0x%x are none of enum pmu_set_flags (this libpmu %s knows 0x%x): "
				"a caller built with a newer pmu.h? Pass only the flags of this library's", fn,
				o->flags & ~set_flags_known, PMU_VERSION_STRING, set_flags_known);
	if (target && (r = target_check(ctx, o, fn)) < 0)
		return r;
	if ((o->flags & PMU_SET_USER_ONLY) && (o->flags & PMU_SET_KERNEL_ONLY))
		return pmu__err(ctx, -EINVAL, "%s: PMU_SET_USER_ONLY and PMU_SET_KERNEL_ONLY together leave no mode "
				"to count; pass one of them (neither counts every mode)", fn);
	if (!(o->flags & PMU_SET_CGROUP))
		return 0;
	if (!(o->flags & PMU_SET_CPU))
		return pmu__err(ctx, -EINVAL, "%s: the kernel counts a cgroup per CPU: PMU_SET_CGROUP needs "
				"PMU_SET_CPU with a CPU (one set per CPU, their counts added up; pmu stat -G needs -a or "
				"-C)", fn);
	if (o->flags & PMU_SET_PID)
		return pmu__err(ctx, -EINVAL, "%s: PMU_SET_CGROUP counts the tasks of a cgroup, PMU_SET_PID one task; "
				"pass one of them", fn);
	if (o->cgroup_fd < 0)
		return pmu__err(ctx, -EBADF, "%s: PMU_SET_CGROUP with cgroup_fd %d (or an opts->size without that "
				"field); open the cgroup's directory (open(\"/sys/fs/cgroup/NAME\", O_RDONLY | "
				"O_DIRECTORY)) and pass its descriptor", fn, o->cgroup_fd);
	return 0;
}

/* Every event of group @g left out of @s (PMU_SET_SKIP_UNSUPPORTED): it reads 0, never counted. */
static void group_unsupported(struct pmu_set *s, const struct pmu_grp *g)
{
	for (uint32_t m = 0; m < g->n; m++)
		s->ev[g->first + m].info.flags |= PMU_EVF_UNSUPPORTED;
}

/* @req (an ioctl of the group) on group @g and its copies on other CPUs: 0, or the error held. */
static int group_ioctl_one(const struct pmu_set *s, const struct pmu_grp *g, unsigned long req, const char *what)
{
	for (uint32_t r = 0; r <= g->nrep; r++) { /* the group, then its copies on other CPUs */
		int fd = r ? g->rep_fd[(r - 1) * g->n] : g->leader_fd;
		if (fd >= 0 && ioctl(fd, req, PERF_IOC_FLAG_GROUP) < 0) {
			int err = errno;
			return pmu__err_hold(-err, "%s of the group led by '%s' failed: %s", what,
					     s->ev[g->first].info.name, strerror(err));
		}
	}
	return 0;
}

/* Planned set @s (pmu__set_plan: its target in it) opened with @o's flags: 0, or the error said; what was
 * opened is closed by pmu_set_close. */
static int open_planned(struct pmu_set *s, const struct pmu_set_opts *o)
{
	struct pmu_ctx *ctx = s->ctx;
	int r;

	/* Inherited events: at a context switch between tasks that share them the
	 * kernel swaps their counts and republishes the pages after reading the
	 * counters (__perf_event_sync_stat), with the offset the sign-extending
	 * read cannot use (see pmu_set_reset()): read(2) only. */
	s->owned = !(o->flags & (PMU_SET_PID | PMU_SET_CPU | PMU_SET_INHERIT)) && !(o->flags & PMU_SET_NO_FAST) &&
		   PMU_ARCH_FAST;
	s->enabled = o->flags & PMU_SET_ENABLE;
	s->owner = pmu_arch_thread();
	for (size_t gi = 0; gi < s->ngroups; gi++) {
		struct pmu_grp *g = &s->g[gi];
		bool fast = s->owned, pinned = false;
		s->fgroups[gi].first = g->first;
		s->fgroups[gi].count = g->n;
		s->fgroups[gi].fast = 0;
		if (s->ev[g->first].info.flags & PMU_EVF_TOOL) {
			/* a group of its own, no fd: pmu_set_read_group() reads it (never the inline read) */
			/* no exec starts it: with PMU_SET_ENABLE_ON_EXEC, pmu_set_enable_before_exec() does */
			r = pmu__tool_open(ctx, &s->ev[g->first].info, o->flags, s->pid, (o->flags & PMU_SET_ENABLE) != 0,
					   &s->ev[g->first].tool);
			if (r < 0)
				return r;
			continue;
		}
		/* a PMU that counts CPUs, not tasks: on a CPU of its cpumask, every task */
		pid_t pid = s->pid;
		int cpu = s->cpu;
		bool cpu_wide = false;
		const struct pmu_dev *d = primary_box(s, g) ?: cpu_counting(s, &s->ev[g->first]);
		if (d && s->cgroup_fd >= 0) {
			/* it would count its package while a task of the cgroup runs on this CPU: neither the
			 * cgroup's share nor the package's whole */
			r = pmu__err_hold(-EOPNOTSUPP, "cannot count '%s' for a cgroup: the %s PMU counts a package "
					  "or die for every task (its cpumask %s), not the tasks of a cgroup; count it "
					  "in a set without PMU_SET_CGROUP", s->ev[g->first].info.name, d->name,
					  d->cpumask);
			if (!(o->flags & PMU_SET_SKIP_UNSUPPORTED)) {
				pmu__err_emit(ctx, PMU_LOG_ERR);
				return r;
			}
			pmu__err_emit(ctx, PMU_LOG_WARN);
			pmu__err_clear();
			group_unsupported(s, g);
			continue;
		}
		if (d && (r = cpu_wide_place(s, &s->ev[g->first], d, o->flags & PMU_SET_SKIP_UNSUPPORTED, &cpu)) != 0) {
			if (r < 0) {
				pmu__err_emit(ctx, PMU_LOG_ERR);
				return r;
			}
			/* counted on another CPU of -a or -C (expected: no warning) */
			pmu__log(ctx, PMU_LOG_INFO, "'%s': not on CPU %d: the %s PMU counts on CPUs %s",
				 s->ev[g->first].info.name, s->cpu, d->name, d->cpumask);
			group_unsupported(s, g);
			continue;
		}
		if (d && s->pid != -1) {
			pid = -1;
			cpu_wide = true;
			fast = false; /* another task's counter: read(2) */
		}
		/* :D pins a group: the kernel takes attr.pinned from its leader only */
		for (uint32_t k = 0; k < g->n; k++)
			pinned = pinned || (s->ev[g->first + k].info.flags & PMU_EVF_PINNED);
		/* A group of several counting at once is opened disabled and enabled when its members are in:
		 * the kernel does not schedule a member added to a running group of the calling task until the
		 * task is next switched in (on 6.18 a software member counts nothing until then) */
		bool late_enable = (o->flags & PMU_SET_ENABLE) && g->n > 1;
		for (uint32_t k = 0; k < g->n; k++) {
			struct pmu_ev *e = &s->ev[g->first + k];
			bool leader = k == 0;
			e->attr.disabled = leader && (!(o->flags & PMU_SET_ENABLE) || late_enable);
			/* every task of a CPU (pid -1) has no exec: it waits for pmu_set_enable_before_exec() */
			e->attr.enable_on_exec = leader && (o->flags & PMU_SET_ENABLE_ON_EXEC) && pid != -1;
			e->attr.pinned = leader && pinned;
#if defined(__aarch64__)
			if (el0_access(s, e, pid))
				e->attr.config1 |= 0x2;
#endif
			if (cpu_wide) {
				/* no exec or child of its own (pid -1): with PMU_SET_ENABLE_ON_EXEC it waits
				 * for pmu_set_enable_before_exec(), as perf stat enables such counters just
				 * before it starts its workload */
				e->attr.inherit = 0;
				e->info.flags |= PMU_EVF_CPU_WIDE;
			}
			r = open_one(s, e, pid, cpu, leader ? -1 : g->leader_fd, !leader && g->explicit_group);
			if (r < 0) {
				if (!(o->flags & PMU_SET_SKIP_UNSUPPORTED) || !leader ||
				    (r != -ENOENT && r != -EOPNOTSUPP && r != -ENODEV)) {
					pmu__err_emit(ctx, PMU_LOG_ERR);
					return r;
				}
				/* the kernel cannot count the leader here: the whole group is unsupported */
				pmu__err_emit(ctx, PMU_LOG_WARN);
				pmu__err_clear();
				group_unsupported(s, g);
				fast = false;
				break;
			}
			if (leader) {
				g->leader_fd = e->fd;
				g->cpu = cpu;
			}
			if (e->info.note && *e->info.note)
				pmu__log(ctx, PMU_LOG_INFO, "'%s': %s", e->info.name, e->info.note);
			if ((e->info.flags & PMU_EVF_SOFTWARE) || e->attr.type == PERF_TYPE_TRACEPOINT)
				fast = false; /* counted by the kernel, never on a counter user space can read */
		}
		if (g->leader_fd >= 0 && s->ev[g->first].nboxes > 1) /* each box of an uncore unit */
			r = open_boxes(s, g, cpu_wide, pid, cpu);
		else if (g->leader_fd >= 0 && cpu_wide)
			r = open_replicas(s, g, d);
		else
			r = 0;
		if (r < 0) {
			pmu__err_emit(ctx, PMU_LOG_ERR);
			return r;
		}
		if (late_enable && g->leader_fd >= 0 && (r = group_ioctl_one(s, g, PERF_EVENT_IOC_ENABLE, "enable")) < 0) {
			pmu__err_emit(ctx, PMU_LOG_ERR);
			return r;
		}
		if (g->nrep)
			fast = false; /* its copies (other CPUs, other boxes) are read with read(2) and added */
		if (fast)
			for (uint32_t k = 0; k < g->n; k++)
				map_page(s, g->first + k);
		for (uint32_t k = 0; k < g->n && fast; k++)
			fast = s->pages[g->first + k] != NULL;
		s->fgroups[gi].fast = fast;
	}
	fallback_said(s);
	pmu__hybrid_presence_open(s);
	s->fast.abi = PMU_FAST_ABI;
	s->fast.count = (uint32_t)s->n;
	s->fast.pages = s->pages;
	arm_guard(s);
	pmu__log(ctx, PMU_LOG_DEBUG, "opened %zu events in %zu groups", s->n, s->ngroups);
	return 0;
}

/* A copy of planned set @t that owns nothing of @t's, not opened, its target @o's: 0, or -ENOMEM said (what
 * was made is freed by pmu_set_close). */
static int copy_planned(const struct pmu_set *t, const struct pmu_set_opts *o, struct pmu_set **out)
{
	size_t k = t->n ? t->n : 1;
	struct pmu_set *s = malloc(sizeof(*s));

	if (!(*out = s))
		return pmu__err(t->ctx, -ENOMEM, "out of memory opening a set");
	*s = *t;
	s->n = 0; /* until the events are copied: pmu_set_close walks them */
	s->ev = NULL;
	s->g = NULL;
	s->ngroups = 0;
	s->pages = NULL;
	s->npages = 0;
	s->fgroups = NULL;
	s->npresence = 0;
	s->guard_page = NULL;
	s->box = NULL;
	s->nbox = 0;
	memset(&s->fast, 0, sizeof(s->fast));
	s->fast.guard = &guard_never;
	s->enabled = s->owned = false;
	s->gen = pmu__fork_generation();
	s->opener = getpid();
	set_target(s, o);
	if (!(s->ev = malloc(k * sizeof(*s->ev))) || !(s->pages = calloc(k, sizeof(*s->pages))) ||
	    !(s->fgroups = calloc(k, sizeof(*s->fgroups))) || !(s->g = calloc(t->ngroups ? t->ngroups : 1, sizeof(*s->g))))
		return pmu__err(t->ctx, -ENOMEM, "out of memory opening a set");
	memcpy(s->ev, t->ev, t->n * sizeof(*s->ev));
	s->n = s->npages = t->n;
	if (t->nbox && !(s->box = malloc(t->nbox * sizeof(*s->box))))
		return pmu__err(t->ctx, -ENOMEM, "out of memory opening a set");
	if (t->nbox)
		memcpy(s->box, t->box, t->nbox * sizeof(*s->box));
	s->nbox = t->nbox;
	for (size_t gi = 0; gi < t->ngroups; gi++) {
		struct pmu_grp *g = &s->g[gi];
		g->leader_fd = -1;
		g->first = t->g[gi].first;
		g->n = t->g[gi].n;
		g->explicit_group = t->g[gi].explicit_group;
		g->buflen = t->g[gi].buflen;
		s->ngroups = gi + 1; /* closed by pmu_set_close from here on */
		if (!(g->buf = malloc(g->buflen)))
			return pmu__err(t->ctx, -ENOMEM, "out of memory opening a set");
		pthread_mutex_init(&g->lock, NULL);
	}
	return 0;
}

int pmu__set_open_planned(const struct pmu_set *t, const struct pmu_set_opts *o, struct pmu_set **out)
{
	struct pmu_set *s = NULL;
	int r;

	if ((r = copy_planned(t, o, &s)) < 0 || (r = open_planned(s, o)) < 0) {
		pmu_set_close(s);
		*out = NULL;
		return r;
	}
	*out = s;
	return 0;
}

PMU_EXPORT int pmu_set_open(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *opts,
			    struct pmu_set **out)
{
	struct pmu_set_opts o;
	struct pmu_set *s;
	int r;

	pmu__err_clear();
	if (out)
		*out = NULL; /* on every failure below */
	if (!ctx || !out)
		return pmu__err(ctx, -EINVAL, "pmu_set_open: NULL context or output pointer");
	if ((r = pmu__set_opts_take(ctx, opts, &o, true, "pmu_set_open")) < 0)
		return r;
	if ((r = pmu__set_plan(ctx, events, &o, &s)) < 0)
		return r;
	if ((r = open_planned(s, &o)) < 0) {
		pmu_set_close(s);
		return r;
	}
	*out = s;
	return 0;
}

bool pmu__set_forked(const struct pmu_set *s)
{
	/* the kernel wiped the guard page (any fork, the raw system call too);
	 * without such a page: the generation (atfork handler) and the pid */
	if (s->guard_page)
		return s->guard_page[0] == 0;
	return s->gen != pmu__fork_generation() || s->opener != getpid();
}

bool pmu__set_mine(const struct pmu_set *s)
{
	return s->owned && s->owner == pmu_arch_thread();
}

int pmu__set_forked_err(const struct pmu_set *s)
{
	return pmu__err(s->ctx, -ECHILD, "this set was opened before fork() and counts the parent process; open a "
			"new set in the child");
}

static int forked(const struct pmu_set *s)
{
	return pmu__set_forked(s);
}

/* @req on every group of @s; with @waiting: but those whose leader waits for the target's exec
 * (enable_on_exec), counted in *@waiting. */
static int group_ioctl_some(struct pmu_set *s, unsigned long req, const char *what, size_t *waiting)
{
	pmu__err_clear();
	if (!s)
		return pmu__err(NULL, -EINVAL, "%s: NULL set", what);
	if (forked(s))
		return pmu__set_forked_err(s);
	for (size_t g = 0; g < s->ngroups; g++) {
		if (waiting && s->ev[s->g[g].first].attr.enable_on_exec) {
			(*waiting)++;
			continue;
		}
		int r = group_ioctl_one(s, &s->g[g], req, what);
		if (r < 0) {
			pmu__err_emit(s->ctx, PMU_LOG_ERR);
			return r;
		}
	}
	return 0;
}

static int group_ioctl(struct pmu_set *s, unsigned long req, const char *what)
{
	return group_ioctl_some(s, req, what, NULL);
}

/* The set's tool events (duration_time, ...) follow its enable, disable and reset. */
static void tools_do(struct pmu_set *s, void (*op)(struct pmu_tool *t))
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ev[i].tool)
			op(s->ev[i].tool);
}

/* Enable every group of @s, or with @but_waiting every group but those waiting for the target's exec,
 * and its tool events; the set is enabled once no group is left waiting. */
static int enable_groups(struct pmu_set *s, const char *what, bool but_waiting)
{
	size_t waiting = 0;
	int r = group_ioctl_some(s, PERF_EVENT_IOC_ENABLE, what, but_waiting ? &waiting : NULL);

	if (r == 0) {
		s->enabled = s->enabled || !waiting;
		tools_do(s, pmu__tool_enable);
	}
	return r;
}

PMU_EXPORT int pmu_set_enable(struct pmu_set *s)
{
	if (s && !forked(s))
		pmu__hybrid_presence_ioctl(s, PERF_EVENT_IOC_ENABLE); /* first: its time covers the groups' */
	return enable_groups(s, "enable", false);
}

PMU_EXPORT int pmu_set_enable_before_exec(struct pmu_set *s)
{
	return enable_groups(s, "enable before exec", true);
}

PMU_EXPORT int pmu_set_disable(struct pmu_set *s)
{
	int r = group_ioctl(s, PERF_EVENT_IOC_DISABLE, "disable");

	if (r == 0) {
		s->enabled = false;
		tools_do(s, pmu__tool_disable);
		pmu__hybrid_presence_ioctl(s, PERF_EVENT_IOC_DISABLE); /* last: its time covers the groups' */
	}
	return r;
}

/*
 * PERF_EVENT_IOC_RESET on a counting event reads the counter (the driver
 * then keeps its raw value as prev_count, zero-extended) and republishes the
 * user page with offset = 0 - prev_count; a reader that sign-extends the
 * counter, as the page's contract says, is then off by 2^pmc_width until
 * the kernel next schedules the event in (seen on arm64: 2^32 low after a
 * reset, lab-history). A group read from user space is therefore reset
 * while stopped: its page says index 0, and enabling it again republishes
 * the page from the counter's new start value, as every sched-in does.
 */
PMU_EXPORT int pmu_set_reset(struct pmu_set *s)
{
	bool restart = false;
	int r;

	if (!s || forked(s))
		return group_ioctl(s, PERF_EVENT_IOC_RESET, "reset");
	for (size_t g = 0; g < s->ngroups; g++)
		restart |= s->fgroups[g].fast && s->enabled;
	if (restart && (r = group_ioctl(s, PERF_EVENT_IOC_DISABLE, "reset (disable)")) < 0)
		return r;
	r = group_ioctl(s, PERF_EVENT_IOC_RESET, "reset");
	if (r == 0) {
		tools_do(s, pmu__tool_reset);
		pmu__hybrid_presence_ioctl(s, PERF_EVENT_IOC_RESET);
	}
	if (restart) {
		int r2 = group_ioctl(s, PERF_EVENT_IOC_ENABLE, "reset (enable again)");
		if (r == 0)
			r = r2;
	}
	return r;
}

PMU_EXPORT size_t pmu_set_count(const struct pmu_set *s)
{
	return s ? s->n : 0;
}

PMU_EXPORT int pmu_set_event(const struct pmu_set *s, size_t i, struct pmu_event_info *out)
{
	pmu__err_clear();
	if (!s || !out || i >= s->n)
		return pmu__err(s ? s->ctx : NULL, -EINVAL, "pmu_set_event: index %zu out of range", i);
	*out = s->ev[i].info;
	return 0;
}

PMU_EXPORT int pmu_set_group_of(const struct pmu_set *s, size_t i)
{
	if (!s || i >= s->n)
		return -EINVAL;
	return (int)s->ev[i].group;
}

PMU_EXPORT int pmu_set_check(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *opts)
{
	struct pmu_set_opts o;
	struct pmu_set *s = NULL;
	int r;

	pmu__err_clear();
	if (!ctx || !events || !opts)
		return pmu__err(ctx, -EINVAL, "pmu_set_check: NULL context, events or options");
	if ((r = pmu__set_opts_take(ctx, opts, &o, true, "pmu_set_check")) < 0)
		return r;
	r = pmu__set_plan(ctx, events, &o, &s);
	pmu_set_close(s);
	return r;
}

PMU_EXPORT int pmu_set_total_of(const struct pmu_set *s, size_t i, char *name, size_t len)
{
	size_t last = i;
	int r;

	if (!s || i >= s->n)
		return -EINVAL;
	if (s->ev[i].part_of < 0)
		return -1;
	for (size_t j = i + 1; j < s->n; j++)
		if (s->ev[j].part_of == s->ev[i].part_of)
			last = j;
	if (name && (r = pmu__part_total_name(s->ev[i].info.name, name, len)) < 0)
		return r;
	return (int)last;
}

PMU_EXPORT int pmu_event_resolve_each(struct pmu_ctx *ctx, const char *name, struct pmu_event_info *out, size_t n)
{
	struct pmu_set_opts o = { sizeof(o), 0, 0, -1 };
	struct pmu_event_info one;
	struct pmu_set *s;
	size_t count;
	int r;

	pmu__err_clear();
	if (!ctx || !name || (n && !out))
		return pmu__err(ctx, -EINVAL, "pmu_event_resolve_each: NULL context, name or output");
	if (strpbrk(name, ",{}") && !strchr(name, '/'))
		return pmu__err(ctx, -EINVAL, "pmu_event_resolve_each: '%s' is a list; give one name", name);
	/* one encoding: a machine of one core PMU, a name of another PMU, or one that names its PMU */
	if (!pmu__name_per_core_pmu(ctx, name)) {
		if ((r = pmu_event_resolve(ctx, name, &one)) < 0)
			return r;
		if (one.flags & PMU_EVF_BOXES) /* each box of an uncore unit: its own encoding */
			return pmu__boxes_resolve(ctx, name, NULL, &one, out, n);
		if (pmu__n_core_pmus(ctx) < 2 ||
		    !((one.type == PERF_TYPE_RAW && one.source == PMU_SRC_RAW) ||
		      ((one.type == PERF_TYPE_HARDWARE || one.type == PERF_TYPE_HW_CACHE) && !(one.config >> 32)))) {
			if (n)
				out[0] = one;
			return 1;
		}
	}
	/* counted on each core PMU: the parts a set would open */
	if ((r = pmu__set_plan(ctx, name, &o, &s)) < 0)
		return r;
	count = s->n;
	for (size_t i = 0; i < s->n; i++)
		if (s->ev[i].part_of != 0) {
			pmu_set_close(s);
			return pmu__err(ctx, -EINVAL, "pmu_event_resolve_each: '%s' is more than one event", name);
		}
	for (size_t i = 0; i < s->n && i < n; i++)
		out[i] = s->ev[i].info;
	pmu_set_close(s);
	return (int)count;
}

/* ---- the set's events for the files that do not own its layout (set.h) ---- */
struct pmu_ctx *pmu__set_ctx(const struct pmu_set *s)
{
	return s->ctx;
}

const struct pmu_event_info *pmu__set_info(const struct pmu_set *s, size_t i)
{
	return &s->ev[i].info;
}

const struct perf_event_attr *pmu__set_attr(const struct pmu_set *s, size_t i)
{
	return &s->ev[i].attr;
}

int pmu__set_fd(const struct pmu_set *s, size_t i)
{
	return s->ev[i].fd;
}

bool pmu__set_mode_written(const struct pmu_set *s, size_t i)
{
	return s->ev[i].mode_written;
}

const struct perf_event_mmap_page *pmu__set_page(const struct pmu_set *s, size_t i)
{
	return s->pages[i];
}

void pmu__set_group_span(const struct pmu_set *s, unsigned g, size_t *first, size_t *n)
{
	*first = s->g[g].first;
	*n = s->g[g].n;
}

size_t pmu__set_hybrid_parts(const struct pmu_set *s)
{
	return s->hybrid_parts;
}
