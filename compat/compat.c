/* SPDX-License-Identifier: MIT */
/* The compatibility layers' shared part: see compat.h. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compat.h"

void compat_say(const char *layer, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", layer);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int compat_configure(const char *layer, const char *var, const char *value, const char *events, const char *fix)
{
	int r = pmu_region_configure(events, -1);

	if (r < 0)
		compat_say(layer, "%s='%s': %s; %s", var, value, pmu_strerror(r), fix);
	return r;
}

int compat_close(const char *layer)
{
	int r = pmu_region_report(NULL, PMU_FORMAT_ENV, -1); /* $PMU_FORMAT, $PMU_PER_THREAD as at exit */

	if (r < 0)
		compat_say(layer, "the region report could not be written: %s", pmu_strerror(r));
	else
		pmu_region_reset();
	return r;
}

struct find {
	const char *name;
	long tid;
	pmu_region_cb cb;
	void *data;
	int found;
};

static int find_one(const struct pmu_region_result *r, void *data)
{
	struct find *f = data;

	if (r->tid != f->tid || strcmp(r->name, f->name))
		return 0;
	f->cb(r, f->data);
	f->found = 1;
	return 1;
}

int compat_thread_region(const char *name, pmu_region_cb cb, void *data)
{
	struct find f = {name, (long)syscall(SYS_gettid), cb, data, 0};
	int r = pmu_region_foreach(1, find_one, &f);

	return r < 0 && !f.found ? r : f.found;
}

static pthread_key_t tags_key;
static pthread_once_t tags_once = PTHREAD_ONCE_INIT;

static void tags_free(void *p)
{
	for (struct compat_tag *t = p, *n; t; t = n) {
		n = t->next;
		free(t);
	}
}

static void tags_init(void)
{
	pthread_key_create(&tags_key, tags_free);
}

struct compat_tag *compat_tag(const char *name, int make)
{
	struct compat_tag *t;
	size_t len;

	pthread_once(&tags_once, tags_init);
	for (t = pthread_getspecific(tags_key); t; t = t->next)
		if (!strcmp(t->name, name))
			return t;
	if (!make || !(t = calloc(1, sizeof(*t) + (len = strlen(name)) + 1)))
		return NULL;
	memcpy(t->name, name, len + 1);
	t->next = pthread_getspecific(tags_key);
	pthread_setspecific(tags_key, t);
	return t;
}

