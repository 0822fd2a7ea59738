/* SPDX-License-Identifier: MIT */
/*
 * PID 1 of the libpmu lab guests (tests/lab/run).
 *
 * Mounts /proc, /sys and /dev, grants user-space counter access
 * (perf_user_access = 1), then runs every program named in /tests/list, one
 * after the other, echoing its output to the console, and prints one
 * machine-readable line per test:
 *
 *   LAB-RUN <name>
 *   ... test output ...
 *   LAB-NOTE <name> <why it failed>          (signal, timeout, exec error)
 *   LAB-RESULT <name> PASS|FAIL|SKIP <code>  (exit 0 = PASS, 77 = SKIP)
 *
 * between LAB-BEGIN and LAB-END, then powers the machine off.
 *
 * Settings come from the kernel command line (unknown NAME=VALUE parameters
 * end up in init's environment):
 *   LAB_TIMEOUT=<seconds>  per-test limit (guest time; default 30)
 *   LAB_ONLY=a,b,c         run only these tests (in list order)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define LIST_PATH "/tests/list"
#define TESTS_DIR "/tests"
#define USER_ACCESS "/proc/sys/kernel/perf_user_access"
#define DEFAULT_TIMEOUT 30

/* Unbuffered console output: everything goes out with write(2) so that
 * nothing is lost when the machine powers off. */
static void out(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	for (int off = 0; off < n;) {
		ssize_t w = write(STDOUT_FILENO, buf + off, (size_t)(n - off));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (int)w;
	}
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* Make sure fds 0, 1 and 2 are the console. The kernel opens /dev/console
 * for us when the initramfs has it; otherwise try devtmpfs. */
static void setup_console(void)
{
	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0)
		return;
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fd != i)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}

static void do_mount(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) != 0 && errno != EBUSY)
		out("lab-init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* Read a small text file into buf (trailing newline removed).
 * Returns 0 or -errno. */
static int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, size - 1);
	int err = n < 0 ? -errno : 0;
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return err;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

static void show_file(const char *label, const char *path)
{
	char buf[256];
	int err = read_text(path, buf, sizeof(buf));
	if (err)
		out("lab-init: %s: (%s)\n", label, strerror(-err));
	else
		out("lab-init: %s: %s\n", label, buf);
}

/* Set perf_user_access to 1 if the kernel has the knob. Returns 1 if it
 * exists, 0 if not. */
static int grant_user_access(int verbose)
{
	char before[32];
	int err = read_text(USER_ACCESS, before, sizeof(before));
	if (err) {
		if (verbose)
			out("lab-init: %s: not present (%s)\n", USER_ACCESS,
			    strerror(-err));
		return 0;
	}
	if (strcmp(before, "1") != 0) {
		err = write_text(USER_ACCESS, "1");
		if (err)
			out("lab-init: writing 1 to %s: %s\n", USER_ACCESS,
			    strerror(-err));
	}
	if (verbose) {
		char after[32];
		read_text(USER_ACCESS, after, sizeof(after));
		out("lab-init: perf_user_access: found %s, now %s\n", before,
		    after);
	}
	return 1;
}

static void show_system(void)
{
	struct utsname u;
	if (uname(&u) == 0)
		out("lab-init: uname: %s %s %s %s\n", u.sysname, u.release,
		    u.version, u.machine);
	show_file("perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid");
	grant_user_access(1);

	/* PMUs the kernel registered. */
	char list[512] = "";
	size_t len = 0;
	DIR *d = opendir("/sys/bus/event_source/devices");
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			int n = snprintf(list + len, sizeof(list) - len, " %s",
					 e->d_name);
			if (n < 0 || (size_t)n >= sizeof(list) - len)
				break;
			len += (size_t)n;
		}
		closedir(d);
	}
	out("lab-init: event sources:%s\n", len ? list : " (none)");
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int in_only_list(const char *only, const char *name)
{
	if (!only || !*only)
		return 1;
	size_t n = strlen(name);
	for (const char *p = only; *p;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == n && strncmp(p, name, n) == 0)
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/*
 * The test's stdout/stderr: a pseudo-terminal when possible, so that stdio
 * in the test is line-buffered as on a console (output printed just before a
 * crash is not lost), else a pipe. Returns 0 with *rd (ours) and *wr (the
 * test's), or -1.
 */
static int open_output(int *rd, int *wr)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0) {
		const char *name = ptsname(m);
		int s = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
		if (s >= 0) {
			struct termios t;
			if (tcgetattr(s, &t) == 0) {
				t.c_oflag &= ~(tcflag_t)ONLCR; /* no \r\n */
				t.c_lflag &= ~(tcflag_t)ECHO;
				tcsetattr(s, TCSANOW, &t);
			}
			*rd = m;
			*wr = s;
			return 0;
		}
	}
	if (m >= 0)
		close(m);
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) != 0)
		return -1;
	*rd = pfd[0];
	*wr = pfd[1];
	return 0;
}

/* Runs one test and prints its LAB-RESULT line. */
static void run_test(const char *name, int timeout_s)
{
	char path[512];
	int pfd[2];

	snprintf(path, sizeof(path), "%s/%s", TESTS_DIR, name);
	grant_user_access(0);
	out("LAB-RUN %s\n", name);

	if (open_output(&pfd[0], &pfd[1]) != 0) {
		out("LAB-NOTE %s pty/pipe: %s\n", name, strerror(errno));
		out("LAB-RESULT %s FAIL 125\n", name);
		return;
	}

	double start = now_s();
	pid_t pid = fork();
	if (pid < 0) {
		out("LAB-NOTE %s fork: %s\n", name, strerror(errno));
		out("LAB-RESULT %s FAIL 125\n", name);
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	if (pid == 0) {
		setpgid(0, 0);
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		signal(SIGPIPE, SIG_DFL);
		char *argv[] = { path, NULL };
		execv(path, argv);
		dprintf(STDERR_FILENO, "lab-init: exec %s: %s\n", path,
			strerror(errno));
		_exit(126);
	}
	setpgid(pid, pid);
	close(pfd[1]);

	int status = 0, exited = 0, timed_out = 0, eof = 0;
	int last_nl = 1;
	char buf[4096];
	double deadline = start + timeout_s;

	for (;;) {
		if (!exited) {
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid)
				exited = 1;
		}
		if (exited && eof)
			break;
		double left = deadline - now_s();
		if (!exited && left <= 0) {
			timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			exited = 1;
		}
		/* Once the test exited, only drain what is already there:
		 * a leftover background child must not hold us up. */
		struct pollfd pf = { .fd = pfd[0], .events = POLLIN };
		int ms = exited ? 0 : 100;
		int r = poll(&pf, 1, ms);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0) {
			ssize_t n = read(pfd[0], buf, sizeof(buf));
			if (n > 0) {
				write_all(STDOUT_FILENO, buf, (size_t)n);
				last_nl = buf[n - 1] == '\n';
				continue;
			}
			/* a pty master reads EIO once the test's side is closed */
			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				eof = 1;
		} else if (r == 0 && exited) {
			break;
		}
	}
	close(pfd[0]);
	kill(-pid, SIGKILL); /* leftovers of this test */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		; /* reap orphans */

	if (!last_nl)
		out("\n");

	double took = now_s() - start;
	const char *verdict;
	int code;
	if (timed_out) {
		out("LAB-NOTE %s timed out after %d s (guest time)\n", name,
		    timeout_s);
		verdict = "FAIL";
		code = 124;
	} else if (WIFSIGNALED(status)) {
		out("LAB-NOTE %s killed by signal %d (%s)\n", name,
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
		verdict = "FAIL";
		code = 128 + WTERMSIG(status);
	} else {
		code = WEXITSTATUS(status);
		verdict = code == 0 ? "PASS" : code == 77 ? "SKIP" : "FAIL";
		if (code == 126)
			out("LAB-NOTE %s could not be executed\n", name);
	}
	out("lab-init: %s took %.2f s\n", name, took);
	out("LAB-RESULT %s %s %d\n", name, verdict, code);
}

static void run_list(void)
{
	const char *only = getenv("LAB_ONLY");
	const char *t = getenv("LAB_TIMEOUT");
	int timeout_s = t && atoi(t) > 0 ? atoi(t) : DEFAULT_TIMEOUT;

	FILE *f = fopen(LIST_PATH, "re");
	if (!f) {
		out("lab-init: cannot open %s: %s\n", LIST_PATH, strerror(errno));
		return;
	}
	char line[256];
	while (fgets(line, sizeof(line), f)) {
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		size_t n = strcspn(s, " \t\r\n#");
		s[n] = '\0';
		if (!*s || !in_only_list(only, s))
			continue;
		run_test(s, timeout_s);
	}
	fclose(f);
}

int main(void)
{
	setup_console();
	do_mount("proc", "/proc", "proc");
	do_mount("sysfs", "/sys", "sysfs");
	do_mount("devtmpfs", "/dev", "devtmpfs");
	do_mount("devpts", "/dev/pts", "devpts");
	setup_console();
	mkdir("/tmp", 01777);
	setenv("PATH", "/bin:/tests", 1);
	setenv("HOME", "/", 0);
	signal(SIGPIPE, SIG_IGN);

	show_system();
	out("LAB-BEGIN\n");
	run_list();
	out("LAB-END\n");

	sync();
	reboot(RB_POWER_OFF);
	out("lab-init: reboot(RB_POWER_OFF): %s\n", strerror(errno));
	return 1; /* init exiting makes the kernel panic; panic=-1 reboots */
}
