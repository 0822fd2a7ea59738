/* SPDX-License-Identifier: MIT */
/* pmu stat -o FILE (outfile.h says how it is written). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "outfile.h"
#include "util.h"

/* The temporary file's name beside @path: DIR/.BASE.pmu-XXXXXX (malloc'd; NULL when out of memory) */
static char *tmp_name(const char *path)
{
	char *d = strdup(path), *b = strdup(path), *t = NULL;

	if (d && b && asprintf(&t, "%s/.%s.pmu-XXXXXX", dirname(d), basename(b)) < 0)
		t = NULL;
	free(d);
	free(b);
	return t;
}

/* FILE's bytes after the temporary file's (--append); 0 or -1 with errno */
static int copy_in(int to, const char *path)
{
	char buf[65536];
	ssize_t n;
	int from = open(path, O_RDONLY | O_CLOEXEC);

	if (from < 0)
		return errno == ENOENT ? 0 : -1;
	while ((n = read(from, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(to, buf + off, (size_t)(n - off));
			if (w < 0 && errno != EINTR) {
				close(from);
				return -1;
			}
			off += w > 0 ? w : 0;
		}
	close(from);
	return n < 0 ? -1 : 0;
}

int outfile_open(struct outfile *o, const char *path, bool append)
{
	struct stat st;
	bool exists = lstat(path, &st) == 0;
	mode_t mask = umask(0);
	int fd = -1;

	umask(mask);
	memset(o, 0, sizeof(*o));
	if (!(o->path = strdup(path)))
		goto nomem;
	if (exists && !S_ISREG(st.st_mode)) { /* /dev/full, a FIFO, a link: in place, as asked */
		if (!(o->f = fopen(path, append ? "a" : "w")))
			goto fail;
		return 0;
	}
	if (!(o->tmp = tmp_name(path)))
		goto nomem;
	if ((fd = mkstemp(o->tmp)) < 0) {
		fprintf(stderr, "pmu stat: cannot write '%s': cannot make a file beside it (%s): %s\n", path, o->tmp,
			strerror(errno));
		free(o->tmp);
		free(o->path);
		o->tmp = o->path = NULL;
		return -1;
	}
	/* FILE's mode when it exists, else a new file's (0666 less the umask); then its bytes (--append) */
	if (fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask) < 0 || (append && exists && copy_in(fd, path) < 0) ||
	    !(o->f = fdopen(fd, "w")))
		goto fail;
	return 0;
nomem:
	errno = ENOMEM;
fail:
	fprintf(stderr, "pmu stat: cannot write '%s': %s\n", path, strerror(errno));
	if (fd >= 0 && !o->f)
		close(fd);
	outfile_close(o, false);
	return -1;
}

int outfile_close(struct outfile *o, bool keep)
{
	char *where = NULL;
	int r = 0;

	if (o->f && asprintf(&where, "'%s'", o->path) < 0)
		where = NULL;
	if (o->f && out_finish(o->f, where ? where : o->path, true) < 0)
		r = -1, keep = false;
	o->f = NULL;
	if (o->tmp && keep && rename(o->tmp, o->path) < 0) {
		fprintf(stderr, "pmu: writing '%s': %s (the results are in %s)\n", o->path, strerror(errno), o->tmp);
		r = -1;
	} else if (o->tmp && !keep) {
		unlink(o->tmp);
	}
	if (o->tmp && r < 0 && keep == false && where)
		fprintf(stderr, "pmu: '%s' is left as it was\n", o->path);
	free(where);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return r;
}
