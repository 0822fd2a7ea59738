/* SPDX-License-Identifier: MIT */
/* pmu stat --control (stat-control.h says what it is for). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "stat-control.h"

void stat_control_none(struct stat_control *c)
{
	memset(c, 0, sizeof(*c));
	c->ctl = c->ack = -1;
}

/* One FIFO of fifo:CTL,ACK, opened read-write (it never reads end-of-file when its writers go, and opening
 * it does not wait for the other end). -1 after saying why. */
static int open_fifo(const char *path, const char *what)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "pmu stat: --control: cannot open the %s FIFO '%s': %s (make it with mkfifo)\n", what,
			path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode)) {
		fprintf(stderr, "pmu stat: --control: '%s' is not a FIFO (make one with mkfifo '%s')\n", path, path);
		close(fd);
		return -1;
	}
	return fd;
}

/* One descriptor of fd:CTL,ACK: open in pmu. -1 after saying why. */
static int inherited_fd(const char *text, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 0 || v > 65535) {
		fprintf(stderr, "pmu stat: --control fd:CTL[,ACK] wants descriptor numbers, not '%s'\n", text);
		return -1;
	}
	if (fcntl((int)v, F_GETFD) < 0) {
		fprintf(stderr, "pmu stat: --control: the %s descriptor %ld is not open in pmu (open it for pmu in the "
			"shell: pmu stat --control fd:%ld %ld<>FIFO ...)\n", what, v, v, v);
		return -1;
	}
	return (int)v;
}

int stat_control_open(struct stat_control *c, const char *spec)
{
	bool fifo = !strncmp(spec, "fifo:", 5);
	char *ctl, *ack;
	int r = 0;

	stat_control_none(c);
	if (!fifo && strncmp(spec, "fd:", 3)) {
		fprintf(stderr, "pmu stat: --control wants fifo:CTL[,ACK] (paths of FIFOs) or fd:CTL[,ACK] (descriptors), "
			"not '%s'\n", spec);
		return -1;
	}
	if (!(ctl = strdup(spec + (fifo ? 5 : 3)))) {
		fprintf(stderr, "pmu stat: out of memory\n");
		return -1;
	}
	if ((ack = strchr(ctl, ',')))
		*ack++ = 0;
	c->own = fifo;
	if ((c->ctl = fifo ? open_fifo(ctl, "control") : inherited_fd(ctl, "control")) < 0)
		r = -1;
	else if (ack && (c->ack = fifo ? open_fifo(ack, "acknowledgement") : inherited_fd(ack, "acknowledgement")) < 0)
		r = -1;
	else if (!fifo && fcntl(c->ctl, F_SETFL, fcntl(c->ctl, F_GETFL) | O_NONBLOCK) < 0)
		r = -1;
	free(ctl);
	if (r < 0)
		stat_control_close(c);
	return r;
}

/* The command at the start of the buffer, up to its end (a newline or NUL), taken out of it; CTL_NONE
 * when no whole one is there, or the one taken was empty or unknown (*@taken says a line was taken). */
static enum stat_control_cmd take(struct stat_control *c, bool *taken)
{
	static const struct {
		const char *name;
		enum stat_control_cmd cmd;
	} cmds[] = { { "enable", CTL_ENABLE }, { "disable", CTL_DISABLE }, { "ping", CTL_PING } };
	size_t n = 0;
	enum stat_control_cmd cmd = CTL_NONE;

	while (n < c->len && c->buf[n] != '\n' && c->buf[n] != 0)
		n++;
	if (n == c->len)
		return CTL_NONE;
	c->buf[n] = 0;
	*taken = true;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(c->buf, cmds[i].name))
			cmd = cmds[i].cmd;
	if (cmd == CTL_NONE && n > 0) {
		fprintf(stderr, "pmu stat: --control: '%s' is not a command pmu stat takes ('enable', 'disable', "
			"'ping'); skipped\n", c->buf);
	}
	memmove(c->buf, c->buf + n + 1, c->len - n - 1);
	c->len -= n + 1;
	return cmd;
}

enum stat_control_cmd stat_control_next(struct stat_control *c)
{
	for (;;) {
		bool taken = false;
		enum stat_control_cmd cmd = take(c, &taken);
		ssize_t got;
		if (cmd != CTL_NONE) {
			if (c->ack >= 0 && write(c->ack, "ack\n", 4) != 4)
				fprintf(stderr, "pmu stat: --control: cannot acknowledge: %s\n", strerror(errno));
			return cmd;
		}
		if (taken)
			continue;
		if (c->ctl < 0)
			return CTL_NONE;
		if (c->len == sizeof(c->buf)) {
			fprintf(stderr, "pmu stat: --control: a command of %zu bytes or more without a newline; skipped\n",
				sizeof(c->buf));
			c->len = 0;
		}
		got = read(c->ctl, c->buf + c->len, sizeof(c->buf) - c->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got == 0 || (got < 0 && errno != EAGAIN)) {
			/* the writer of fd:CTL is gone: nothing more will come */
			if (c->own)
				close(c->ctl);
			c->ctl = -1;
		}
		if (got <= 0)
			return CTL_NONE;
		c->len += (size_t)got;
	}
}

void stat_control_close(struct stat_control *c)
{
	if (c->own && c->ctl >= 0)
		close(c->ctl);
	if (c->own && c->ack >= 0)
		close(c->ack);
	stat_control_none(c);
}
