/* SPDX-License-Identifier: MIT */
/* pmu stat -o FILE (outfile.h says how it is written). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "outfile.h"

int outfile_open(struct outfile *o, const char *path, bool append)
{
	int r;

	memset(o, 0, sizeof(*o));
	if ((r = pmu__outfile_open(&o->o, path, append, false)) < 0 || !(o->path = strdup(path))) {
		fprintf(stderr, "pmu stat: cannot write '%s': %s\n", path, strerror(r < 0 ? -r : ENOMEM));
		pmu__outfile_drop(&o->o);
		return -1;
	}
	o->f = o->o.f;
	return 0;
}

int outfile_close(struct outfile *o, bool keep)
{
	int r = pmu__outfile_finish(&o->o);

	if (r < 0) {
		fprintf(stderr, "pmu: writing '%s': %s%s\n", o->path, strerror(-r), o->o.tmp ? "; it is left as it was" : "");
	} else if (keep && (r = pmu__outfile_place(&o->o, o->path, true)) < 0) {
		fprintf(stderr, "pmu: writing '%s': %s (the results are in %s)\n", o->path, strerror(-r), o->o.tmp);
		free(o->o.tmp); /* kept for the user, as said */
		o->o.tmp = NULL;
	}
	pmu__outfile_drop(&o->o);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return r < 0 ? -1 : 0;
}
