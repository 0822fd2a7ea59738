/* SPDX-License-Identifier: MIT */
/*
 * mpi-imbalance: an MPI job whose ranks do unequal work on purpose, to see
 * the imbalance in 'pmu report'. Rank r does (r + 1) units in the region
 * "work": (r + 1) * ITERS iterations of arithmetic and (r + 1) * PAGES
 * fresh pages touched once each (one page fault apiece), then all ranks
 * meet in MPI_Allreduce (region "allreduce": the ranks that finished early
 * wait there). Each rank writes its own report at exit:
 *   PMU_FORMAT=json PMU_OUTPUT=out-%r.json PMU_EVENTS=task-clock,page-faults \
 *     mpirun -np 4 ./mpi-imbalance; pmu report out-*.json
 *   usage: mpi-imbalance [ITERS [PAGES]]   (default 20000000, 256)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pmu.h>

/* @units * @iters steps of a generator the compiler cannot fold; @units * @pages pages written once. */
static uint64_t work(long units, long iters, long pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(units * pages * psz);
	volatile uint64_t x = 88172645463325252ull;
	uint64_t sum = 0;
	char *mem = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		return 0;
	madvise(mem, len, MADV_NOHUGEPAGE); /* a page fault per page, not one per 2 MiB */
	pmu_region_begin("work");
	for (long i = 0; i < units * iters; i++) {
		uint64_t v = x;
		v ^= v << 13;
		v ^= v >> 7;
		v ^= v << 17;
		x = v;
	}
	for (size_t o = 0; o < len; o += (size_t)psz)
		mem[o] = (char)o;
	pmu_region_end("work");
	sum = x;
	for (size_t o = 0; o < len; o += (size_t)psz)
		sum += (unsigned char)mem[o];
	munmap(mem, len ? len : 1);
	return sum;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 20000000, pages = argc > 2 ? atol(argv[2]) : 256;
	uint64_t mine, all = 0;
	int rank = 0, size = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (iters < 0 || pages < 0) {
		if (rank == 0)
			fprintf(stderr, "mpi-imbalance: ITERS and PAGES are counts (0 or more)\n");
		MPI_Finalize();
		return 2;
	}
	mine = work(rank + 1, iters, pages);
	pmu_region_begin("allreduce");
	MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	pmu_region_end("allreduce");
	if (rank == 0)
		printf("mpi-imbalance: %d ranks, rank r did (r + 1) * %ld iterations and (r + 1) * %ld pages "
		       "(checksum %llx)\n", size, iters, pages, (unsigned long long)all);
	MPI_Finalize();
	return 0;
}
