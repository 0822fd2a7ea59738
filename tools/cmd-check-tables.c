/* SPDX-License-Identifier: MIT */
/* pmu check-tables: validate event tables (perf's JSON format). */
#include <stdio.h>
#include "cli.h"

static void print_problem(void *data, const char *file, const char *entry, const char *msg)
{
	(void)data;
	printf("%s%s%s: %s\n", file, entry ? ": " : "", entry ? entry : "", msg);
}

int cmd_check_tables(int argc, char **argv, const struct cli *cli)
{
	struct pmu_ctx *ctx;
	int total = 0, bad = 0;

	if (argc < 2) {
		fprintf(stderr, "pmu check-tables: name one or more table directories\n");
		return 2;
	}
	if (cli_open_ctx(cli, NULL, &ctx) < 0)
		return 1;
	for (int i = 1; i < argc; i++) {
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
