/* SPDX-License-Identifier: MIT */
/*
 * Regions: where what they write goes. A misconfiguration said on stderr
 * (the library's one place for it); the variables that choose the report
 * ($PMU_FORMAT, $PMU_PER_THREAD) and the yes/no variables read; a report path's %p (pid), %r (MPI rank) and %%
 * expanded; the report written whole or not at all (lib/resultfile.h: a full
 * disk or a SIGKILL leave the file as it was), a FIFO opened without waiting;
 * and the rule for $PMU_OUTPUT, which every process of a job (MPI ranks,
 * forked children, one run after another) reads the same: a regular file is
 * created only where none is, never over another, and a process that finds
 * it taken writes to a name derived from it and says so once.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common.h"
#include "outtext.h"
#include "region.h"
#include "resultfile.h"
#include "util.h"


/* The file this process chose for $PMU_OUTPUT (under R.lock): a later report of the same process to
 * the same name replaces its own earlier one, and no other. After fork() the pid differs: a child
 * chooses again. */
static struct {
	pid_t pid;
	char asked[PATH_MAX];           /* $PMU_OUTPUT expanded */
	char used[PATH_MAX];            /* what this process created: asked, or a name derived from it */
} own;

/* Zero-setup regions have no caller to tell: a misconfiguration is said,
 * once, on stderr (the one place the library writes there; see STYLE.md).
 * The regions' own context is made without options, so it has no log
 * callback to take the message instead. */
void pmu__region_say(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	char shown[sizeof(msg) * 4];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* names in it are the caller's bytes: a newline or an escape sequence is shown, not acted on */
	fprintf(stderr, "libpmu regions: %s\n", pmu__printable(shown, sizeof(shown), msg));
}

/* A yes/no variable: 1/yes/on/true or 0/no/off/false (any case); unset or
 * empty: @def; anything else is said and gives @def. */
int pmu__region_env_flag(const char *var, int def)
{
	static const char *const yes[] = { "1", "yes", "on", "true" }, *const no[] = { "0", "no", "off", "false" };
	const char *v = pmu__getenv(var);

	if (!v || !*v)
		return def;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(v, yes[i]))
			return 1;
		if (!strcasecmp(v, no[i]))
			return 0;
	}
	pmu__region_say("%s='%.100s' is neither 1 nor 0 (yes/no, on/off, true/false are accepted too); using %s, the default. "
	    "Fix %s.", var, v, def ? "1" : "0", var);
	return def;
}

/* $PMU_FORMAT as a pmu_report_format; an unknown value is said and gives text. */
int pmu__region_env_format(void)
{
	static const char *const fmts[] = { [PMU_FORMAT_TEXT] = "text", [PMU_FORMAT_JSON] = "json",
					    [PMU_FORMAT_CSV] = "csv" };
	const char *v = pmu__getenv("PMU_FORMAT");

	if (!v || !*v)
		return PMU_FORMAT_TEXT;
	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++)
		if (!strcasecmp(v, fmts[i]))
			return (int)i;
	pmu__region_say("PMU_FORMAT='%.100s' is not text, json or csv; the report will be text. Fix PMU_FORMAT.", v);
	return PMU_FORMAT_TEXT;
}

int pmu__region_env_per_thread(void)
{
	return pmu__region_env_flag("PMU_PER_THREAD", 0);
}

const char *pmu__region_rank(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
					    "MV2_COMM_WORLD_RANK" };
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = pmu__getenv(vars[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

/* The MPI rank as a file name takes it (into @out, @len bytes): "" without one; a character other than a
 * letter, a digit, '-' or '_' becomes '_', so that no value of the launcher's variable ("../../etc", a '/')
 * puts a report outside the directory asked for. */
static const char *rank_in_name(char *out, size_t len)
{
	const char *rank = pmu__region_rank();

	pmu__strlcpy(out, rank ? rank : "", len);
	for (char *c = out; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_'))
			*c = '_';
	return out;
}

int pmu__region_expand_path(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = in; *p; p++) {
		if (o + 1 >= len)
			return -ENAMETOOLONG;
		if (p[0] == '%' && p[1] == 'p') {
			o += (size_t)snprintf(out + o, len - o, "%ld", (long)getpid());
			p++;
		} else if (p[0] == '%' && p[1] == 'r') {
			char r[64];
			o += (size_t)snprintf(out + o, len - o, "%s", pmu__region_rank() ? rank_in_name(r, sizeof(r)) : "0");
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			out[o++] = '%';
			p++;
		} else {
			out[o++] = *p;
		}
	}
	if (o >= len)
		return -ENAMETOOLONG;
	out[o] = 0;
	return 0;
}

int pmu__region_out_open(struct pmu_outfile *o, const char *file, bool env)
{
	if (env && own.pid == getpid() && !strcmp(own.asked, file))
		file = own.used; /* this process's own earlier report: the newest replaces it */
	return pmu__outfile_open(o, file, false, true);
}

int pmu__region_out_place(struct pmu_outfile *o, const char *file, bool env, char *used, size_t len)
{
	int r = pmu__outfile_finish(o);

	pmu__strlcpy(used, file, len);
	if (r < 0)
		return r;
	if (!env)
		return pmu__outfile_place(o, file, true); /* the caller's path: over what is there */
	if (own.pid == getpid() && !strcmp(own.asked, file)) {
		pmu__strlcpy(used, own.used, len);
		return pmu__outfile_place(o, own.used, true);
	}
	/* never over another's: the name itself, else one derived from it (".rank<R>.pid<P>", the rank as
	 * rank_in_name() writes it; ".pid<P>" without one), each taken only where free */
	char tag[80] = "";
	if (pmu__region_rank()) {
		char rk[64];
		snprintf(tag, sizeof(tag), ".rank%s", rank_in_name(rk, sizeof(rk)));
	}
	r = pmu__outfile_place_free(o, file, tag, used, len);
	if (r == 0 && strcmp(used, file))
		pmu__region_say("PMU_OUTPUT: '%s' exists (another process's report, or an earlier run's), and a "
				"report is never written over; this process's report (pid %ld%s%s) is in '%s'. To "
				"name each process's file yourself, put %%r (the MPI rank) or %%p (the pid) in "
				"PMU_OUTPUT.", file, (long)getpid(), pmu__region_rank() ? ", rank " : "",
				pmu__region_rank() ? pmu__region_rank() : "", used);
	if (r == 0) {
		own.pid = getpid();
		pmu__strlcpy(own.asked, file, sizeof(own.asked));
		pmu__strlcpy(own.used, used, sizeof(own.used));
	}
	return r;
}
