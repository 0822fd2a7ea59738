/* SPDX-License-Identifier: MIT */
/*
 * A result file written whole or not at all, the same in the library's region reports and pmu stat -o
 * (lib/resultfile.c is compiled into both: one rule, one source). The bytes go to a temporary file
 * beside the file (DIR/.NAME.pmu-XXXXXX, the file's mode); once they are all written it takes the
 * file's name: over it (rename(2)), or only where no file has it yet (link(2): never over another's).
 * A full disk, a failure before the end, or a SIGKILL leave the file as it was (a SIGKILL leaves the
 * temporary file too). A file that exists and is not a regular file (a device such as /dev/null, a
 * FIFO, a terminal, a symbolic link) is written in place, as asked.
 */
#ifndef PMU_RESULTFILE_H
#define PMU_RESULTFILE_H
#include <stdbool.h>
#include <stdio.h>

struct pmu_outfile {
	FILE *f;            /* write here */
	char *tmp;          /* the temporary file, or NULL: written in place */
};

/* Open for the bytes of @path (@append: after what it holds; @nonblock: a FIFO written in place is opened
 * without waiting for a reader, ENXIO then). 0 or a negative errno. */
int pmu__outfile_open(struct pmu_outfile *o, const char *path, bool append, bool nonblock);
/* All written: the stream closed. 0, or the negative errno of a write (a full disk). */
int pmu__outfile_finish(struct pmu_outfile *o);
/* After finish: the bytes take the name @path, over what is there (@replace) or only where nothing is
 * (-EEXIST then, the bytes kept for another name). 0 or a negative errno. In place: 0. */
int pmu__outfile_place(struct pmu_outfile *o, const char *path, bool replace);
/* @file with @tag before its extension ("dir/report.json", ".rank3" -> "dir/report.rank3.json"; at its
 * end where its base name has none). 0 or -ENAMETOOLONG. */
int pmu__outfile_tagged(const char *file, const char *tag, char *out, size_t len);
/* After finish, never over another's: the bytes take the name @file where nothing has it, else the first
 * free one of the names derived from it, @tag ".pid<P>" before its extension (".pid<P>-<n>" from the
 * second try; 100 tries). The name taken in @used (@len bytes). 0 or a negative errno (-EEXIST: no
 * name free). */
int pmu__outfile_place_free(struct pmu_outfile *o, const char *file, const char *tag, char *used, size_t len);
/* The temporary file removed (not placed, or placed by link), and @o freed. Any time; NULL-safe. */
void pmu__outfile_drop(struct pmu_outfile *o);

#endif
