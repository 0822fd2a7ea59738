/* SPDX-License-Identifier: MIT */
/* pmu check-tables: validate event tables (perf's JSON format). */
#include <stdio.h>
#include "cli.h"
#include "opts.h"
#include "outtext.h"

/* One line per problem: the table's names and text are the file's bytes, shown (a newline or an escape
 * sequence in an event name written as \n, \x1b), not acted on, so that each problem stays one line */
static void print_problem(void *data, const char *file, const char *entry, const char *msg)
{
	char f[4096 * 4], e[1024 * 4], m[4096 * 4];

	(void)data;
	printf("%s%s%s: %s\n", pmu__printable(f, sizeof(f), file), entry ? ": " : "",
	       entry ? pmu__printable(e, sizeof(e), entry) : "", pmu__printable(m, sizeof(m), msg));
}

static int cmd_check_tables(int argc, char **argv, struct cli *cli);

static const char *const check_synopsis[] = { "DIR...", NULL };
const struct command check_tables_command = {
	"check-tables", cmd_check_tables, "Validate event tables (perf's JSON format)", check_synopsis,
	"DIR: a tree laid out like events/ (mapfile.csv and directories) or a directory of .json files.\n"
	"Exit status: 0 when clean, 1 when problems were found (one line each) or a directory cannot be read,\n"
	"2 on a usage error.\n", NULL, false,
};

static int no_opt(void *st, int id, const char *arg)
{
	(void)st, (void)id, (void)arg;
	return -1;
}

static int cmd_check_tables(int argc, char **argv, struct cli *cli)
{
	struct pmu_ctx *ctx;
	int total = 0, bad = 0, first = opts_parse(&check_tables_command, argc, argv, cli, no_opt, NULL);

	if (first < 0)
		return first == OPTS_EXIT_OK ? 0 : 2;
	if (first >= argc)
		return opts_error(&check_tables_command, "name one or more table directories");
	if (cli_open_ctx(cli, NULL, &ctx) < 0)
		return 1;
	for (int i = first; i < argc; i++) {
		int r = pmu_tables_check(ctx, argv[i], print_problem, NULL);
		if (r < 0) {
			fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
			bad = 1;
			continue;
		}
		total += r;
	}
	pmu_ctx_free(ctx);
	if (total)
		printf("%d problem%s found\n", total, total == 1 ? "" : "s");
	else if (!bad)
		printf("no problems found\n");
	return total || bad ? 1 : 0;
}
