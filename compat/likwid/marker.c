/* SPDX-License-Identifier: MIT */
/* LIKWID's marker API (likwid-marker.h) over libpmu's regions, and the names gfortran calls for
 * LIKWID's Fortran module (likwid.f90). The events: $LIKWID_EVENTS in likwid-perfctr's forms
 * mapped through libpmu's performance groups, else $PMU_EVENTS. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../compat.h"
#include "likwid-marker.h"

#define LAYER "libpmu-likwid"

/* LIKWID_EVENTS refused before libpmu saw it (an entry without its counter): every region call refused */
static int refused;
#define EXPORT __attribute__((visibility("default")))

/* likwid-perfctr's custom event set "EVENT:COUNTER[:OPT...],..." as a group file's EVENTSET
 * ("COUNTER[:OPT...] EVENT" per line) in a temporary file, so that libpmu's group mapping reads
 * it as it reads LIKWID's groups. Returns 0 and the file's path in @path, or a negative errno. */
static int custom_group(const char *set, char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char *copy = strdup(set), *save = NULL;
	FILE *f;
	int fd, r = 0;

	snprintf(path, len, "%s/libpmu-likwid-XXXXXX", dir && *dir ? dir : "/tmp");
	if (!copy || (fd = mkstemp(path)) < 0) {
		free(copy);
		return -errno;
	}
	if (!(f = fdopen(fd, "w"))) {
		r = -errno;
		close(fd);
	} else {
		fprintf(f, "SHORT LIKWID_EVENTS\n\nEVENTSET\n");
		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *ctr = strchr(tok, ':');
			if (!ctr || !ctr[1]) {
				r = -EINVAL;
				break;
			}
			*ctr++ = '\0';
			fprintf(f, "%s %s\n", ctr, tok);
		}
		fprintf(f, "\nMETRICS\n\nLONG\nLIKWID_EVENTS as likwid-perfctr's custom event set.\n");
		if (fclose(f) && !r)
			r = -errno;
	}
	free(copy);
	if (r < 0)
		unlink(path);
	return r;
}

EXPORT void likwid_markerInit(void)
{
	const char *env = getenv("LIKWID_EVENTS");
	char *first, *bar, events[4200], path[4096] = "";
	int r;

	if (!env || !*env)
		return; /* $PMU_EVENTS or libpmu's default, said by libpmu where wrong */
	if (!(first = strdup(env)))
		return;
	if ((bar = strchr(first, '|'))) {
		*bar = '\0';
		compat_say(LAYER, "LIKWID_EVENTS='%s' names several groups; libpmu counts one, the first ('%s'), "
			   "throughout: LIKWID_MARKER_SWITCH does not change it (run once per group instead)", env, first);
	}
	if (strchr(first, ':')) {
		if ((r = custom_group(first, path, sizeof(path))) < 0) {
			compat_say(LAYER, "LIKWID_EVENTS='%s': %s; set it to a group name (MEM_DP) or EVENT:COUNTER,... "
				   "(every entry with its counter)",
				   env, r == -EINVAL ? "an entry without its counter" : strerror(-r));
			refused = r;
			free(first);
			return;
		}
		snprintf(events, sizeof(events), "group:%s", path);
	} else {
		snprintf(events, sizeof(events), "group:%s", first);
	}
	compat_configure(LAYER, "LIKWID_EVENTS", env, events,
			 "set it to a group 'pmu list groups' shows, or EVENT:COUNTER,... of events 'pmu list' shows");
	if (*path)
		unlink(path);
	free(first);
}

EXPORT void likwid_markerThreadInit(void)
{
}

EXPORT void likwid_markerNextGroup(void)
{
}

EXPORT void likwid_markerClose(void)
{
	compat_close(LAYER);
}

EXPORT int likwid_markerRegisterRegion(const char *regionTag)
{
	struct pmu_region *h;

	return refused ? refused : pmu_region_get(regionTag, &h);
}

/* The layer's own work (the thread's record, the clock) is done before pmu_region_begin and after
 * pmu_region_end, outside what the region counts: the counts are those of the same code with
 * libpmu's calls in place of LIKWID's, but for the calls' frames (tests/lab/guest/lab-compat.c). */
EXPORT int likwid_markerStartRegion(const char *regionTag)
{
	struct compat_tag *t = regionTag ? compat_tag(regionTag, 1) : NULL;

	if (refused)
		return refused;
	if (t)
		clock_gettime(CLOCK_MONOTONIC, &t->start);
	return pmu_region_begin(regionTag);
}

EXPORT int likwid_markerStopRegion(const char *regionTag)
{
	int r = refused ? refused : pmu_region_end(regionTag);
	struct compat_tag *t = regionTag ? compat_tag(regionTag, 0) : NULL;
	struct timespec now;

	if (r == 0 && t) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		t->time += (double)(now.tv_sec - t->start.tv_sec) + (now.tv_nsec - t->start.tv_nsec) * 1e-9;
	}
	return r;
}

struct get {
	int n;
	double values[COMPAT_MAX_VALUES];
	uint64_t calls;
};

static int got(const struct pmu_region_result *r, void *data)
{
	struct get *g = data;

	g->n = r->nvalues < COMPAT_MAX_VALUES ? (int)r->nvalues : COMPAT_MAX_VALUES;
	for (int k = 0; k < g->n; k++)
		g->values[k] = (double)pmu_scale(&r->values[k]);
	g->calls = r->calls;
	return 1;
}

EXPORT int likwid_markerResetRegion(const char *regionTag)
{
	struct compat_tag *t = regionTag ? compat_tag(regionTag, 0) : NULL;
	struct get g;

	memset(&g, 0, sizeof(g));
	if (!t || compat_thread_region(regionTag, got, &g) != 1)
		return -ENOENT;
	memcpy(t->base, g.values, sizeof(t->base));
	t->base_calls = g.calls;
	t->time = 0;
	return 0;
}

EXPORT void likwid_markerGetRegion(const char *regionTag, int *nr_events, double *events, double *time, int *count)
{
	struct compat_tag *t = regionTag ? compat_tag(regionTag, 0) : NULL;
	struct get g;
	int n = 0;

	memset(&g, 0, sizeof(g));
	if (t && compat_thread_region(regionTag, got, &g) == 1) {
		n = nr_events && *nr_events < g.n ? *nr_events : g.n;
		for (int k = 0; k < n && events; k++)
			events[k] = g.values[k] - t->base[k];
	}
	if (nr_events)
		*nr_events = n;
	if (time)
		*time = t ? t->time : 0;
	if (count)
		*count = t ? (int)(g.calls - t->base_calls) : 0;
}

/* LIKWID's Fortran module (likwid.f90) declares external subroutines: gfortran calls them by their
 * lower-case names with an underscore, each string followed by its length (size_t, gfortran 8 on). */
static char *fstring(const char *s, size_t len, char *buf, size_t room)
{
	while (len > 0 && s[len - 1] == ' ')
		len--;
	if (len >= room)
		len = room - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return buf;
}

#define FNAME(s, len) fstring(s, len, (char[256]){0}, 256)

EXPORT void likwid_markerinit_(void);
EXPORT void likwid_markerthreadinit_(void);
EXPORT void likwid_markernextgroup_(void);
EXPORT void likwid_markerclose_(void);
EXPORT void likwid_markerregisterregion_(const char *tag, size_t len);
EXPORT void likwid_markerstartregion_(const char *tag, size_t len);
EXPORT void likwid_markerstopregion_(const char *tag, size_t len);
EXPORT void likwid_markerresetregion_(const char *tag, size_t len);
EXPORT void likwid_markergetregion_(const char *tag, int *nr_events, double *events, double *time, int *count,
				    size_t len);

void likwid_markerinit_(void) { likwid_markerInit(); }
void likwid_markerthreadinit_(void) { likwid_markerThreadInit(); }
void likwid_markernextgroup_(void) { likwid_markerNextGroup(); }
void likwid_markerclose_(void) { likwid_markerClose(); }
void likwid_markerregisterregion_(const char *tag, size_t len) { likwid_markerRegisterRegion(FNAME(tag, len)); }
void likwid_markerstartregion_(const char *tag, size_t len) { likwid_markerStartRegion(FNAME(tag, len)); }
void likwid_markerstopregion_(const char *tag, size_t len) { likwid_markerStopRegion(FNAME(tag, len)); }
void likwid_markerresetregion_(const char *tag, size_t len) { likwid_markerResetRegion(FNAME(tag, len)); }
void likwid_markergetregion_(const char *tag, int *nr_events, double *events, double *time, int *count, size_t len)
{
	likwid_markerGetRegion(FNAME(tag, len), nr_events, events, time, count);
}
