/* SPDX-License-Identifier: MIT */
/*
 * bench/mpi-aggregate.c: what libpmu-mpi's job report costs, per number of regions. Each rank makes
 * R regions ("b00000".., one call each), then pmu_mpi_report(MPI_COMM_WORLD, DIR/job-R.json) times
 * REPEAT, the regions cleared after; rank 0 prints, per R, one line
 *   BENCH ranks=P regions=R events=E total_ms=.. names_ms=.. reduce_ms=.. write_ms=.. bytes_root=..
 *         bytes_rank_max=..
 * (the median of the repetitions' wall times on rank 0, MPI_Wtime around the call; pmu_mpi_stats for
 * its parts; bytes: what rank 0 and, at most, any other rank gave MPI). Then 10 regions more, left for
 * the report at MPI_Finalize ($PMU_OUTPUT). Run by bench/mpi-aggregate.sh.
 *   usage: mpi-aggregate DIR REPEAT R...
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <pmu.h>
#include <pmu-mpi.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int rank, size, repeat;
	char path[4096], name[32];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 4) {
		if (rank == 0)
			fprintf(stderr, "usage: mpi-aggregate DIR REPEAT R...\n");
		MPI_Finalize();
		return 2;
	}
	repeat = atoi(argv[2]);
	for (int a = 3; a < argc; a++) {
		long regions = atol(argv[a]);
		double t[16], parts[3] = { 0 };
		struct pmu_mpi_stats st = { .size = sizeof(st) };
		uint64_t mine, others = 0, zero = 0;
		int n = repeat < 16 ? repeat : 16, r = 0;

		for (int i = 0; i < n; i++) {
			for (long k = 0; k < regions; k++) {
				snprintf(name, sizeof(name), "b%05ld", k);
				pmu_region_begin(name);
				pmu_region_end(name);
			}
			snprintf(path, sizeof(path), "%s/job-%ld-%d.json", argv[1], regions, i);
			MPI_Barrier(MPI_COMM_WORLD);
			double t0 = MPI_Wtime();
			r = pmu_mpi_report(MPI_COMM_WORLD, path);
			t[i] = MPI_Wtime() - t0;
			pmu_region_reset();
			if (r != 0)
				break;
			pmu_mpi_stats(&st);
			parts[0] += st.seconds_names / n;
			parts[1] += st.seconds_reduce / n;
			parts[2] += st.seconds_write / n;
		}
		if (r != 0) {
			fprintf(stderr, "mpi-aggregate: rank %d: pmu_mpi_report returned %d\n", rank, r);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		mine = st.bytes_names + st.bytes_reduce;
		MPI_Reduce(rank ? &mine : &zero, &others, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
		qsort(t, (size_t)n, sizeof(t[0]), cmp);
		if (rank == 0)
			printf("BENCH ranks=%d regions=%ld events=%llu total_ms=%.3f names_ms=%.3f reduce_ms=%.3f write_ms=%.3f "
			       "bytes_root=%llu bytes_rank_max=%llu\n", size, regions, (unsigned long long)st.events,
			       t[n / 2] * 1e3, parts[0] * 1e3, parts[1] * 1e3, parts[2] * 1e3, (unsigned long long)mine,
			       (unsigned long long)others);
		fflush(stdout);
	}
	for (int k = 0; k < 10; k++) { /* for the report at MPI_Finalize: one file per job */
		snprintf(name, sizeof(name), "final%d", k);
		pmu_region_begin(name);
		pmu_region_end(name);
	}
	MPI_Finalize();
	return 0;
}
