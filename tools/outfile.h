/* SPDX-License-Identifier: MIT */
/*
 * pmu stat -o FILE, written so that FILE is never left half-written or
 * emptied: the results go to a temporary file beside it, which replaces
 * FILE (rename(2)) only once they are all written. A run that fails
 * before its results (an unknown event, a command that cannot run), a
 * full disk, or a SIGKILL leaves FILE as it was. --append copies FILE into
 * the temporary file first. FILE that exists and is not a regular file (a
 * device such as /dev/full, a FIFO, a symbolic link) is written in place.
 */
#ifndef PMU_TOOLS_OUTFILE_H
#define PMU_TOOLS_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct outfile {
	FILE *f;            /* write here */
	char *path;         /* FILE */
	char *tmp;          /* the temporary file, or NULL (written in place) */
};

/* Open @path for the results (@append: after what it holds). 0, or -1 after saying why on stderr. */
int outfile_open(struct outfile *o, const char *path, bool append);
/* Done: with @keep the results replace FILE (0, or -1 after saying why: a write error, FILE as it was);
 * without, they are dropped and FILE stays as it was (0). */
int outfile_close(struct outfile *o, bool keep);

#endif
