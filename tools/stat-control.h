/* SPDX-License-Identifier: MIT */
/*
 * pmu stat --control: counting switched on and off from outside while it
 * runs, as perf stat's --control takes it. Commands come one per line (or
 * NUL-terminated) on a FIFO or an inherited file descriptor: 'enable',
 * 'disable', 'ping'; each is answered "ack\n" on the acknowledgement one,
 * when there is one. With -D -1 the count starts at the first 'enable'.
 */
#ifndef PMU_TOOLS_STAT_CONTROL_H
#define PMU_TOOLS_STAT_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

struct stat_control {
	int ctl, ack;          /* -1: none */
	char buf[256];         /* a command not yet ended by its newline */
	size_t len;
	bool own;              /* ctl and ack were opened here (fifo:), closed here */
};

enum stat_control_cmd { CTL_NONE, CTL_ENABLE, CTL_DISABLE, CTL_PING };

/* @c with no control (ctl, ack -1). */
void stat_control_none(struct stat_control *c);
/* "fifo:CTL[,ACK]" (FIFOs opened here) or "fd:N[,M]" (descriptors pmu inherited) into @c; -1 after saying
 * why on stderr. */
int stat_control_open(struct stat_control *c, const char *spec);
/* The next whole command, reading what has arrived; CTL_NONE when none has yet (or the writer is gone).
 * An unknown one is said on stderr and skipped; each known one is acknowledged. */
enum stat_control_cmd stat_control_next(struct stat_control *c);
void stat_control_close(struct stat_control *c);

#endif
