/* SPDX-License-Identifier: MIT */
/*
 * lib/got.c: one imported function of a loaded library replaced, and put back. The library
 * (tests/got-module.c) imports getenv() by a call and by a function pointer, and is built three ways:
 * -z now -z relro (both slots on pages the loader made read-only, as Debian's libpfm4 has its getenv
 * slot), -z lazy -z norelro (writable pages), and the lazy one loaded with RTLD_LAZY (the PLT slot holds
 * the lazy-binding stub, the pointer getenv itself: only the slot that holds what the first one holds is
 * written). Checked: the slots written (counted, and seen in the module's calls), the old function
 * given back, the page's protection as /proc/self/maps shows it before and after, a name not imported.
 * tests/test-got NOW-MODULE LAZY-MODULE LAZY-MODULE-2
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "got.h"
#include "harness.h"

static char fake_value[] = "answered by the test";

static char *fake(const char *name)
{
	(void)name;
	return fake_value;
}

/* the permissions /proc/self/maps gives the mapping holding @p ("r--p"), or "?" */
static const char *perms(const void *p, char out[5])
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	strcpy(out, "?");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char pr[5];
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, pr) == 3 && (uintptr_t)p >= lo && (uintptr_t)p < hi) {
			strcpy(out, pr);
			break;
		}
	}
	if (f)
		fclose(f);
	return out;
}

typedef const char *(*call_fn)(const char *);

/* @file loaded with @flags: replaced (@slots written), the calls answered by fake(), put back */
static void module(const char *file, int flags, int slots, bool ptr_replaced, const char *prot)
{
	void *h = dlopen(file, flags), *was = NULL, *mine = (void *)fake;
	call_fn call;
	void *const *ptr;
	char p0[5], p1[5];
	int n;

	CHECK(h != NULL, "dlopen %s: %s", file, dlerror());
	if (!h)
		return;
	ptr = (void *const *)dlsym(h, "got_module_ptr");
	call = (call_fn)dlsym(h, "got_module_call");
	perms(ptr, p0);
	CHECK(!strcmp(p0, prot), "%s: the pointer's page is %s before, not %s", file, p0, prot);
	n = pmu__got_replace(h, "getenv", (void *)fake, &was);
	CHECK(n == slots, "%s: %d slots written, not %d", file, n, slots);
	CHECK(!strcmp(perms(ptr, p1), p0), "%s: the pointer's page is %s after, was %s", file, p1, p0);
	CHECK(call("PMU_TEST_GOT") == fake_value, "%s: the call not answered by the replacement", file);
	CHECK((*ptr == (void *)fake) == ptr_replaced, "%s: the pointer %sreplaced", file, ptr_replaced ? "not " : "");
	if (flags & RTLD_NOW)
		CHECK(was == (void *)getenv, "%s: the old function given %p, not getenv %p", file, was, (void *)getenv);
	n = pmu__got_replace(h, "getenv", was, &mine);
	CHECK(n == slots, "%s: %d slots put back, not %d", file, n, slots);
	CHECK(!strcmp(perms(ptr, p1), p0), "%s: the pointer's page is %s after, was %s", file, p1, p0);
	CHECK(call("PMU_TEST_GOT") && !strcmp(call("PMU_TEST_GOT"), "real"), "%s: the call not getenv's again", file);
	CHECK(*ptr == (void *)getenv, "%s: the pointer not getenv again", file);
	was = NULL;
	CHECK(pmu__got_replace(h, "secure_getenv", (void *)fake, &was) == 0 && !was,
	      "%s: a name it does not import replaced", file);
	was = NULL;
	CHECK(pmu__got_replace(h, "got_module_call", (void *)fake, &was) == 0 && !was,
	      "%s: a function it defines replaced", file);
	dlclose(h);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		SKIP("usage: test-got NOW-MODULE LAZY-MODULE LAZY-MODULE-2 (meson gives them)");
	setenv("PMU_TEST_GOT", "real", 1);
	module(argv[1], RTLD_NOW | RTLD_LOCAL, 2, true, "r--p");
	module(argv[2], RTLD_NOW | RTLD_LOCAL, 2, true, "rw-p");
	module(argv[3], RTLD_LAZY | RTLD_LOCAL, 1, false, "rw-p");
	return test_done("test-got");
}
