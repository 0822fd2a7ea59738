/* SPDX-License-Identifier: MIT */
/* A result file written whole or not at all (resultfile.h says how). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "resultfile.h"

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

/* @path's bytes after @to's (append); 0 or a negative errno */
static int copy_in(int to, const char *path)
{
	char buf[65536];
	ssize_t n;
	int from = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (from < 0)
		return errno == ENOENT ? 0 : -errno;
	while ((n = read(from, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		for (ssize_t off = 0; n > 0 && off < n;) {
			ssize_t w = write(to, buf + off, (size_t)(n - off));
			if (w < 0 && errno != EINTR) {
				int e = errno;
				close(from);
				return -e;
			}
			off += w > 0 ? w : 0;
		}
	n = n < 0 ? -errno : 0;
	close(from);
	return (int)n;
}

int pmu__outfile_open(struct pmu_outfile *o, const char *path, bool append, bool nonblock)
{
	struct stat st;
	bool exists = lstat(path, &st) == 0;
	mode_t mask = umask(0);
	int fd, r = 0;

	umask(mask);
	memset(o, 0, sizeof(*o));
	if (exists && !S_ISREG(st.st_mode)) { /* /dev/null, a FIFO, a link: in place, as asked */
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC) | (nonblock ? O_NONBLOCK : 0),
			  0666);
		if (fd < 0)
			return -errno;
		if (nonblock) /* opened without waiting; written as any file */
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		if (!(o->f = fdopen(fd, append ? "a" : "w"))) {
			r = -errno;
			close(fd);
		}
		return r;
	}
	if (!(o->tmp = tmp_name(path)))
		return -ENOMEM;
	if ((fd = mkstemp(o->tmp)) < 0) {
		r = -errno;
		free(o->tmp);
		o->tmp = NULL;
		return r;
	}
	/* the file's mode when it exists, else a new file's (0666 less the umask); then its bytes (append) */
	if (fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask) < 0)
		r = -errno;
	if (r == 0 && append && exists)
		r = copy_in(fd, path);
	if (r == 0 && !(o->f = fdopen(fd, "w")))
		r = -errno;
	if (r < 0) {
		if (!o->f)
			close(fd);
		pmu__outfile_drop(o);
	}
	return r;
}

int pmu__outfile_finish(struct pmu_outfile *o)
{
	int r = 0;

	if (!o->f)
		return 0;
	errno = 0;
	if (fflush(o->f) == EOF || ferror(o->f))
		r = errno ? -errno : -EIO;
	if (fclose(o->f) == EOF && !r)
		r = errno ? -errno : -EIO;
	o->f = NULL;
	return r;
}

int pmu__outfile_place(struct pmu_outfile *o, const char *path, bool replace)
{
	if (!o->tmp)
		return 0;
	if (replace)
		return rename(o->tmp, path) < 0 ? -errno : (free(o->tmp), o->tmp = NULL, 0);
	return link(o->tmp, path) < 0 ? -errno : 0; /* the temporary name goes with pmu__outfile_drop() */
}

int pmu__outfile_tagged(const char *file, const char *tag, char *out, size_t len)
{
	const char *base = strrchr(file, '/'), *dot;
	size_t stem;
	int w;

	base = base ? base + 1 : file;
	dot = strrchr(base, '.');
	stem = dot && dot > base ? (size_t)(dot - file) : strlen(file);
	w = snprintf(out, len, "%.*s%s%s", (int)stem, file, tag, file + stem);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/* how many derived names pmu__outfile_place_free() tries ("x.pid7.json", "x.pid7-2.json", ...) */
#define DERIVED_TRIES 100

int pmu__outfile_place_free(struct pmu_outfile *o, const char *file, const char *tag, char *used, size_t len)
{
	char t[256];
	int r = pmu__outfile_place(o, file, false);

	snprintf(used, len, "%s", file);
	for (int n = 1; r == -EEXIST && n <= DERIVED_TRIES; n++) {
		snprintf(t, sizeof(t), n > 1 ? "%s.pid%ld-%d" : "%s.pid%ld", tag, (long)getpid(), n);
		r = pmu__outfile_tagged(file, t, used, len) < 0 ? -ENAMETOOLONG : pmu__outfile_place(o, used, false);
	}
	return r;
}

void pmu__outfile_drop(struct pmu_outfile *o)
{
	if (!o)
		return;
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}
