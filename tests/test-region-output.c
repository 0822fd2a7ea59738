/* SPDX-License-Identifier: MIT */
/*
 * Processes that share PMU_OUTPUT each keep their report (issue 39): 8 "ranks" started at once
 * (OMPI_COMM_WORLD_RANK / PMI_RANK set, as a launcher does) with PMU_OUTPUT=dir/report.json, a
 * parent and 4 forked children, two runs one after another. The oracle is what each process was
 * made to do: process i runs region "proc<i>" i + 1 times, so every directory must hold, over all
 * its files, each process's region exactly once with its calls (read back from the CSV / JSON text
 * with sscanf/strstr, not with libpmu), and each file one process's report. Also kept as before:
 * a process's own second report replaces its first (one file), an explicit pmu_region_report()
 * path is written over, and a FIFO with a reader gets the report.
 * Runs itself: "test-region-output child I [twice]" is process I.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>

static int fails;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static void run_regions(int i)
{
	char name[32];
	snprintf(name, sizeof(name), "proc%d", i);
	for (int k = 0; k <= i; k++) {
		pmu_region_begin(name);
		pmu_region_end(name);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = calloc(1, 1 << 20);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static int count(const char *text, const char *s)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, s)); p++)
		n++;
	return n;
}

/* Over every file of @dir whose name starts with @prefix: how many reports hold region proc<i>
 * (found[i]), with which calls (calls[i]) and, JSON, which "rank" (rank[i], -1: none); returns the
 * number of files. A file holding more or less than one process's regions, or not one complete
 * report, is a failure. */
static int scan(const char *dir, const char *prefix, int n, int *found, long *calls, long *rank)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0;

	memset(found, 0, sizeof(*found) * (size_t)n);
	while (d && (e = readdir(d))) {
		char path[PATH_MAX], *text, *p;
		int regions = 0, json;
		long r = -1;
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!(text = slurp(path)))
			continue;
		files++;
		json = text[0] == '{';
		if (json) {
			size_t len = strlen(text);
			CHECK(len > 2 && !strcmp(text + len - 2, "}\n") && count(text, "\"schema\"") == 1,
			      "%s is not one complete JSON document", path);
			if ((p = strstr(text, "\"rank\": ")))
				sscanf(p, "\"rank\": %ld", &r);
		} else {
			CHECK(count(text, "region,tid,calls,") == 1, "%s is not one CSV report", path);
		}
		for (p = text; (p = strstr(p, "\"proc")); p++) {
			int i;
			long c = -1;
			if (sscanf(p, "\"proc%d\"", &i) != 1 || i < 0 || i >= n)
				continue;
			if (json) {
				const char *q = strstr(p, "\"calls\": ");
				if (!q || sscanf(q, "\"calls\": %ld", &c) != 1)
					continue;
			} else if (sscanf(p, "\"proc%*d\",-1,%ld,", &c) != 1) {
				continue;
			}
			found[i]++;
			calls[i] = c;
			rank[i] = r;
			regions++;
		}
		CHECK(regions == 1, "%s holds %d processes' regions (one expected)", path, regions);
		free(text);
	}
	if (d)
		closedir(d);
	return files;
}

/* Every process 0..n-1 of @what found once, with calls i + 1 (and rank i when @ranks). */
static void expect_all(const char *what, const char *dir, const char *prefix, int n, int nfiles, int ranks)
{
	int found[16];
	long calls[16], rank[16];
	int files = scan(dir, prefix, n, found, calls, rank);

	CHECK(files == nfiles, "%s: %d files in %s, %d expected (one per process)", what, files, dir, nfiles);
	for (int i = 0; i < n; i++) {
		CHECK(found[i] == 1, "%s: process %d's region proc%d is in %d files (one expected)", what, i, i, found[i]);
		if (found[i] == 1) {
			CHECK(calls[i] == i + 1, "%s: proc%d has %ld calls, %d expected", what, i, calls[i], i + 1);
			CHECK(!ranks || rank[i] == i, "%s: proc%d's file says rank %ld, %d expected", what, i, rank[i], i);
		}
	}
}

/* Start @self child I in the environment set, after @go[0] reaches end of file (when every copy
 * of @go[1] is closed); stderr to @err. */
static pid_t spawn(const char *self, int i, const int *go, const char *err, const char *extra)
{
	pid_t pid;
	fflush(NULL); /* nothing of ours written twice */
	pid = fork();
	if (pid == 0) {
		char arg[16];
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		char c;
		dup2(fd, 2);
		if (go) {
			close(go[1]);
			while (read(go[0], &c, 1) > 0)
				;
			close(go[0]);
		}
		snprintf(arg, sizeof(arg), "%d", i);
		execl(self, self, "child", arg, extra, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void wait_ok(pid_t pid, const char *what)
{
	int st;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: a process failed (%d)",
	      what, st);
}

static void mkdirs(const char *tmp, const char *sub, char *out)
{
	sprintf(out, "%s/%s", tmp, sub);
	mkdir(out, 0755);
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/test-region-output.XXXXXX", dir[PATH_MAX], out[PATH_MAX + 32], err[PATH_MAX + 32];
	char self[PATH_MAX];
	pid_t pids[16];
	int go[2];
	ssize_t n;

	if (argc >= 3 && !strcmp(argv[1], "child")) {
		int i = atoi(argv[2]);
		run_regions(i);
		if (argc >= 4 && argv[3] && !strcmp(argv[3], "twice")) {
			/* its own report twice to PMU_OUTPUT: the second (calls i + 1) replaces the first */
			pmu_region_report(NULL, PMU_FORMAT_CSV, 0);
			pmu_region_reset();
			run_regions(i);
		}
		return 0; /* the report at exit */
	}
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0 || !mkdtemp(tmp)) {
		printf("SKIP: no /proc/self/exe or temporary directory\n");
		return 77;
	}
	self[n] = 0;
	unsetenv("PMU_PER_THREAD");
	setenv("PMU_EVENTS", "task-clock", 1);
	setenv("PMU_CALIBRATE", "0", 1);
	for (const char *v = "OMPI_COMM_WORLD_RANK\0PMI_RANK\0PMIX_RANK\0SLURM_PROCID\0MV2_COMM_WORLD_RANK\0"; *v;
	     v += strlen(v) + 1)
		unsetenv(v);

	/* 1. eight ranks at once, PMU_OUTPUT without %r: each rank's regions kept */
	mkdirs(tmp, "mpi", dir);
	snprintf(out, sizeof(out), "%s/report.json", dir);
	setenv("PMU_OUTPUT", out, 1);
	setenv("PMU_FORMAT", "json", 1);
	if (pipe(go) < 0)
		return 1;
	for (int i = 0; i < 8; i++) {
		char r[16];
		snprintf(r, sizeof(r), "%d", i);
		setenv(i % 2 ? "PMI_RANK" : "OMPI_COMM_WORLD_RANK", r, 1);
		snprintf(err, sizeof(err), "%s/../mpi-err.%d", dir, i);
		pids[i] = spawn(self, i, go, err, NULL);
		unsetenv(i % 2 ? "PMI_RANK" : "OMPI_COMM_WORLD_RANK");
	}
	close(go[0]);
	close(go[1]); /* all start together */
	for (int i = 0; i < 8; i++)
		wait_ok(pids[i], "8 ranks");
	expect_all("8 ranks at once", dir, "report", 8, 8, 1);
	{
		/* each rank that did not get report.json said once where its report went: a file with its region */
		int said = 0;
		for (int i = 0; i < 8; i++) {
			char *text, *q, path[PATH_MAX], *reg = NULL, want[16];
			snprintf(err, sizeof(err), "%s/../mpi-err.%d", dir, i);
			text = slurp(err);
			if (text && (q = strstr(text, "is in '"))) {
				said++;
				CHECK(count(text, "libpmu regions:") == 1, "rank %d said more than one line: %s", i, text);
				sscanf(q, "is in '%4095[^']'", path);
				reg = slurp(path);
				snprintf(want, sizeof(want), "\"proc%d\"", i);
				CHECK(reg && strstr(reg, want), "rank %d said its report is in '%s', which has no %s", i, path,
				      want);
				CHECK(strstr(text, "%r") != NULL, "rank %d's line does not suggest %%r: %s", i, text);
			} else {
				CHECK(!text || !*text, "rank %d wrote to stderr: %s", i, text);
			}
			free(reg);
			free(text);
		}
		CHECK(said == 7, "%d ranks said where their report went, 7 expected (one got report.json)", said);
	}

	/* 2. a parent and four forked children, CSV */
	mkdirs(tmp, "fork", dir);
	snprintf(out, sizeof(out), "%s/fork.csv", dir);
	setenv("PMU_OUTPUT", out, 1);
	setenv("PMU_FORMAT", "csv", 1);
	snprintf(err, sizeof(err), "%s/fork-err", tmp);
	{
		pid_t top;
		fflush(NULL);
		top = fork();
		if (top == 0) {
			int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			pid_t kids[4];
			int bad = 0, st;
			dup2(fd, 2);
			run_regions(0);
			fflush(NULL);
			for (int i = 1; i <= 4; i++)
				if ((kids[i - 1] = fork()) == 0) {
					run_regions(i);
					exit(0);
				}
			for (int i = 0; i < 4; i++)
				bad |= waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st);
			exit(bad);
		}
		wait_ok(top, "fork");
	}
	expect_all("a parent and 4 forked children", dir, "fork", 5, 5, 0);

	/* 3. two runs one after another, then a process reporting twice (one file, its second report) */
	mkdirs(tmp, "runs", dir);
	snprintf(out, sizeof(out), "%s/runs.csv", dir);
	setenv("PMU_OUTPUT", out, 1);
	snprintf(err, sizeof(err), "%s/runs-err", tmp);
	wait_ok(spawn(self, 0, NULL, err, NULL), "run 1");
	wait_ok(spawn(self, 1, NULL, err, NULL), "run 2");
	expect_all("two runs one after another", dir, "runs", 2, 2, 0);
	mkdirs(tmp, "twice", dir);
	snprintf(out, sizeof(out), "%s/twice.csv", dir);
	setenv("PMU_OUTPUT", out, 1);
	wait_ok(spawn(self, 0, NULL, err, "twice"), "twice");
	expect_all("a process reporting twice", dir, "twice", 1, 1, 0);

	/* 4. kept as before: a FIFO with a reader gets the report */
	mkdirs(tmp, "fifo", dir);
	snprintf(out, sizeof(out), "%s/fifo", dir);
	if (mkfifo(out, 0644) == 0) {
		int fd = open(out, O_RDONLY | O_NONBLOCK);
		char buf[4096] = "";
		size_t got = 0;
		setenv("PMU_OUTPUT", out, 1);
		wait_ok(spawn(self, 2, NULL, err, NULL), "fifo");
		for (ssize_t k; (k = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0;)
			got += (size_t)k;
		buf[got] = 0;
		CHECK(strstr(buf, "\"proc2\",-1,3,") != NULL, "the FIFO's reader got no report: '%s'", buf);
		close(fd);
		expect_all("a FIFO", dir, "fifo.", 0, 0, 0); /* nothing written beside it */
	}
	unsetenv("PMU_OUTPUT");

	/* 5. an explicit path is the caller's: written over, as asked */
	snprintf(out, sizeof(out), "%s/explicit.csv", tmp);
	{
		FILE *f = fopen(out, "w");
		char *text;
		fputs("another's\n", f);
		fclose(f);
		run_regions(3);
		CHECK(pmu_region_report(out, PMU_FORMAT_CSV, 0) == 0, "pmu_region_report(%s): %s", out, pmu_strerror(-1));
		text = slurp(out);
		CHECK(text && !strstr(text, "another's") && strstr(text, "\"proc3\",-1,4,"),
		      "pmu_region_report(path) did not write over %s: %s", out, text ? text : "(none)");
		free(text);
		pmu_region_reset();
	}
	/* 6. a name of bytes that are not UTF-8 (issue 40 item 11): the JSON report is still JSON, each such
	 * byte U+FFFD, as pmu stat --json writes them. The oracle is Python's strict UTF-8 decoder and json
	 * module, run on the file */
	snprintf(out, sizeof(out), "%s/odd.json", tmp);
	{
		char cmd[2 * PATH_MAX];
		int st;
		pmu_region_begin("odd\xff\xfe\x80name");
		pmu_region_end("odd\xff\xfe\x80name");
		CHECK(pmu_region_report(out, PMU_FORMAT_JSON, 0) == 0, "pmu_region_report(%s): %s", out, pmu_strerror(-1));
		snprintf(cmd, sizeof(cmd), "python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding=\"utf-8\", "
			 "errors=\"strict\")); sys.exit(0 if [r[\"name\"] for r in d[\"regions\"]] == [\"odd\\ufffd\\ufffd\\ufffdname\"] "
			 "else 1)' '%s'", out);
		st = system(cmd);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the JSON report of a region named 'odd\\xff\\xfe\\x80name' is "
		      "not UTF-8 JSON with the name 'odd\\ufffd\\ufffd\\ufffdname' (python3's json: status 0x%x)", st);
		pmu_region_reset();
	}
	/* 8. %r from the launcher's variable as a file name takes it (issue 40 item 12): a rank of
	 * "../../x" is written as "______x" inside the directory asked for, not two levels up */
	mkdirs(tmp, "rank", dir);
	{
		char up[PATH_MAX + 64], want[PATH_MAX + 64];
		snprintf(out, sizeof(out), "%s/r%%r.csv", dir);
		setenv("PMU_OUTPUT", out, 1);
		setenv("OMPI_COMM_WORLD_RANK", "../../x", 1);
		snprintf(err, sizeof(err), "%s/rank.err", tmp);
		wait_ok(spawn(self, 1, NULL, err, NULL), "rank ../../x");
		unsetenv("OMPI_COMM_WORLD_RANK");
		unsetenv("PMU_OUTPUT");
		snprintf(want, sizeof(want), "%s/r______x.csv", dir);
		snprintf(up, sizeof(up), "%s/../../x.csv", dir);
		CHECK(access(want, F_OK) == 0 && access(up, F_OK) != 0, "rank '../../x' with PMU_OUTPUT=%s: %s %s, %s %s",
		      out, want, access(want, F_OK) == 0 ? "written" : "missing", up, access(up, F_OK) == 0 ? "written" : "not written");
	}

	/* 7. names as others read them (issue 40 item 11): in CSV a formula's first character behind a ' (a
	 * spreadsheet takes the cell as text); in the text report a newline and an escape sequence written
	 * as \n and \x1b, not acted on. The expected bytes are written here by hand */
	{
		char *text;
		pmu_region_begin("=HYPERLINK(\"http://x\")");
		pmu_region_end("=HYPERLINK(\"http://x\")");
		pmu_region_begin("two\nlines\x1b[31m");
		pmu_region_end("two\nlines\x1b[31m");
		snprintf(out, sizeof(out), "%s/names.csv", tmp);
		CHECK(pmu_region_report(out, PMU_FORMAT_CSV, 0) == 0, "pmu_region_report(%s): %s", out, pmu_strerror(-1));
		text = slurp(out);
		CHECK(text && strstr(text, "\n\"'=HYPERLINK(\"\"http://x\"\")\",-1,1,"),
		      "CSV: the formula is not behind a ': %s", text ? text : "(none)");
		free(text);
		snprintf(out, sizeof(out), "%s/names.txt", tmp);
		CHECK(pmu_region_report(out, PMU_FORMAT_TEXT, 0) == 0, "pmu_region_report(%s): %s", out, pmu_strerror(-1));
		text = slurp(out);
		CHECK(text && strstr(text, " two\\nlines\\x1b[31m ") && !strchr(text, 0x1b),
		      "text: the name's newline and ESC are not written as \\n and \\x1b: %s", text ? text : "(none)");
		free(text);
		pmu_region_reset();
	}
	/* 8. PMU_FORMAT_ENV and per_thread -1 (what the compatibility layers and libpmu-mpi pass): $PMU_FORMAT
	 * and $PMU_PER_THREAD as set now; unset, text and totals only. A format of neither kind is refused. */
	{
		static const struct {
			const char *format, *per_thread, *first; /* NULL: unset; @first: how the file starts */
			bool thread_rows;
		} c[] = {
			{ "csv", "1", "region,tid,calls,event,", true },
			{ "json", "0", "{", false },
			{ NULL, NULL, "\n", false }, /* the text report starts with an empty line */
		};
		char *text;
		for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
			c[i].format ? setenv("PMU_FORMAT", c[i].format, 1) : unsetenv("PMU_FORMAT");
			c[i].per_thread ? setenv("PMU_PER_THREAD", c[i].per_thread, 1) : unsetenv("PMU_PER_THREAD");
			pmu_region_begin("env");
			pmu_region_end("env");
			snprintf(out, sizeof(out), "%s/env%zu", tmp, i);
			CHECK(pmu_region_report(out, PMU_FORMAT_ENV, -1) == 0, "PMU_FORMAT_ENV (%s): %s",
			      c[i].format ? c[i].format : "unset", pmu_strerror(-1));
			text = slurp(out);
			CHECK(text && !strncmp(text, c[i].first, strlen(c[i].first)),
			      "PMU_FORMAT=%s: the report does not start with '%s': %.80s", c[i].format ? c[i].format : "(unset)",
			      c[i].first, text ? text : "(none)");
			/* a thread's row: CSV "env",<this thread's tid>, (the totals' is -1); JSON "tid" (the totals have none) */
			char row[64];
			snprintf(row, sizeof(row), "\"env\",%ld,", (long)syscall(SYS_gettid));
			bool rows = text && (strstr(text, row) || strstr(text, "\"tid\""));
			CHECK(!c[i].thread_rows || rows, "PMU_PER_THREAD=%s: no per-thread row: %.300s", c[i].per_thread,
			      text ? text : "(none)");
			CHECK(c[i].thread_rows || !rows, "PMU_PER_THREAD=%s: a per-thread row: %.300s",
			      c[i].per_thread ? c[i].per_thread : "(unset)", text ? text : "(none)");
			free(text);
			pmu_region_reset();
		}
		CHECK(pmu_region_report(out, -2, 0) == -EINVAL, "format -2 not refused");
		unsetenv("PMU_FORMAT");
		unsetenv("PMU_PER_THREAD");
	}
	if (!fails) {
		char cmd[PATH_MAX + 16];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd) != 0)
			printf("(could not remove %s)\n", tmp);
	} else {
		printf("(the files are kept in %s)\n", tmp);
	}
	printf("%s\n", fails ? "FAIL" : "ok");
	return fails ? 1 : 0;
}
