/* SPDX-License-Identifier: MIT */
/*
 * kmodel: the kernel's perf_event for a WRITTEN machine, as an LD_PRELOAD library. A test that runs
 * libpmu (or pmu) on a tree of tests/fixtures/ gets the counts of a model file instead of the host
 * kernel's, for PMU types the host does not have (uncore boxes, RAPL, a second socket, CMN).
 *
 *   PMU_KMODEL=FILE       the model (below). Unset: every call goes straight to the C library.
 *   PMU_KMODEL_LOG=FILE   each perf_event_open, ioctl and close of a model event appended as one line
 *                         (and each open passed to the kernel), for tests to check WHAT was opened where.
 *
 * What is replaced (dlsym RTLD_NEXT for everything else, and for these on descriptors not the model's):
 * syscall(SYS_perf_event_open, ...), read(2) (and __read_chk), ioctl(2), close(2), mmap/mmap64 (no user
 * page: the model refuses with ENODEV, so libpmu reads with read(2)), prctl(PR_TASK_PERF_EVENTS_ENABLE/
 * DISABLE), and sysconf(_SC_NPROCESSORS_CONF/ONLN) when the model names its CPUs. A model event is a real
 * descriptor (a memfd), so close, dup2 over it, fork and exec behave; a table maps it to its counter,
 * checked against the memfd's inode at each use (a descriptor closed some other way is forgotten). dup(2)
 * of a model descriptor is not followed: the copy reads as an empty file.
 *
 * THE MODEL FILE: one directive a line, '#' starts a comment, words separated by blanks, numbers in C
 * notation (0x.., decimal). Directives:
 *
 *   cpus LIST                 the machine's online CPUs (a kernel CPU list, "0-7"); nr_cpu_ids is the last
 *                             + 1. An open for a CPU >= nr_cpu_ids fails EINVAL, for one not online
 *                             ENODEV (kernel/events/core.c: perf_event_alloc, perf_event_open). It is also
 *                             what sysconf(_SC_NPROCESSORS_CONF) (last + 1) and _ONLN (how many) say: the
 *                             machine pmu stat -a counts. Without it: no CPU check, the host's sysconf.
 *   time enabled_ns=N [running_ns=M]
 *                             the time every counter advances at each observation (below); default
 *                             1000000 both. running_ns < enabled_ns: a multiplexed counter.
 *   others kernel|enoent      types no pmu line names: passed to the host kernel (default: software
 *                             events, tracepoints still count), or refused with ENOENT.
 *   pmu TYPE[,TYPE..] KIND [name=NAME] [counters=N] [box=LIST@CPU ...] [nobox=ERRNO]
 *                             a PMU of the machine; TYPE its perf_event_attr.type (more than one: the
 *                             same PMU, as x86's core PMU takes PERF_TYPE_HARDWARE 0, HW_CACHE 3, RAW 4).
 *                             KIND core: counts a task (pid >= 0, any cpu >= -1) or a CPU (pid -1).
 *                             KIND software: as core, and may join any group (kernel: software events
 *                             join hardware groups).
 *                             KIND uncore: counts a package or die on the CPU of its box, as the uncore,
 *                             RAPL, AMD DF/L3/UMC and Arm CMN drivers: box=LIST@CPU says an event opened
 *                             on any CPU of LIST is counted on CPU (event->cpu = box->cpu, as
 *                             uncore_pmu_event_init and rapl_pmu_event_init do). A CPU of no box: EINVAL,
 *                             or nobox=ERRNO (ENODEV: amd_uncore_event_init without a context). It
 *                             refuses a task (pid != -1) or a cgroup: EINVAL (perf_invalid_context);
 *                             cpu -1: EINVAL; any exclude_* bit: EINVAL (PERF_PMU_CAP_NO_EXCLUDE);
 *                             sampling: EINVAL.
 *                             counters=N: a group holding more than N events of this PMU is refused
 *                             EINVAL at the member that does not fit (uncore_validate_group,
 *                             x86 validate_group). name=: what the log calls it.
 *   event TYPE CONFIG|* [config1=X] [config2=X] [cpu=N|*] count=V [enabled_ns=N] [running_ns=M]
 *                             a counter of PMU TYPE with that config (*: any config) on CPU N (the box's
 *                             CPU for an uncore PMU; -1 a task's event on any CPU; *, or no cpu=: any)
 *                             advances by V at each observation. config1=/config2= not given: any.
 *                             The first line that matches an open is its counter; an open no line
 *                             matches fails ENOENT.
 *   fail TYPE CONFIG|* [config1=X] [config2=X] [cpu=N|*] [pid=task|cpu] errno=NAME|NUMBER
 *                             an open that matches fails with that errno (EINVAL, ENOENT, ENODEV,
 *                             EOPNOTSUPP, EACCES, EPERM, EBUSY, ENOSPC, EMFILE, E2BIG, ESRCH, or a
 *                             number). fail lines are tried before event lines, after the PMU's own rules.
 *
 * COUNTS: deterministic. A counter is observed when the kernel would update its count: at each read(2)
 * of it (a PERF_FORMAT_GROUP read: of its whole group), and at the PERF_EVENT_IOC_DISABLE that stops it
 * (disabling a leader stops its group: every member is observed). At each observation a counter that
 * is counting (enabled, and its leader enabled) gains V and its times enabled_ns/running_ns; one that
 * is not gains nothing. So: open enabled, read -> V, read -> 2V; opened disabled, ENABLE, DISABLE,
 * read -> V (pmu stat's order); two reads of an enabled counter differ by V (a region's entry and exit).
 * RESET zeroes the value (not the times, as the kernel). enable_on_exec is taken as enabled from the
 * open (the model sees no exec). inherit is ignored (no child is counted).
 * READS: the kernel's layouts for read_format ({value, [enabled], [running], [id], [lost]}, or with
 * PERF_FORMAT_GROUP {nr, [enabled], [running], {value, [id], [lost]} x nr}, the leader first then its
 * members in the order they were opened, times the leader's); a buffer smaller than that: ENOSPC.
 * IOCTLS: ENABLE, DISABLE, RESET (PERF_IOC_FLAG_GROUP: the whole group of the event's leader), ID
 * (unique ids 1, 2, ... in the order of the opens of this process); any other: ENOTTY.
 * GROUPS: group_fd a model event (else EBADF if it is no perf descriptor; EINVAL for a real kernel
 * event), a leader (EINVAL), on the same CPU after the box move and the same task or CPU context
 * (EINVAL), not pinned or exclusive (EINVAL), of the same PMU unless one is software (EINVAL). Closing a
 * leader makes each member its own leader (perf_group_detach).
 * LOG lines: "open pmu=NAME type=T config=0x.. config1=0x.. config2=0x.. pid=P cpu=C group=G
 * flags=excl:X[,disabled][,inherit][,enable_on_exec] rf=0xRF -> id=I cpu=C2" (P, C: as asked; G: '-' none,
 * the leader's id, or fd:N; X the exclude bits u k h i H G, '-' none; RF read_format; C2 the CPU it counts
 * on, the box's) or "... -> errno=NAME"; an open of a type the model lacks, refused: "open pmu=none ...";
 * passed on: "open kernel type=T ... -> fd" or "-> errno=NAME"; "ioctl id=I enable|disable|reset[ group]"
 * (and a refused one with "-> errno="); "prctl enable|disable"; "close id=I".
 */
/* mmap and mmap64 both defined here: no redirection of one to the other (meson's -D_FILE_OFFSET_BITS=64) */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#define KM_PUBLIC __attribute__((visibility("default")))
#define MAX_CPUS 4096
#define MAX_FDS 65536
#define CPU_ANY INT_MIN

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)
#endif
#define KM_FLAG_ALL (PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)
#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif
#define KM_FORMAT_ALL (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
		       PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

struct cpuset {
	uint64_t bits[MAX_CPUS / 64];
};

enum kind { K_CORE, K_SOFTWARE, K_UNCORE };

struct box {
	struct cpuset cpus;
	int cpu;
};

struct kpmu {
	uint32_t types[8];
	int ntypes;
	enum kind kind;
	char name[64];
	int counters; /* 0: no limit */
	int nobox;    /* the errno of a CPU of no box */
	struct box *boxes;
	int nboxes;
};

struct rule {
	bool fail;
	uint32_t type;
	bool any_config, has_c1, has_c2;
	uint64_t config, config1, config2;
	int cpu;    /* CPU_ANY */
	int pidsel; /* 0 any, 1 task (pid != -1), 2 cpu (pid == -1) */
	uint64_t count, en_ns, run_ns;
	int err;
	int line;
};

struct ctr {
	int fd;
	dev_t dev;
	ino_t ino;
	struct kpmu *pmu;
	struct perf_event_attr attr;
	uint64_t id, value, en, run, step, step_en, step_run;
	int cpu; /* after the box move */
	pid_t pid;
	bool cgroup, enabled;
	struct ctr *leader, *first_sib, *last_sib, *next_sib;
};

/* the C library's functions */
static long (*real_syscall)(long, ...);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_read_chk)(int, void *, size_t, size_t);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_close)(int);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static void *(*real_mmap64)(void *, size_t, int, int, int, off64_t);
static int (*real_prctl)(int, ...);
static long (*real_sysconf)(int);

static bool active;
static struct kpmu *pmus;
static int npmus;
static struct rule *rules;
static int nrules;
static struct cpuset online;
static bool have_cpus;
static int nr_cpu_ids, n_online;
static uint64_t def_en = 1000000, def_run = 1000000;
static bool others_enoent;
static int log_fd = -1;
static struct ctr *fd_table[MAX_FDS]; /* read and written with __atomic builtins */
static uint64_t next_id = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* A fork in progress: the pid that took the lock for it (fork_prepare), else 0. A forked child runs the
 * fork handlers registered before this library's first (libpmu's closes its sets there, through close()
 * below) while the lock is still the parent's: its only thread holds it already. */
static volatile pid_t fork_pid;

static void klock(void)
{
	if (!fork_pid || fork_pid == getpid())
		pthread_mutex_lock(&lock);
}

static void kunlock(void)
{
	if (!fork_pid || fork_pid == getpid())
		pthread_mutex_unlock(&lock);
}

/* ---- the model file ---- */

static const struct {
	const char *name;
	int value;
} errnos[] = {
	{ "EINVAL", EINVAL }, { "ENOENT", ENOENT }, { "ENODEV", ENODEV }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "EBUSY", EBUSY }, { "ENOSPC", ENOSPC }, { "EMFILE", EMFILE },
	{ "E2BIG", E2BIG }, { "ESRCH", ESRCH }, { "EBADF", EBADF }, { "ENOTTY", ENOTTY }, { "ENOMEM", ENOMEM },
	{ "EFAULT", EFAULT }, { "ENXIO", ENXIO },
};

static const char *errno_name(int e)
{
	static __thread char buf[16];
	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].value == e)
			return errnos[i].name;
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

static const char *model_path;
static int model_line;

static __attribute__((noreturn, format(printf, 1, 2))) void bad(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "kmodel: %s:%d: %s\n", model_path, model_line, msg);
	_exit(2);
}

static uint64_t num(const char *s, const char *what)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		bad("%s: '%s' is not a number", what, s);
	return v;
}

static int cpu_num(const char *s, const char *what)
{
	char *end;
	long v;

	if (!strcmp(s, "*"))
		return CPU_ANY;
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < -1 || v >= MAX_CPUS)
		bad("%s: '%s' is not a CPU (-1 to %d, or *)", what, s, MAX_CPUS - 1);
	return (int)v;
}

static bool in_set(const struct cpuset *c, int cpu)
{
	return cpu >= 0 && cpu < MAX_CPUS && (c->bits[cpu / 64] >> (cpu % 64) & 1);
}

static void parse_cpulist(const char *s, struct cpuset *c)
{
	const char *p = s;

	memset(c, 0, sizeof(*c));
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi;
		if (end == p || lo < 0 || lo >= MAX_CPUS)
			bad("'%s' is not a CPU list", s);
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi >= MAX_CPUS)
				bad("'%s' is not a CPU list", s);
			p = end;
		}
		for (long k = lo; k <= hi; k++)
			c->bits[k / 64] |= 1ULL << (k % 64);
		if (*p == ',')
			p++;
		else if (*p)
			bad("'%s' is not a CPU list", s);
	}
}

static int errno_num(const char *v)
{
	for (size_t k = 0; k < sizeof(errnos) / sizeof(errnos[0]); k++)
		if (!strcmp(errnos[k].name, v))
			return errnos[k].value;
	return (int)num(v, "errno");
}

static struct kpmu *pmu_of(uint32_t type)
{
	for (int i = 0; i < npmus; i++)
		for (int k = 0; k < pmus[i].ntypes; k++)
			if (pmus[i].types[k] == type)
				return &pmus[i];
	return NULL;
}

static void *grow(void *p, int n, size_t size)
{
	void *q = realloc(p, (size_t)(n + 1) * size);
	if (!q)
		bad("out of memory");
	memset((char *)q + (size_t)n * size, 0, size);
	return q;
}

static void parse_pmu(char **w, int n)
{
	struct kpmu *p;
	char *t, *save;

	if (n < 3)
		bad("pmu TYPE[,TYPE..] core|software|uncore [name=] [counters=] [box=LIST@CPU..]");
	pmus = grow(pmus, npmus, sizeof(*pmus));
	p = &pmus[npmus++];
	for (t = strtok_r(w[1], ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t type = num(t, "pmu type");
		if (p->ntypes == 8)
			bad("more than 8 types for one PMU");
		if (type > UINT32_MAX || pmu_of((uint32_t)type))
			bad("type %s: out of range, or named twice", t);
		p->types[p->ntypes++] = (uint32_t)type;
	}
	if (!strcmp(w[2], "core"))
		p->kind = K_CORE;
	else if (!strcmp(w[2], "software"))
		p->kind = K_SOFTWARE;
	else if (!strcmp(w[2], "uncore"))
		p->kind = K_UNCORE;
	else
		bad("pmu kind '%s': core, software or uncore", w[2]);
	snprintf(p->name, sizeof(p->name), "type%u", p->types[0]);
	p->nobox = EINVAL;
	for (int i = 3; i < n; i++) {
		if (!strncmp(w[i], "name=", 5))
			snprintf(p->name, sizeof(p->name), "%s", w[i] + 5);
		else if (!strncmp(w[i], "counters=", 9))
			p->counters = (int)num(w[i] + 9, "counters");
		else if (!strncmp(w[i], "nobox=", 6) && p->kind == K_UNCORE)
			p->nobox = errno_num(w[i] + 6);
		else if (!strncmp(w[i], "box=", 4)) {
			char *at = strrchr(w[i], '@');
			if (!at || p->kind != K_UNCORE)
				bad("box=LIST@CPU, on an uncore PMU");
			*at = 0;
			p->boxes = grow(p->boxes, p->nboxes, sizeof(*p->boxes));
			parse_cpulist(w[i] + 4, &p->boxes[p->nboxes].cpus);
			p->boxes[p->nboxes].cpu = cpu_num(at + 1, "box CPU");
			if (p->boxes[p->nboxes].cpu < 0 || !in_set(&p->boxes[p->nboxes].cpus, p->boxes[p->nboxes].cpu))
				bad("box=%s@%s: the box's CPU must be one of its CPUs", w[i] + 4, at + 1);
			p->nboxes++;
		} else
			bad("pmu: unknown word '%s'", w[i]);
	}
	if (p->kind == K_UNCORE && !p->nboxes)
		bad("an uncore PMU needs box=LIST@CPU (where each CPU's events are counted)");
}

static void parse_rule(char **w, int n, bool fail)
{
	struct rule *r;
	bool has_count = false;

	if (n < 3)
		bad("%s TYPE CONFIG|* ...", fail ? "fail" : "event");
	rules = grow(rules, nrules, sizeof(*rules));
	r = &rules[nrules++];
	r->fail = fail;
	r->line = model_line;
	r->type = (uint32_t)num(w[1], "type");
	if (!pmu_of(r->type))
		bad("type %u: no pmu line names it (above this line)", r->type);
	r->any_config = !strcmp(w[2], "*");
	if (!r->any_config)
		r->config = num(w[2], "config");
	r->cpu = CPU_ANY;
	r->en_ns = def_en;
	r->run_ns = def_run;
	for (int i = 3; i < n; i++) {
		char *v = strchr(w[i], '=');
		if (!v)
			bad("'%s': KEY=VALUE", w[i]);
		*v++ = 0;
		if (!strcmp(w[i], "config1")) {
			r->has_c1 = true;
			r->config1 = num(v, "config1");
		} else if (!strcmp(w[i], "config2")) {
			r->has_c2 = true;
			r->config2 = num(v, "config2");
		} else if (!strcmp(w[i], "cpu"))
			r->cpu = cpu_num(v, "cpu");
		else if (!fail && !strcmp(w[i], "count")) {
			r->count = num(v, "count");
			has_count = true;
		} else if (!fail && !strcmp(w[i], "enabled_ns"))
			r->en_ns = num(v, "enabled_ns");
		else if (!fail && !strcmp(w[i], "running_ns"))
			r->run_ns = num(v, "running_ns");
		else if (fail && !strcmp(w[i], "pid")) {
			if (!strcmp(v, "task"))
				r->pidsel = 1;
			else if (!strcmp(v, "cpu"))
				r->pidsel = 2;
			else
				bad("pid=task or pid=cpu");
		} else if (fail && !strcmp(w[i], "errno"))
			r->err = errno_num(v);
		else
			bad("%s: unknown key '%s'", fail ? "fail" : "event", w[i]);
	}
	if (!fail && !has_count)
		bad("event: count=V is required");
	if (fail && !r->err)
		bad("fail: errno= is required");
	if (r->run_ns > r->en_ns)
		bad("running_ns %llu > enabled_ns %llu", (unsigned long long)r->run_ns, (unsigned long long)r->en_ns);
}

static void parse_model(const char *path)
{
	char line[4096];
	FILE *f;

	model_path = path;
	if (!(f = fopen(path, "re"))) {
		fprintf(stderr, "kmodel: cannot open the model %s: %s\n", path, strerror(errno));
		_exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		char *w[64], *save, *t;
		int n = 0;
		model_line++;
		line[strcspn(line, "#\n")] = 0;
		for (t = strtok_r(line, " \t\r", &save); t && n < 64; t = strtok_r(NULL, " \t\r", &save))
			w[n++] = t;
		if (!n)
			continue;
		if (!strcmp(w[0], "cpus") && n == 2) {
			parse_cpulist(w[1], &online);
			have_cpus = true;
			nr_cpu_ids = n_online = 0;
			for (int c = 0; c < MAX_CPUS; c++)
				if (in_set(&online, c)) {
					nr_cpu_ids = c + 1;
					n_online++;
				}
		} else if (!strcmp(w[0], "time")) {
			for (int i = 1; i < n; i++)
				if (!strncmp(w[i], "enabled_ns=", 11))
					def_en = def_run = num(w[i] + 11, "enabled_ns");
				else if (!strncmp(w[i], "running_ns=", 11))
					def_run = num(w[i] + 11, "running_ns");
				else
					bad("time enabled_ns=N [running_ns=M]");
			if (def_run > def_en)
				bad("running_ns > enabled_ns");
		} else if (!strcmp(w[0], "others") && n == 2 && (!strcmp(w[1], "kernel") || !strcmp(w[1], "enoent")))
			others_enoent = !strcmp(w[1], "enoent");
		else if (!strcmp(w[0], "pmu"))
			parse_pmu(w, n);
		else if (!strcmp(w[0], "event"))
			parse_rule(w, n, false);
		else if (!strcmp(w[0], "fail"))
			parse_rule(w, n, true);
		else
			bad("unknown directive '%s' (cpus, time, others, pmu, event, fail)", w[0]);
	}
	fclose(f);
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&lock);
	fork_pid = getpid();
}

static void fork_done(void)
{
	fork_pid = 0;
	pthread_mutex_unlock(&lock);
}

static void *next_sym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	return p;
}

__attribute__((constructor)) static void kmodel_init(void)
{
	const char *path = getenv("PMU_KMODEL"), *logp = getenv("PMU_KMODEL_LOG");

	real_syscall = next_sym("syscall");
	real_read = next_sym("read");
	real_read_chk = next_sym("__read_chk");
	real_ioctl = next_sym("ioctl");
	real_close = next_sym("close");
	real_mmap = next_sym("mmap");
	real_mmap64 = next_sym("mmap64");
	real_prctl = next_sym("prctl");
	real_sysconf = next_sym("sysconf");
	if (!path || !*path)
		return;
	parse_model(path);
	if (logp && *logp && (log_fd = open(logp, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) < 0) {
		fprintf(stderr, "kmodel: cannot open the log %s: %s\n", logp, strerror(errno));
		_exit(2);
	}
	pthread_atfork(fork_prepare, fork_done, fork_done);
	active = true;
}

static __attribute__((format(printf, 1, 2))) void logf_(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	if (log_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	(void)!write(log_fd, buf, (size_t)n);
}

/* ---- the table of model descriptors ---- */

static void detach(struct ctr *c);

/* Whether @fd may be a model event: the unlocked test every read(2) of the program pays. */
static bool maybe_model(int fd)
{
	return active && fd >= 0 && fd < MAX_FDS && __atomic_load_n(&fd_table[fd], __ATOMIC_ACQUIRE);
}

/* The counter of @fd, or NULL (not the model's, or a descriptor since closed some other way, whose
 * counter is freed here). The caller holds the lock: a counter is freed under it. */
static struct ctr *lookup(int fd)
{
	struct ctr *c;
	struct stat st;

	if (!maybe_model(fd))
		return NULL;
	c = fd_table[fd];
	if (fstat(fd, &st) < 0 || st.st_ino != c->ino || st.st_dev != c->dev) {
		detach(c);
		__atomic_store_n(&fd_table[fd], NULL, __ATOMIC_RELEASE);
		free(c);
		return NULL;
	}
	return c;
}

static bool counting(const struct ctr *c)
{
	return c->enabled && (c->leader == c || c->leader->enabled);
}

static void observe(struct ctr *c)
{
	if (!counting(c))
		return;
	c->value += c->step;
	c->en += c->step_en;
	c->run += c->step_run;
}

static void observe_group(struct ctr *leader)
{
	observe(leader);
	for (struct ctr *s = leader->first_sib; s; s = s->next_sib)
		observe(s);
}

static void detach(struct ctr *c)
{
	struct ctr *l = c->leader;

	if (l != c) {
		struct ctr **pp = &l->first_sib, *prev = NULL;
		while (*pp && *pp != c) {
			prev = *pp;
			pp = &(*pp)->next_sib;
		}
		if (*pp)
			*pp = c->next_sib;
		if (l->last_sib == c)
			l->last_sib = prev;
		c->leader = c;
		c->next_sib = NULL;
		return;
	}
	for (struct ctr *s = c->first_sib, *n; s; s = n) { /* each member its own leader */
		n = s->next_sib;
		s->leader = s;
		s->next_sib = NULL;
	}
	c->first_sib = c->last_sib = NULL;
}

/* ---- perf_event_open ---- */

static bool rule_matches(const struct rule *r, const struct kpmu *p, const struct perf_event_attr *a, int cpu,
			 pid_t pid)
{
	return pmu_of(r->type) == p && (r->any_config || r->config == a->config) &&
	       (!r->has_c1 || r->config1 == a->config1) && (!r->has_c2 || r->config2 == a->config2) &&
	       (r->cpu == CPU_ANY || r->cpu == cpu) && (r->pidsel == 0 || (r->pidsel == 1) == (pid != -1));
}

static int group_size(const struct ctr *leader, const struct kpmu *p)
{
	int n = leader->pmu == p;
	for (const struct ctr *s = leader->first_sib; s; s = s->next_sib)
		n += s->pmu == p;
	return n;
}

static void excl_text(const struct perf_event_attr *a, char *out)
{
	char *o = out;
	if (a->exclude_user)
		*o++ = 'u';
	if (a->exclude_kernel)
		*o++ = 'k';
	if (a->exclude_hv)
		*o++ = 'h';
	if (a->exclude_idle)
		*o++ = 'i';
	if (a->exclude_host)
		*o++ = 'H';
	if (a->exclude_guest)
		*o++ = 'G';
	if (o == out)
		*o++ = '-';
	*o = 0;
}

/* Whether @fd is the host kernel's perf_event (perf_fget_light: -EBADF for any other descriptor). */
static bool real_perf_fd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (fd < 0 || (n = readlink(path, target, sizeof(target) - 1)) < 0)
		return false;
	target[n] = 0;
	return !strcmp(target, "anon_inode:[perf_event]");
}

/* One open of the model: the descriptor, or -errno. @what gets the log's tail. */
static long model_open(struct kpmu *p, const struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
		       unsigned long flags, char *what, size_t wl)
{
	const struct rule *hit = NULL;
	struct ctr *leader = NULL, *c;
	struct stat st;
	char name[80];
	int fd;

	if (flags & ~KM_FLAG_ALL)
		return -EINVAL;
	if (a->read_format & ~(uint64_t)KM_FORMAT_ALL)
		return -EINVAL;
	if (pid == -1 && cpu == -1)
		return -EINVAL;
	if ((flags & PERF_FLAG_PID_CGROUP) && (pid == -1 || cpu == -1))
		return -EINVAL;
	if (cpu < -1 || (have_cpus && cpu >= nr_cpu_ids))
		return -EINVAL; /* perf_event_alloc: cpu >= nr_cpu_ids */
	if (group_fd != -1) {
		if (!(leader = lookup(group_fd)))
			return real_perf_fd(group_fd) ? -EINVAL : -EBADF; /* the model cannot join a kernel event */
	}
	if (p->kind == K_UNCORE) {
		int box = -1;
		bool sampling = a->freq ? a->sample_freq != 0 : a->sample_period != 0;
		if (sampling || cpu < 0)
			return -EINVAL; /* uncore_pmu_event_init, rapl_pmu_event_init */
		for (int b = 0; b < p->nboxes && box < 0; b++)
			if (in_set(&p->boxes[b].cpus, cpu))
				box = b;
		if (box < 0)
			return -p->nobox; /* no box for this CPU: EINVAL (Intel uncore, RAPL), ENODEV (AMD uncore) */
		cpu = p->boxes[box].cpu; /* event->cpu = box->cpu */
		if (a->exclude_user || a->exclude_kernel || a->exclude_hv || a->exclude_idle || a->exclude_host ||
		    a->exclude_guest)
			return -EINVAL; /* PERF_PMU_CAP_NO_EXCLUDE */
		if (pid != -1 || (flags & PERF_FLAG_PID_CGROUP))
			return -EINVAL; /* perf_invalid_context */
	}
	if (have_cpus && cpu >= 0 && !in_set(&online, cpu))
		return -ENODEV;
	if (leader) {
		if (leader->leader != leader || leader->cpu != cpu || leader->pid != pid ||
		    leader->cgroup != !!(flags & PERF_FLAG_PID_CGROUP) || a->pinned || a->exclusive)
			return -EINVAL;
		if (leader->pmu != p && p->kind != K_SOFTWARE && leader->pmu->kind != K_SOFTWARE)
			return -EINVAL;
		if (p->counters && group_size(leader, p) + 1 > p->counters)
			return -EINVAL;
	}
	for (int i = 0; i < nrules && !hit; i++)
		if (rules[i].fail && rule_matches(&rules[i], p, a, cpu, pid))
			hit = &rules[i];
	if (hit)
		return -hit->err;
	for (int i = 0; i < nrules && !hit; i++)
		if (!rules[i].fail && rule_matches(&rules[i], p, a, cpu, pid))
			hit = &rules[i];
	if (!hit)
		return -ENOENT;
	snprintf(name, sizeof(name), "kmodel-%s", p->name);
	fd = memfd_create(name, (flags & PERF_FLAG_FD_CLOEXEC) ? MFD_CLOEXEC : 0);
	if (fd < 0)
		return -errno;
	if (fd >= MAX_FDS || fstat(fd, &st) < 0 || !(c = calloc(1, sizeof(*c)))) {
		real_close(fd);
		return fd >= MAX_FDS ? -EMFILE : -ENOMEM;
	}
	c->fd = fd;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	c->pmu = p;
	c->attr = *a;
	c->id = next_id++;
	c->cpu = cpu;
	c->pid = pid;
	c->cgroup = flags & PERF_FLAG_PID_CGROUP;
	c->enabled = !a->disabled || a->enable_on_exec;
	c->step = hit->count;
	c->step_en = hit->en_ns;
	c->step_run = hit->run_ns;
	c->leader = c;
	if (leader) {
		c->leader = leader;
		if (leader->last_sib)
			leader->last_sib->next_sib = c;
		else
			leader->first_sib = c;
		leader->last_sib = c;
	}
	__atomic_store_n(&fd_table[fd], c, __ATOMIC_SEQ_CST);
	snprintf(what, wl, "id=%llu cpu=%d", (unsigned long long)c->id, cpu);
	return fd;
}

static long perf_event_open_hook(struct perf_event_attr *uattr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	struct perf_event_attr a;
	char excl[8], group[32], what[96];
	struct kpmu *p;
	struct ctr *g;
	long r;
	uint32_t size;

	if (!uattr) {
		errno = EFAULT;
		return -1;
	}
	p = pmu_of(uattr->type);
	if (!p && !others_enoent) {
		r = real_syscall(SYS_perf_event_open, uattr, pid, cpu, group_fd, flags);
		if (log_fd >= 0) {
			int e = errno;
			excl_text(uattr, excl);
			if (group_fd == -1)
				snprintf(group, sizeof(group), "-");
			else
				snprintf(group, sizeof(group), "fd:%d", group_fd);
			logf_("open kernel type=%u config=0x%llx config1=0x%llx config2=0x%llx pid=%d cpu=%d group=%s "
			      "flags=excl:%s -> %s%s", uattr->type, (unsigned long long)uattr->config,
			      (unsigned long long)uattr->config1, (unsigned long long)uattr->config2, (int)pid, cpu,
			      group, excl, r < 0 ? "errno=" : "fd", r < 0 ? errno_name(e) : "");
			errno = e;
		}
		return r;
	}
	size = uattr->size ? uattr->size : PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > 4096) {
		errno = E2BIG;
		return -1;
	}
	memset(&a, 0, sizeof(a));
	memcpy(&a, uattr, size < sizeof(a) ? size : sizeof(a));
	klock();
	if (group_fd == -1)
		snprintf(group, sizeof(group), "-");
	else if ((g = lookup(group_fd)))
		snprintf(group, sizeof(group), "%llu", (unsigned long long)g->id);
	else
		snprintf(group, sizeof(group), "fd:%d", group_fd);
	if (!p)
		r = -ENOENT;
	else
		r = model_open(p, &a, pid, cpu, group_fd, flags, what, sizeof(what));
	excl_text(&a, excl);
	logf_("open pmu=%s type=%u config=0x%llx config1=0x%llx config2=0x%llx pid=%d cpu=%d group=%s "
	      "flags=excl:%s%s%s%s rf=0x%llx -> %s%s", p ? p->name : "none", a.type, (unsigned long long)a.config,
	      (unsigned long long)a.config1, (unsigned long long)a.config2, (int)pid, cpu, group, excl,
	      a.disabled ? ",disabled" : "", a.inherit ? ",inherit" : "", a.enable_on_exec ? ",enable_on_exec" : "",
	      (unsigned long long)a.read_format, r < 0 ? "errno=" : "", r < 0 ? errno_name((int)-r) : what);
	kunlock();
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

KM_PUBLIC long syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real_syscall)
		real_syscall = next_sym("syscall");
	if (active && nr == SYS_perf_event_open)
		return perf_event_open_hook((struct perf_event_attr *)a[0], (pid_t)a[1], (int)a[2], (int)a[3],
					    (unsigned long)a[4]);
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ---- read ---- */

/* The size of @c's read (perf_event's read_size): the kernel refuses a smaller buffer before it reads. */
static size_t read_words(const struct ctr *c, size_t *nr_out)
{
	uint64_t rf = c->attr.read_format;
	size_t nr = 1, per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (!(rf & PERF_FORMAT_GROUP))
		return per + times;
	for (const struct ctr *s = c->leader->first_sib; s; s = s->next_sib)
		nr++;
	*nr_out = nr;
	return 1 + times + nr * per;
}

static ssize_t model_read(struct ctr *c, void *buf, size_t len)
{
	uint64_t v[3 + 3 * 512], rf = c->attr.read_format;
	size_t n = 0, nr = 1, words = read_words(c, &nr);

	if (words > sizeof(v) / sizeof(v[0]))
		return -E2BIG;
	if (len < words * sizeof(uint64_t))
		return -ENOSPC;
	if (rf & PERF_FORMAT_GROUP) {
		struct ctr *l = c->leader;
		observe_group(l);
		v[n++] = nr;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			v[n++] = l->en;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			v[n++] = l->run;
		for (struct ctr *s = l; s; s = s == l ? l->first_sib : s->next_sib) {
			v[n++] = s->value;
			if (rf & PERF_FORMAT_ID)
				v[n++] = s->id;
			if (rf & PERF_FORMAT_LOST)
				v[n++] = 0;
		}
	} else {
		observe(c);
		v[n++] = c->value;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			v[n++] = c->en;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			v[n++] = c->run;
		if (rf & PERF_FORMAT_ID)
			v[n++] = c->id;
		if (rf & PERF_FORMAT_LOST)
			v[n++] = 0;
	}
	memcpy(buf, v, n * sizeof(uint64_t));
	return (ssize_t)(n * sizeof(uint64_t));
}

/* read(2) of @fd if it is a model event: the bytes, or -1 with errno; -2 when it is not one. */
static ssize_t read_hook(int fd, void *buf, size_t len)
{
	struct ctr *c;
	ssize_t r;

	klock();
	c = lookup(fd);
	r = c ? model_read(c, buf, len) : -2;
	kunlock();
	if (r == -2)
		return -2;
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

KM_PUBLIC ssize_t read(int fd, void *buf, size_t len)
{
	if (maybe_model(fd)) {
		ssize_t r = read_hook(fd, buf, len);
		if (r != -2)
			return r;
	}
	if (!real_read)
		real_read = next_sym("read");
	return real_read(fd, buf, len);
}

ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen); /* glibc's, declared under _FORTIFY_SOURCE only */

KM_PUBLIC ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen)
{
	if (len > buflen)
		abort(); /* as glibc's __chk_fail */
	if (maybe_model(fd)) {
		ssize_t r = read_hook(fd, buf, len);
		if (r != -2)
			return r;
	}
	if (!real_read_chk)
		real_read_chk = next_sym("__read_chk");
	return real_read_chk(fd, buf, len, buflen);
}

/* ---- ioctl, prctl ---- */

static const char *req_name(unsigned long req)
{
	switch (req) {
	case PERF_EVENT_IOC_ENABLE: return "enable";
	case PERF_EVENT_IOC_DISABLE: return "disable";
	case PERF_EVENT_IOC_RESET: return "reset";
	case PERF_EVENT_IOC_ID: return "id";
	default: return "other";
	}
}

/* @req on @c alone, or (@group) on the whole group of its leader (perf_event_for_each). */
static void apply(struct ctr *c, unsigned long req, bool group)
{
	struct ctr *l = c->leader;

	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
		if (group)
			for (struct ctr *s = l; s; s = s == l ? l->first_sib : s->next_sib)
				s->enabled = true;
		else
			c->enabled = true;
		break;
	case PERF_EVENT_IOC_DISABLE:
		if (group || c == l) {
			/* the group is scheduled out: every member's count is updated */
			observe_group(l);
			if (group)
				for (struct ctr *s = l; s; s = s == l ? l->first_sib : s->next_sib)
					s->enabled = false;
			else
				l->enabled = false;
		} else {
			observe(c);
			c->enabled = false;
		}
		break;
	case PERF_EVENT_IOC_RESET:
		if (group)
			for (struct ctr *s = l; s; s = s == l ? l->first_sib : s->next_sib)
				s->value = 0;
		else
			c->value = 0;
		break;
	}
}

/* @req on @fd if it is a model event: 0, or -1 with errno; -2 when it is not one. */
static int model_ioctl(int fd, unsigned long req, unsigned long arg)
{
	struct ctr *c;
	int r = 0;

	klock();
	if (!(c = lookup(fd))) {
		kunlock();
		return -2;
	}
	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
	case PERF_EVENT_IOC_DISABLE:
	case PERF_EVENT_IOC_RESET:
		if (arg & ~(unsigned long)PERF_IOC_FLAG_GROUP) {
			r = -EINVAL;
			break;
		}
		apply(c, req, arg & PERF_IOC_FLAG_GROUP);
		break;
	case PERF_EVENT_IOC_ID:
		if (!arg)
			r = -EFAULT;
		else
			memcpy((void *)arg, &c->id, sizeof(c->id));
		break;
	default:
		r = -ENOTTY;
	}
	if (req != PERF_EVENT_IOC_ID || r < 0)
		logf_("ioctl id=%llu %s%s%s%s", (unsigned long long)c->id, req_name(req),
		      (req != PERF_EVENT_IOC_ID && (arg & PERF_IOC_FLAG_GROUP)) ? " group" : "", r < 0 ? " -> errno=" : "",
		      r < 0 ? errno_name(-r) : "");
	kunlock();
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

KM_PUBLIC int ioctl(int fd, unsigned long req, ...)
{
	unsigned long arg;
	va_list ap;
	int r;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (maybe_model(fd) && (r = model_ioctl(fd, req, arg)) != -2)
		return r;
	if (!real_ioctl)
		real_ioctl = next_sym("ioctl");
	return real_ioctl(fd, req, arg);
}

KM_PUBLIC int prctl(int option, ...)
{
	unsigned long a[4];
	va_list ap;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (active && (option == PR_TASK_PERF_EVENTS_ENABLE || option == PR_TASK_PERF_EVENTS_DISABLE)) {
		/* every event this process opened (perf_event_task_enable/disable: the owner's events) */
		klock();
		for (int fd = 0; fd < MAX_FDS; fd++) {
			struct ctr *c = fd_table[fd] ? lookup(fd) : NULL;
			if (c)
				apply(c, option == PR_TASK_PERF_EVENTS_ENABLE ? PERF_EVENT_IOC_ENABLE :
					 PERF_EVENT_IOC_DISABLE, false);
		}
		logf_("prctl %s", option == PR_TASK_PERF_EVENTS_ENABLE ? "enable" : "disable");
		kunlock();
	}
	if (!real_prctl)
		real_prctl = next_sym("prctl");
	return real_prctl(option, a[0], a[1], a[2], a[3]);
}

/* ---- close, mmap, sysconf ---- */

KM_PUBLIC int close(int fd)
{
	if (maybe_model(fd)) {
		struct ctr *c;
		klock();
		if ((c = lookup(fd))) {
			detach(c);
			__atomic_store_n(&fd_table[fd], NULL, __ATOMIC_RELEASE);
			logf_("close id=%llu", (unsigned long long)c->id);
			free(c);
		}
		kunlock();
	}
	if (!real_close)
		real_close = next_sym("close");
	return real_close(fd);
}

/* Whether @fd is a model event (taking the lock). */
static bool is_model(int fd)
{
	bool r;

	if (!maybe_model(fd))
		return false;
	klock();
	r = lookup(fd) != NULL;
	kunlock();
	return r;
}

KM_PUBLIC void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (!(flags & MAP_ANONYMOUS) && is_model(fd)) {
		errno = ENODEV; /* no user page in the model: reads go through read(2) */
		return MAP_FAILED;
	}
	if (!real_mmap)
		real_mmap = next_sym("mmap");
	return real_mmap(addr, len, prot, flags, fd, off);
}

KM_PUBLIC void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	if (!(flags & MAP_ANONYMOUS) && is_model(fd)) {
		errno = ENODEV;
		return MAP_FAILED;
	}
	if (!real_mmap64)
		real_mmap64 = next_sym("mmap64");
	return real_mmap64(addr, len, prot, flags, fd, off);
}

KM_PUBLIC long sysconf(int name)
{
	if (active && have_cpus && name == _SC_NPROCESSORS_CONF)
		return nr_cpu_ids;
	if (active && have_cpus && name == _SC_NPROCESSORS_ONLN)
		return n_online;
	if (!real_sysconf)
		real_sysconf = next_sym("sysconf");
	return real_sysconf(name);
}
