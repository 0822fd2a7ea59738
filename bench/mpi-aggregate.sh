#!/bin/bash
# SPDX-License-Identifier: MIT
# libpmu-mpi's job report against the number of ranks (4 to 64, oversubscribed on this machine's cores)
# and of regions (10 to 10000): wall time on rank 0 (MPI_Wtime around pmu_mpi_report: agreeing on the
# names, the reduction, rank 0 writing the file) and the bytes each rank gives MPI, with Debian's
# OpenMPI (bench/mpi-aggregate.c); a model fitted and extrapolated to 10,000 ranks; the files each job
# wrote counted (one per report). Writes bench/results/mpi-aggregate.md.
#   bench/mpi-aggregate.sh [BUILD_DIR]   (default build; REPEAT=3 reports per point, the median kept)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=bench/results/mpi-aggregate.md
repeat=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
ninja -C "$build" >/dev/null
[ -f "$build/mpi/libpmu-mpi.so" ] || { echo "bench/mpi-aggregate.sh: $build has no libpmu-mpi (meson found no MPI; Debian: libopenmpi-dev)" >&2; exit 1; }
mpicc -O2 -Iinclude -Impi bench/mpi-aggregate.c -L"$build/mpi" -L"$build/lib" -lpmu-mpi -lpmu -o "$tmp/mpi-aggregate"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm_rsh_agent= \
	OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
ranks=(4 8 16 32 64)
regions=(10 100 1000 10000)
: >"$tmp/bench.txt"
for p in "${ranks[@]}"; do
	d=$tmp/p$p
	mkdir "$d"
	start=$SECONDS
	LD_LIBRARY_PATH=$build/mpi:$build/lib PMU_EVENTS=task-clock,page-faults PMU_CALIBRATE=0 PMU_FORMAT=json \
		PMU_OUTPUT="$d/final.json" timeout 900 mpirun -np "$p" --oversubscribe "$tmp/mpi-aggregate" "$d" "$repeat" \
		"${regions[@]}" >>"$tmp/bench.txt"
	echo "ranks=$p: $((SECONDS - start)) s" >&2
	# one file per report: REPEAT per region count, and the one MPI_Finalize wrote; no rank's own
	n=$(ls "$d" | wc -l) want=$((${#regions[@]} * repeat + 1))
	[ "$n" = "$want" ] && [ -f "$d/final.json" ] || { echo "ranks=$p: $n files, $want expected: $(ls "$d")" >&2; exit 1; }
	echo "FILES ranks=$p files=$n reports=$want" >>"$tmp/bench.txt"
done
python3 - "$tmp/bench.txt" "$repeat" >"$out" <<'PY'
import math, platform, re, subprocess, sys, datetime
lines = [dict(kv.split("=") for kv in l.split()[1:]) for l in open(sys.argv[1]) if l.startswith("BENCH ")]
files = [dict(kv.split("=") for kv in l.split()[1:]) for l in open(sys.argv[1]) if l.startswith("FILES ")]
repeat = int(sys.argv[2])
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
ncpu = len([l for l in open("/proc/cpuinfo") if l.startswith("processor")])
ompi = subprocess.run(["mpirun", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
# the record's size, from what a rank other than 0 gave: R x (events + 1) records and a 4-byte length
l0 = lines[-1]
rec = (int(l0["bytes_rank_max"]) - 4) // (int(l0["regions"]) * (int(l0["events"]) + 1))
print("# bench/mpi-aggregate — %s, %s, %s (%d CPUs), %s" % (datetime.date.today(), platform.machine(), cpu, ncpu, ompi))
print()
print("libpmu-mpi's job report (pmu_mpi_report on MPI_COMM_WORLD; the report at MPI_Finalize is the same code):")
print("wall time on rank 0, MPI_Wtime around the call, the median of %d reports; its parts from pmu_mpi_stats" % repeat)
print("(names: agreeing on the union of names; reduce: MPI_Ireduce of the fixed-size vectors; write: rank 0")
print("building and writing the JSON). Every rank has the same R regions, one call each, and 2 events")
print("(task-clock, page-faults): each region is 3 records of %d bytes. Bytes: what a rank gives MPI (rank 0: the" % rec)
print("names it broadcasts; any other: its vector, the names rank 0 lacks - none here - and a length). All ranks")
print("oversubscribed on this machine's %d CPUs: the times are upper bounds of a machine with a core per rank." % ncpu)
print()
print("| ranks | regions | total (ms) | names (ms) | reduce (ms) | write (ms) | bytes, rank 0 | bytes, other rank (max) |")
print("|---|---|---|---|---|---|---|---|")
for l in lines:
    print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (l["ranks"], l["regions"], l["total_ms"], l["names_ms"], l["reduce_ms"],
          l["write_ms"], l["bytes_root"], l["bytes_rank_max"]))
print()
print("Files written per job: " + ", ".join("%s ranks %s (one per report: %d reports of pmu_mpi_report and MPI_Finalize's)" %
      (f["ranks"], f["files"], int(f["reports"])) for f in files) + ".")
print()
# Two models, each least squares over the points, written with its fit:
#  - the tree model (what a machine with a core per rank gives): the reduction and the name broadcasts
#    are binomial trees of log2(P) steps, each paying a latency and moving the vector (R regions):
#    t = log2(P) x (alpha + beta x R); rank 0's writing is linear in R alone: t = w x R;
#  - as measured here, per R: the ranks' part (names + reduce) = k x P^e over the ranks (64 ranks sharing
#    a few CPUs: e above the tree's, scheduling more than communication), plus the write, w x R: the
#    pessimistic extrapolation.
def lsq2(x1, x2, ys):
    # y = a x1 + b x2, no constant
    s11 = sum(a * a for a in x1); s12 = sum(a * b for a, b in zip(x1, x2)); s22 = sum(b * b for b in x2)
    s1y = sum(a * y for a, y in zip(x1, ys)); s2y = sum(b * y for b, y in zip(x2, ys))
    det = s11 * s22 - s12 * s12
    a = (s1y * s22 - s2y * s12) / det; b = (s2y * s11 - s1y * s12) / det
    my = sum(ys) / len(ys)
    ss = sum((y - a * u - b * v) ** 2 for u, v, y in zip(x1, x2, ys)); st = sum((y - my) ** 2 for y in ys)
    return a, b, 1 - ss / st
def powfit(ps, ys):
    xs = [math.log(p) for p in ps]; ls = [math.log(max(y, 1e-6)) for y in ys]
    n = len(xs); mx = sum(xs) / n; my = sum(ls) / n
    e = sum((x - mx) * (l - my) for x, l in zip(xs, ls)) / sum((x - mx) ** 2 for x in xs)
    return math.exp(my - e * mx), e
P = [int(l["ranks"]) for l in lines]; R = [int(l["regions"]) for l in lines]
red = [float(l["reduce_ms"]) for l in lines]; nam = [float(l["names_ms"]) for l in lines]
wr = [float(l["write_ms"]) for l in lines]; tot = [float(l["total_ms"]) for l in lines]
lg = [math.log2(p) for p in P]
ra, rb, rr2 = lsq2(lg, [l * r for l, r in zip(lg, R)], red)
na, nb, nr2 = lsq2(lg, [l * r for l, r in zip(lg, R)], nam)
w = sum(x * y for x, y in zip(R, wr)) / sum(x * x for x in R)
wr2 = 1 - sum((y - w * x) ** 2 for x, y in zip(R, wr)) / sum((y - sum(wr) / len(wr)) ** 2 for y in wr)
print("Tree model, fitted: reduce = log2(P) x (%.3g ms + %.3g ms x R) (R^2 %.2f); names = log2(P) x (%.3g ms + %.3g ms x R)"
      % (ra, rb, rr2, na, nb))
print("(R^2 %.2f); write (rank 0 alone) = %.3g ms x R (R^2 %.2f). Bytes per rank do not grow with the ranks: a rank" % (nr2, w, wr2))
print("sends its vector once (R x (events + 1) x %d bytes) in a binomial reduction; rank 0 sends the names once per" % rec)
print("broadcast (an interior rank of the tree forwards them to at most log2(P) others).")
print()
print("As measured here, per number of regions, the ranks' part (names + reduce) = k x P^e over 4 to 64 ranks")
print("(log2(P) itself has e = %.2f over this range; 1: linear in the ranks):" % powfit([4, 64], [2, 6])[1])
print()
print("| regions | e (names + reduce) | e (reduce) |")
print("|---|---|---|")
grow = {}
for r in sorted(set(R)):
    ps = [p for p, x in zip(P, R) if x == r]
    kt, et = powfit(ps, [a + b for a, b, x in zip(nam, red, R) if x == r])
    kr, er = powfit(ps, [t for t, x in zip(red, R) if x == r])
    grow[r] = (kt, et)
    print("| %d | %.2f | %.2f |" % (r, et, er))
print()
L = math.log2(10000)
print("| extrapolated to 10,000 ranks | regions | tree model: reduce (ms) | names (ms) | write (ms) | total (ms) | as measured here, k x P^e + w x R: total (ms) | bytes per rank |")
print("|---|---|---|---|---|---|---|---|")
for r in (10, 100, 1000, 10000):
    rd, nm, wt = L * (ra + rb * r), L * (na + nb * r), w * r
    kt, et = grow[r]
    print("| 10000 | %d | %.1f | %.1f | %.1f | %.1f | %.0f | %d |" % (r, rd, nm, wt, rd + nm + wt, kt * 10000 ** et + wt, r * 3 * rec + 4))
print()
print("The tree model is the machine with a core per rank and a fast network: each of the log2(P) steps pays a latency")
print("and moves the vector at the network's bandwidth, which a cluster sets (its latency per step above this machine's")
print("shared memory). The measured growth is this machine's, where up to 64 ranks share %d CPUs and waiting ranks yield" % ncpu)
print("to the working ones: it grows with the ranks' scheduling, an upper bound. Against per-rank files: one file")
print("instead of P, and no merge afterwards.")
PY
cat "$out"
