/* SPDX-License-Identifier: MIT */
/* Options from one table (opts.h says what each is for). */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"

/* every command's */
static const struct opt common[] = {
	{ 'h', "help", NULL, NULL, "print this help and exit" },
	{ 'v', "verbose", NULL, NULL, "the library's debug messages on stderr" },
	{ 0 },
};

static size_t count(const struct opt *o)
{
	size_t n = 0;
	while (o && o[n].id)
		n++;
	return n;
}

/* getopt_long's view of table @o appended at *@lo (long) and *@s (short letters). */
static void add_table(const struct opt *o, struct option **lo, char **s)
{
	for (; o && o->id; o++) {
		int has = !o->arg ? no_argument : o->arg[0] == '[' ? optional_argument : required_argument;
		if (o->long_name)
			*(*lo)++ = (struct option){ o->long_name, has, NULL, o->id };
		if (o->alias)
			*(*lo)++ = (struct option){ o->alias, has, NULL, o->id };
		if (o->id < OPT_LONG) {
			*(*s)++ = (char)o->id;
			if (o->arg)
				*(*s)++ = ':';
		}
	}
}

/* The option a parse error is about, as written: "--name" (without "=VALUE") or "-c". */
static const char *spelled(int argc, char **argv, bool missing, char *buf, size_t len)
{
	const char *a = optind >= 1 && optind - 1 < argc ? argv[optind - 1] : "";

	if (!strncmp(a, "--", 2) && (optopt == 0 || missing))
		snprintf(buf, len, "%.*s", (int)strcspn(a, "="), a);
	else if (optopt > 0 && optopt < OPT_LONG)
		snprintf(buf, len, "-%c", optopt);
	else
		snprintf(buf, len, "%s", a);
	return buf;
}

/* The table entry of option id @id, in @c's table or the common one. */
static const struct opt *find(const struct command *c, int id)
{
	for (const struct opt *o = c->opts; o && o->id; o++)
		if (o->id == id)
			return o;
	for (const struct opt *o = common; o->id; o++)
		if (o->id == id)
			return o;
	return NULL;
}

int opts_parse(const struct command *c, int argc, char **argv, struct cli *cli,
	       int (*fn)(void *st, int id, const char *arg), void *st)
{
	size_t n = count(c->opts) + count(common);
	struct option *lo = calloc(2 * n + 1, sizeof(*lo)), *l = lo;
	char *so = calloc(2 * n + 3, 1), *s = so;
	int r = 0, id;

	if (!lo || !so) {
		free(lo);
		free(so);
		fprintf(stderr, "pmu %s: out of memory\n", c->name);
		return OPTS_EXIT_USAGE;
	}
	if (c->options_first)
		*s++ = '+';
	*s++ = ':';
	add_table(c->opts, &l, &s);
	add_table(common, &l, &s);
	opterr = 0;
	optind = 0; /* glibc: start afresh, reading the '+' again */
	while (r == 0 && (id = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		char buf[128];
		const struct opt *o = find(c, id);
		if (id == '?') {
			opts_error(c, "unknown option '%s'", spelled(argc, argv, false, buf, sizeof(buf)));
			r = OPTS_EXIT_USAGE;
		} else if (id == ':') {
			o = find(c, optopt);
			opts_error(c, "option '%s' needs an argument (%s)", spelled(argc, argv, true, buf, sizeof(buf)),
				   o && o->arg ? o->arg : "a value");
			r = OPTS_EXIT_USAGE;
		} else if (id == 'h') {
			opts_help(c, stdout);
			r = OPTS_EXIT_OK;
		} else if (id == 'v') {
			cli->verbose = 1;
		} else if (!o || fn(st, id, optarg) < 0) {
			opts_usage(c, stderr);
			r = OPTS_EXIT_USAGE;
		}
	}
	free(lo);
	free(so);
	return r ? r : optind;
}

void opts_usage(const struct command *c, FILE *f)
{
	for (size_t i = 0; c->synopsis[i]; i++)
		fprintf(f, "%s pmu %s %s\n", i ? "      " : "usage:", c->name, c->synopsis[i]);
	if (f == stderr)
		fprintf(f, "Try 'pmu %s --help' for the options.\n", c->name);
}

int opts_error(const struct command *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pmu %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	opts_usage(c, stderr);
	return 2;
}

/* "-e, --event, --events EVENTS" into @buf */
static const char *spellings(const struct opt *o, char *buf, size_t len)
{
	int n = 0;
	if (o->id < OPT_LONG)
		n += snprintf(buf + n, len - (size_t)n, "-%c", o->id);
	if (o->long_name)
		n += snprintf(buf + n, len - (size_t)n, "%s--%s", n ? ", " : "", o->long_name);
	if (o->alias)
		n += snprintf(buf + n, len - (size_t)n, ", --%s", o->alias);
	if (o->arg) /* an optional argument joined to the name: --per-cache[=LEVEL] */
		snprintf(buf + n, len - (size_t)n, "%s%s", o->arg[0] == '[' ? "" : " ", o->arg);
	return buf;
}

/* The width of the widest spellings in @o, at least @w. */
static int spellings_width(const struct opt *o, int w)
{
	char buf[128];
	for (; o && o->id; o++)
		if (o->help && (int)strlen(spellings(o, buf, sizeof(buf))) > w)
			w = (int)strlen(buf);
	return w;
}

static void help_table(const struct opt *o, int width, FILE *f)
{
	char buf[128];
	for (; o && o->id; o++)
		if (o->help) /* (none: an old spelling kept to say what replaced it) */
			fprintf(f, "  %-*s  %s\n", width, spellings(o, buf, sizeof(buf)), o->help);
}

void opts_help(const struct command *c, FILE *f)
{
	int w = spellings_width(common, spellings_width(c->opts, 0));

	opts_usage(c, f);
	fprintf(f, "\n%s.\n\nOptions:\n", c->summary);
	help_table(c->opts, w, f);
	help_table(common, w, f);
	if (c->details)
		fprintf(f, "\n%s", c->details);
	if (strcmp(c->name, "help"))
		fprintf(f, "\nSee also: man pmu-%s\n", c->name);
	else
		fprintf(f, "\nSee also: man pmu\n");
}

int opts_int(const char *s, long min, long max, int *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	v = strtol(s, &end, 10);
	if (*end || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}
