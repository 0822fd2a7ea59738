/* SPDX-License-Identifier: MIT */
/*
 * libpmu-mpi: libpmu's region results of an MPI job reduced inside the job, over MPI, into one
 * report (schema libpmu-report-regions/1, the document 'pmu report --json' writes of per-rank
 * files). Installed as <libpmu/mpi/pmu-mpi.h>; link with $(pkg-config --libs libpmu-mpi), or
 * preload libpmu-mpi.so into an unmodified MPI program: the library defines MPI_Finalize (the
 * PMPI profiling interface), which reduces the results of MPI_COMM_WORLD and then calls
 * PMPI_Finalize (Fortran's MPI_FINALIZE of mpif.h and the mpi module too; not mpi_f08's). libpmu
 * itself (libpmu.so) never links MPI. See doc/mpi.md.
 *
 * What a rank contributes: its regions' results summed over its threads (pmu_region_foreach with
 * per_thread 0), each event's count as its "scaled" value. What the report holds per region and
 * event, over the ranks that counted it: the sums (value, enabled_ns, running_ns), the smallest and
 * largest delta of one call, and "spread": ranks, sum, min, mean, max, the population standard
 * deviation, the ranks holding the min and the max (the lowest of equal ones: the communicator's
 * rank, and the MPI_COMM_WORLD rank), imbalance = max / mean (null when the mean is 0); per region
 * "calls" summed and "calls_spread" (ranks, min, max and their ranks).
 *
 * Environment (read at each report):
 *   PMU_OUTPUT        the job report's path, %r (the writer's MPI_COMM_WORLD rank), %p (its pid) and
 *                     %% expanded; never written over: where the name is taken, a name derived from it
 *                     (".pid<P>" before the extension) is used and said on stderr. Unset: stderr;
 *                     "-": stdout. The job report is JSON whatever PMU_FORMAT says.
 *   PMU_MPI_PER_RANK  1: each rank also writes its own report (libpmu-regions/1 in PMU_FORMAT) at the
 *                     job report's name with ".rank<R>" before its extension (R: MPI_COMM_WORLD rank).
 *   PMU_MPI_TIMEOUT   seconds (default 30) a rank waits at MPI_Finalize for the others, and for each
 *                     step of the reduction; past it, no job report: each rank that arrived writes its
 *                     own report at its per-rank name instead, and rank 0 says so on stderr.
 *   PMU_MPI           0: MPI_Finalize reduces nothing (each rank reports as without libpmu-mpi).
 */
#ifndef LIBPMU_MPI_PMU_MPI_H
#define LIBPMU_MPI_PMU_MPI_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * pmu_mpi_report - reduce the region results of every rank of @comm and have the communicator's
 * rank 0 write them as one report to @path (NULL: $PMU_OUTPUT's rule, see above; "-": stdout; a
 * path given is written over). Collective over @comm: every rank of it must call it, each with
 * its own @path (only rank 0's is used). Ranks may have used different region and event names:
 * the report holds the union. The regions are not cleared (call it on several communicators, a
 * sub-communicator of MPI_Comm_split included: its ranks are that communicator's, with their
 * MPI_COMM_WORLD ranks beside them). Each step waits at most $PMU_MPI_TIMEOUT seconds.
 * Must be called after MPI_Init and before MPI_Finalize, from one thread of each rank.
 * Returns 0 on every rank when rank 0 wrote the report; -ETIMEDOUT where a step did not complete
 * in time (a rank missing: nothing written), -EIO where an MPI call failed, -ENOMEM, or the
 * writing's negative errno (on rank 0; the others then get -EIO). Reasons are said on stderr.
 */
int pmu_mpi_report(MPI_Comm comm, const char *path);

/** What the last pmu_mpi_report() (or the report at MPI_Finalize) of this rank cost. */
struct pmu_mpi_stats {
	size_t size;            /* sizeof(struct pmu_mpi_stats), set by the caller */
	int ranks;              /* the communicator's size */
	uint64_t regions;       /* regions in the report (the union over the ranks) */
	uint64_t events;        /* event columns (the union) */
	double seconds_names;   /* wall time agreeing on the names (MPI_Wtime) */
	double seconds_reduce;  /* wall time of the reduction of the fixed-size vectors */
	double seconds_write;   /* rank 0: writing the report; others 0 */
	uint64_t bytes_names;   /* bytes this rank gave MPI while agreeing on the names (rank 0: the
				 * names it broadcast; others: names rank 0 lacked, and their length) */
	uint64_t bytes_reduce;  /* bytes of this rank's vector in the reduction */
};

/**
 * pmu_mpi_stats - copy the cost of this rank's last report into *@out (@out->size set by the
 * caller: fields past it are left alone). Returns 0, -EINVAL (@out NULL or its size too small),
 * or -ENODATA when no report ran yet. Not thread-safe against a report running.
 */
int pmu_mpi_stats(struct pmu_mpi_stats *out);

#ifdef __cplusplus
}
#endif

#endif
