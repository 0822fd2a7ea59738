/* SPDX-License-Identifier: MIT */
/* Minimal test harness: CHECK records a failure and goes on; exit codes are
 * meson's: 0 pass, 1 fail, 77 skip (with the reason printed). */
#ifndef PMU_TEST_HARNESS_H
#define PMU_TEST_HARNESS_H
#include <stdio.h>
#include <stdlib.h>

static int test_failures;
static int test_checks;

#define CHECK(cond, ...) do { \
	test_checks++; \
	if (!(cond)) { \
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		test_failures++; \
	} \
} while (0)

#define SKIP(...) do { printf("SKIP: "); printf(__VA_ARGS__); printf("\n"); exit(77); } while (0)

static inline int test_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
	return test_failures ? 1 : 0;
}
#endif
