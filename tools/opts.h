/* SPDX-License-Identifier: MIT */
/* The options of a command as one table: getopt_long parses with it, and
 * --help (and the usage line an error prints) is written from it, so that
 * an option and its help cannot drift apart. -h/--help and -v/--verbose
 * are every command's. */
#ifndef PMU_TOOLS_OPTS_H
#define PMU_TOOLS_OPTS_H

#include <stdbool.h>
#include <stdio.h>
#include "cli.h"

/* ids of options without a short letter start here */
#define OPT_LONG 256

/* One option: its spellings, its argument, one line of help. */
struct opt {
	int id;                 /* the short letter, or OPT_LONG + n */
	const char *long_name;  /* "event", or NULL */
	const char *alias;      /* a second long spelling ("events"), or NULL */
	const char *arg;        /* the argument's name ("EVENTS"), NULL when it takes none; "[=LEVEL]": an
	                           optional one, written --name=LEVEL (a long option's only) */
	const char *help;       /* one line */
};

/* A command: what pmu's command table and its help know about it. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv, struct cli *cli);
	const char *summary;          /* one line */
	const char *const *synopsis;  /* usage lines after "pmu NAME ", NULL-terminated */
	const char *details;          /* paragraphs after the options, or NULL */
	const struct opt *opts;       /* ends with an entry whose id is 0 */
	bool options_first;           /* options end at the first operand (stat: the command) */
};

/* Parse argv[1..] by @c's table: @fn(@st, id, arg) for each option (0, or
 * -1 after saying why). Returns the index of the first operand (argc when
 * none; with !options_first the operands are moved to the end, as getopt
 * does), OPTS_EXIT_OK after --help was printed, or OPTS_EXIT_USAGE after
 * an unknown option or a missing argument was said with the usage line. */
#define OPTS_EXIT_OK (-1)
#define OPTS_EXIT_USAGE (-2)
int opts_parse(const struct command *c, int argc, char **argv, struct cli *cli,
	       int (*fn)(void *st, int id, const char *arg), void *st);

/* "usage: pmu NAME ..." lines, and "Try 'pmu NAME --help'." to @f. */
void opts_usage(const struct command *c, FILE *f);
/* The whole help: usage, summary, options, details; to @f. */
void opts_help(const struct command *c, FILE *f);
/* Say "pmu NAME: @msg" and the usage lines on stderr; returns 2, the exit status of a usage error. */
int opts_error(const struct command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse a whole decimal number within [min, max] from @s into *@out; -1 if it is not one. */
int opts_int(const char *s, long min, long max, int *out);

#endif
