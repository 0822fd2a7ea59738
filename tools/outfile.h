/* SPDX-License-Identifier: MIT */
/*
 * pmu stat -o FILE, written whole or not at all (lib/resultfile.h's rule, the region reports' too): the
 * results replace FILE only once they are all written. A run that fails before its results (an unknown
 * event, a command that cannot run), a full disk, or a SIGKILL leave FILE as it was. --append copies
 * FILE into the results first. An existing FILE that is not a regular file (a device such as /dev/full,
 * a FIFO, a symbolic link) is written in place.
 */
#ifndef PMU_TOOLS_OUTFILE_H
#define PMU_TOOLS_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include "resultfile.h"

struct outfile {
	struct pmu_outfile o;
	FILE *f;            /* write here (o.f) */
	char *path;         /* FILE */
};

/* Open @path for the results (@append: after what it holds). 0, or -1 after saying why on stderr. */
int outfile_open(struct outfile *o, const char *path, bool append);
/* Done: with @keep the results replace FILE (0, or -1 after saying why: a write error, FILE as it was);
 * without, they are dropped and FILE stays as it was (0). */
int outfile_close(struct outfile *o, bool keep);

#endif
