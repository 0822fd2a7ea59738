/* SPDX-License-Identifier: MIT */
/* pmu: the command for people — info, list, resolve, stat, report,
 * check-tables. This file holds the command table, the global options and
 * the dispatch; each command is tools/cmd-<name>.c. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "cli.h"
#include "editdist.h"
#include "opts.h"
#include "util.h"

static int cmd_help(int argc, char **argv, struct cli *cli);

static const char *const help_synopsis[] = { "[COMMAND]", NULL };
static const struct command help_command = {
	"help", cmd_help, "This list, or the manual page of a command", help_synopsis,
	"pmu help COMMAND runs man pmu-COMMAND; where man or the page is missing it says so and prints\n"
	"what pmu COMMAND --help prints.\n", NULL, false,
};

/* The commands, in the order help lists them; each names itself, its entry point, options and help. */
static const struct command *const commands[] = {
	&info_command, &list_command, &resolve_command, &stat_command, &report_command, &check_tables_command,
	&help_command,
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: pmu [-v] COMMAND [ARGS...]\n"
		"       pmu help [COMMAND] | pmu COMMAND --help | pmu --version\n\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-14s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n-v: the library's debug messages on stderr.\n"
		"Environment: PMU_CPUID, PMU_SYSFS_ROOT, PMU_PROCFS_ROOT, PMU_EVENTS_PATH.\n"
		"Exit status 2: a usage error (perf says 129).\n");
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i]->name))
			return commands[i];
	return NULL;
}

/* The command @name is a typing slip of (at most 2 edits: "stta", "reslove"), or NULL. */
static const char *closest_command(const char *name)
{
	const char *best = NULL;
	unsigned d = 3;

	for (size_t i = 0; i < NCOMMANDS; i++) {
		unsigned e = pmu__edit_distance(name, commands[i]->name, d);
		if (e < d) {
			d = e;
			best = commands[i]->name;
		}
	}
	return best;
}

/* A usage error: no command @name, the closest named, then the list. 2. */
static int unknown_command(const char *who, const char *name)
{
	const char *near = closest_command(name);

	fprintf(stderr, "%s: unknown command '%s'", who, name);
	if (near)
		fprintf(stderr, "; did you mean '%s'?", near);
	fputc('\n', stderr);
	usage(stderr);
	return 2;
}

static int no_opt(void *st, int id, const char *arg)
{
	(void)st, (void)id, (void)arg;
	return -1;
}

/*
 * man @page (pmu-stat), which replaces pmu, when man(1) finds the page
 * (man -w): returns only when it cannot, with why in @why.
 */
static void exec_man(const char *page, const char **why)
{
	pid_t c = fork();
	int st = 0;

	*why = "cannot start man";
	if (c == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("man", "man", "-w", page, (char *)NULL);
		_exit(127);
	}
	if (c < 0 || waitpid(c, &st, 0) < 0)
		return;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		*why = "man is not installed";
		return;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		*why = "man has no such page here";
		return;
	}
	fflush(stdout);
	execlp("man", "man", page, (char *)NULL);
}

/* pmu help [COMMAND] */
static int cmd_help(int argc, char **argv, struct cli *cli)
{
	int first = opts_parse(&help_command, argc, argv, cli, no_opt, NULL);
	const struct command *c;

	if (first < 0)
		return first == OPTS_EXIT_OK ? 0 : 2;
	if (first >= argc) {
		usage(stdout);
		return 0;
	}
	if (first + 1 < argc)
		return opts_error(&help_command, "one COMMAND at a time");
	if (!(c = find_command(argv[first])))
		return unknown_command("pmu help", argv[first]);
	if (c != &help_command) {
		char page[64];
		const char *why;
		snprintf(page, sizeof(page), "pmu-%s", c->name);
		exec_man(page, &why);
		fprintf(stderr, "pmu help: no manual page %s (%s): here is 'pmu %s --help'\n", page, why, c->name);
	}
	opts_help(c, stdout);
	return 0;
}

/* Run the command named argv[0]. */
static int run_command(int argc, char **argv, struct cli *cli)
{
	const struct command *c;

	if (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[0], "--version")) {
		printf("pmu (libpmu) %s\n", pmu_version());
		return 0;
	}
	if ((c = find_command(argv[0])))
		return c->fn(argc, argv, cli);
	return unknown_command("pmu", argv[0]);
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	int a = 1, code;

	while (a < argc && (!strcmp(argv[a], "-v") || !strcmp(argv[a], "--verbose"))) {
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
