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
#include <unistd.h>
#include "analysis.h"
#include "cli.h"
#include "opts.h"
#include "stat-print.h"
#include "stat-run.h"
#include "util.h"

static int cmd_stat(int argc, char **argv, struct cli *cli);

enum { OPT_JSON = OPT_LONG, OPT_PER_THREAD, OPT_TIMEOUT, OPT_METRIC_ONLY };
static const struct opt stat_opts[] = {
	{ 'e', "event", "events", "EVENTS", "events to count, comma-separated ({a,b}: counted together); repeatable" },
	ANALYSIS_OPTS,
	{ 'r', "repeat", NULL, "N", "run the command N times: the mean of each count and its +- (standard error)" },
	{ 'I', "interval-print", "interval", "MS", "also print the counts of every MS milliseconds (10 or more)" },
	{ OPT_TIMEOUT, "timeout", NULL, "MS", "stop counting after MS milliseconds (the command gets SIGTERM)" },
	{ 'D', "delay", NULL, "MS", "start counting MS milliseconds after the command starts" },
	{ 'p', "pid", NULL, "PID[,PID]", "count running processes (all their threads) until they end or Ctrl-C" },
	{ 't', "tid", NULL, "TID[,TID]", "count running threads until they end or Ctrl-C" },
	{ 'a', "all-cpus", NULL, NULL, "count every CPU, all tasks, until Ctrl-C or the command ends" },
	{ 'C', "cpu", NULL, "CPUS", "count these CPUs (0,2-3), all tasks" },
	{ 'A', "no-aggr", NULL, NULL, "a row per CPU (with -a or -C)" },
	{ OPT_PER_THREAD, "per-thread", NULL, NULL, "a row per thread (with -p or -t)" },
	{ 'i', "no-inherit", NULL, NULL, "leave out the processes and threads the counted ones start" },
	{ 'o', "output", NULL, "FILE", "write the results to FILE (default: stderr)" },
	{ 'x', "field-separator", NULL, "SEP", "perf's CSV: a line per counter, fields separated by SEP" },
	{ 'j', "json-lines", "json-output", NULL, "perf's JSON (perf stat -j): an object per counter, one per line" },
	{ OPT_JSON, "json", NULL, NULL, "one JSON document, schema libpmu-stat/1 (pmu report reads it)" },
	{ OPT_METRIC_ONLY, "metric-only", NULL, NULL, "print the metrics of -M (and --topdown), not the counts" },
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
	"the count. -D NAME=VALUE was pmu's metric parameter: that is --param NAME=VALUE now.\n"
	"Exit status: the command's (128+N when signal N ended it); 128+N when signal N ended -p, -t, -a or -C;\n"
	"1 when counting failed; 2 on a usage error (a wrong event list too).\n",
	stat_opts, true,
};

/* One invocation's options. */
struct stat_cmd {
	char *events;                  /* -e, joined */
	struct analysis_opts a;
	struct stat_target tg;
	struct stat_run_opts run;
	const char *outfile;
	enum stat_format format;
	int formats;                   /* how many of -x, -j, --json */
	const char *sep;
	char *pids, *tids, *cpus;      /* as written, each -p (-t, -C) joined with ',' */
	int repeat;
	bool all_cpus, per_thread, no_aggr, no_inherit, metric_only;
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
	case 'r':
		return number(arg, 1, 100000, "-r wants a number of runs (1 or more)", &s->repeat);
	case 'I':
		return number(arg, 10, 3600000, "-I wants an interval in milliseconds (10 or more)", &s->run.interval_ms);
	case OPT_TIMEOUT:
		return number(arg, 10, INT_MAX, "--timeout wants milliseconds (10 or more)", &s->run.timeout_ms);
	case 'D':
		if (strchr(arg, '='))
			return analysis_old_param("stat", arg);
		return number(arg, 0, INT_MAX, "-D (--delay) wants milliseconds (0 or more)", &s->run.delay_ms);
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
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", cli_sysfs_root());
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(text, sizeof(text), f))
		text[0] = 0;
	fclose(f);
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
static int check(const struct stat_cmd *s, bool has_cmd)
{
	int targets = (s->tg.pids.n > 0) + (s->tg.tids.n > 0) + (s->all_cpus || s->cpus);
	const struct command *c = &stat_command;

	if (!has_cmd && !targets)
		return opts_error(c, "name a command to run: pmu stat [-e EVENTS] -- CMD [ARGS...], or a process to "
				  "attach to: pmu stat -p PID, or count every CPU: pmu stat -a");
	if (targets > 1)
		return opts_error(c, "-p counts processes, -t threads, -a and -C CPUs: choose one");
	if (targets && s->repeat > 1)
		return opts_error(c, "-p, -t, -a and -C count once: -r does not apply");
	if (s->repeat > 1 && s->run.interval_ms)
		return opts_error(c, "-r and -I do not go together; choose one");
	if (s->run.timeout_ms && s->run.interval_ms)
		return opts_error(c, "--timeout and -I do not go together (as in perf); count a 'sleep' instead");
	if (s->formats > 1)
		return opts_error(c, "-x, -j and --json are three formats: choose one");
	if (s->per_thread && !s->tg.pids.n && !s->tg.tids.n)
		return opts_error(c, "--per-thread gives a row per thread of -p or -t (a command's threads and "
				  "children are counted together)");
	if (s->no_aggr && !s->all_cpus && !s->cpus)
		return opts_error(c, "-A gives a row per CPU of -a or -C");
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

/* The events to count: -e, the metrics', TOPDOWN, else the default (and a note when there is no PMU). */
static int events_of(struct stat_cmd *s, struct pmu_ctx *ctx, const struct pmu_caps *caps, struct strv *notes)
{
	static const char no_pmu[] = "no hardware PMU is exposed on this machine (a virtual machine "
		"without a virtual PMU?): counted software events only. 'pmu info' says what to change.";

	if (s->a.metrics.n && (metrics_expand(ctx, "stat", &s->a.metrics) < 0 ||
				 add_metric_events(ctx, &s->a.metrics, s->a.topdown, &s->events, notes) < 0))
		return 1;
	if (s->a.topdown && str_append(&s->events, ",", "TOPDOWN") < 0)
		return -1;
	if (s->events)
		return 0;
	if (caps->hw_pmu)
		return str_append(&s->events, NULL, "task-clock,context-switches,cpu-migrations,page-faults,cycles,"
				  "instructions,branches,branch-misses");
	if (str_append(&s->events, NULL, "task-clock,context-switches,cpu-migrations,page-faults,minor-faults,"
		       "major-faults") < 0)
		return -1;
	return strv_add(notes, no_pmu, strlen(no_pmu));
}

/* All online CPUs for -a. */
static int all_cpus(struct stat_target *tg)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char spec[32];

	snprintf(spec, sizeof(spec), "0-%ld", n > 0 ? n - 1 : 0);
	return intv_parse(&tg->cpus, spec, true, 0, INT_MAX);
}

/* The runs (-r), the mean of them in @res; the exit status of the command (or 128+N for a signal). */
static int runs(struct stat_cmd *s, struct pmu_ctx *ctx, struct stat_result *res, struct strv *notes,
		int *code)
{
	struct stat_repeat rep;
	int r = 0, status = 0;

	memset(&rep, 0, sizeof(rep));
	stat_run_begin();
	for (int i = 0; i < s->repeat; i++) {
		stat_result_free(res);
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
		/* a signal (Ctrl-C, kill) ends the repetitions; the runs so far are reported */
		if (stat_run_signal() || (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGQUIT)))
			break;
	}
	if (r == 0)
		stat_repeat_mean(&rep, res);
	stat_repeat_free(&rep);
	if (r == 0 && res->timed_out) {
		char sentence[128];
		snprintf(sentence, sizeof(sentence), "--timeout: counted for %d ms%s", s->run.timeout_ms,
			 s->tg.cmd[0] ? "; then the command was sent SIGTERM" : "");
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
		int cr = constants_record(p->ctx, o);
		if (cr < 0)
			fprintf(stderr, "pmu stat: the metric constants are not recorded: %s\n", pmu_strerror(cr));
		if (p->intervals) {
			json_object_object_add(o, "intervals", p->intervals);
			p->intervals = NULL;
		}
		analysis(p->f, p->ctx, &s->a.metrics, s->a.topdown, &cnt, o);
		json_write(p->f, o);
		json_object_put(o);
	} else if (s->format == FMT_TEXT) {
		char sig[32];
		int st = res->status;
		if (WIFSIGNALED(st) && !res->timed_out)
			fprintf(p->f, "\n '%s' terminated by signal %d (%s); counts up to then:\n", title, WTERMSIG(st),
				sig_name(WTERMSIG(st), sig, sizeof(sig)));
		if (s->metric_only)
			fprintf(p->f, "\n Performance counter stats for '%s':\n\n", title);
		else
			stat_print_text(p->f, title, &res->counts, &res->times, notes);
		analysis(p->f, p->ctx, &s->a.metrics, s->a.topdown, &cnt, NULL);
	} else if (!s->run.interval_ms) {
		/* CSV and JSON lines: with -I every line is an interval's, as perf has it */
		struct metric_value *mv = calloc(s->a.metrics.n + 1, sizeof(*mv));
		if (!mv || metrics_eval(p->ctx, &s->a.metrics, &cnt, mv) < 0) {
			free(mv);
			return -1;
		}
		stat_print_lines(p, &res->counts, &res->times, mv, s->a.metrics.n);
		metric_values_free(mv, s->a.metrics.n);
	}
	return 0;
}

/* Count and print, once the options are known good: 0 or the exit status. */
static int stat_main(struct stat_cmd *s, struct cli *cli)
{
	struct strv notes = { NULL, 0 };
	struct stat_printer p;
	struct stat_result res;
	struct pmu_ctx *ctx = NULL;
	struct pmu_caps caps;
	char *title = title_of(s, s->tg.cmd), *outname = NULL;
	int code = 1, r;

	memset(&p, 0, sizeof(p));
	memset(&res, 0, sizeof(res));
	p.f = stderr;
	if (!title || (s->all_cpus && all_cpus(&s->tg) < 0))
		goto nomem;
	/* perf's CSV and JSON lines say what the warnings would (<not supported>, a ':u' label) */
	cli->quiet = s->format == FMT_CSV || s->format == FMT_JSON_LINES;
	if (cli_open_ctx(cli, NULL, &ctx) < 0)
		goto out;
	if (params_apply(&s->a.params, ctx) < 0) {
		code = 2;
		goto out;
	}
	pmu_caps(ctx, &caps);
	if ((r = events_of(s, ctx, &caps, &notes)) != 0) {
		if (r < 0)
			goto nomem;
		goto out;
	}
	/* the results go to stderr, as perf's, or to -o FILE: never mixed with the command's output */
	if (s->outfile && asprintf(&outname, "'%s'", s->outfile) < 0)
		goto nomem;
	if (s->outfile && !(p.f = fopen(s->outfile, "w"))) {
		fprintf(stderr, "pmu stat: cannot write '%s': %s\n", s->outfile, strerror(errno));
		p.f = stderr;
		goto out;
	}
	p.format = s->format;
	p.sep = s->sep;
	p.metric_only = s->metric_only;
	p.ctx = ctx;
	p.metrics = &s->a.metrics;
	s->run.events = s->events;
	s->run.on_interval = stat_print_interval;
	s->run.data = &p;
	if ((r = runs(s, ctx, &res, &notes, &code)) != 0) {
		code = r;
		goto out;
	}
	if (print_results(s, &p, &res, title, &caps, &notes, code) < 0)
		goto nomem;
	goto out;
nomem:
	fprintf(stderr, "pmu stat: out of memory\n");
	code = 1;
out:
	if (p.f != stderr && out_finish(p.f, outname, true) < 0 && code == 0)
		code = 1;
	json_object_put(p.intervals);
	stat_result_free(&res);
	strv_free(&notes);
	free(title);
	free(outname);
	pmu_ctx_free(ctx);
	return code;
}

static int cmd_stat(int argc, char **argv, struct cli *cli)
{
	struct stat_cmd s;
	int first, code;

	memset(&s, 0, sizeof(s));
	s.repeat = 1;
	first = opts_parse(&stat_command, argc, argv, cli, on_opt, &s);
	if (first >= 0) {
		s.tg.cmd = argv + first;
		s.tg.inherit = !s.no_inherit;
		s.tg.per_unit = s.per_thread || s.no_aggr;
	}
	if (first < 0)
		code = first == OPTS_EXIT_OK ? 0 : 2;
	else if ((code = check(&s, first < argc)) == 0)
		code = stat_main(&s, cli);
	free(s.events);
	analysis_opts_free(&s.a);
	free(s.tg.pids.v);
	free(s.tg.tids.v);
	free(s.tg.cpus.v);
	free(s.pids);
	free(s.tids);
	free(s.cpus);
	return code;
}
