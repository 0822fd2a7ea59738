/* SPDX-License-Identifier: MIT */
/*
 * workload: a small program with something for every counter to see —
 * a pointer chase through a buffer larger than the caches (cache and TLB
 * misses), data-dependent branches on random bytes (mispredictions), a
 * tight arithmetic loop (high IPC) and fresh pages (page faults).
 *   usage: workload [MiB]   (default 64)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 64, n, i, p = 0;
	size_t *next_idx;
	unsigned char *bytes;
	uint64_t sum = 0, x = 1;

	if (mib == 0 || mib > 4096) {
		fprintf(stderr, "workload: size must be 1..4096 MiB\n");
		return 2;
	}
	n = mib * 1024 * 1024 / sizeof(size_t);
	next_idx = malloc(n * sizeof(*next_idx));
	bytes = malloc(n);
	if (!next_idx || !bytes) {
		fprintf(stderr, "workload: out of memory\n");
		return 1;
	}
	/* one random cycle through the buffer (Sattolo's shuffle) */
	for (i = 0; i < n; i++)
		next_idx[i] = i;
	for (i = n - 1; i > 0; i--) {
		size_t j = next() % i, t = next_idx[i];
		next_idx[i] = next_idx[j];
		next_idx[j] = t;
	}
	for (i = 0; i < n / 4; i++) /* pointer chase: a miss per step */
		p = next_idx[p];
	for (i = 0; i < n; i++)
		bytes[i] = (unsigned char)next();
	for (i = 0; i < n; i++) /* unpredictable branches */
		if (bytes[i] < 128)
			sum += bytes[i];
		else
			sum ^= i;
	for (i = 0; i < 20u * 1000 * 1000; i++) /* arithmetic, predictable */
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	printf("workload: %zu MiB, checksum %llx\n", mib, (unsigned long long)(sum + p + x));
	free(next_idx);
	free(bytes);
	return 0;
}
