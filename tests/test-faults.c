/* SPDX-License-Identifier: MIT */
/*
 * Fault injection. This program defines perf_event_open's carrier
 * (syscall), mmap, read, ioctl, open, fopen and opendir; libpmu.so's calls
 * resolve to them, and they fail the n-th call with a chosen errno (or, for
 * read, return short). A scenario — context, set of software events in
 * groups, enable, fast and syscall reads, disable, close — runs for every
 * call site, every n and every errno. Each run must end with either success
 * or a negative errno whose message names the cause; afterwards no file
 * descriptor may remain open (memory: the valgrind pass of the test command
 * runs this program too), and a final clean run must work.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"

static struct {
	const char *call;   /* which function fails */
	int nth;            /* the n-th call of it while armed */
	int err;            /* errno, or 0 for a short read, or -1 for end of file */
	int count;
	int fired;
	int armed;
} fi;

static int hit(const char *call)
{
	if (!fi.armed || strcmp(fi.call, call) || ++fi.count != fi.nth)
		return 0;
	fi.fired = 1;
	return 1;
}

typedef long (*syscall_fn)(long, ...);
typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef ssize_t (*read_fn)(int, void *, size_t);
typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef int (*open_fn)(const char *, int, ...);
typedef FILE *(*fopen_fn)(const char *, const char *);
typedef DIR *(*opendir_fn)(const char *);
/* the libc function this one stands in front of */
#define REAL(name) static name##_fn real_##name; if (!real_##name) real_##name = (name##_fn)dlsym(RTLD_NEXT, #name)

long syscall(long nr, ...);
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
ssize_t read(int fd, void *buf, size_t n);
int ioctl(int fd, unsigned long req, ...);
int open(const char *path, int flags, ...);
FILE *fopen(const char *path, const char *mode);
DIR *opendir(const char *path);

long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	REAL(syscall);
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open && hit("perf_event_open")) {
		errno = fi.err;
		return -1;
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	REAL(mmap);
	if (hit("mmap")) {
		errno = fi.err;
		return MAP_FAILED;
	}
	return real_mmap(addr, len, prot, flags, fd, off);
}

ssize_t read(int fd, void *buf, size_t n)
{
	REAL(read);
	if (hit("read")) {
		if (!fi.err) /* a short read: half of what was asked */
			return real_read(fd, buf, n / 2);
		if (fi.err < 0) /* end of file: what read(2) gives for an event in error state */
			return 0;
		errno = fi.err;
		return -1;
	}
	return real_read(fd, buf, n);
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	REAL(ioctl);
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (hit("ioctl")) {
		errno = fi.err;
		return -1;
	}
	return real_ioctl(fd, req, arg);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;
	REAL(open);
	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	if (hit("open")) {
		errno = fi.err;
		return -1;
	}
	return real_open(path, flags, mode);
}

FILE *fopen(const char *path, const char *mode)
{
	REAL(fopen);
	if (hit("fopen")) {
		errno = fi.err;
		return NULL;
	}
	return real_fopen(path, mode);
}

DIR *opendir(const char *path)
{
	REAL(opendir);
	if (hit("opendir")) {
		errno = fi.err;
		return NULL;
	}
	return real_opendir(path);
}

static int count_fds(void)
{
	DIR *d;
	struct dirent *e;
	int n = 0;
	REAL(opendir);
	d = real_opendir("/proc/self/fd");
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* The scenario; returns 0 or the first negative errno, with its message. */
static int scenario(char *msg, size_t len)
{
	struct pmu_ctx *ctx = NULL;
	struct pmu_set *s = NULL;
	struct pmu_value v[4], w[4];
	int r;

	msg[0] = 0;
	if ((r = pmu_ctx_new(&ctx, NULL)) < 0)
		goto out;
	if ((r = pmu_set_open(ctx, "task-clock,{page-faults,cpu-clock},INST.RET:u", NULL, &s)) < 0 && r != -ENOENT)
		goto out;
	if (r == -ENOENT) /* no hardware PMU here: the standard name cannot open; software only */
		r = pmu_set_open(ctx, "task-clock,{page-faults,cpu-clock},context-switches", NULL, &s);
	if (r < 0)
		goto out;
	if ((r = pmu_set_enable(s)) < 0 || (r = pmu_set_read(s, v)) < 0 || (r = pmu_set_read_syscall(s, w)) < 0 ||
	    (r = pmu_set_disable(s)) < 0 || (r = pmu_set_reset(s)) < 0)
		goto out;
	/* values must be consistent when everything succeeded */
	if (w[0].value < v[0].value || w[1].enabled != w[2].enabled) {
		snprintf(msg, len, "inconsistent values after a tolerated failure");
		r = -EPROTO;
	}
out:
	if (r < 0 && !msg[0])
		snprintf(msg, len, "%s", pmu_strerror(r));
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return r;
}

int main(void)
{
	static const char *const calls[] = { "perf_event_open", "mmap", "read", "ioctl", "open", "fopen", "opendir" };
	static const int errs[] = { EACCES, EPERM, ENOENT, EINVAL, EMFILE, ENOMEM, EBUSY, EOPNOTSUPP, E2BIG, 0 };
	char msg[1024];
	int base, runs = 0, failures_seen = 0, r;

	base = count_fds();
	r = scenario(msg, sizeof(msg));
	if (r == -EACCES || r == -EPERM)
		SKIP("perf events are not permitted here: %s", msg);
	CHECK(r == 0, "clean scenario: %s", msg);
	for (size_t c = 0; c < sizeof(calls) / sizeof(calls[0]); c++) {
		for (size_t e = 0; e < sizeof(errs) / sizeof(errs[0]); e++) {
			if (errs[e] == 0 && strcmp(calls[c], "read"))
				continue; /* short results: read only */
			int total;
			/* how many calls of this function the scenario makes */
			memset(&fi, 0, sizeof(fi));
			fi.call = calls[c];
			fi.armed = 1;
			scenario(msg, sizeof(msg));
			fi.armed = 0;
			total = fi.count;
			for (int nth = 1; nth <= total; nth++) {
				int fds;
				memset(&fi, 0, sizeof(fi));
				fi.call = calls[c];
				fi.nth = nth;
				fi.err = errs[e];
				fi.armed = 1;
				r = scenario(msg, sizeof(msg));
				fi.armed = 0;
				runs++;
				fds = count_fds();
				CHECK(fds == base, "%s #%d %s: %d descriptors left open (%d before)", calls[c], nth,
				      errs[e] ? strerror(errs[e]) : "short read", fds, base);
				CHECK(fi.fired, "%s #%d of %d was not reached", calls[c], nth, total);
				if (r < 0) {
					failures_seen++;
					CHECK(msg[0] && strlen(msg) > 20, "%s #%d %s: error %d without a useful message ('%s')",
					      calls[c], nth, errs[e] ? strerror(errs[e]) : "short read", r, msg);
					CHECK(r != -EPROTO, "%s #%d %s: %s", calls[c], nth, errs[e] ? strerror(errs[e]) : "short read",
					      msg);
				}
			}
		}
	}
	printf("%d runs, %d ended in a reported error, the rest tolerated the failure\n", runs, failures_seen);
	CHECK(runs > 200 && failures_seen > 50, "too few injections took effect (%d runs, %d errors)", runs, failures_seen);
	r = scenario(msg, sizeof(msg));
	CHECK(r == 0, "the process is unharmed: clean scenario after all injections: %s", msg);
	/* a few messages users will see, checked by content */
	{
		memset(&fi, 0, sizeof(fi));
		fi.call = "perf_event_open";
		fi.nth = 1;
		fi.err = EMFILE;
		fi.armed = 1;
		r = scenario(msg, sizeof(msg));
		CHECK(r == -EMFILE && strstr(msg, "task-clock") && strstr(msg, "ulimit"), "EMFILE: %s", msg);
		memset(&fi, 0, sizeof(fi));
		fi.call = "perf_event_open";
		fi.nth = 1;
		fi.err = EBUSY;
		fi.armed = 1;
		r = scenario(msg, sizeof(msg));
		CHECK(r == -EBUSY && strstr(msg, "busy"), "EBUSY: %s", msg);
		memset(&fi, 0, sizeof(fi));
		fi.call = "read";
		fi.nth = 0;
		fi.armed = 0;
	}
	/* read(2) at end of file (the kernel's answer for an event in error state): a pinned group (D)
	 * is said to have been stopped by the kernel, any other group gets the byte count */
	for (int pinned = 0; pinned < 2; pinned++) {
		struct pmu_ctx *ctx = NULL;
		struct pmu_set *s = NULL;
		struct pmu_value w[2];
		r = pmu_ctx_new(&ctx, NULL);
		if (r == 0)
			r = pmu_set_open(ctx, pinned ? "{task-clock,page-faults}:D" : "{task-clock,page-faults}", NULL, &s);
		CHECK(r == 0, "open (%s): %s", pinned ? "pinned" : "not pinned", pmu_strerror(r));
		if (r == 0) {
			memset(&fi, 0, sizeof(fi));
			fi.call = "read";
			fi.nth = 1;
			fi.err = -1;
			fi.armed = 1;
			r = pmu_set_read_syscall(s, w);
			fi.armed = 0;
			CHECK(fi.fired && r == -EIO, "EOF (%s): %d %s", pinned ? "pinned" : "not pinned", r, pmu_strerror(r));
			if (pinned)
				CHECK(strstr(pmu_strerror(r), "it is pinned (modifier D)") != NULL, "pinned EOF: %s",
				      pmu_strerror(r));
			else
				CHECK(strstr(pmu_strerror(r), "returned 0 bytes for 0 events") != NULL, "EOF: %s",
				      pmu_strerror(r));
		}
		pmu_set_close(s);
		pmu_ctx_free(ctx);
	}
	return test_done("test-faults");
}
