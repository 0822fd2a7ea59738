/* SPDX-License-Identifier: MIT */
/* What a fuzz target's input gave, for tests/fuzz/state.sh. With PMU_FUZZ_TRACE naming a file,
 * fuzz_trace() appends to it (the targets write return codes, messages, values); without it, as
 * in libFuzzer runs, it writes nothing. The targets make their contexts once, for the first input,
 * and keep them: state.sh checks that this changes nothing, by comparing the trace of every input
 * replayed in one process with the trace of one process per input. */
#ifndef PMU_FUZZ_TRACE_H
#define PMU_FUZZ_TRACE_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void fuzz_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void fuzz_trace(const char *fmt, ...)
{
	static FILE *f;
	static int opened;
	va_list ap;

	if (!opened) {
		const char *path = getenv("PMU_FUZZ_TRACE");
		opened = 1;
		f = path && *path ? fopen(path, "a") : NULL;
	}
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
}
#endif
