/* SPDX-License-Identifier: MIT */
/* pmu: the command for people — info, list, resolve, stat, report,
 * check-tables. This file holds the command table, the global options and
 * the dispatch; each command is tools/cmd-<name>.c. */
#include <stdio.h>
#include <string.h>
#include <pmu.h>
#include "cli.h"
#include "util.h"

/* The commands: name, entry point, what it does (one line). */
static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv, const struct cli *cli);
	const char *summary;
} commands[] = {
	{ "info", cmd_info, "CPU, PMUs, access settings and what to change" },
	{ "list", cmd_list, "events and metrics known here" },
	{ "resolve", cmd_resolve, "encoding of each event and where it came from" },
	{ "stat", cmd_stat, "count events while a command runs (or a process, or every CPU)" },
	{ "report", cmd_report, "print saved 'pmu stat --json' results and region reports" },
	{ "check-tables", cmd_check_tables, "validate event tables (perf JSON format)" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmu [-v] COMMAND ...\n"
		"  info [--json]                    CPU, PMUs, access settings and what to change\n"
		"  list [PREFIX] [--json]           events known here\n"
		"  resolve NAME... [--json]         encoding of each event and where it came from\n"
		"  stat [-e EVENTS] [-M METRICS] [--topdown] [-D NAME=VALUE] [-r RUNS | -I MS] [--json] [-o FILE]\n"
		"       -- CMD [ARGS...]            count events while CMD runs; metrics, topdown tree; results\n"
		"                                   on stderr (or -o FILE); exit status: CMD's (128+N: signal N)\n"
		"                                   -r: mean of RUNS runs with +- (standard error); -I: counts every MS\n"
		"  stat -p PID [...] [-- CMD...]    count a running process until it ends, Ctrl-C, or CMD ends\n"
		"  stat -a [...] [-- CMD...]        count every CPU (all tasks) until Ctrl-C or CMD ends\n"
		"  report [-M METRICS] [--topdown] [-D NAME=VALUE] FILE.json...\n"
		"                                   print saved 'pmu stat --json' results (summed), evaluate metrics;\n"
		"                                   region reports (PMU_FORMAT=json) are merged per region\n"
		"  check-tables DIR                 validate event tables (perf JSON format)\n"
		"Environment: PMU_CPUID, PMU_SYSFS_ROOT, PMU_PROCFS_ROOT, PMU_EVENTS_PATH.\n");
}

/* Run the command named argv[0]. */
static int run_command(int argc, char **argv, const struct cli *cli)
{
	if (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[0], "--version")) {
		printf("pmu (libpmu) %s\n", pmu_version());
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[0], commands[i].name))
			return commands[i].fn(argc, argv, cli);
	fprintf(stderr, "pmu: unknown command '%s'\n", argv[0]);
	usage(stderr);
	return 2;
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	int a = 1, code;

	while (a < argc && !strcmp(argv[a], "-v")) {
		cli.verbose = 1;
		a++;
	}
	if (a >= argc) {
		usage(stderr);
		return 2;
	}
	code = run_command(argc - a, argv + a, &cli);
	/* what was written must have arrived: a full disk, a closed pipe fail the command */
	if (out_finish(stdout, "standard output", true) < 0 && code == 0)
		code = 1;
	if ((fflush(stderr) == EOF || ferror(stderr)) && code == 0)
		code = 1;
	return code;
}
