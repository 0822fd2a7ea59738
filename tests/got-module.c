/* SPDX-License-Identifier: MIT */
/* A library importing getenv() twice over, for tests/test-got.c: a call (through its PLT) and a
 * function pointer (a data relocation, in RELRO where linked with -z relro), which the test reads.
 * Built three ways. */
#include <stdlib.h>

const char *got_module_call(const char *name);

char *(*const got_module_ptr)(const char *) = getenv;

const char *got_module_call(const char *name)
{
	return getenv(name);
}
