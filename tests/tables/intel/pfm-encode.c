/* SPDX-License-Identifier: MIT */
/* Reference encodings from libpfm4, independent of libpmu.
 *
 * stdin: lines "<dir> <EventName> <libpfm4 event string>" ('#' lines and
 * lines whose third field is '-' are copied as comments).
 * stdout: "<dir> <EventName> config=0x..." (plus " config1=0x..." when
 * libpfm4 sets config1), or a '#' comment when libpfm4 cannot encode it.
 *
 * The PMU model is chosen by the "pmu::" prefix of the event string; run
 * with LIBPFM_FORCE_PMU=<pmu> so that model is active on any host.
 * "pfm-encode --version" prints libpfm4's version.
 * Build: cc -o pfm-encode pfm-encode.c -lpfm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib_perf_event.h>

int main(int argc, char **argv)
{
	char line[1024];
	int ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		fprintf(stderr, "pfm_initialize: %s\n", pfm_strerror(ret));
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		int v = pfm_get_version();
		printf("%d.%d\n", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
		return 0;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char dir[128], name[256], pfm[512];
		line[strcspn(line, "\n")] = 0;
		if (!*line || line[0] == '#') {
			if (*line)
				puts(line);
			continue;
		}
		if (sscanf(line, "%127s %255s %511s", dir, name, pfm) != 3) {
			fprintf(stderr, "bad line: %s\n", line);
			return 1;
		}
		if (!strcmp(pfm, "-")) {
			const char *why = strchr(line, '#');
			printf("# %s %s: not known to libpfm4%s%s\n", dir, name, why ? ";" : "", why ? why + 1 : "");
			continue;
		}
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;
		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		arg.attr = &attr;
		arg.size = sizeof(arg);
		/* user+kernel: libpfm4 then leaves the privilege bits to exclude_* */
		ret = pfm_get_os_event_encoding(pfm, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
		if (ret != PFM_SUCCESS) {
			printf("# %s %s: libpfm4 cannot encode %s (%s)\n", dir, name, pfm, pfm_strerror(ret));
			continue;
		}
		if (attr.type != PERF_TYPE_RAW) {
			printf("# %s %s: libpfm4 gives type %u for %s\n", dir, name, attr.type, pfm);
			continue;
		}
		if (attr.config1)
			printf("%s %s config=0x%llx config1=0x%llx\n", dir, name,
			       (unsigned long long)attr.config, (unsigned long long)attr.config1);
		else
			printf("%s %s config=0x%llx\n", dir, name, (unsigned long long)attr.config);
	}
	return 0;
}
