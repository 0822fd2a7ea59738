/* SPDX-License-Identifier: MIT */
/* pmu stat: count a command (or a process, or every CPU) like perf stat. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "analysis.h"
#include "cli.h"
#include "stat-print.h"
#include "stat-run.h"
#include "util.h"

/* The integer after option argv[*i] into *out, within [min, max]; else -1 and @msg. */
static int int_arg(int argc, char **argv, int *i, long min, long max, const char *msg, int *out)
{
	char *end = NULL;
	long v = ++*i < argc ? strtol(argv[*i], &end, 10) : 0;

	if (*i >= argc || *end || v < min || v > max) {
		fprintf(stderr, "pmu stat: %s\n", msg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int cmd_stat(int argc, char **argv, const struct cli *cli)
{
	char *events = NULL, *cmdline = NULL, *outname = NULL, pidbuf[64];
	struct strv metrics = { NULL, 0 }, notes = { NULL, 0 };
	const char *outfile = NULL;
	int topdown = 0;
	struct pmu_ctx *ctx = NULL;
	struct pmu_caps caps;
	struct stat_rows rs = { NULL, 0, NULL };
	struct pmu_value *acc = NULL;
	double *sum = NULL, *sumsq = NULL;
	bool json = false, system_wide = false;
	int i, status = 0, r, code = 1, repeat = 1, interval_ms = 0, runs, attach = 0;
	struct run_times times, total;
	struct metric_params params = { { NULL }, 0 };
	struct counted counted;
	FILE *f = stderr;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-e") || !strcmp(argv[i], "--events")) {
			if (++i >= argc) {
				fprintf(stderr, "pmu stat: -e needs an event list\n");
				goto usage;
			}
			if (str_append(&events, ",", argv[i]) < 0)
				goto nomem;
		} else if (!strcmp(argv[i], "-M") || !strcmp(argv[i], "--metrics")) {
			if (++i >= argc) {
				fprintf(stderr, "pmu stat: -M needs a metric list\n");
				goto usage;
			}
			if (strv_add_metrics(&metrics, argv[i]) < 0)
				goto nomem;
		} else if (!strcmp(argv[i], "--topdown")) {
			topdown = 1;
		} else if (!strcmp(argv[i], "-D")) {
			if (++i >= argc || params_add(&params, argv[i]) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--repeat")) {
			if (int_arg(argc, argv, &i, 1, 100000, "-r wants a number of runs (1 or more)", &repeat) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "-a") || !strcmp(argv[i], "--all-cpus")) {
			system_wide = true;
		} else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pid")) {
			if (int_arg(argc, argv, &i, 1, INT_MAX, "-p wants a process id", &attach) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "-I") || !strcmp(argv[i], "--interval")) {
			if (int_arg(argc, argv, &i, 10, 3600000, "-I wants an interval in milliseconds (10 or more)",
				    &interval_ms) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "-o")) {
			if (++i >= argc) {
				fprintf(stderr, "pmu stat: -o needs a file name\n");
				goto usage;
			}
			outfile = argv[i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "pmu stat: unknown option '%s'\n", argv[i]);
			goto usage;
		} else {
			break;
		}
	}
	if (i >= argc && !attach && !system_wide) {
		fprintf(stderr, "pmu stat: name a command to run: pmu stat [-e EVENTS] -- CMD [ARGS...], "
			"or a process to attach to: pmu stat -p PID, or count every CPU: pmu stat -a\n");
		goto usage;
	}
	if ((attach || system_wide) && (repeat > 1 || interval_ms)) {
		fprintf(stderr, "pmu stat: -p and -a count once; -r and -I do not apply\n");
		goto usage;
	}
	if (attach && system_wide) {
		fprintf(stderr, "pmu stat: -p counts one process, -a every CPU; choose one\n");
		goto usage;
	}
	if (repeat > 1 && interval_ms > 0) {
		fprintf(stderr, "pmu stat: -r and -I do not go together; choose one\n");
		goto usage;
	}
	if (attach)
		snprintf(pidbuf, sizeof(pidbuf), "process %d%s", attach, i < argc ? " while" : "");
	else if (system_wide)
		snprintf(pidbuf, sizeof(pidbuf), "all CPUs%s", i < argc ? " while" : "");
	if ((attach || system_wide) && str_append(&cmdline, NULL, pidbuf) < 0)
		goto nomem;
	for (int k = i; k < argc; k++)
		if (str_append(&cmdline, " ", argv[k]) < 0)
			goto nomem;
	if (cli_open_ctx(cli, NULL, &ctx) < 0)
		goto out;
	if (params_apply(&params, ctx) < 0)
		goto usage;
	pmu_caps(ctx, &caps);
	if (metrics.n && add_metric_events(ctx, &metrics, &events) < 0)
		goto out;
	if (topdown && str_append(&events, ",", "TOPDOWN") < 0)
		goto nomem;
	if (!events) {
		if (caps.hw_pmu) {
			events = strdup("task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,"
					"branches,branch-misses");
		} else {
			events = strdup("task-clock,context-switches,cpu-migrations,page-faults,minor-faults,"
					"major-faults");
			static const char no_pmu[] = "no hardware PMU is exposed on this machine (a virtual machine "
				"without a virtual PMU?): counted software events only. 'pmu info' says what to change.";
			if (strv_add(&notes, no_pmu, strlen(no_pmu)) < 0)
				goto nomem;
		}
		if (!events)
			goto nomem;
	}
	/* the results go to stderr, as perf's, or to -o FILE: never mixed with the command's output */
	if (outfile && (str_append(&outname, NULL, "'") < 0 || str_append(&outname, NULL, outfile) < 0 ||
			str_append(&outname, NULL, "'") < 0))
		goto nomem;
	if (outfile && !(f = fopen(outfile, "w"))) {
		fprintf(stderr, "pmu stat: cannot write '%s': %s\n", outfile, strerror(errno));
		f = stderr;
		goto out;
	}
	stat_run_begin();
	memset(&total, 0, sizeof(total));
	for (runs = 0; runs < repeat; runs++) {
		struct run_times t = {0, 0, 0, 1};
		r = attach ? stat_attach(ctx, events, attach, argv + i, &rs, &t, &status) :
		    system_wide ? stat_system(ctx, events, argv + i, &rs, &t, &status) :
				  stat_once(ctx, events, argv + i, interval_ms, json ? stderr : f, &rs, &t, &status);
		if (r) {
			code = r;
			goto out;
		}
		if (!sum && rs.n && (!(sum = calloc(rs.n, sizeof(*sum))) || !(sumsq = calloc(rs.n, sizeof(*sumsq))) ||
				     !(acc = calloc(rs.n, sizeof(*acc)))))
			goto nomem;
		for (size_t k = 0; k < rs.n; k++) {
			double x = (double)pmu_scale(&rs.v[k].v);
			sum[k] += x;
			sumsq[k] += x * x;
			acc[k].value += rs.v[k].v.value;
			acc[k].enabled += rs.v[k].v.enabled;
			acc[k].running += rs.v[k].v.running;
		}
		total.elapsed_ns += t.elapsed_ns;
		total.user_ns += t.user_ns;
		total.sys_ns += t.sys_ns;
		code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		/* a signal (Ctrl-C, kill) ends the repetitions; the runs so far are reported */
		if (stat_run_signal() || (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGQUIT))) {
			runs++;
			break;
		}
	}
	if (stat_run_signal() && !WIFSIGNALED(status)) {
		char sentence[160], sig[32];
		snprintf(sentence, sizeof(sentence), "pmu stat received %s%s: the counts are up to then",
			 sig_name(stat_run_signal(), sig, sizeof(sig)), i < argc ? " and passed it on to the command" : "");
		if (strv_add(&notes, sentence, strlen(sentence)) < 0)
			goto nomem;
		if (i >= argc)
			code = 128 + stat_run_signal(); /* -p, -a: as the command's status would say it */
	}
	/* the mean of the runs, and perf's "+-": the standard error of the mean, relative */
	for (size_t k = 0; k < rs.n && runs > 1; k++) {
		double mean = sum[k] / runs, var = (sumsq[k] - sum[k] * sum[k] / runs) / (runs - 1);
		rs.v[k].v.value = acc[k].value / (uint64_t)runs;
		rs.v[k].v.enabled = acc[k].enabled / (uint64_t)runs;
		rs.v[k].v.running = acc[k].running / (uint64_t)runs;
		rs.v[k].stddev_pct = mean > 0 && var > 0 ? 100.0 * sqrt(var / runs) / mean : 0;
	}
	times.elapsed_ns = total.elapsed_ns / runs;
	times.user_ns = total.user_ns / runs;
	times.sys_ns = total.sys_ns / runs;
	times.runs = runs;
	counted = (struct counted){ rs.v, rs.n, times.elapsed_ns / 1e9 };
	if (json) {
		char pidarg[16], *pcmd[2] = { (char *)(attach ? "-p" : "-a"), pidarg };
		json_object *o;
		snprintf(pidarg, sizeof(pidarg), "%d", attach);
		/* "command": what was run, else ["-p", PID] for an attached process or ["-a"] */
		o = stat_print_json(i < argc ? argv + i : pcmd, i < argc ? argc - i : attach ? 2 : 1, rs.v, rs.n, &times, code,
			      &caps, &notes);
		analysis(f, ctx, &metrics, topdown, &counted, o);
		json_write(f, o);
		json_object_put(o);
	} else {
		char sig[32];
		if (WIFSIGNALED(status))
			fprintf(f, "\n '%s' terminated by signal %d (%s); counts up to then:\n", cmdline,
				WTERMSIG(status), sig_name(WTERMSIG(status), sig, sizeof(sig)));
		stat_print_text(f, cmdline, rs.v, rs.n, &times, &notes);
		analysis(f, ctx, &metrics, topdown, &counted, NULL);
	}
	goto out;
usage:
	code = 2;
	goto out;
nomem:
	fprintf(stderr, "pmu stat: out of memory\n");
	code = 1;
out:
	if (f != stderr && out_finish(f, outname, true) < 0 && code == 0)
		code = 1;
	free(events);
	free(cmdline);
	free(outname);
	strv_free(&metrics);
	strv_free(&notes);
	stat_rows_free(&rs);
	free(sum);
	free(sumsq);
	free(acc);
	pmu_ctx_free(ctx);
	return code;
}
