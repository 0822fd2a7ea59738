/* SPDX-License-Identifier: MIT */
/*
 * Regions (private): what the region files share. region.c is the hot path
 * (begin/end/enter/leave and handles) and measures an empty pair of it,
 * region-names.c finds a thread's slot for a name, region-setup.c reads the
 * configuration and sets threads up, region-report.c gathers the counts and
 * writes the reports, region-output.c chooses the file a report goes to.
 */
#ifndef PMU_REGION_H
#define PMU_REGION_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pmu.h"
#include "common.h"
#include "region-name.h"

#define REG_MAX_EV 16
/* names counted on each core PMU (a total of two parts or more) */
#define REG_MAX_TOT (REG_MAX_EV / 2)
/* socket-wide values: events of PMUs that count CPUs (uncore, energy), one set for the process */
#define REG_MAX_SOCK 8
/* a report's columns: the values, each such name's total after its last part, the socket-wide values
 * (at most 32: a result's bit masks) */
#define REG_MAX_COL (REG_MAX_EV + REG_MAX_TOT + REG_MAX_SOCK)
#define REG_NAME_MAX 128
#define CAL_NAME "libpmu.calibration"
#define CAL_ROUNDS 16
/* threads that have exited, kept whole (a row each in per-thread reports); older ones are folded into
 * their names' totals and freed (region-names.c), so that a thread per task does not grow the process */
#define REG_EXITED_KEPT 64

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
	uint64_t tmin[REG_MAX_TOT], tmax[REG_MAX_TOT]; /* a name's total in one call (R.tot) */
	uint64_t stray_ends;            /* ends of this name with no begin open: refused, and said by the report */
	struct slot *name_next, *name_prev; /* the name's slots in every thread kept (under R.lock) */
};

/* A name's socket-wide counts (region-socket.c; under R.lock): an interval runs from the begin that finds
 * no thread inside the name to the end that leaves none, so that threads' overlapping calls count the
 * socket once. */
struct region_sock {
	uint32_t open;                  /* threads inside the name now (outermost begin done, end not) */
	uint64_t intervals;             /* completed intervals (a report's calls of these values) */
	uint64_t abandoned;             /* intervals whose every thread exited inside the name: not counted */
	struct pmu_value start[REG_MAX_SOCK], sum[REG_MAX_SOCK];
	uint64_t min[REG_MAX_SOCK], max[REG_MAX_SOCK];
};

/* An interned region name: its slots in the threads kept, and what the threads folded counted. */
struct region_name {
	char *name;
	uint32_t hash;
	struct slot *chain;             /* the slots of this name, newest first (under R.lock) */
	struct slot *folded;            /* the folded threads' counts summed (their ts NULL), or NULL */
	uint64_t folded_threads;        /* how many folded threads had a slot of this name */
	uint64_t folded_open;           /* how many of those exited with this name begun and not ended */
	struct region_sock *sock;       /* socket-wide counts (R.nsock), made at the name's first begin */
};

struct thread_state {
	long tid;
	unsigned gen;                   /* pmu__fork_gen when created */
	struct pmu_set *set;
	const struct pmu_fast *fast;    /* what the inline read tries: with socket-wide values the refusing
					 * plan, so that every begin and end takes the slow path, which reads them */
	const struct pmu_fast *tfast;   /* with socket-wide values: the set's own plan (NULL: no set) */
	size_t nev;
	int err;                        /* sticky error of opening the events */
	const char *errmsg;             /* its sentence: R.errmsg, or errbuf */
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
	struct pmu_value now[REG_MAX_EV]; /* an end's read (under busy): not on the stack, whose frame of
					 * 400 bytes the common path would set up */
	struct thread_state *next, *prev; /* R.threads, or R.exited once the thread has exited (under R.lock) */
	bool exited;
	uint64_t stray_unknown;         /* ends of a name never begun in this thread, the first one's name: */
	char stray_name[REG_NAME_MAX];  /* refused, and said by the report */
};

/* The process-wide region state (one object: every field is set up by
 * region-setup.c and read elsewhere under the rules its comment gives). */
struct regions {
	pthread_mutex_t init_lock;      /* held through the set-up (global_init), which fork waits for */
	bool inited;                    /* the set-up ran (set under init_lock, read without it) */
	pthread_mutex_t lock;
	struct pmu_ctx *ctx;
	int err;                        /* regions are off in the whole process: why */
	char *events;                   /* the event list every thread opens */
	struct pmu_plan *plan;          /* ... resolved once (set-up), opened by each thread; NULL when every
					 * event is socket-wide */
	char *sock_events;              /* the events of PMUs that count CPUs (region-socket.c), or NULL */
	struct pmu_plan *sock_plan;     /* ... resolved once */
	struct pmu_set *sock_set;       /* ... opened once for the process (again in a forked child) */
	struct pmu_event_info sinfos[REG_MAX_SOCK]; /* its values */
	size_t nsock;                   /* how many: 0, no socket-wide values (regions as ever) */
	char *metrics;                  /* metric names from PMU_EVENTS, comma separated */
	struct region_gmetric {         /* a performance group's metrics (PMU_EVENTS' likwid:NAME, group:NAME) */
		char *label;            /* "Memory bandwidth [MBytes/s]" */
		char *expr;             /* for pmu_metric_eval(), NULL where the group says it cannot be */
	} *gmetrics;
	size_t ngmetrics;
	char errmsg[1024];              /* err's sentence, "<origin>: <cause and fix>" */
	bool told;                      /* pmu_region_configure() returned err: its caller knows */
	int said;                       /* regions being off was said (once per process) */
	char origin[320];               /* where the events came from, for messages */
	const char *fix;                /* what to change when they cannot be used */
	int format;                     /* $PMU_FORMAT */
	int per_thread;                 /* $PMU_PER_THREAD */
	int calibrate;
	char *cfg_events;               /* pmu_region_configure(): replaces PMU_EVENTS */
	int cfg_calibrate;              /* pmu_region_configure(): replaces PMU_CALIBRATE (-1: not set) */
	bool started;                   /* the set-up ran (under lock) */
	struct region_name *names;      /* interned names, in order of first use (under lock) */
	size_t nnames, names_cap;
	uint32_t *nidx;                 /* hash of a name -> its index + 1, open addressing (under lock) */
	uint32_t nmask;
	struct thread_state *threads;   /* the live threads that used regions, newest first (under lock) */
	struct thread_state *exited, *exited_tail; /* threads exited, kept whole: oldest first (under lock) */
	size_t nexited;
	uint64_t nfolded;               /* threads exited and folded into their names' totals */
	uint64_t folded_stray;          /* their ends of names never begun, and the first one's name */
	char folded_stray_name[REG_NAME_MAX];
	struct thread_state *graveyard; /* a parent's threads, in a forked child: kept (never
					 * reused) so that a stale handle is recognised, not followed */
	pthread_key_t tls_key;
	bool tls_key_made;
	bool exit_ran;                  /* the report at exit ran (or is running): the process is ending */
	struct pmu_event_info infos[REG_MAX_EV]; /* the events, as the first thread opened them */
	size_t nev;
	/* names of the list counted on each core PMU, from the first thread's set (pmu_set_total_of()) */
	struct {
		char name[PMU_NAME_MAX];        /* "INST.RET:u" */
		uint32_t parts;                 /* bit k: value k is one of its parts */
		size_t last;                    /* its last part */
	} tot[REG_MAX_TOT];
	size_t ntot;
};
extern struct regions pmu__regions __attribute__((visibility("hidden")));
#define R pmu__regions /* in the region files only */

/* @s as before its first call: no calls, no counts. */
static inline void pmu__region_slot_forget(struct slot *s)
{
	s->calls = 0;
	memset(s->sum, 0, sizeof(s->sum));
	memset(s->max, 0, sizeof(s->max));
	memset(s->tmax, 0, sizeof(s->tmax));
	for (size_t k = 0; k < REG_MAX_EV; k++)
		s->min[k] = UINT64_MAX;
	for (size_t t = 0; t < REG_MAX_TOT; t++)
		s->tmin[t] = UINT64_MAX;
	s->stray_ends = 0;
}

/* The calling thread's state (region.c); initial-exec: in the shared library a plain
 * __thread costs a __tls_get_addr call at every begin and end. */
extern __thread struct thread_state *pmu__region_me
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

/* region-setup.c */
/* The calling thread's state, set up on first use (NULL: out of memory). */
struct thread_state *pmu__region_thread_init(void);

/* region-output.c */
/* $PMU_FORMAT as a pmu_report_format (an unknown value said, text), $PMU_PER_THREAD as 0 or 1: the one
 * reading of each, for the report at exit and pmu_region_report(PMU_FORMAT_ENV, -1); a yes/no variable
 * @var (1/yes/on/true, 0/no/off/false; unset or empty @def, anything else said and @def) */
int pmu__region_env_format(void);
int pmu__region_env_per_thread(void);
int pmu__region_env_flag(const char *var, int def);
/* Say @fmt on stderr, "libpmu regions: ...": zero-setup regions have no caller to tell (each
 * caller says a thing once). */
void pmu__region_say(const char *fmt, ...) PMU_PRINTF(1, 2);
/* The MPI rank the launcher gave (Open MPI, MPICH/PMI, PMIx, Slurm, MVAPICH2), or NULL: the one
 * reading of it, for %r, a derived name and the JSON header. */
const char *pmu__region_rank(void);
/* @in with %p, %r and %% expanded into @out; -ENAMETOOLONG when it does not fit. */
int pmu__region_expand_path(const char *in, char *out, size_t len);
/* The report's bytes for @file (@env: $PMU_OUTPUT's), written whole or not at all (resultfile.h); a
 * FIFO without a reader: -ENXIO, not a wait. 0 or a negative errno. */
struct pmu_outfile;
int pmu__region_out_open(struct pmu_outfile *o, const char *file, bool env);
/* All written (under R.lock): the bytes take their name, in @used: the caller's path over what is there;
 * $PMU_OUTPUT's @file only where no file is (another process's, an earlier run's), else a name derived
 * from it (said once), this process's own earlier file replaced. 0 or a negative errno (the file then as
 * it was). */
int pmu__region_out_place(struct pmu_outfile *o, const char *file, bool env, char *used, size_t len);

/* region-socket.c */
/* @events (R.events) parted into the events of PMUs that count CPUs (*@sock) and the others (*@thread),
 * groups kept whole; either NULL when none. 0 or a negative error (a group of both kinds). */
int pmu__region_socket_split(const char *events, char **thread, char **sock);
/* R.sock_set opened from R.sock_plan (set-up; a forked child's first thread) and R.sinfos noted. */
int pmu__region_socket_open(void);
/* The outermost begin of @s in its thread, before the thread's read: the name's interval begins when no
 * other thread is inside it (the socket-wide values read). 0 or the read's error (nothing begun). */
int pmu__region_socket_begin(const struct slot *s);
/* Its end, after the thread's read (@counted: the end closes the call; false: a begin undone): the
 * interval ends with the last thread inside (read, added to the name's sums). */
void pmu__region_socket_end(const struct slot *s, bool counted);
/* Thread @ts exited (under R.lock): the intervals it kept open lose it; one it alone kept open is not
 * counted (said by the report). */
void pmu__region_socket_exited(const struct thread_state *ts);
/* @n's socket-wide sums forgotten (pmu_region_reset; under R.lock); its open intervals go on. */
void pmu__region_socket_forget(struct region_name *n);

/* region-names.c */
/* Interned id of @name (under R.lock), or -ENOMEM. */
int pmu__region_intern(const char *name);
/* Thread @ts has exited (under R.lock, its set closed): kept whole among the last REG_EXITED_KEPT,
 * the oldest beyond them folded into their names' totals and freed. */
void pmu__region_thread_exited(struct thread_state *ts);
/* Forget every name and every folded count (under R.lock; a fork's child, an unload). */
void pmu__region_names_free(void);
/* Free thread state @ts and its slots (not unlinked from anything). */
void pmu__region_thread_free(struct thread_state *ts);
/* The thread after @t (NULL: the first) of every thread kept, the live ones then those exited (under
 * R.lock). */
static inline struct thread_state *pmu__region_next_thread(const struct thread_state *t)
{
	if (!t)
		return R.threads ? R.threads : R.exited;
	if (t->next)
		return t->next;
	return t->exited ? NULL : R.exited;
}
#define each_thread(t) (struct thread_state *t = pmu__region_next_thread(NULL); t; t = pmu__region_next_thread(t))
/* The slot named @name past the last lookup: the pointer cache, then the content index. */
struct slot *pmu__region_find_other(struct thread_state *ts, const char *name);
/* Make room for one more slot in the thread's index and pointer cache. */
int pmu__region_index_grow(struct thread_state *ts);
/* A new slot for @name, the first use of the name in this thread (locks, allocates). */
struct slot *pmu__region_new_slot(struct thread_state *ts, const char *name, int *err);

/* The slot named @name in this thread, or NULL: inline, the name of the
 * last lookup (a begin's name is its end's), checked by content. */
__attribute__((always_inline)) static inline struct slot *find(struct thread_state *ts, const char *name)
{
	if (__builtin_expect(ts->last_key == name, 1) && __builtin_expect(pmu__region_name_eq(ts->last_slot->name, name), 1))
		return ts->last_slot;
	return pmu__region_find_other(ts, name);
}

#endif
