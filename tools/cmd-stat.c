/* SPDX-License-Identifier: MIT */
/* pmu stat: count a command (or processes, threads, CPUs) like perf stat. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "analysis.h"
#include "cli.h"
#include "opts.h"
#include "outfile.h"
#include "stat-aggr.h"
#include "stat-cgroup.h"
#include "stat-likwid.h"
#include "stat-print.h"
#include "stat-run.h"
#include "util.h"

static int cmd_stat(int argc, char **argv, struct cli *cli);

enum {
	OPT_JSON = OPT_LONG, OPT_PER_THREAD, OPT_TIMEOUT, OPT_METRIC_ONLY, OPT_APPEND, OPT_NO_BIG_NUM, OPT_ALL_USER,
	OPT_INTERVAL_COUNT, OPT_SUMMARY, OPT_ALL_KERNEL, OPT_FOR_EACH_CGROUP, OPT_NO_CSV_SUMMARY, OPT_TABLE, OPT_PRE, OPT_POST, OPT_CONTROL,
	/* --per-socket ... --per-node: OPT_PER + the aggregation mode */
	OPT_PER, OPT_PER_LAST = OPT_PER + AGGR_NODE,
};
static const struct opt stat_opts[] = {
	{ 'e', "event", "events", "EVENTS", "events to count, comma-separated ({a,b}: counted together); repeatable" },
	{ 'g', "group", NULL, "GROUP", "a performance group (LIKWID's, or libpmu's own: pmu list groups): its events "
	  "counted, its metrics printed as likwid-perfctr prints them" },
	ANALYSIS_OPTS,
	{ 'd', "detailed", NULL, NULL, "add perf's cache events: -d L1-dcache and LLC, -dd also L1-icache and TLBs, "
	  "-ddd also L1-dcache prefetches" },
	{ 'n', "null", NULL, NULL, "count nothing: only the time elapsed (with -r: its mean and +-)" },
	{ OPT_ALL_USER, "all-user", NULL, NULL, "count every event in user mode only (as :u on each)" },
	{ OPT_ALL_KERNEL, "all-kernel", NULL, NULL, "count every event in kernel mode only (as :k on each)" },
	{ 'r', "repeat", NULL, "N", "run the command N times: the mean of each count and its +- (standard error); "
	  "-r 0: run it again and again, printing each run, until Ctrl-C" },
	{ OPT_TABLE, "table", NULL, NULL, "with -r: a table of each run's time elapsed" },
	{ OPT_PRE, "pre", NULL, "CMD", "run CMD (with sh -c) before each run; its failure ends pmu stat" },
	{ OPT_POST, "post", NULL, "CMD", "run CMD (with sh -c) after each run; its failure ends pmu stat" },
	{ 'I', "interval-print", "interval", "MS", "print the counts of every MS milliseconds (1 or more), without "
	  "the total at the end (--summary: with it)" },
	{ OPT_INTERVAL_COUNT, "interval-count", NULL, "N", "with -I: stop counting after N intervals" },
	{ OPT_SUMMARY, "summary", NULL, NULL, "with -I: also the total at the end" },
	{ OPT_NO_CSV_SUMMARY, "no-csv-summary", NULL, NULL, "with -I --summary -x or -j: no 'summary' field" },
	{ OPT_TIMEOUT, "timeout", NULL, "MS", "stop counting after MS milliseconds (the command gets SIGTERM)" },
	{ 'D', "delay", NULL, "MS", "start counting MS milliseconds after the command starts; -1: when --control "
	  "says 'enable'" },
	{ OPT_CONTROL, "control", NULL, "KIND:CTL[,ACK]", "take 'enable', 'disable' and 'ping' from "
	  "fifo:PATH[,PATH] or fd:N[,N] (each answered 'ack' on ACK)" },
	{ 'p', "pid", NULL, "PID[,PID]", "count running processes (all their threads) until they end or Ctrl-C" },
	{ 't', "tid", NULL, "TID[,TID]", "count running threads until they end or Ctrl-C" },
	{ 'a', "all-cpus", NULL, NULL, "count every CPU, all tasks, until Ctrl-C or the command ends" },
	{ 'C', "cpu", NULL, "CPUS", "count these CPUs (0,2-3), all tasks" },
	{ 'A', "no-aggr", NULL, NULL, "a row per CPU (with -a or -C)" },
	{ 'G', "cgroup", NULL, "NAMES", "with -a or -C: count the tasks of cgroups only: the k-th name for the "
	  "k-th event of -e before it ('' every task); one name: every event before it, as perf" },
	{ OPT_FOR_EACH_CGROUP, "for-each-cgroup", NULL, "NAMES", "with -a or -C: count every event in each cgroup "
	  "named" },
	{ OPT_PER_THREAD, "per-thread", NULL, NULL, "a row per thread (with -p or -t)" },
	{ OPT_PER + AGGR_SOCKET, "per-socket", NULL, NULL, "with -a or -C: a row per socket (S0), its CPUs' counts summed" },
	{ OPT_PER + AGGR_DIE, "per-die", NULL, NULL, "with -a or -C: a row per die of each socket (S0-D0)" },
	{ OPT_PER + AGGR_CLUSTER, "per-cluster", NULL, NULL, "with -a or -C: a row per cluster of CPUs (S0-D0-CLS0)" },
	{ OPT_PER + AGGR_CACHE, "per-cache", NULL, "[=LEVEL]", "with -a or -C: a row per cache instance (S0-D0-L3-ID0) "
	  "of LEVEL (L1 to L4; default: each CPU's highest)" },
	{ OPT_PER + AGGR_CORE, "per-core", NULL, NULL, "with -a or -C: a row per physical core (S0-D0-C0)" },
	{ OPT_PER + AGGR_NODE, "per-node", NULL, NULL, "with -a or -C: a row per NUMA node (N0)" },
	{ 'i', "no-inherit", NULL, NULL, "leave out the processes and threads the counted ones start" },
	{ 'o', "output", NULL, "FILE", "write the results to FILE (default: stderr), after a '# started on' line" },
	{ OPT_APPEND, "append", NULL, NULL, "with -o: add to FILE, not replace it" },
	{ 'x', "field-separator", NULL, "SEP", "perf's CSV: a line per counter, fields separated by SEP" },
	{ 'j', "json-lines", "json-output", NULL, "perf's JSON (perf stat -j): an object per counter, one per line" },
	{ OPT_JSON, "json", NULL, NULL, "one JSON document, schema libpmu-stat/1 (pmu report reads it)" },
	{ OPT_METRIC_ONLY, "metric-only", NULL, NULL, "print the metrics of -M (and --topdown), not the counts" },
	{ 'B', "big-num", NULL, NULL, "counts with thousands' separators (1,234,567): the text table's default" },
	{ OPT_NO_BIG_NUM, "no-big-num", NULL, NULL, "counts without thousands' separators (1234567)" },
	{ 0 },
};
static const char *const stat_synopsis[] = {
	"[OPTIONS] [--] CMD [ARGS...]",
	"[OPTIONS] {-p PID | -t TID | -a | -C CPUS} [-- CMD [ARGS...]]",
	NULL,
};
const struct command stat_command = {
	"stat", cmd_stat, "Count events while a command runs, or in processes, threads, CPUs", stat_synopsis,
	"Like perf stat: counts, perf's ratios, metrics and the topdown tree, of CMD and its children.\n"
	"The results go to stderr (or -o FILE): stdout is the command's. Without -e: task-clock, context-switches,\n"
	"cpu-migrations, page-faults and, where a hardware PMU exists, cycles, instructions, branches and\n"
	"branch-misses. With -p, -t, -a or -C a command after -- runs meanwhile, uncounted, and its end ends\n"
	"the count. With neither a command nor one of them: every CPU until Ctrl-C, as perf.\n"
	"-D NAME=VALUE was pmu's metric parameter: that is --param NAME=VALUE now.\n"
	"Exit status: the command's (128+N when signal N ended it); 128+N when signal N ended -p, -t, -a or -C;\n"
	"1 when counting failed; 2 on a usage error (a wrong event list too).\n",
	stat_opts, true,
};

/* One invocation's options. */
struct stat_cmd {
	char *events;                  /* -e, joined */
	const char *group;             /* -g, as written */
	struct pmu_group *grp;         /* -g's group, opened */
	struct analysis_opts a;
	struct stat_target tg;
	struct stat_run_opts run;
	const char *outfile;
	enum stat_format format;
	int formats;                   /* how many of -x, -j, --json */
	const char *sep;
	char *pids, *tids, *cpus;      /* as written, each -p (-t, -C) joined with ',' */
	int repeat;                    /* -r; 0: until Ctrl-C */
	int detailed;                  /* how many -d */
	const char *pre, *post;        /* --pre, --post */
	const char *control;           /* --control, as written */
	bool all_cpus, per_thread, no_aggr, no_inherit, metric_only;
	bool system_wide;              /* no command, nothing named: every CPU (all_cpus) */
	bool append, null_run, all_user, all_kernel, summary, no_csv_summary, table;
	struct stat_cgroup_plan cgroup_plan;  /* -G's names, per event */
	char *each_cgroup;             /* --for-each-cgroup, joined with ',' */
	int big_num;                   /* -B: 1, --no-big-num: 0; -1: not given */
	enum aggr_mode aggr;           /* --per-socket ... --per-node; AGGR_NONE: none */
	int aggr_given;                /* how many --per-X (of those six) */
	int cache_level;               /* --per-cache=LEVEL; 0: each CPU's highest */
	struct aggr_map aggr_map;      /* the CPUs' groups, made once the CPUs are known */
};

static int number(const char *arg, long min, long max, const char *msg, int *out)
{
	if (opts_int(arg, min, max, out) == 0)
		return 0;
	fprintf(stderr, "pmu stat: %s, not '%s'\n", msg, arg);
	return -1;
}

/* -p, -t, -C: @arg's numbers added to @l, and @arg to what was written (*@written) */
static int list(struct intv *l, char **written, const char *arg, bool ranges, int min, const char *msg)
{
	if (intv_parse(l, arg, ranges, min, ranges ? 65535 : INT_MAX) == 0)
		return str_append(written, ",", arg) < 0 ? -1 : 0;
	fprintf(stderr, "pmu stat: %s, not '%s'\n", msg, arg);
	return -1;
}

static int format(struct stat_cmd *s, enum stat_format f)
{
	s->formats += s->format != f;
	s->format = f;
	return 0;
}

static int on_opt(void *st, int id, const char *arg)
{
	struct stat_cmd *s = st;
	int r = analysis_opt(&s->a, "stat", id, arg);

	if (r <= 0)
		return r;
	switch (id) {
	case 'e':
		return str_append(&s->events, ",", arg) < 0 ? -1 : 0;
	case 'g':
		if (s->group)
			return opts_error(&stat_command, "-g names one group (%s, then %s): give it once", s->group, arg);
		return s->group = arg, 0;
	case 'r':
		return number(arg, 0, 100000, "-r wants a number of runs (1 or more; 0: until Ctrl-C)", &s->repeat);
	case 'I':
		return number(arg, 1, 3600000, "-I wants an interval in milliseconds (1 or more)", &s->run.interval_ms);
	case OPT_INTERVAL_COUNT:
		return number(arg, 1, INT_MAX, "--interval-count wants a number of intervals (1 or more)",
			      &s->run.interval_count);
	case 'd':
		return s->detailed++, 0;
	case 'n':
		return s->null_run = true, 0;
	case OPT_ALL_USER:
		return s->all_user = true, 0;
	case OPT_ALL_KERNEL:
		return s->all_kernel = true, 0;
	case 'G': {
		int g = stat_cgroup_option(&s->cgroup_plan, s->events, arg);
		if (g < 0)
			fprintf(stderr, "pmu stat: out of memory\n");
		return g ? -1 : 0;
	}
	case OPT_FOR_EACH_CGROUP:
		return str_append(&s->each_cgroup, ",", arg) < 0 ? -1 : 0;
	case OPT_TABLE:
		return s->table = true, 0;
	case OPT_PRE:
		return s->pre = arg, 0;
	case OPT_POST:
		return s->post = arg, 0;
	case OPT_SUMMARY:
		return s->summary = true, 0;
	case OPT_NO_CSV_SUMMARY:
		return s->no_csv_summary = true, 0;
	case OPT_APPEND:
		return s->append = true, 0;
	case 'B':
		return s->big_num = 1, 0;
	case OPT_NO_BIG_NUM:
		return s->big_num = 0, 0;
	case OPT_CONTROL:
		return s->control = arg, 0;
	case OPT_TIMEOUT:
		return number(arg, 10, INT_MAX, "--timeout wants milliseconds (10 or more)", &s->run.timeout_ms);
	case 'D':
		if (strchr(arg, '='))
			return analysis_old_param("stat", arg);
		return number(arg, -1, INT_MAX, "-D (--delay) wants milliseconds (0 or more; -1: until --control "
			      "says 'enable')", &s->run.delay_ms);
	case 'p':
		return list(&s->tg.pids, &s->pids, arg, false, 1, "-p wants a process id (or several: 12,34)");
	case 't':
		return list(&s->tg.tids, &s->tids, arg, false, 1, "-t wants a thread id (or several: 12,34)");
	case 'C':
		return list(&s->tg.cpus, &s->cpus, arg, true, 0, "-C wants CPU numbers such as 0,2-3");
	case 'a':
		return s->all_cpus = true, 0;
	case 'A':
		return s->no_aggr = true, 0;
	case OPT_PER_THREAD:
		return s->per_thread = true, 0;
	case OPT_PER + AGGR_CACHE:
		if (aggr_cache_level(arg, &s->cache_level) < 0) {
			fprintf(stderr, "pmu stat: --per-cache wants a cache level L1 to L%d (or l1 ...), as --per-cache=L3; "
				"alone: each CPU's highest; not '%s'\n", AGGR_CACHE_LEVEL_MAX, arg);
			return -1;
		}
		/* fall through */
	case OPT_PER + AGGR_SOCKET:
	case OPT_PER + AGGR_DIE:
	case OPT_PER + AGGR_CLUSTER:
	case OPT_PER + AGGR_CORE:
	case OPT_PER + AGGR_NODE:
		s->aggr_given += s->aggr != (enum aggr_mode)(id - OPT_PER);
		s->aggr = (enum aggr_mode)(id - OPT_PER);
		return 0;
	case 'i':
		return s->no_inherit = true, 0;
	case OPT_METRIC_ONLY:
		return s->metric_only = true, 0;
	case 'o':
		return s->outfile = arg, 0;
	case 'x':
		if (!*arg)
			return fprintf(stderr, "pmu stat: -x wants a separator such as ','\n"), -1;
		return s->sep = arg, format(s, FMT_CSV);
	case 'j':
		return format(s, FMT_JSON_LINES);
	case OPT_JSON:
		return format(s, FMT_JSON);
	}
	return -1;
}

/*
 * -p, -t, -C name each process, thread, CPU once: perf refuses a CPU named twice (-C 1,1), and counts a
 * process or thread named twice twice (-p 12,12); pmu refuses all three, naming the number and the list
 * without it. A sentence and 2, or 0.
 */
static int named_once(const struct intv *l, const char *opt, const char *what, const char *written)
{
	int dup = intv_dup(l);
	char *once;
	int r;

	if (dup < 0)
		return 0;
	once = intv_text(l, !strcmp(opt, "-C"));
	r = opts_error(&stat_command, "%s names %s %d twice ('%s'), which would count it twice; name each once: %s %s",
		       opt, what, dup, written, opt, once ? once : "...");
	free(once);
	return r;
}

/*
 * -C: each CPU named is online, as <sysfs>/devices/system/cpu/online (the context's sysfs root) lists
 * them; the kernel's own refusal of a CPU beyond its last (EINVAL) names no CPU. Unchecked where that
 * file cannot be read. A sentence and 2, or 0.
 */
static int cpus_online(const struct stat_cmd *s)
{
	char path[4096], text[4096];
	struct intv on = { NULL, 0 };
	int r = 0;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", cli_sysfs_root());
	if (read_text(path, text, sizeof(text)) < 0)
		return 0;
	text[strcspn(text, "\n")] = 0;
	if (intv_parse(&on, text, true, 0, INT_MAX) < 0) {
		free(on.v);
		return 0;
	}
	for (size_t i = 0; r == 0 && i < s->tg.cpus.n; i++)
		if (!intv_has(&on, s->tg.cpus.v[i]))
			r = opts_error(&stat_command, "-C names CPU %d, which this machine does not have online: its CPUs "
				       "online are %s (%s); name CPUs among them, or count them all with -a",
				       s->tg.cpus.v[i], text, path);
	free(on.v);
	return r;
}

/* What the options ask for, checked together; a sentence and 2 when they do not fit. */
static int check(const struct stat_cmd *s)
{
	int targets = (s->tg.pids.n > 0) + (s->tg.tids.n > 0) + (s->all_cpus || s->cpus);
	const struct command *c = &stat_command;

	if (targets > 1)
		return opts_error(c, "-p counts processes, -t threads, -a and -C CPUs: choose one");
	if (s->group && (s->null_run || s->run.interval_ms || s->repeat == 0 || s->metric_only))
		return opts_error(c, "-g prints the group's tables once, at the end: not with -n, -I, -r 0 or "
				  "--metric-only");
	if (s->system_wide && (s->repeat != 1 || s->pre || s->post))
		return opts_error(c, "without a command pmu stat counts every CPU once, until Ctrl-C: -r, --pre and "
				  "--post repeat a command (name one: pmu stat [OPTIONS] -- CMD [ARGS...])");
	if (targets && s->repeat != 1)
		return opts_error(c, "-p, -t, -a and -C count once: -r does not apply");
	if (s->repeat != 1 && s->run.interval_ms)
		return opts_error(c, "-r and -I do not go together; choose one");
	if (s->repeat == 0 && s->format == FMT_JSON)
		return opts_error(c, "-r 0 prints every run: with --json that is a document per run in one file; use "
				  "-j (a line per counter) or -x");
	if (s->table && s->repeat < 2)
		return opts_error(c, "--table shows each run of -r: give -r N (2 or more)");
	if (s->run.timeout_ms && s->run.interval_ms)
		return opts_error(c, "--timeout and -I do not go together (as in perf); count a 'sleep' instead");
	if (s->run.interval_count && !s->run.interval_ms)
		return opts_error(c, "--interval-count counts the intervals of -I: give -I MS");
	if (s->summary && !s->run.interval_ms)
		return opts_error(c, "--summary adds the total to the intervals of -I (without -I the total is printed)");
	if (s->no_csv_summary && !s->summary)
		return opts_error(c, "--no-csv-summary is for -I --summary with -x or -j");
	if (s->formats > 1)
		return opts_error(c, "-x, -j and --json are three formats: choose one");
	if (s->big_num == 1 && s->format != FMT_TEXT)
		return opts_error(c, "-B (thousands' separators) is for the text table, not -x, -j or --json");
	if (s->append && !s->outfile)
		return opts_error(c, "--append adds to the file of -o: give -o FILE");
	if (s->append && s->format == FMT_JSON)
		return opts_error(c, "--json writes one document per file: --append would make the file two; give "
				  "each run its own -o FILE (pmu report reads several)");
	if (s->null_run && (s->events || s->a.metrics.n || s->a.topdown || s->detailed))
		return opts_error(c, "-n counts no event: leave out -e, -M, --topdown and -d, or -n");
	if (s->run.delay_ms < 0 && !s->control)
		return opts_error(c, "-D -1 starts with the events disabled until 'enable' comes: give --control "
				  "fifo:PATH or fd:N to send it on");
	if (s->all_user && s->all_kernel)
		return opts_error(c, "--all-user and --all-kernel leave no mode to count: choose one (neither counts "
				  "every mode)");
	if (s->cgroup_plan.names && s->each_cgroup)
		return opts_error(c, "-G pairs cgroups with events, --for-each-cgroup counts every event in each: "
				  "choose one");
	if ((s->cgroup_plan.names || s->each_cgroup) && !s->all_cpus && !s->cpus)
		return opts_error(c, "the kernel counts a cgroup's tasks on CPUs: -G and --for-each-cgroup need -a or "
				  "-C, as in perf");
	if (s->per_thread && !s->tg.pids.n && !s->tg.tids.n)
		return opts_error(c, "--per-thread gives a row per thread of -p or -t (a command's threads and "
				  "children are counted together)");
	if (s->no_aggr && !s->all_cpus && !s->cpus)
		return opts_error(c, "-A gives a row per CPU of -a or -C");
	if (s->aggr_given > 1)
		return opts_error(c, "--per-socket, --per-die, --per-cluster, --per-cache, --per-core and --per-node each "
				  "group the CPUs their own way: choose one");
	if (s->aggr && (s->no_aggr || s->per_thread))
		return opts_error(c, "--per-%s sums the CPUs of each %s; %s: choose one", aggr_mode_word(s->aggr),
				  aggr_mode_word(s->aggr), s->no_aggr ? "-A gives a row per CPU" :
				  "--per-thread a row per thread of -p or -t");
	if (s->aggr && !s->all_cpus && !s->cpus)
		return opts_error(c, "--per-%s sums the counts of CPUs: count CPUs with -a (all) or -C CPUS, as perf "
				  "(pmu stat -a --per-%s -- CMD)", aggr_mode_word(s->aggr), aggr_mode_word(s->aggr));
	if (s->metric_only && !s->a.metrics.n && !s->a.topdown)
		return opts_error(c, "--metric-only prints the metrics: name them with -M (or --topdown)");
	if (s->a.topdown && (s->format == FMT_CSV || s->format == FMT_JSON_LINES))
		return opts_error(c, "--topdown prints in the text table or --json, not with -x or -j");
	return named_once(&s->tg.cpus, "-C", "CPU", s->cpus) ?: named_once(&s->tg.pids, "-p", "process", s->pids) ?:
	       named_once(&s->tg.tids, "-t", "thread", s->tids) ?: cpus_online(s);
}

/* "sleep 1", "process 12 while sleep 1", "all CPUs": what the title names. */
static char *title_of(const struct stat_cmd *s, char **cmd)
{
	char *t = NULL;
	int r = 0;

	if (s->tg.pids.n)
		r = str_append(&t, NULL, s->tg.pids.n > 1 ? "processes " : "process ") ?: str_append(&t, NULL, s->pids);
	else if (s->tg.tids.n)
		r = str_append(&t, NULL, s->tg.tids.n > 1 ? "threads " : "thread ") ?: str_append(&t, NULL, s->tids);
	else if (s->cpus)
		r = str_append(&t, NULL, "CPUs ") ?: str_append(&t, NULL, s->cpus);
	else if (s->all_cpus)
		r = str_append(&t, NULL, "all CPUs");
	if (r == 0 && t && cmd[0])
		r = str_append(&t, NULL, " while");
	for (int k = 0; r == 0 && cmd[k]; k++)
		r = str_append(&t, " ", cmd[k]);
	if (r < 0) {
		free(t);
		return NULL;
	}
	return t;
}

/* What -d, -dd and -ddd add, each level to the one before: perf stat's detailed events */
static const char *const detailed_events[3] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* The events to count: -e, the metrics', TOPDOWN, else the default (and a note when there is no PMU);
 * -d's; none for -n. */
static int events_of(struct stat_cmd *s, struct pmu_ctx *ctx, const struct pmu_caps *caps, struct strv *notes)
{
	static const char no_pmu[] = "no hardware PMU is exposed on this machine (a virtual machine "
		"without a virtual PMU?): counted software events only. 'pmu info' says what to change.";

	if (s->a.metrics.n && (metrics_expand(ctx, "stat", &s->a.metrics) < 0 ||
				 add_metric_events(ctx, &s->a.metrics, s->a.topdown, &s->events, notes) < 0))
		return 1;
	if (s->a.topdown && str_append(&s->events, ",", "TOPDOWN") < 0)
		return -1;
	if (s->null_run)
		return 0;
	if (!s->events && caps->hw_pmu && str_append(&s->events, NULL, "task-clock,context-switches,cpu-migrations,"
						       "page-faults,cycles,instructions,branches,branch-misses") < 0)
		return -1;
	if (!s->events && (str_append(&s->events, NULL, "task-clock,context-switches,cpu-migrations,page-faults,"
				      "minor-faults,major-faults") < 0 || strv_add(notes, no_pmu, strlen(no_pmu)) < 0))
		return -1;
	/* -d, -dd, -ddd: perf's generic cache events, after the others (the list's or the default) */
	for (int i = 0; i < s->detailed && i < 3; i++)
		if (str_append(&s->events, ",", detailed_events[i]) < 0)
			return -1;
	return 0;
}

/* -a: every CPU online, as <sysfs>/devices/system/cpu/online (the context's sysfs root, as -C checks
 * them) lists them, as perf stat -a; where that file cannot be read, CPUs 0 to sysconf's last. A written
 * machine (PMU_SYSFS_ROOT) of two sockets is counted on its CPUs, not on this one's. */
static int all_cpus(struct stat_target *tg)
{
	char path[4096], text[4096];
	long n;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", cli_sysfs_root());
	if (read_text(path, text, sizeof(text)) >= 0) {
		text[strcspn(text, "\n")] = 0;
		if (intv_parse(&tg->cpus, text, true, 0, INT_MAX) == 0)
			return 0;
		fprintf(stderr, "pmu stat: -a: %s reads '%s', not a CPU list\n", path, text);
		return -1;
	}
	n = sysconf(_SC_NPROCESSORS_CONF);
	snprintf(text, sizeof(text), "0-%ld", n > 0 ? n - 1 : 0);
	return intv_parse(&tg->cpus, text, true, 0, INT_MAX);
}

/* --pre or --post @cmd (@what) with sh -c: 0, or 1 after saying how it failed. */
static int hook(const char *cmd, const char *what)
{
	int st;

	fflush(stdout);
	fflush(stderr);
	st = system(cmd);
	if (st == 0)
		return 0;
	if (st < 0)
		fprintf(stderr, "pmu stat: cannot run %s '%s': %s\n", what, cmd, strerror(errno));
	else if (WIFEXITED(st))
		fprintf(stderr, "pmu stat: %s '%s' exited with %d: stopped\n", what, cmd, WEXITSTATUS(st));
	else
		fprintf(stderr, "pmu stat: %s '%s' ended by signal %d: stopped\n", what, cmd, WTERMSIG(st));
	return 1;
}

/* The runs (-r; one for -r 0), the mean of them in @res, each one's time elapsed for --table in @p; the exit
 * status of the command (or 128+N for a signal). */
static int runs(struct stat_cmd *s, struct pmu_ctx *ctx, struct stat_result *res, struct stat_printer *p,
		struct strv *notes, int *code)
{
	struct stat_repeat rep;
	int r = 0, status = 0;

	memset(&rep, 0, sizeof(rep));
	stat_run_begin();
	for (int i = 0; i < (s->repeat ? s->repeat : 1); i++) {
		stat_result_free(res);
		if (s->pre && (r = hook(s->pre, "--pre")) != 0)
			break;
		if ((r = stat_run(ctx, &s->tg, &s->run, res)) != 0)
			break;
		if (stat_repeat_add(&rep, res) < 0) {
			r = 1;
			break;
		}
		status = res->status;
		*code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (res->timed_out && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM)
			*code = 0; /* pmu ended it, as asked */
		if (s->post && (r = hook(s->post, "--post")) != 0)
			break;
		/* a signal (Ctrl-C, kill) ends the repetitions; the runs so far are reported */
		if (stat_run_signal() || (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGQUIT)))
			break;
	}
	if (r == 0)
		stat_repeat_mean(&rep, res);
	if (r == 0 && s->table) {
		free(p->table_ns);
		p->table_ns = rep.elapsed_ns;
		p->ntable = rep.runs;
		rep.elapsed_ns = NULL;
	}
	stat_repeat_free(&rep);
	if (r == 0 && res->timed_out) {
		char sentence[128];
		snprintf(sentence, sizeof(sentence), "--timeout: counted for %d ms%s", s->run.timeout_ms,
			 s->tg.cmd[0] ? "; then the command was sent SIGTERM" : "");
		r = strv_add(notes, sentence, strlen(sentence)) < 0;
	}
	if (r == 0 && res->intervals_done) {
		char sentence[160];
		snprintf(sentence, sizeof(sentence), "--interval-count: counted for %d intervals of %d ms%s",
			 s->run.interval_count, s->run.interval_ms, s->tg.cmd[0] ? "; the command ran on, uncounted, "
			 "to its end" : "");
		r = strv_add(notes, sentence, strlen(sentence)) < 0;
	}
	if (r == 0 && stat_run_signal() && !WIFSIGNALED(status)) {
		char sentence[160], sig[32];
		snprintf(sentence, sizeof(sentence), "pmu stat received %s%s: the counts are up to then",
			 sig_name(stat_run_signal(), sig, sizeof(sig)), s->tg.cmd[0] ? " and passed it on to the command" : "");
		r = strv_add(notes, sentence, strlen(sentence)) < 0;
		if (!s->tg.cmd[0])
			*code = 128 + stat_run_signal(); /* -p, -a: as the command's status would say it */
	}
	return r;
}

/* The final results in the chosen format. */
static int print_results(struct stat_cmd *s, struct stat_printer *p, const struct stat_result *res,
			 const char *title, const struct pmu_caps *caps, const struct strv *notes, int code)
{
	struct counted cnt = { res->counts.total.v, res->counts.total.n, res->times.elapsed_ns / 1e9, true };
	char *cmd0[3] = { NULL, (char *)(s->pids ? s->pids : s->tids ? s->tids : s->cpus), NULL };

	if (s->format == FMT_JSON) {
		char **cmd = s->tg.cmd[0] ? s->tg.cmd : cmd0;
		int ncmd = 0;
		json_object *o;
		/* "command": what was run, else ["-p", PIDS], ["-t", TIDS], ["-C", CPUS] or ["-a"] */
		cmd0[0] = (char *)(s->pids ? "-p" : s->tids ? "-t" : s->cpus ? "-C" : "-a");
		while (cmd[ncmd])
			ncmd++;
		o = stat_print_json(cmd, ncmd, &res->counts, &res->times, code, caps, notes);
		json_object *units;
		if (json_object_object_get_ex(o, "units", &units)) /* --per-X: each group's metrics */
			stat_print_json_group_metrics(p, units, &res->counts, cnt.seconds);
		int cr = constants_record(p->ctx, o);
		if (cr < 0)
			fprintf(stderr, "pmu stat: the metric constants are not recorded: %s\n", pmu_strerror(cr));
		if (p->intervals) {
			json_object_object_add(o, "intervals", p->intervals);
			p->intervals = NULL;
		}
		analysis(p->f, p->ctx, &s->a.metrics, s->a.topdown, &cnt, o);
		if (s->grp)
			json_object_object_add(o, "group", stat_likwid_json(p->ctx, s->grp, &res->counts, cnt.seconds));
		json_write(p->f, o);
		json_object_put(o);
	} else if (s->format == FMT_TEXT) {
		char sig[32];
		int st = res->status;
		if (WIFSIGNALED(st) && !res->timed_out)
			fprintf(p->f, "\n '%s' terminated by signal %d (%s); counts up to then:\n", title, WTERMSIG(st),
				sig_name(WTERMSIG(st), sig, sizeof(sig)));
		if (s->run.interval_ms && !s->summary) { /* the intervals said it: their notes alone, as perf */
			stat_print_notes(p, &res->counts, notes);
			return 0;
		}
		if (s->grp) { /* likwid-perfctr's tables instead of perf's */
			stat_print_notes(p, &res->counts, notes);
			if (stat_likwid_text(p->f, p->ctx, s->grp, &res->counts, cnt.seconds) < 0)
				return -1;
		} else if (s->metric_only)
			fprintf(p->f, "\n Performance counter stats for '%s':\n\n", title);
		else
			stat_print_text(p, title, &res->counts, &res->times, notes);
		stat_print_group_metrics(p, &res->counts, cnt.seconds); /* --per-X: each group's, then the whole's */
		analysis(p->f, p->ctx, &s->a.metrics, s->a.topdown, &cnt, NULL);
	} else if (!s->run.interval_ms || s->summary) {
		/* CSV and JSON lines: with -I every line is an interval's, as perf has it */
		struct metric_value *mv = calloc(s->a.metrics.n + 1, sizeof(*mv));
		if (!mv || metrics_eval(p->ctx, &s->a.metrics, &cnt, mv) < 0) {
			free(mv);
			return -1;
		}
		stat_print_lines(p, &res->counts, &res->times, mv, s->a.metrics.n);
		metric_values_free(mv, s->a.metrics.n);
		if (s->grp && s->format == FMT_CSV)
			stat_likwid_csv(p->f, s->sep ? s->sep : ",", p->ctx, s->grp, &res->counts, cnt.seconds);
	}
	return 0;
}

/* -o FILE: opened (--append: added to; FILE replaced only once the results are written, outfile.h), with
 * perf's "# started on" line (not in a --json document). -1 after saying why. */
static int output_open(const struct stat_cmd *s, struct outfile *of)
{
	time_t now = time(NULL);

	if (outfile_open(of, s->outfile, s->append) < 0)
		return -1;
	if (s->format != FMT_JSON)
		fprintf(of->f, "# started on %s\n", ctime(&now));
	return 0;
}

/* Count and print, once the options are known good: 0 or the exit status. */
static int stat_main(struct stat_cmd *s, struct cli *cli)
{
	struct strv notes = { NULL, 0 };
	struct stat_printer p;
	struct stat_result res;
	struct stat_control ctl;
	struct outfile of;
	struct pmu_ctx *ctx = NULL;
	struct pmu_caps caps;
	char *title = title_of(s, s->tg.cmd);
	bool results = false;          /* printed (the final counts, or an interval's) */
	int code = 1, r;

	memset(&p, 0, sizeof(p));
	memset(&res, 0, sizeof(res));
	memset(&of, 0, sizeof(of));
	stat_control_none(&ctl);
	p.f = stderr;
	if (!title || (s->all_cpus && all_cpus(&s->tg) < 0))
		goto nomem;
	/* --per-X: where each CPU is, read before counting: a file missing is said before anything runs */
	if (s->aggr) {
		if (aggr_map_make(&s->aggr_map, cli_sysfs_root(), s->aggr, s->cache_level, s->tg.cpus.v, s->tg.cpus.n,
				  &notes) < 0)
			goto out;
		s->tg.aggr = &s->aggr_map;
	}
	/* perf's CSV and JSON lines say what the warnings would (<not supported>, a ':u' label) */
	cli->quiet = s->format == FMT_CSV || s->format == FMT_JSON_LINES;
	if (cli_open_ctx(cli, NULL, &ctx) < 0)
		goto out;
	if (params_apply(&s->a.params, ctx) < 0) {
		code = 2;
		goto out;
	}
	pmu_caps(ctx, &caps);
	/* -g: the group's events, counted with those of -e */
	if (s->group) {
		if ((r = pmu_group_open(ctx, s->group, 0, &s->grp)) < 0) {
			fprintf(stderr, "pmu stat: -g %s: %s\n", s->group, pmu_strerror(r));
			code = 2;
			goto out;
		}
		if (*pmu_group_info(s->grp)->events &&
		    str_append(&s->events, ",", pmu_group_info(s->grp)->events) < 0)
			goto nomem;
	}
	if ((r = events_of(s, ctx, &caps, &notes)) != 0) {
		if (r < 0)
			goto nomem;
		goto out;
	}
	if (s->control && stat_control_open(&ctl, s->control) < 0) {
		code = 2;
		goto out;
	}
	/* the results go to stderr, as perf's, or to -o FILE: never mixed with the command's output */
	if (s->outfile && output_open(s, &of) < 0)
		goto out;
	if (of.f)
		p.f = of.f;
	p.format = s->format;
	p.sep = s->sep;
	p.metric_only = s->metric_only;
	p.no_big_num = s->big_num == 0;
	p.summary = s->summary;
	p.no_csv_summary = s->no_csv_summary;
	p.ctx = ctx;
	p.metrics = &s->a.metrics;
	s->run.events = s->events;
	s->run.set_flags = s->all_user ? PMU_SET_USER_ONLY : s->all_kernel ? PMU_SET_KERNEL_ONLY : 0;
	if ((s->cgroup_plan.names || s->each_cgroup) &&
	    (code = stat_cgroups_make(&s->cgroup_plan, s->each_cgroup, s->events, &s->tg.cgroups, &s->tg.ncgroups)) != 0)
		goto out;
	code = 1;
	p.cgroups = s->tg.ncgroups > 0;
	s->run.control = s->control ? &ctl : NULL;
	s->run.on_interval = stat_print_interval;
	s->run.data = &p;
	do { /* -r 0: each run printed, until a signal */
		if ((r = runs(s, ctx, &res, &p, &notes, &code)) != 0) {
			code = r;
			goto out;
		}
		if (print_results(s, &p, &res, title, &caps, &notes, code) < 0)
			goto nomem;
		results = true;
		/* -r 0: each run out as it ends; a write error ends the runs (said as -o's file is closed) */
		if (s->repeat == 0 && (fflush(p.f) == EOF || ferror(p.f))) {
			code = 1;
			goto out;
		}
	} while (s->repeat == 0 && !stat_run_signal());
	goto out;
nomem:
	fprintf(stderr, "pmu stat: out of memory\n");
	code = 1;
out:
	/* -o: FILE replaced by what was printed; a run that printed nothing leaves it as it was */
	if (of.f && outfile_close(&of, results || p.last_s > 0) < 0)
		code = code ? code : 1;
	json_object_put(p.intervals);
	free(p.table_ns);
	stat_control_close(&ctl);
	stat_cgroups_free(s->tg.cgroups, s->tg.ncgroups);
	stat_result_free(&res);
	strv_free(&notes);
	free(title);
	pmu_group_free(s->grp);
	pmu_ctx_free(ctx);
	return code;
}

static int cmd_stat(int argc, char **argv, struct cli *cli)
{
	struct stat_cmd s;
	int first, code;

	memset(&s, 0, sizeof(s));
	s.repeat = 1;
	s.big_num = -1;
	first = opts_parse(&stat_command, argc, argv, cli, on_opt, &s);
	if (first >= 0) {
		/* no command, nothing named: every CPU until Ctrl-C, as perf stat */
		if (first == argc && !s.pids && !s.tids && !s.cpus && !s.all_cpus)
			s.all_cpus = s.system_wide = true;
		s.tg.cmd = argv + first;
		s.tg.inherit = !s.no_inherit;
		s.tg.per_unit = s.per_thread || s.no_aggr || s.aggr;
	}
	if (first < 0)
		code = first == OPTS_EXIT_OK ? 0 : 2;
	else if ((code = check(&s)) == 0)
		code = stat_main(&s, cli);
	free(s.events);
	free(s.each_cgroup);
	stat_cgroup_plan_free(&s.cgroup_plan);
	aggr_map_free(&s.aggr_map);
	analysis_opts_free(&s.a);
	free(s.tg.pids.v);
	free(s.tg.tids.v);
	free(s.tg.cpus.v);
	free(s.pids);
	free(s.tids);
	free(s.cpus);
	return code;
}
