/* SPDX-License-Identifier: MIT */
/*
 * mpi-aggregate: an MPI job for tests/test-mpi-aggregate.sh, with counts known by construction.
 * Rank r of P, in MPI_COMM_WORLD:
 *   - region "calls": r + 1 empty calls (sum P(P+1)/2, min 1 at rank 0, max P at rank P-1);
 *   - region "pages": one call touching (r + 1) * PAGES fresh pages (a page fault each);
 *   - region "work": (r + 1) * ITERS steps of arithmetic (unequal CPU time);
 *   - region "even" on even ranks, "odd" on odd ranks, "r<r>" on rank r alone (names not every rank has);
 *   - ranks with r % 4 == 1: THREADS threads, each 5 calls of region "threaded" (rank's calls
 *     5 * THREADS, its counts the threads' summed);
 *   - ranks with r % 3 == 2 count cpu-migrations too (pmu_region_configure): an event not every rank has.
 * Then by MODE:
 *   world   MPI_Finalize (libpmu-mpi's job report, if linked);
 *   nested  pmu_mpi_report on MPI_Comm_split(world, r % 2) to SUB-%r.json ... (see below), then on a
 *           split of that (its rank % 2) to SUBSUB-%r.json, then MPI_Finalize. Paths from argv;
 *   exit    rank P-1 leaves with _exit(0) before MPI_Finalize (after SECONDS: the others wait in it);
 *   kill    rank P-1 raises SIGKILL before MPI_Finalize (after SECONDS);
 *   late    rank P-1 sleeps SECONDS before MPI_Finalize (alive, but past PMU_MPI_TIMEOUT).
 * usage: mpi-aggregate MODE ITERS PAGES THREADS [SUB SUBSUB | SECONDS]
 */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pmu.h>
#ifdef HAVE_PMU_MPI
#include <pmu-mpi.h>
#endif

static volatile uint64_t sink;

static void spin(long steps)
{
	uint64_t x = 88172645463325252ull;

	for (long i = 0; i < steps; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
}

static void *threaded(void *arg)
{
	long iters = *(long *)arg;

	for (int i = 0; i < 5; i++) {
		pmu_region_begin("threaded");
		spin(iters / 10);
		pmu_region_end("threaded");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int rank = 0, size = 1;
	const char *mode;
	long iters, pages, nthreads, psz = sysconf(_SC_PAGESIZE);
	char name[32];

	if (argc < 5) {
		fprintf(stderr, "usage: mpi-aggregate MODE ITERS PAGES THREADS [SUB SUBSUB | SECONDS]\n");
		return 2;
	}
	mode = argv[1];
	iters = atol(argv[2]);
	pages = atol(argv[3]);
	nthreads = atol(argv[4]);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank % 3 == 2 && pmu_region_configure("task-clock,page-faults,context-switches,cpu-migrations", -1) < 0) {
		fprintf(stderr, "mpi-aggregate: rank %d: pmu_region_configure refused the events\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (int i = 0; i <= rank; i++) {
		pmu_region_begin("calls");
		pmu_region_end("calls");
	}
	{
		size_t len = (size_t)((rank + 1) * pages * psz);
		char *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			MPI_Abort(MPI_COMM_WORLD, 1);
		madvise(mem, len, MADV_NOHUGEPAGE);
		pmu_region_begin("pages");
		for (size_t o = 0; o < len; o += (size_t)psz)
			mem[o] = 1;
		pmu_region_end("pages");
		munmap(mem, len);
	}
	pmu_region_begin("work");
	spin((rank + 1) * iters);
	pmu_region_end("work");
	pmu_region_begin(rank % 2 ? "odd" : "even");
	spin(iters / 4);
	pmu_region_end(rank % 2 ? "odd" : "even");
	snprintf(name, sizeof(name), "r%d", rank);
	pmu_region_begin(name);
	pmu_region_end(name);
	if (rank % 4 == 1) {
		pthread_t t[64];
		long n = nthreads < 64 ? nthreads : 64;
		for (long i = 0; i < n; i++)
			pthread_create(&t[i], NULL, threaded, &iters);
		for (long i = 0; i < n; i++)
			pthread_join(t[i], NULL);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (!strcmp(mode, "nested") && argc >= 7) {
#ifdef HAVE_PMU_MPI
		MPI_Comm sub, subsub;
		int srank, r;
		MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub);
		MPI_Comm_rank(sub, &srank);
		if ((r = pmu_mpi_report(sub, argv[5])) != 0)
			fprintf(stderr, "mpi-aggregate: rank %d: pmu_mpi_report(sub) returned %d\n", rank, r);
		MPI_Comm_split(sub, srank % 2, srank, &subsub);
		if ((r = pmu_mpi_report(subsub, argv[6])) != 0)
			fprintf(stderr, "mpi-aggregate: rank %d: pmu_mpi_report(subsub) returned %d\n", rank, r);
		MPI_Comm_free(&subsub);
		MPI_Comm_free(&sub);
#else
		fprintf(stderr, "mpi-aggregate: built without libpmu-mpi: no nested mode\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
#endif
	}
	if (rank == size - 1 && (!strcmp(mode, "exit") || !strcmp(mode, "kill")) && argc >= 6)
		sleep((unsigned)atoi(argv[5]));
	if (rank == size - 1 && !strcmp(mode, "exit"))
		_exit(0);
	if (rank == size - 1 && !strcmp(mode, "kill"))
		raise(SIGKILL);
	if (rank == size - 1 && !strcmp(mode, "late") && argc >= 6)
		sleep((unsigned)atoi(argv[5]));
	MPI_Finalize();
	return 0;
}
