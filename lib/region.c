/* SPDX-License-Identifier: MIT */
/*
 * Regions: pmu_region_begin/end with no set-up call.
 *
 * One process-wide context; per thread, a set opened on first use and a
 * table of slots, one per region name. A name is found by its content: a
 * small cache maps the caller's pointer to a slot, and a hit counts only
 * when the slot's own copy of the name equals the caller's string (a
 * buffer reused for another name, or a freed and reallocated string, is
 * not mistaken for the name that lived there before); otherwise a hash of
 * the content finds the slot and refreshes the cache. No lock and no
 * allocation once a name has been seen in the thread. Slots are never
 * freed while the process runs, so reports can read threads that ended.
 */
#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "set.h"

#define REG_MAX_EV 16
#define REG_NAME_MAX 128
#define CAL_NAME "libpmu.calibration"
#define CAL_ROUNDS 16

struct thread_state;
struct slot;

/* One entry of a thread's pointer cache: a hint, verified by content. */
struct pcache {
	const char *key;                /* a caller's pointer, never dereferenced */
	struct slot *s;
};

/* One (thread, name) accumulator; also the handle of pmu_region_get(). */
struct slot {
	struct thread_state *ts;        /* owner: a handle is refused in any other thread */
	unsigned gen;                   /* pmu__fork_gen of the owner */
	unsigned id;                    /* interned name index */
	uint32_t hash;                  /* hash_name(name) */
	char name[REG_NAME_MAX];        /* the slot's own copy: what a lookup compares */
	uint32_t by_handle;             /* the open call began through a handle */
	uint32_t depth;                 /* nesting of this name (recursion counts once) */
	uint64_t calls;
	struct pmu_value start[REG_MAX_EV];
	struct pmu_value sum[REG_MAX_EV];
	uint64_t min[REG_MAX_EV], max[REG_MAX_EV];
};

struct thread_state {
	long tid;
	unsigned gen;                   /* pmu__fork_gen when created */
	struct pmu_set *set;
	const struct pmu_fast *fast;
	size_t nev;
	int err;                        /* sticky error of opening the events */
	const char *errmsg;             /* its sentence: reg_errmsg, or errbuf */
	char errbuf[640];
	int calibrated;
	uint64_t overhead[REG_MAX_EV];  /* an empty pmu_region_begin/end pair */
	uint64_t overhead_h[REG_MAX_EV];/* an empty pmu_region_enter/leave pair */
	/* what an end subtracts, by how the pair was made: [2 * (begun by a handle) + (ended by one)];
	 * zero until calibrated (a mixed pair takes the smaller cost) */
	uint64_t ov[4][REG_MAX_EV];
	const char *last_key;           /* the name pointer of the last lookup, and its slot */
	struct slot *last_slot;
	struct pcache *pc;              /* caller's name pointer -> slot, a cache (pcmask + 1 entries) */
	uint32_t pcmask;
	uint32_t *cidx;                 /* hash of the name -> slot index + 1, open addressing */
	uint32_t cmask;
	struct slot **slots;
	size_t nslots, slots_cap;
	volatile sig_atomic_t busy;     /* inside begin/end: a signal handler must not re-enter */
	struct thread_state *next;
};

static pthread_once_t reg_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pmu_ctx *reg_ctx;
static int reg_err;
static char *reg_events;                /* the event list every thread opens */
static char *reg_metrics;               /* metric names from PMU_EVENTS, comma separated */
static char reg_errmsg[1024];           /* reg_err's sentence, "<origin>: <cause and fix>" */
static bool reg_told;                   /* pmu_region_configure() returned reg_err: its caller knows */
static int reg_said;                    /* regions being off was said (once per process) */
static char reg_origin[320];            /* where the events came from, for messages */
static const char *reg_fix;             /* what to change when they cannot be used */
static int reg_format = PMU_FORMAT_TEXT;/* $PMU_FORMAT */
static int reg_per_thread;              /* $PMU_PER_THREAD */
static int reg_calibrate = 1;
static char *cfg_events;                /* pmu_region_configure(): replaces PMU_EVENTS */
static int cfg_calibrate = -1;          /* pmu_region_configure(): replaces PMU_CALIBRATE (-1: not set) */
static bool reg_started;                /* global_init ran (under reg_lock) */
static char **names;                    /* interned names, in order of first use */
static size_t nnames, names_cap;
static struct thread_state *threads;    /* every thread that used regions */
static struct thread_state *graveyard;  /* a parent's threads, in a forked child: kept (never
					 * reused) so that a stale handle is recognised, not followed */
static pthread_key_t tls_key;
/* initial-exec: in the shared library a plain __thread costs a __tls_get_addr call at every begin and end */
static __thread struct thread_state *me __attribute__((tls_model("initial-exec")));
static struct pmu_event_info reg_infos[REG_MAX_EV]; /* the events, as the first thread opened them */
static size_t reg_nev;

static int is_metric(const char *name)
{
	struct pmu_metric_info mi;
	return pmu_metric_info(reg_ctx, name, &mi) == 0;
}

static int append(char **dst, const char *item)
{
	size_t a = *dst ? strlen(*dst) : 0, b = strlen(item);
	char *n = realloc(*dst, a + b + 2);

	if (!n)
		return -ENOMEM;
	if (a)
		n[a++] = ',';
	memcpy(n + a, item, b + 1);
	*dst = n;
	return 0;
}

static void on_thread_exit(void *p)
{
	struct thread_state *ts = p;

	/* the counts stay for the report; the events are closed */
	pthread_mutex_lock(&reg_lock);
	if (ts && ts->gen == pmu__fork_gen) {
		pmu_set_close(ts->set);
		ts->set = NULL;
		/* a region call from a later destructor of this thread reads nothing (-EINVAL) */
		ts->fast = pmu_set_fast(NULL);
	}
	pthread_mutex_unlock(&reg_lock);
}

static void at_fork_child(void)
{
	/* the child starts with no regions: drop the parent's (closing the
	 * child's copies of the descriptors). Their memory is kept, so that a
	 * handle from before the fork is refused by its owner check. */
	struct thread_state *t = threads;
	while (t) {
		struct thread_state *next = t->next;
		pmu_set_close(t->set);
		t->set = NULL;
		t->fast = NULL;
		t->next = graveyard;
		graveyard = t;
		t = next;
	}
	threads = NULL;
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	nnames = 0;
	me = NULL;
	reg_nev = 0;
	pthread_mutex_init(&reg_lock, NULL);
}

/* Zero-setup regions have no caller to tell: a misconfiguration is said,
 * once, on stderr (the one place the library writes there; see STYLE.md).
 * The regions' own context is made without options, so it has no log
 * callback to take the message instead. */
static void say(const char *fmt, ...) PMU_PRINTF(1, 2);
static void say(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "libpmu regions: %s\n", msg);
}

/* A yes/no variable: 1/yes/on/true or 0/no/off/false (any case); unset or
 * empty: @def; anything else is said and gives @def. */
static int env_flag(const char *var, int def)
{
	static const char *const yes[] = { "1", "yes", "on", "true" }, *const no[] = { "0", "no", "off", "false" };
	const char *v = pmu__getenv(var);

	if (!v || !*v)
		return def;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(v, yes[i]))
			return 1;
		if (!strcasecmp(v, no[i]))
			return 0;
	}
	say("%s='%.100s' is neither 1 nor 0 (yes/no, on/off, true/false are accepted too); using %s, the default. "
	    "Fix %s.", var, v, def ? "1" : "0", var);
	return def;
}

/* $PMU_FORMAT as a pmu_report_format; an unknown value is said and gives text. */
static int env_format(void)
{
	static const char *const fmts[] = { [PMU_FORMAT_TEXT] = "text", [PMU_FORMAT_JSON] = "json",
					    [PMU_FORMAT_CSV] = "csv" };
	const char *v = pmu__getenv("PMU_FORMAT");

	if (!v || !*v)
		return PMU_FORMAT_TEXT;
	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++)
		if (!strcasecmp(v, fmts[i]))
			return (int)i;
	say("PMU_FORMAT='%.100s' is not text, json or csv; the report will be text. Fix PMU_FORMAT.", v);
	return PMU_FORMAT_TEXT;
}

static void report_at_exit(void)
{
	const char *out = pmu__getenv("PMU_OUTPUT");
	bool any = false;
	int r;

	pthread_mutex_lock(&reg_lock);
	for (struct thread_state *t = threads; t && !any; t = t->next)
		for (size_t i = 0; i < t->nslots && !any; i++)
			any = t->slots[i]->calls && strcmp(names[t->slots[i]->id], CAL_NAME);
	pthread_mutex_unlock(&reg_lock);
	if (!any)
		return;
	if ((r = pmu_region_report(NULL, reg_format, reg_per_thread)) < 0 && out && *out && strcmp(out, "-")) {
		/* the counts are not lost for a wrong path */
		say("PMU_OUTPUT='%.200s': %s; the report follows on stderr. Fix PMU_OUTPUT (a file in a writable "
		    "directory; '-' for stdout, unset for stderr).", out, pmu_strerror(r));
		pmu_region_report("", reg_format, reg_per_thread);
	} else if (r < 0) {
		say("the report to %s failed: %s.", out && !strcmp(out, "-") ? "stdout" : "stderr", pmu_strerror(r));
	}
}

/* Read the PMU_* variables and check the event list once per process
 * (pmu_region_configure() or the first region call). On failure reg_err
 * and reg_errmsg say why; every region call returns them. */
static void global_init(void)
{
	const char *env = pmu__getenv("PMU_EVENTS"), *ev;
	struct pmu_caps caps;
	char *copy, *save = NULL;

	pthread_mutex_lock(&reg_lock);
	reg_started = true;
	pthread_mutex_unlock(&reg_lock);
	pmu__global_init();
	reg_format = env_format();
	reg_per_thread = env_flag("PMU_PER_THREAD", 0);
	reg_calibrate = cfg_calibrate >= 0 ? cfg_calibrate : env_flag("PMU_CALIBRATE", 1);
	if ((reg_err = pmu_ctx_new(&reg_ctx, NULL)) < 0) {
		snprintf(reg_errmsg, sizeof(reg_errmsg), "%s", pmu__err_msg());
		reg_fix = "fix what it names";
		return;
	}
	pmu_caps(reg_ctx, &caps);
	ev = cfg_events ? cfg_events : env;
	if (ev && *ev && cfg_events) {
		snprintf(reg_origin, sizeof(reg_origin), "pmu_region_configure(\"%.200s\")", ev);
		reg_fix = "fix the events given to pmu_region_configure()";
	} else if (ev && *ev) {
		snprintf(reg_origin, sizeof(reg_origin), "PMU_EVENTS='%.200s'", ev);
		reg_fix = "fix PMU_EVENTS ('pmu list' shows the events of this machine)";
	} else {
		ev = caps.hw_pmu ? "instructions:u,cycles:u,branch-misses:u,L1-dcache-load-misses:u"
				 : "task-clock,page-faults,context-switches";
		snprintf(reg_origin, sizeof(reg_origin), "the default events '%s' (PMU_EVENTS is not set)", ev);
		reg_fix = "set PMU_EVENTS to events this machine can count ('pmu list')";
	}
	/* metric names stand for the events they need */
	if (!(copy = strdup(ev)))
		reg_err = pmu__err(reg_ctx, -ENOMEM, "out of memory");
	for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && reg_err == 0; tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		if (is_metric(tok)) {
			char need[2048], *s2 = NULL;
			if ((reg_err = append(&reg_metrics, tok)) < 0 ||
			    (reg_err = pmu_metric_events(reg_ctx, tok, need, sizeof(need))) < 0)
				break;
			reg_err = 0;
			for (char *e = strtok_r(need, ",", &s2); e && reg_err == 0; e = strtok_r(NULL, ",", &s2)) {
				bool have = false;
				char *c2 = reg_events ? strdup(reg_events) : NULL, *s3 = NULL;
				for (char *x = c2 ? strtok_r(c2, ",", &s3) : NULL; x; x = strtok_r(NULL, ",", &s3))
					have |= !strcasecmp(x, e);
				free(c2);
				if (!have)
					reg_err = append(&reg_events, e);
			}
		} else {
			reg_err = append(&reg_events, tok);
		}
	}
	free(copy);
	if (!reg_err && !reg_events)
		reg_err = pmu__err(reg_ctx, -EINVAL, "names no events");
	if (!reg_err) {
		/* resolve the list now: a bad name turns regions off in the whole process, said once */
		struct pmu_set_opts o;
		struct pmu_set *plan = NULL;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.flags = PMU_SET_SKIP_UNSUPPORTED;
		if ((reg_err = pmu__set_plan(reg_ctx, reg_events, &o, &plan)) == 0 && pmu_set_count(plan) > REG_MAX_EV)
			reg_err = pmu__err(reg_ctx, -E2BIG, "%zu events; regions count at most %d", pmu_set_count(plan),
					   REG_MAX_EV);
		pmu_set_close(plan);
	}
	if (reg_err) {
		snprintf(reg_errmsg, sizeof(reg_errmsg), "%s: %s", reg_origin, pmu__err_msg());
		return;
	}
	pthread_key_create(&tls_key, on_thread_exit);
	pthread_atfork(NULL, NULL, at_fork_child);
	atexit(report_at_exit);
}

/* Interned id of @name (under reg_lock). */
static int intern(const char *name)
{
	for (size_t i = 0; i < nnames; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	if (nnames == names_cap) {
		size_t nc = names_cap ? names_cap * 2 : 64;
		char **nn = realloc(names, nc * sizeof(*nn));
		if (!nn)
			return -ENOMEM;
		names = nn;
		names_cap = nc;
	}
	if (!(names[nnames] = strdup(name)))
		return -ENOMEM;
	return (int)nnames++;
}

static inline uint32_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (uint32_t)x;
}

/* FNV-1a over at most REG_NAME_MAX bytes of @name (longer names have no slot). */
static uint32_t hash_name(const char *name)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; name[i] && i < REG_NAME_MAX; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return h;
}

#define PC_PROBE 4      /* a pointer lives in one of 4 consecutive cache entries */

/* Remember that @key names @s: the entry already holding @key, else the
 * first free one of its window, else the first of the window (evicted). */
static void pcache_put(struct thread_state *ts, const char *key, struct slot *s)
{
	uint32_t h = hash_ptr(key), victim = h & ts->pcmask;

	for (uint32_t i = 0; i < PC_PROBE; i++) {
		struct pcache *e = &ts->pc[(h + i) & ts->pcmask];
		if (!e->key || e->key == key) {
			victim = (h + i) & ts->pcmask;
			break;
		}
	}
	ts->pc[victim].key = key;
	ts->pc[victim].s = s;
}

/* The slot named @name in this thread by content, or NULL; refreshes the
 * pointer cache. No lock, no allocation. */
static struct slot *find_name(struct thread_state *ts, const char *name)
{
	uint32_t h = hash_name(name);

	for (uint32_t i = h & ts->cmask; ts->cidx[i]; i = (i + 1) & ts->cmask) {
		struct slot *s = ts->slots[ts->cidx[i] - 1];
		if (s->hash == h && !strcmp(s->name, name)) {
			pcache_put(ts, name, s);
			return s;
		}
	}
	return NULL;
}

/* The caller's @name equals the slot's copy @own: an inline byte loop
 * (region names are short; a call of strcmp costs more than the loop). */
static inline bool name_eq(const char *own, const char *name)
{
	while (*own == *name) {
		if (!*own)
			return true;
		own++;
		name++;
	}
	return false;
}

/* find() past the last name: the pointer cache, then the content index */
__attribute__((noinline)) static struct slot *find_other(struct thread_state *ts, const char *name)
{
	uint32_t h = hash_ptr(name);
	struct slot *s = NULL;

	for (uint32_t i = 0; i < PC_PROBE; i++) {
		const struct pcache *e = &ts->pc[(h + i) & ts->pcmask];
		if (e->key == name) {
			if (name_eq(e->s->name, name))
				s = e->s;
			break;
		}
		if (!e->key)
			break;
	}
	if (!s)
		s = find_name(ts, name);
	if (s) {
		ts->last_key = name;
		ts->last_slot = s;
	}
	return s;
}

/* The slot named @name in this thread, or NULL: inline, the name of the
 * last lookup (a begin's name is its end's), checked by content. */
__attribute__((always_inline)) static inline struct slot *find(struct thread_state *ts, const char *name)
{
	if (__builtin_expect(ts->last_key == name, 1) && __builtin_expect(name_eq(ts->last_slot->name, name), 1))
		return ts->last_slot;
	return find_other(ts, name);
}

/* A power of two >= @n (n <= 2^31). */
static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t c = 1;
	while (c < n)
		c <<= 1;
	return c;
}

/* Make room for one more slot in the content index (at most half full) and
 * the pointer cache (4 entries per slot): new tables, filled again. */
static int index_grow(struct thread_state *ts)
{
	uint32_t n = (uint32_t)ts->nslots + 1, ccap = pow2_at_least(2 * n), pcap = pow2_at_least(4 * n);

	if (ccap < 16)
		ccap = 16;
	if (pcap < 64)
		pcap = 64;
	if (ts->cidx && ccap <= ts->cmask + 1 && pcap <= ts->pcmask + 1)
		return 0;
	{
		uint32_t *ci = calloc(ccap, sizeof(*ci));
		struct pcache *pc = calloc(pcap, sizeof(*pc));
		if (!ci || !pc) {
			free(ci);
			free(pc);
			return -ENOMEM;
		}
		for (size_t k = 0; k < ts->nslots; k++) {
			uint32_t i = ts->slots[k]->hash & (ccap - 1);
			while (ci[i])
				i = (i + 1) & (ccap - 1);
			ci[i] = (uint32_t)k + 1;
		}
		free(ts->cidx);
		free(ts->pc);
		ts->cidx = ci;
		ts->cmask = ccap - 1;
		ts->pc = pc; /* a cache: it fills again as names are used */
		ts->pcmask = pcap - 1;
	}
	return 0;
}

/* A new slot for @name, the first use of the name in this thread: the one
 * place where begin (and pmu_region_get) allocates and locks. */
static struct slot *new_slot(struct thread_state *ts, const char *name, int *err)
{
	struct slot *s;
	int id;

	if (strnlen(name, REG_NAME_MAX) == REG_NAME_MAX) {
		*err = pmu__err(reg_ctx, -EINVAL, "region name '%.40s...' is too long (at most %d characters)", name,
				REG_NAME_MAX - 1);
		return NULL;
	}
	pthread_mutex_lock(&reg_lock);
	id = intern(name);
	pthread_mutex_unlock(&reg_lock);
	if (id < 0 || index_grow(ts) < 0 || !(s = calloc(1, sizeof(*s))))
		goto nomem;
	if (ts->nslots == ts->slots_cap) {
		size_t nc = ts->slots_cap ? ts->slots_cap * 2 : 16;
		struct slot **ns = realloc(ts->slots, nc * sizeof(*ns));
		if (!ns) {
			free(s);
			goto nomem;
		}
		pthread_mutex_lock(&reg_lock); /* reports walk ts->slots */
		ts->slots = ns;
		ts->slots_cap = nc;
		pthread_mutex_unlock(&reg_lock);
	}
	s->id = (unsigned)id;
	s->ts = ts;
	s->gen = ts->gen;
	s->hash = hash_name(name);
	strcpy(s->name, name);
	for (size_t k = 0; k < REG_MAX_EV; k++)
		s->min[k] = UINT64_MAX;
	{
		uint32_t i = s->hash & ts->cmask;
		while (ts->cidx[i])
			i = (i + 1) & ts->cmask;
		ts->cidx[i] = (uint32_t)ts->nslots + 1;
	}
	pthread_mutex_lock(&reg_lock);
	ts->slots[ts->nslots++] = s;
	pthread_mutex_unlock(&reg_lock);
	pcache_put(ts, name, s);
	return s;
nomem:
	*err = pmu__err(reg_ctx, -ENOMEM, "out of memory for region '%s'", name);
	return NULL;
}


/* The calibration pair: what `pmu_region_begin("x"); pmu_region_end("x");`
 * with a literal name compiles to, through the public entry points (their
 * own checks are part of what a user region measures). */
__attribute__((noinline)) static void cal_pair(void)
{
	pmu_region_begin(CAL_NAME);
	pmu_region_end(CAL_NAME);
	/* not a tail call: code usually continues after pmu_region_end, and a
	 * tail call would put this function's epilogue inside the region */
	__asm__ __volatile__("" ::: "memory");
}

/* The same through a handle. */
__attribute__((noinline)) static void cal_pair_h(struct pmu_region *h)
{
	pmu_region_enter(h);
	pmu_region_leave(h);
	__asm__ __volatile__("" ::: "memory");
}

/* Calibration: the smallest cost of an empty pair, per event, into @out. */
static void calibrate_pair(struct thread_state *ts, struct pmu_region *h, uint64_t *out)
{
	uint64_t best[REG_MAX_EV];
	struct slot *s;

	for (size_t k = 0; k < ts->nev; k++)
		best[k] = UINT64_MAX;
	for (int round = 0; round < CAL_ROUNDS; round++) {
		if (h)
			cal_pair_h(h);
		else
			cal_pair();
		s = find(ts, CAL_NAME);
		if (!s || s->calls != 1)
			return;
		for (size_t k = 0; k < ts->nev; k++)
			if (s->max[k] < best[k])
				best[k] = s->max[k];
		/* forget this round so that max is the next round's value */
		memset(s->sum, 0, sizeof(s->sum));
		for (size_t k = 0; k < REG_MAX_EV; k++) {
			s->max[k] = 0;
			s->min[k] = UINT64_MAX;
		}
		s->calls = 0;
	}
	for (size_t k = 0; k < ts->nev; k++)
		out[k] = best[k] == UINT64_MAX ? 0 : best[k];
}

static void calibrate(struct thread_state *ts)
{
	struct pmu_region *h = NULL;

	calibrate_pair(ts, NULL, ts->overhead);
	if (pmu_region_get(CAL_NAME, &h) == 0)
		calibrate_pair(ts, h, ts->overhead_h);
	for (size_t k = 0; k < ts->nev; k++) {
		uint64_t mixed = ts->overhead[k] < ts->overhead_h[k] ? ts->overhead[k] : ts->overhead_h[k];
		ts->ov[0][k] = ts->overhead[k];
		ts->ov[1][k] = ts->ov[2][k] = mixed;
		ts->ov[3][k] = ts->overhead_h[k];
	}
	ts->calibrated = 1;
}

PMU_EXPORT int pmu_region_configure(const char *events, int calibrate)
{
	char *copy = NULL;

	if (events && !(copy = strdup(events)))
		return pmu__err(NULL, -ENOMEM, "pmu_region_configure: out of memory");
	pthread_mutex_lock(&reg_lock);
	if (reg_started) {
		pthread_mutex_unlock(&reg_lock);
		free(copy);
		return pmu__err(NULL, -EBUSY, "pmu_region_configure: regions are already in use in this process "
				"(their events are fixed at the first region call); call it before any other pmu_region_* function");
	}
	if (copy) {
		free(cfg_events);
		cfg_events = copy;
	}
	if (calibrate >= 0)
		cfg_calibrate = !!calibrate;
	pthread_mutex_unlock(&reg_lock);
	/* resolve the list now, so that a bad name is reported here rather than at the first begin */
	pthread_once(&reg_once, global_init);
	if (!reg_err)
		return 0;
	reg_told = true; /* every region call returns it too, but nothing is printed */
	return pmu__err(reg_ctx, reg_err, "%s", reg_errmsg);
}

static struct thread_state *thread_init(void)
{
	struct thread_state *ts;
	struct pmu_set_opts o;
	int r;

	pthread_once(&reg_once, global_init);
	if (me && me->gen == pmu__fork_gen)
		return me;
	ts = calloc(1, sizeof(*ts));
	if (!ts)
		return NULL;
	ts->tid = (long)syscall(SYS_gettid);
	ts->gen = pmu__fork_gen;
	ts->err = reg_err;
	ts->errmsg = reg_errmsg;
	if (reg_err && !reg_told && !__atomic_exchange_n(&reg_said, 1, __ATOMIC_RELAXED))
		say("%s. Regions are off in this process; %s.", reg_errmsg, reg_fix);
	if (!ts->err && (r = index_grow(ts)) < 0)
		ts->err = pmu__err(reg_ctx, r, "out of memory setting up regions for this thread");
	if (!ts->err) {
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.flags = PMU_SET_ENABLE | PMU_SET_SKIP_UNSUPPORTED;
		r = pmu_set_open(reg_ctx, reg_events, &o, &ts->set);
		if (r < 0) {
			ts->err = r;
		} else {
			ts->nev = pmu_set_count(ts->set); /* at most REG_MAX_EV: global_init checked the list */
			ts->fast = pmu_set_fast(ts->set);
		}
	}
	if (ts->err && !reg_err) {
		/* this thread only (out of descriptors or memory, a PMU busy...): said for the first such thread */
		snprintf(ts->errbuf, sizeof(ts->errbuf), "%.300s: %s", reg_origin, pmu__err_msg());
		ts->errmsg = ts->errbuf;
		if (!__atomic_exchange_n(&reg_said, 1, __ATOMIC_RELAXED))
			say("%s. Regions are off in thread %ld (other threads that fail are not said again).", ts->errbuf,
			    ts->tid);
	}
	pthread_mutex_lock(&reg_lock);
	if (!ts->err && !reg_nev) {
		for (size_t k = 0; k < ts->nev; k++)
			pmu_set_event(ts->set, k, &reg_infos[k]);
		reg_nev = ts->nev;
	}
	ts->next = threads;
	threads = ts;
	pthread_mutex_unlock(&reg_lock);
	me = ts;
	if (!reg_err)
		pthread_setspecific(tls_key, ts);
	if (!ts->err && reg_calibrate)
		calibrate(ts);
	return ts;
}

/* Open one level of @s; the outermost reads the start counts. @by_handle:
 * through a handle. Returns 0, or the read's error (a child of a raw fork
 * system call: -ECHILD), with nothing opened. */
__attribute__((always_inline)) static inline int slot_begin(struct thread_state *ts, struct slot *s, bool by_handle)
{
	if (s->depth++ == 0) {
		int r;
		s->by_handle = by_handle;
		if (__builtin_expect((r = pmu_fast_read(ts->fast, s->start)) < 0, 0)) {
			s->depth = 0;
			return r;
		}
	}
	return 0;
}

static int region_begin(struct thread_state *ts, const char *name)
{
	struct slot *s;
	int err = 0;

	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	s = find(ts, name);
	if (!s && !(s = new_slot(ts, name, &err))) {
		ts->busy = 0;
		return err;
	}
	err = slot_begin(ts, s, false);
	ts->busy = 0;
	return err;
}

/* Close one level of @s with the counts @now; @by_handle: this end came through a handle. */
__attribute__((always_inline)) static inline void slot_end(struct thread_state *ts, struct slot *s,
							  const struct pmu_value *now, bool by_handle)
{
	const uint64_t *ov = ts->ov[2 * s->by_handle + by_handle];

	if (--s->depth)
		return;
	for (size_t k = 0; k < ts->nev; k++) {
		uint64_t d = now[k].value - s->start[k].value;
		d = d > ov[k] ? d - ov[k] : 0; /* the pair's own cost (0 until calibrated) */
		s->sum[k].value += d;
		s->sum[k].enabled += now[k].enabled - s->start[k].enabled;
		s->sum[k].running += now[k].running - s->start[k].running;
		if (d < s->min[k])
			s->min[k] = d;
		if (d > s->max[k])
			s->max[k] = d;
	}
	s->calls++;
}

static int region_end(struct thread_state *ts, const char *name)
{
	struct pmu_value now[REG_MAX_EV];
	struct slot *s;
	int r;

	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	r = pmu_fast_read(ts->fast, now);
	s = find(ts, name);
	if (__builtin_expect(!s || s->depth == 0 || r < 0, 0)) {
		ts->busy = 0;
		if (r < 0)
			return r;
		return pmu__err(reg_ctx, -EINVAL, "pmu_region_end(\"%s\") without a matching pmu_region_begin in this "
				"thread; nothing recorded", name);
	}
	slot_end(ts, s, now, false);
	ts->busy = 0;
	return 0;
}

/* The error of a thread whose regions are off, with the sentence saved
 * when it happened (the cause and fix, a suggestion for a misspelt name). */
static int regions_off(const struct thread_state *ts)
{
	return pmu__err(reg_ctx, ts->err, "regions are off in this %s: %s", ts->errmsg == reg_errmsg ? "process" : "thread",
			ts->errmsg);
}

/* The calling thread's region state, set up on its first use; NULL, with
 * the error in *err, when regions cannot count in this thread. */
static inline struct thread_state *thread_ready(int *err)
{
	struct thread_state *ts = me;

	/* a forked child starts with me == NULL (at_fork_child) */
	if (__builtin_expect(!ts, 0)) {
		if (!(ts = thread_init())) {
			*err = pmu__err(NULL, -ENOMEM, "out of memory setting up regions for this thread");
			return NULL;
		}
	}
	if (ts->err) {
		*err = regions_off(ts);
		return NULL;
	}
	return ts;
}

PMU_EXPORT int pmu_region_begin(const char *name)
{
	struct thread_state *ts;
	int err = 0;

	if (!name)
		return pmu__err(NULL, -EINVAL, "pmu_region_begin: NULL region name");
	if (!(ts = thread_ready(&err)))
		return err;
	return region_begin(ts, name);
}

PMU_EXPORT int pmu_region_end(const char *name)
{
	struct thread_state *ts = me;

	if (!name)
		return pmu__err(NULL, -EINVAL, "pmu_region_end: NULL region name");
	if (!ts)
		return pmu__err(reg_ctx, -EINVAL, "pmu_region_end(\"%s\") before any pmu_region_begin in this thread",
				name);
	if (ts->err)
		return regions_off(ts);
	return region_end(ts, name);
}

PMU_EXPORT int pmu_region_overhead(uint64_t *out, size_t n)
{
	struct thread_state *ts = me;

	if (!out && n)
		return pmu__err(reg_ctx, -EINVAL, "pmu_region_overhead: NULL output for %zu values", n);
	if (!ts || ts->gen != pmu__fork_gen || ts->err)
		return pmu__err(reg_ctx, -ENODATA, "no region events are open in this thread yet");
	for (size_t k = 0; k < n && k < ts->nev; k++)
		out[k] = ts->calibrated ? ts->overhead[k] : 0;
	return (int)ts->nev;
}

PMU_EXPORT int pmu_region_get(const char *name, struct pmu_region **out)
{
	struct thread_state *ts;
	struct slot *s;
	int err = 0;

	if (!out)
		return pmu__err(NULL, -EINVAL, "pmu_region_get: NULL result pointer");
	*out = NULL;
	if (!name)
		return pmu__err(NULL, -EINVAL, "pmu_region_get: NULL region name");
	if (!(ts = thread_ready(&err)))
		return err;
	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	s = find(ts, name);
	if (!s)
		s = new_slot(ts, name, &err);
	ts->busy = 0;
	if (!s)
		return err;
	*out = (struct pmu_region *)s;
	return 0;
}

/* The calling thread's state if @h is one of its handles, else NULL with the error in *err. */
static inline struct thread_state *handle_owner(struct pmu_region *h, const char *fn, int *err)
{
	struct thread_state *ts = me;
	struct slot *s = (struct slot *)h;

	/* in a forked child `me` starts NULL (at_fork_child) and a new state never has the
	 * parent's address (the parent's is kept): one comparison is the whole check */
	if (__builtin_expect(h && ts && s->ts == ts, 1))
		return ts;
	if (!h)
		*err = pmu__err(NULL, -EINVAL, "%s: NULL region handle", fn);
	else if (!ts)
		*err = pmu__err(reg_ctx, -EINVAL, "%s: this thread has no regions: a handle is valid only in the "
				"thread that got it from pmu_region_get (and not in a forked child)", fn);
	else
		*err = pmu__err(reg_ctx, -EINVAL, "%s(\"%s\"): the handle belongs to another thread (or to the parent "
				"process); get one in this thread with pmu_region_get", fn, s->name);
	return NULL;
}

PMU_EXPORT int pmu_region_enter(struct pmu_region *h)
{
	struct slot *s = (struct slot *)h;
	int err = 0;
	struct thread_state *ts = handle_owner(h, "pmu_region_enter", &err);

	if (!ts)
		return err;
	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	err = slot_begin(ts, s, true);
	ts->busy = 0;
	return err;
}

PMU_EXPORT int pmu_region_leave(struct pmu_region *h)
{
	struct pmu_value now[REG_MAX_EV];
	struct slot *s = (struct slot *)h;
	int err = 0;
	struct thread_state *ts = handle_owner(h, "pmu_region_leave", &err);

	if (!ts)
		return err;
	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	err = pmu_fast_read(ts->fast, now);
	if (__builtin_expect(s->depth == 0 || err < 0, 0)) {
		ts->busy = 0;
		if (err < 0)
			return err;
		return pmu__err(reg_ctx, -EINVAL, "pmu_region_leave(\"%s\") without a matching enter or begin in this "
				"thread; nothing recorded", s->name);
	}
	slot_end(ts, s, now, true);
	ts->busy = 0;
	return 0;
}

PMU_EXPORT void pmu_region_reset(void)
{
	pthread_mutex_lock(&reg_lock);
	for (struct thread_state *t = threads; t; t = t->next)
		for (size_t i = 0; i < t->nslots; i++) {
			struct slot *s = t->slots[i];
			s->calls = 0;
			memset(s->sum, 0, sizeof(s->sum));
			memset(s->max, 0, sizeof(s->max));
			for (size_t k = 0; k < REG_MAX_EV; k++)
				s->min[k] = UINT64_MAX;
		}
	pthread_mutex_unlock(&reg_lock);
}

/* ---------------------------------------------------------------- */
/* results and reports                                               */
/* ---------------------------------------------------------------- */

struct result_buf {
	struct pmu_region_result r;
	struct pmu_value values[REG_MAX_EV];
	uint64_t min[REG_MAX_EV], max[REG_MAX_EV];
	const char *events[REG_MAX_EV];
};

static size_t event_names(const char **out, struct pmu_event_info *infos)
{
	for (size_t k = 0; k < reg_nev; k++) {
		infos[k] = reg_infos[k];
		out[k] = infos[k].name;
	}
	return reg_nev;
}

static void add_slot(struct result_buf *b, const struct slot *s, size_t nev)
{
	b->r.calls += s->calls;
	for (size_t k = 0; k < nev; k++) {
		b->values[k].value += s->sum[k].value;
		b->values[k].enabled += s->sum[k].enabled;
		b->values[k].running += s->sum[k].running;
		if (s->calls && s->min[k] < b->min[k])
			b->min[k] = s->min[k];
		if (s->max[k] > b->max[k])
			b->max[k] = s->max[k];
	}
}

static void buf_init(struct result_buf *b, const char *name, long tid, size_t nev, const char **events)
{
	memset(b, 0, sizeof(*b));
	for (size_t k = 0; k < nev; k++)
		if (reg_infos[k].flags & PMU_EVF_UNSUPPORTED)
			b->r.unsupported |= 1u << k;
	b->r.name = name;
	b->r.tid = tid;
	b->r.nvalues = nev;
	for (size_t k = 0; k < REG_MAX_EV; k++)
		b->min[k] = UINT64_MAX;
	for (size_t k = 0; k < nev; k++)
		b->events[k] = events[k];
	b->r.events = b->events;
	b->r.values = b->values;
	b->r.min = b->min;
	b->r.max = b->max;
}

/* under reg_lock */
static int foreach_locked(int per_thread, pmu_region_cb cb, void *data, const char **events, size_t nev)
{
	struct result_buf b;
	int count = 0, r;

	for (size_t id = 0; id < nnames; id++) {
		bool used = false;
		if (!strcmp(names[id], CAL_NAME))
			continue;
		buf_init(&b, names[id], -1, nev, events);
		for (struct thread_state *t = threads; t; t = t->next)
			for (size_t i = 0; i < t->nslots; i++)
				if (t->slots[i]->id == id) {
					add_slot(&b, t->slots[i], nev);
					used = true;
				}
		if (!used || !b.r.calls)
			continue; /* never completed, or forgotten by pmu_region_reset() */
		for (size_t k = 0; k < nev; k++)
			if (b.min[k] == UINT64_MAX)
				b.min[k] = 0;
		count++;
		if ((r = cb(&b.r, data)))
			return r;
		if (!per_thread)
			continue;
		for (struct thread_state *t = threads; t; t = t->next)
			for (size_t i = 0; i < t->nslots; i++) {
				if (t->slots[i]->id != id)
					continue;
				buf_init(&b, names[id], t->tid, nev, events);
				add_slot(&b, t->slots[i], nev);
				for (size_t k = 0; k < nev; k++)
					if (b.min[k] == UINT64_MAX)
						b.min[k] = 0;
				count++;
				if ((r = cb(&b.r, data)))
					return r;
			}
	}
	return count;
}

PMU_EXPORT int pmu_region_foreach(int per_thread, pmu_region_cb cb, void *data)
{
	const char *events[REG_MAX_EV];
	struct pmu_event_info infos[REG_MAX_EV];
	size_t nev;
	int r;

	if (!cb)
		return -EINVAL;
	pthread_mutex_lock(&reg_lock);
	nev = event_names(events, infos);
	r = foreach_locked(per_thread, cb, data, events, nev);
	pthread_mutex_unlock(&reg_lock);
	return r;
}

struct writer {
	FILE *f;
	int format;
	int scaled;                     /* text: some value was multiplexed and scaled */
	int namew;                      /* text: width of the region column (the longest name) */
	int colw[REG_MAX_EV];           /* text: width of each event's column (its label) */
	const struct pmu_event_info *infos;
	json_object *regions;           /* json: the regions array */
	json_object *threads;           /* json: the current region's per-thread array */
};

/* The metrics named in PMU_EVENTS, evaluated on @r's counts: @fn(name, value, data)
 * for each, the value NAN where it cannot be evaluated. */
static void each_metric(const struct pmu_region_result *r, void (*fn)(const char *m, double v, void *data),
			void *data)
{
	struct pmu_named_value nv[REG_MAX_EV];
	char *copy = reg_metrics ? strdup(reg_metrics) : NULL, *save = NULL;

	for (size_t k = 0; k < r->nvalues; k++) {
		nv[k].name = r->events[k];
		nv[k].value = (double)pmu_scale(&r->values[k]);
	}
	for (char *m = copy ? strtok_r(copy, ",", &save) : NULL; m; m = strtok_r(NULL, ",", &save)) {
		double v;
		if (pmu_metric_eval(reg_ctx, m, nv, r->nvalues, &v) < 0)
			v = NAN;
		fn(m, v, data);
	}
	free(copy);
}

static void fmt_count(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v), o = 0;
	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
}

/* ---- CSV (RFC 4180: text fields quoted, inner quotes doubled) ---- */

static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void write_csv(const struct pmu_region_result *r, const struct writer *w)
{
	for (size_t k = 0; k < r->nvalues; k++) {
		csv_str(w->f, r->name);
		fprintf(w->f, ",%ld,%llu,", r->tid, (unsigned long long)r->calls);
		csv_str(w->f, r->events[k]);
		fprintf(w->f, ",%llu,%llu,%llu,%llu,%.6f,%llu,%llu,%d\n", (unsigned long long)r->values[k].value,
			(unsigned long long)pmu_scale(&r->values[k]), (unsigned long long)r->values[k].enabled,
			(unsigned long long)r->values[k].running, pmu_confidence(&r->values[k]), (unsigned long long)r->min[k],
			(unsigned long long)r->max[k], !!(w->infos[k].flags & PMU_EVF_UNSUPPORTED));
	}
}

/* ---- JSON (schema libpmu-regions/1, written with json-c) ---- */

static json_object *json_fixed(double v, const char *fmt)
{
	char buf[64];
	snprintf(buf, sizeof(buf), fmt, v);
	return json_object_new_double_s(v, buf);
}

static json_object *json_events(const struct pmu_region_result *r, const struct writer *w)
{
	json_object *o = json_object_new_object();

	for (size_t k = 0; o && k < r->nvalues; k++) {
		json_object *e = NULL;
		if (!(w->infos[k].flags & PMU_EVF_UNSUPPORTED) && (e = json_object_new_object())) {
			json_object_object_add(e, "value", json_object_new_uint64(r->values[k].value));
			json_object_object_add(e, "scaled", json_object_new_uint64(pmu_scale(&r->values[k])));
			json_object_object_add(e, "enabled_ns", json_object_new_uint64(r->values[k].enabled));
			json_object_object_add(e, "running_ns", json_object_new_uint64(r->values[k].running));
			json_object_object_add(e, "confidence", json_fixed(pmu_confidence(&r->values[k]), "%.6f"));
			json_object_object_add(e, "min", json_object_new_uint64(r->min[k]));
			json_object_object_add(e, "max", json_object_new_uint64(r->max[k]));
		}
		json_object_object_add(o, r->events[k], e); /* NULL: null, not counted here */
	}
	return o;
}

static void json_metric(const char *m, double v, void *data)
{
	json_object_object_add(data, m, isfinite(v) ? json_fixed(v, "%.9g") : NULL);
}

static void write_json(const struct pmu_region_result *r, struct writer *w)
{
	json_object *o = json_object_new_object();

	if (!o)
		return;
	if (r->tid == -1) {
		json_object *m = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(r->name));
		json_object_object_add(o, "calls", json_object_new_uint64(r->calls));
		json_object_object_add(o, "events", json_events(r, w));
		if (m)
			each_metric(r, json_metric, m);
		json_object_object_add(o, "metrics", m);
		json_object_object_add(o, "threads", w->threads = json_object_new_array());
		json_object_array_add(w->regions, o);
	} else if (!w->threads) {
		json_object_put(o); /* out of memory for the region's thread list */
	} else {
		json_object_object_add(o, "tid", json_object_new_int64(r->tid));
		json_object_object_add(o, "calls", json_object_new_uint64(r->calls));
		json_object_object_add(o, "events", json_events(r, w));
		json_object_array_add(w->threads, o);
	}
}

/* The MPI rank given by the launcher (Open MPI, MPICH/PMI, PMIx, Slurm,
 * MVAPICH2), or NULL: the one reading of it, for %r and the JSON header. */
static const char *mpi_rank(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
					    "MV2_COMM_WORLD_RANK" };
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = pmu__getenv(vars[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

/* The rank as JSON: a number when it is one (decimal digits), else the string as given; null when none. */
static json_object *json_rank(void)
{
	const char *v = mpi_rank();
	char *end;
	long long n;

	if (!v)
		return NULL;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (isdigit((unsigned char)v[0]) && !*end && !errno)
		return json_object_new_int64(n);
	return json_object_new_string(v);
}

static json_object *json_header(int nthreads, const char *const *events, size_t nev)
{
	json_object *o = json_object_new_object(), *ev = json_object_new_array();
	struct pmu_caps c;

	if (!o || !ev) {
		json_object_put(o);
		json_object_put(ev);
		return NULL;
	}
	pmu_caps(reg_ctx, &c);
	json_object_object_add(o, "schema", json_object_new_string("libpmu-regions/1"));
	json_object_object_add(o, "version", json_object_new_string(pmu_version()));
	json_object_object_add(o, "pid", json_object_new_int64((long)getpid()));
	json_object_object_add(o, "rank", json_rank());
	json_object_object_add(o, "cpuid", json_object_new_string(c.cpuid));
	json_object_object_add(o, "threads", json_object_new_int(nthreads));
	json_object_object_add(o, "calibrated", json_object_new_boolean(reg_calibrate));
	for (size_t k = 0; k < nev; k++)
		json_object_array_add(ev, json_object_new_string(events[k]));
	json_object_object_add(o, "events", ev);
	return o;
}

/* ---- text ---- */

static void text_metric(const char *m, double v, void *data)
{
	struct pmu_metric_info mi;
	const char *unit = "";
	double factor = 1;

	if (pmu_metric_info(reg_ctx, m, &mi) == 0 && mi.scale_unit[0]) {
		char *end;
		factor = strtod(mi.scale_unit, &end);
		if (end == mi.scale_unit)
			factor = 1;
		unit = end;
	}
	if (v == v)
		fprintf(data, "   %-40s %14.3f %s\n", m, v * factor, unit);
	else
		fprintf(data, "   %-40s  n/a\n", m);
}

static void write_text(const struct pmu_region_result *r, struct writer *w)
{
	char num[40];

	if (r->tid == -1)
		fprintf(w->f, " %-*s %10llu", w->namew, r->name, (unsigned long long)r->calls);
	else
		fprintf(w->f, "   thread %-*ld %10llu", w->namew - 9, r->tid, (unsigned long long)r->calls);
	for (size_t k = 0; k < r->nvalues; k++) {
		double c = pmu_confidence(&r->values[k]);
		if (w->infos[k].flags & PMU_EVF_UNSUPPORTED) {
			fprintf(w->f, " %*s", w->colw[k], "<not counted>");
			continue;
		}
		fmt_count(num, sizeof(num), pmu_scale(&r->values[k]));
		fprintf(w->f, " %*s%s", w->colw[k] - 1, num, c < 1.0 ? "*" : " ");
		w->scaled |= c < 1.0;
	}
	fprintf(w->f, "\n");
	if (r->tid == -1)
		each_metric(r, text_metric, w->f);
}

/* The column header of event @k: its name, and its unit when it has one ("task-clock (ns)"). */
static int text_label(char *buf, size_t len, const char *name, const struct pmu_event_info *info)
{
	if (info->unit && info->unit[0])
		return snprintf(buf, len, "%s (%s)", name, info->unit);
	return snprintf(buf, len, "%s", name);
}

static void text_header(struct writer *w, int nthreads, const char *const *events, size_t nev)
{
	char label[256];

	/* columns as wide as the longest name: a label is never cut */
	w->namew = 28;
	for (size_t id = 0; id < nnames; id++)
		if (strcmp(names[id], CAL_NAME) && (int)strlen(names[id]) > w->namew)
			w->namew = (int)strlen(names[id]);
	fprintf(w->f, "\n libpmu regions (pid %ld, %d thread%s%s)\n\n %-*s %10s", (long)getpid(), nthreads,
		nthreads == 1 ? "" : "s", reg_calibrate ? ", begin/end overhead subtracted" : "", w->namew, "region",
		"calls");
	for (size_t k = 0; k < nev; k++) {
		int n = text_label(label, sizeof(label), events[k], &w->infos[k]);
		w->colw[k] = n > 18 ? n : 18;
		fprintf(w->f, " %*s", w->colw[k], label);
	}
	fprintf(w->f, "\n");
}

static int write_result(const struct pmu_region_result *r, void *data)
{
	struct writer *w = data;

	if (w->format == PMU_FORMAT_CSV)
		write_csv(r, w);
	else if (w->format == PMU_FORMAT_JSON)
		write_json(r, w);
	else
		write_text(r, w);
	return 0;
}

/* @in with %p, %r and %% expanded into @out; -ENAMETOOLONG when it does not fit. */
static int expand_path(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = in; *p; p++) {
		if (o + 1 >= len)
			return -ENAMETOOLONG;
		if (p[0] == '%' && p[1] == 'p') {
			o += (size_t)snprintf(out + o, len - o, "%ld", (long)getpid());
			p++;
		} else if (p[0] == '%' && p[1] == 'r') {
			const char *rank = mpi_rank();
			o += (size_t)snprintf(out + o, len - o, "%s", rank ? rank : "0");
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			out[o++] = '%';
			p++;
		} else {
			out[o++] = *p;
		}
	}
	if (o >= len)
		return -ENAMETOOLONG;
	out[o] = 0;
	return 0;
}

/* The report file, opened without waiting: a FIFO with no reader is an
 * error now (ENXIO), not a program blocked at exit. */
static FILE *open_report(const char *file, int *err)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666), fl;
	FILE *f;

	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "w"))) {
		*err = errno;
		close(fd);
		return NULL;
	}
	return f;
}

PMU_EXPORT int pmu_region_report(const char *path, int format, int per_thread)
{
	char file[PATH_MAX];
	const char *events[REG_MAX_EV];
	struct pmu_event_info infos[REG_MAX_EV];
	struct writer w;
	json_object *doc = NULL;
	FILE *f;
	size_t nev;
	int r, nthreads = 0;

	if (format < PMU_FORMAT_TEXT || format > PMU_FORMAT_CSV)
		return pmu__err(reg_ctx, -EINVAL, "pmu_region_report: format %d is not PMU_FORMAT_TEXT, _JSON or _CSV",
				format);
	if (!path)
		path = pmu__getenv("PMU_OUTPUT");
	if (!path || !*path) {
		f = stderr;
	} else if (!strcmp(path, "-")) {
		f = stdout;
	} else {
		int err = 0;
		if (expand_path(path, file, sizeof(file)) < 0)
			return pmu__err(reg_ctx, -ENAMETOOLONG, "the region report path '%.60s...' is longer than %d "
					"characters once %%p/%%r are expanded", path, PATH_MAX - 1);
		if (!(f = open_report(file, &err)))
			return pmu__err(reg_ctx, -err, "cannot write the region report to '%s': %s", file,
					err == ENXIO ? "it is a FIFO that no process is reading" : strerror(err));
	}
	pthread_mutex_lock(&reg_lock);
	nev = event_names(events, infos);
	for (struct thread_state *t = threads; t; t = t->next)
		nthreads++;
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.format = format;
	w.infos = infos;
	if (format == PMU_FORMAT_JSON) {
		if ((doc = json_header(nthreads, events, nev)) && (w.regions = json_object_new_array()))
			json_object_object_add(doc, "regions", w.regions);
		r = w.regions ? foreach_locked(per_thread, write_result, &w, events, nev)
			      : pmu__err(reg_ctx, -ENOMEM, "out of memory writing the region report");
	} else if (format == PMU_FORMAT_CSV) {
		fprintf(f, "region,tid,calls,event,value,scaled,enabled_ns,running_ns,confidence,min,max,unsupported\n");
		r = foreach_locked(per_thread, write_result, &w, events, nev);
	} else {
		text_header(&w, nthreads, events, nev);
		r = foreach_locked(per_thread, write_result, &w, events, nev);
		fprintf(f, "\n%s", r == 0 ? " (no regions)\n\n" : w.scaled ? " * scaled: the event was multiplexed\n\n" : "");
	}
	pthread_mutex_unlock(&reg_lock);
	if (doc && r >= 0)
		fprintf(f, "%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
								  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	{
		/* a full disk, a closed stdout: said, not swallowed */
		int bad = ferror(f) ? (errno ? errno : EIO) : 0;
		if ((f != stderr && f != stdout ? fclose(f) : fflush(f)) != 0 && !bad)
			bad = errno ? errno : EIO;
		if (bad)
			return pmu__err(reg_ctx, -bad, "writing the region report to '%s' failed: %s",
					f == stdout ? "stdout" : f == stderr ? "stderr" : file, strerror(bad));
	}
	return r < 0 ? r : 0;
}
