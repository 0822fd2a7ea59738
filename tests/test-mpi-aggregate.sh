#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libpmu-mpi with Debian's OpenMPI (mpirun --oversubscribe on whatever cores there are):
#   1. tests/mpi-aggregate at 4 and 16 ranks (unequal work per rank, region names only some ranks have,
#      threads in ranks r % 4 == 1, an event only ranks r % 3 == 2 count) with PMU_MPI_PER_RANK=1: the
#      same job writes the job report and each rank's own; the job report equals 'pmu report --json' of
#      the per-rank files (the oracle: the merge of files, code apart from the reduction over MPI) field
#      by field: integers exactly, mean, stddev and imbalance to 1e-12 relative. Independent oracles
#      beside it: the statistics computed here in Python from the per-rank files (exact fractions), and
#      counts known by construction (calls of rank r: r + 1; its page faults in "pages": (r + 1) * PAGES
#      up to SLACK; the regions each rank has; 5 calls per thread);
#   2. 8 ranks, PMU_OUTPUT=DIR/report.json (no %r): without libpmu-mpi 8 reports, one per rank, none
#      lost; with it exactly one file;
#   3. nested communicators: pmu_mpi_report on MPI_Comm_split(world, r % 2) and on a split of that,
#      each against the oracle of its ranks' files (ranks as the communicator's, world ranks beside);
#   4. a rank that leaves without MPI_Finalize (_exit) or is SIGKILLed while the others wait in it, and
#      a rank that comes late (past PMU_MPI_TIMEOUT): no hang; what each rank writes said and checked;
#   5. LD_PRELOAD=libpmu-mpi.so into the unmodified examples/mpi-imbalance: one report, its counts
#      against the work each rank was given and against the oracle of the same job's per-rank files.
# usage: test-mpi-aggregate.sh PMU MPI_AGGREGATE MPI_AGGREGATE_PLAIN LIBPMU_MPI_SO MPI_IMBALANCE SCHEMA
set -u
pmu=$(realpath "$1") prog=$(realpath "$2") plain=$(realpath "$3") libmpi=$(realpath "$4") imbalance=$5 schema=$6
ITERS=200000 PAGES=64 SLACK=16 THREADS=3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/mpienv.sh" # ok(), bad(), $checks, $fail, $PY, $mpirun, OpenMPI's environment
export PMU_EVENTS=task-clock,page-faults,context-switches PMU_FORMAT=json
unset PMU_OUTPUT PMU_MPI PMU_MPI_PER_RANK PMU_MPI_TIMEOUT

# job NAME NP TIMEOUT EXPECT_RC ENV... -- PROGRAM ARGS...: mpirun in $tmp/NAME (its output in
# $tmp/NAME.log); a wrong exit status or a run past TIMEOUT is a failure (a setup failure too)
job() {
	local name=$1 np=$2 limit=$3 want=$4 rc; shift 4
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
	mkdir -p "$tmp/$name"
	(cd "$tmp/$name" && env "${envs[@]}" timeout "$limit" "$mpirun" -np "$np" --oversubscribe "$@") >"$tmp/$name.log" 2>&1
	rc=$?
	if [ "$rc" = 124 ]; then bad "$name: mpirun -np $np ran past $limit s (a hang)"; tail -20 "$tmp/$name.log"; return 1; fi
	if [ "$want" = 0 ] && [ "$rc" != 0 ]; then bad "$name: mpirun -np $np $* exited $rc:"; tail -20 "$tmp/$name.log"; return 1; fi
	if [ "$want" = fail ] && [ "$rc" = 0 ]; then bad "$name: mpirun -np $np $* exited 0; a failed job expected"; return 1; fi
	ok
}

# the Python checks: each prints ok:/FAIL: lines; a crash of the checker is a failure
check_py() {
	local log=$tmp/py-$checks.log
	$PY - "$@" >"$log" 2>&1
	local rc=$?
	cat "$log"
	checks=$((checks + $(grep -c '^ok: \|^FAIL: ' "$log")))
	local nf; nf=$(grep -c '^FAIL: ' "$log")
	[ "$rc" = 0 ] || [ "$nf" != 0 ] || { nf=1; echo "FAIL: the checker exited $rc"; }
	fail=$((fail + nf))
}

cat >"$tmp/compare.py" <<'EOF'
# compare.py JOB ORACLE SCHEMA MEMBERS: the job report (libpmu-mpi) against pmu report --json of the
# per-rank files of the world ranks MEMBERS (comma separated, in the communicator's rank order)
import json, sys
from fractions import Fraction
job_f, oracle_f, schema_f, members = sys.argv[1], sys.argv[2], sys.argv[3], [int(x) for x in sys.argv[4].split(",")]
bad = 0
def check(cond, what):
    global bad
    print(("ok: " if cond else "FAIL: ") + what)
    bad += not cond
job, oracle = json.load(open(job_f)), json.load(open(oracle_f))
try:
    import jsonschema
    for name, d in (("job report", job), ("oracle", oracle)):
        try:
            jsonschema.validate(d, json.load(open(schema_f)))
            check(True, "%s validates against %s" % (name, schema_f.split("/")[-1]))
        except jsonschema.ValidationError as e:
            check(False, "%s against the schema: %s at %s" % (name, e.message, list(e.absolute_path)))
except ImportError:
    print("(python3-jsonschema absent: the schema is not checked)")
check(job["job"]["ranks"] == len(members) and job["job"]["root_world_rank"] == members[0] and job["files"] == [],
      "job: %d ranks, written by world rank %d" % (len(members), members[0]))
check(set(job["events"]) == set(oracle["events"]), "the same events: %s" % job["events"])
jr = {r["name"]: r for r in job["regions"]}
orr = {r["name"]: r for r in oracle["regions"]}
check(sorted(jr) == sorted(orr), "the same %d regions" % len(orr))
world_of = {i: w for i, w in enumerate(members)}
diffs = []
compared = 0
def cmp(path, a, b, rel=False):
    global compared
    compared += 1
    if rel and a is not None and b is not None:
        if abs(a - b) > 1e-12 * max(abs(a), abs(b)):
            diffs.append("%s: job %r, oracle %r" % (path, a, b))
    elif a != b or type(a) != type(b) and not (isinstance(a, float) and isinstance(b, float)):
        diffs.append("%s: job %r, oracle %r" % (path, a, b))
def spread(path, js, os_, calls):
    want = {"files", "min", "max", "min_rank", "max_rank", "min_file", "max_file"} | (set() if calls else {"sum", "mean", "stddev", "imbalance"})
    if set(os_) != want:
        diffs.append("%s: the oracle's keys %s" % (path, sorted(os_)))
    if set(js) != want - {"min_file", "max_file"} | {"min_world_rank", "max_world_rank"}:
        diffs.append("%s: the job's keys %s" % (path, sorted(js)))
    for k in os_:
        if k in ("min_file", "max_file"):
            continue
        if k in ("min_rank", "max_rank"):
            # the oracle's rank is the file's (world) rank; the job's the communicator's, with the world's beside
            cmp(path + "/" + k, world_of.get(js.get(k)), os_[k])
            cmp(path + "/" + k.replace("rank", "world_rank"), js.get(k.replace("rank", "world_rank")), os_[k])
        else:
            cmp(path + "/" + k, js.get(k), os_[k], rel=k in ("mean", "stddev", "imbalance"))
for name in sorted(set(jr) & set(orr)):
    j, o = jr[name], orr[name]
    cmp(name + "/calls", j["calls"], o["calls"])
    if "calls_spread" in o or "calls_spread" in j:
        spread(name + "/calls_spread", j.get("calls_spread", {}), o.get("calls_spread", {}), True)
    check(set(j["events"]) == set(o["events"]), "%s: the same events" % name)
    for ev, oe in o["events"].items():
        je = j["events"].get(ev)
        if oe is None or je is None:
            cmp("%s/%s" % (name, ev), je, oe)
            continue
        for k in ("value", "scaled", "enabled_ns", "running_ns", "min", "max"):
            cmp("%s/%s/%s" % (name, ev, k), je[k], oe[k])
        cmp("%s/%s/confidence" % (name, ev), je["confidence"], oe["confidence"], rel=True)
        if "spread" in oe or "spread" in je:
            spread("%s/%s/spread" % (name, ev), je.get("spread", {}), oe.get("spread", {}), False)
check(not diffs, "the job report equals the oracle in %d fields%s" % (compared, "".join("\n    " + d for d in diffs[:20])))
sys.exit(1 if bad else 0)
EOF

cat >"$tmp/hand.py" <<'EOF'
# hand.py JOB NP PAGES SLACK THREADS FILES...: the job report against counts known by construction and
# against statistics computed here from the per-rank files FILES (exact fractions)
import json, sys, math
from fractions import Fraction
job_f, np_, pages, slack, threads, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6:]
bad = 0
def check(cond, what):
    global bad
    print(("ok: " if cond else "FAIL: ") + what)
    bad += not cond
job = json.load(open(job_f))
regs = {r["name"]: r for r in job["regions"]}
docs = {}
for f in files:
    d = json.load(open(f))
    docs[d["rank"]] = d
check(sorted(docs) == list(range(np_)), "per-rank files of ranks 0..%d" % (np_ - 1))
c = regs["calls"]
check(c["calls"] == np_ * (np_ + 1) // 2, "calls: %d calls in all = P(P+1)/2 = %d" % (c["calls"], np_ * (np_ + 1) // 2))
cs = c["calls_spread"]
check((cs["files"], cs["min"], cs["min_rank"], cs["max"], cs["max_rank"]) == (np_, 1, 0, np_, np_ - 1),
      "calls: per rank min 1 at rank 0, max %d at rank %d: %s" % (np_, np_ - 1, cs))
evens, odds = (np_ + 1) // 2, np_ // 2
check(regs["even"]["calls"] == evens and regs["odd"]["calls"] == odds, "even %d, odd %d calls" % (evens, odds))
check(all(regs["r%d" % r]["calls"] == 1 and regs["r%d" % r]["calls_spread"]["min_rank"] == r for r in range(np_)),
      "r<k>: one call, of rank k, for each of the %d ranks" % np_)
nthr = sum(1 for r in range(np_) if r % 4 == 1)
t = regs.get("threaded")
check(t is not None and t["calls"] == 5 * threads * nthr and t["calls_spread"]["files"] == nthr and
      t["calls_spread"]["min"] == t["calls_spread"]["max"] == 5 * threads,
      "threaded: %d ranks of %d threads, 5 calls each (the rank's threads summed)" % (nthr, threads))
pf = regs["pages"]["events"]["page-faults"]["spread"]
per = [docs[r]["regions"] for r in range(np_)]
def rank_count(r, region, ev):
    for x in docs[r]["regions"]:
        if x["name"] == region:
            e = x["events"].get(ev)
            return None if e is None else e["scaled"]
    return None
counts = [rank_count(r, "pages", "page-faults") for r in range(np_)]
check(all((r + 1) * pages <= counts[r] <= (r + 1) * pages + slack for r in range(np_)),
      "pages: page faults of rank r in [(r+1)*%d, (r+1)*%d + %d]: %s" % (pages, pages, slack, counts))
check(pf["min_rank"] == 0 and pf["max_rank"] == np_ - 1, "pages: fewest page faults at rank 0, most at rank %d" % (np_ - 1))
# the statistics from the files, exactly
worst = 0.0
for name, reg in regs.items():
    for ev, e in reg["events"].items():
        xs = [(r, rank_count(r, name, ev)) for r in range(np_)]
        xs = [(r, x) for r, x in xs if x is not None]
        if e is None:
            check(not xs, "%s %s: null, and no rank counted it" % (name, ev))
            continue
        n = len(xs)
        vals = [x for _, x in xs]
        mean = Fraction(sum(vals), n)
        var = sum((Fraction(x) - mean) ** 2 for x in vals) / n
        sd = math.sqrt(var)
        sp = e["spread"]
        mn, mx = min(vals), max(vals)
        want = (n, sum(vals), mn, mx, min(r for r, x in xs if x == mn), min(r for r, x in xs if x == mx))
        got = (sp["files"], sp["sum"], sp["min"], sp["max"], sp["min_rank"], sp["max_rank"])
        if got != want:
            check(False, "%s %s: files, sum, min, max and their ranks %s; from the files %s" % (name, ev, got, want))
        for k, w in (("mean", float(mean)), ("stddev", sd), ("imbalance", mx / float(mean) if mean else None)):
            g = sp[k]
            if (g is None) != (w is None) or (w is not None and abs(g - w) > 1e-12 * max(abs(w), 1e-300) and not (w == 0 and g == 0)):
                check(False, "%s %s: %s %r, from the files %r" % (name, ev, k, g, w))
            elif w:
                worst = max(worst, abs(g - w) / abs(w))
check(bad == 0, "every region's and event's spread as computed from the files (mean, stddev, imbalance within %.1e relative)" % worst)
sys.exit(1 if bad else 0)
EOF

# 0. the library: libpmu.so links no MPI; libpmu-mpi exports its version script's names, each in its header
libpmu_so=$(dirname "$libmpi")/../lib/libpmu.so
if [ -f "$libpmu_so" ]; then
	if readelf -d "$libpmu_so" | grep NEEDED | grep -qi mpi; then bad "libpmu.so links MPI: $(readelf -d "$libpmu_so" | grep NEEDED)"; else ok; fi
fi
exports=$(nm -D --defined-only "$libmpi" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort | tr '\n' ' ')
if [ "$exports" = "MPI_FINALIZE MPI_Finalize mpi_finalize mpi_finalize_ mpi_finalize__ pmu_mpi_report pmu_mpi_stats " ]; then ok; else
	bad "libpmu-mpi.so exports: $exports"; fi
hdr=$(dirname "$0")/../mpi/pmu-mpi.h
for f in pmu_mpi_report pmu_mpi_stats; do
	if grep -q "^ \* $f - " "$hdr" && grep -q "^int $f(" "$hdr"; then ok; else bad "$f is not declared with its doc comment in mpi/pmu-mpi.h"; fi
done

# 1. the job report against the oracle at 4 and 16 ranks
for np in 4 16; do
	d=$tmp/world$np
	echo "--- $np ranks: job report and per-rank files"
	job world$np $np 300 0 PMU_MPI_PER_RANK=1 PMU_OUTPUT="$d/report.json" -- "$prog" world $ITERS $PAGES $THREADS || continue
	n=$(ls "$d" | wc -l) want=$((np + 1))
	if [ "$n" = "$want" ] && [ -f "$d/report.json" ]; then ok; else bad "$np ranks: $want files expected (report.json, report.rank<r>.json), found: $(ls "$d")"; fi
	ranks=(); for ((r = 0; r < np; r++)); do ranks+=("$d/report.rank$r.json"); done
	"$pmu" report --json "${ranks[@]}" >"$tmp/oracle$np.json" 2>"$tmp/oracle.err" || { bad "pmu report --json exited $?: $(cat "$tmp/oracle.err")"; continue; }
	check_py "$d/report.json" "$tmp/oracle$np.json" "$schema" "$(seq -s, 0 $((np - 1)))" <"$tmp/compare.py"
	check_py "$d/report.json" $np $PAGES $SLACK $THREADS "${ranks[@]}" <"$tmp/hand.py"
	if grep -q "libpmu" "$tmp/world$np.log"; then bad "$np ranks: libpmu said something: $(grep libpmu "$tmp/world$np.log")"; else ok; fi
	# the job report is a result, not an input of pmu report: refused, saying what to read instead
	"$pmu" report "$d/report.json" >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc = 2 ] && grep -q "is a merged report already" "$tmp/err"; then ok; else bad "pmu report of the job report: exit $rc, $(cat "$tmp/err")"; fi
done

# 2. no silent loss: 8 ranks, one PMU_OUTPUT without %r
echo "--- 8 ranks, PMU_OUTPUT without %r"
if job plain8 8 300 0 PMU_OUTPUT="$tmp/plain8/report.json" -- "$plain" world $ITERS $PAGES $THREADS; then
	check_py "$tmp/plain8" 8 <<'EOF'
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
files = sorted(os.listdir(d))
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
check(len(files) == n, "without libpmu-mpi: %d reports for %d ranks: %s" % (len(files), n, files))
docs = [json.load(open(os.path.join(d, f))) for f in files]
ranks = sorted(x["rank"] for x in docs)
check(ranks == list(range(n)), "each rank's report once: ranks %s" % ranks)
for x in docs:
    calls = {r["name"]: r["calls"] for r in x["regions"]}
    check(calls.get("calls") == x["rank"] + 1 and calls.get("r%d" % x["rank"]) == 1,
          "rank %d's file holds rank %d's regions (calls %s)" % (x["rank"], x["rank"], calls.get("calls")))
EOF
	said=$(grep -c "is never written over" "$tmp/plain8.log")
	if [ "$said" = 7 ]; then ok; else bad "7 ranks should each say where their report went, $said did"; fi
fi
if job mpi8 8 300 0 PMU_OUTPUT="$tmp/mpi8/report.json" -- "$prog" world $ITERS $PAGES $THREADS; then
	if [ "$(ls "$tmp/mpi8")" = report.json ]; then ok; else bad "with libpmu-mpi: one file expected, found: $(ls "$tmp/mpi8")"; fi
	c=$($PY -c 'import json, sys; print([r["calls"] for r in json.load(open(sys.argv[1]))["regions"] if r["name"] == "calls"][0])' "$tmp/mpi8/report.json")
	if [ "$c" = 36 ]; then ok; else bad "with libpmu-mpi, 8 ranks: region calls has $c calls, 36 expected"; fi
fi

# 3. nested communicators: world (8) -> r % 2 -> (its rank) % 2
echo "--- nested communicators"
d=$tmp/nested
if job nested 8 300 0 PMU_MPI_PER_RANK=1 PMU_OUTPUT="$d/report.json" -- "$prog" nested $ITERS $PAGES $THREADS "$d/sub-%r.json" "$d/subsub-%r.json"; then
	want="report.json report.rank0.json report.rank1.json report.rank2.json report.rank3.json report.rank4.json report.rank5.json report.rank6.json report.rank7.json sub-0.json sub-1.json subsub-0.json subsub-1.json subsub-2.json subsub-3.json"
	if [ "$(ls "$d" | sort | tr '\n' ' ')" = "$want " ]; then ok; else bad "nested: files $(ls "$d" | tr '\n' ' '), expected $want"; fi
	# sub-0: world 0 2 4 6; sub-1: 1 3 5 7; subsub-0: 0 4; subsub-2: 2 6; subsub-1: 1 5; subsub-3: 3 7
	for spec in sub-0:0,2,4,6 sub-1:1,3,5,7 subsub-0:0,4 subsub-2:2,6 subsub-1:1,5 subsub-3:3,7; do
		f=${spec%%:*} m=${spec#*:} files=()
		for w in ${m//,/ }; do files+=("$d/report.rank$w.json"); done
		"$pmu" report --json "${files[@]}" >"$tmp/oracle-$f.json" || { bad "pmu report --json of ${files[*]} failed"; continue; }
		echo "  $f (world ranks $m):"
		check_py "$d/$f.json" "$tmp/oracle-$f.json" "$schema" "$m" <"$tmp/compare.py"
	done
	echo "  report.json (world):"
	"$pmu" report --json "$d"/report.rank?.json >"$tmp/oracle-all.json"
	check_py "$d/report.json" "$tmp/oracle-all.json" "$schema" 0,1,2,3,4,5,6,7 <"$tmp/compare.py"
fi

# 4. a rank that dies while the others wait in MPI_Finalize, and one that comes late. mpirun ends a job whose
# rank died (or left without MPI_Finalize) with SIGTERM to the others, then SIGKILL after
# odls_base_sigkill_timeout seconds (OpenMPI's default 1); libpmu-mpi writes each waiting rank's report
# on SIGTERM. With the default second, ranks were SIGKILLed before they wrote in some runs here (0 to 2
# of the 3 lost, rank 0 too): checked is that the job ends without waiting for PMU_MPI_TIMEOUT, and
# what survives is listed; with 5 s (doc/mpi.md advises it), every waiting rank's report is checked.
for mode in exit kill; do
	for grace in 1 5; do
		name=$mode-$grace
		echo "--- rank 3 of 4 leaves ($mode) while the others wait in MPI_Finalize; SIGKILL $grace s after SIGTERM"
		start=$SECONDS
		job $name 4 120 fail OMPI_MCA_odls_base_sigkill_timeout=$grace PMU_MPI_TIMEOUT=60 PMU_OUTPUT="$tmp/$name/report.json" \
			-- "$prog" $mode $ITERS $PAGES $THREADS 2 || continue
		took=$((SECONDS - start))
		got=$(cd "$tmp/$name" && ls | tr '\n' ' ')
		echo "  mpirun ended after $took s; written: ${got:-nothing}"
		# no wait for PMU_MPI_TIMEOUT (60 s)
		if [ $took -lt 40 ]; then ok; else bad "$name: the job took $took s: it waited for PMU_MPI_TIMEOUT"; fi
		if [ ! -e "$tmp/$name/report.json" ]; then ok; else bad "$name: a job report with a rank missing"; fi
		[ $grace = 1 ] && continue
		if [ "$got" = "report.rank0.json report.rank1.json report.rank2.json " ]; then ok; else
			bad "$name: the three ranks waiting in MPI_Finalize should each write their own report; found: $got"; fi
		if grep -q "libpmu-mpi: MPI_Finalize: SIGTERM while the ranks met" "$tmp/$name.log"; then ok; else
			bad "$name: rank 0 did not say why there is no job report: $(grep libpmu "$tmp/$name.log")"; fi
		for r in 0 1 2; do
			c=$($PY -c 'import json, sys; print([x["calls"] for x in json.load(open(sys.argv[1]))["regions"] if x["name"] == "calls"][0])' "$tmp/$name/report.rank$r.json" 2>&1)
			if [ "$c" = $((r + 1)) ]; then ok; else bad "$name: rank $r's report: calls $c, $((r + 1)) expected"; fi
		done
	done
done
echo "--- rank 3 of 4 comes to MPI_Finalize 8 s late, PMU_MPI_TIMEOUT=2"
start=$SECONDS
if job late 4 120 0 PMU_MPI_TIMEOUT=2 PMU_OUTPUT="$tmp/late/report.json" -- "$prog" late $ITERS $PAGES $THREADS 8; then
	took=$((SECONDS - start))
	if [ $took -lt 40 ]; then ok; else bad "late: the job took $took s"; fi
	got=$(cd "$tmp/late" && ls | tr '\n' ' ')
	if [ "$got" = "report.rank0.json report.rank1.json report.rank2.json report.rank3.json " ]; then ok; else
		bad "late: each rank's own report expected (the late one's too), no job report; found: $got"; fi
	if grep -q "1 of the 4 ranks did not arrive within PMU_MPI_TIMEOUT=2 s of rank 0 .*not heard from: rank 3)" "$tmp/late.log"; then ok; else
		bad "late: rank 0 should name rank 3: $(grep libpmu "$tmp/late.log")"; fi
	n=$(grep -c "^libpmu" "$tmp/late.log")
	if [ "$n" = 1 ]; then ok; else bad "late: said $n times, once expected: $(grep libpmu "$tmp/late.log")"; fi
fi

# 5. LD_PRELOAD into the unmodified example
if [ -n "$imbalance" ] && [ -x "$imbalance" ]; then
	echo "--- LD_PRELOAD=libpmu-mpi.so mpirun -np 4 examples/mpi-imbalance"
	d=$tmp/preload
	if job preload 4 300 0 LD_PRELOAD="$libmpi" PMU_MPI_PER_RANK=1 PMU_OUTPUT="$d/job.json" -- "$imbalance" 2000000 $PAGES; then
		got=$(cd "$d" && ls | tr '\n' ' ')
		if [ "$got" = "job.json job.rank0.json job.rank1.json job.rank2.json job.rank3.json " ]; then ok; else bad "preload: files $got"; fi
		"$pmu" report --json "$d"/job.rank?.json >"$tmp/oracle-preload.json"
		check_py "$d/job.json" "$tmp/oracle-preload.json" "$schema" 0,1,2,3 <"$tmp/compare.py"
		check_py "$d/job.json" $PAGES $SLACK <<'EOF'
import json, sys
job, pages, slack = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
regs = {r["name"]: r for r in job["regions"]}
check(sorted(regs) == ["allreduce", "work"] and all(r["calls"] == 4 for r in regs.values()), "work and allreduce, one call per rank")
sp = regs["work"]["events"]["page-faults"]["spread"]
# rank r: (r + 1) * PAGES pages: sum 10 * PAGES, max / mean = 4 / 2.5 = 1.6 up to the slack
check(10 * pages <= sp["sum"] <= 10 * pages + 4 * slack and sp["min_rank"] == 0 and sp["max_rank"] == 3 and
      4 * pages / (2.5 * pages + slack) <= sp["imbalance"] <= (4 * pages + slack) / (2.5 * pages),
      "work page-faults: sum %d ~ 10 * %d, min at rank 0, max at rank 3, imbalance %.3f ~ 1.6" % (sp["sum"], pages, sp["imbalance"]))
EOF
	fi
	# without PMU_MPI_PER_RANK: one file
	if job preload1 4 300 0 LD_PRELOAD="$libmpi" PMU_OUTPUT="$tmp/preload1/job.json" -- "$imbalance" 200000 $PAGES; then
		if [ "$(ls "$tmp/preload1")" = job.json ]; then ok; else bad "preload: one file expected, found $(ls "$tmp/preload1")"; fi
	fi
	# PMU_MPI=0: the per-rank reports as without libpmu-mpi
	if job preload0 4 300 0 LD_PRELOAD="$libmpi" PMU_MPI=0 PMU_OUTPUT="$tmp/preload0/out-%r.json" -- "$imbalance" 200000 $PAGES; then
		if [ "$(cd "$tmp/preload0" && ls | tr '\n' ' ')" = "out-0.json out-1.json out-2.json out-3.json " ]; then ok; else
			bad "PMU_MPI=0: the ranks' own reports expected, found $(ls "$tmp/preload0")"; fi
	fi
else
	echo "(examples not built: the LD_PRELOAD check is left out)"
fi

# 6. Fortran: Open MPI's MPI_FINALIZE calls PMPI_Finalize itself; libpmu-mpi's Fortran names take it
if mpif90=$(command -v mpif90); then
	echo "--- Fortran (mpif90, the mpi module), LD_PRELOAD=libpmu-mpi.so, 4 ranks"
	cat >"$tmp/f.f90" <<'FEOF'
program f
  use mpi
  use iso_c_binding
  implicit none
  interface
    integer(c_int) function pmu_region_begin(n) bind(c)
      import :: c_int, c_char
      character(kind=c_char) :: n(*)
    end function
    integer(c_int) function pmu_region_end(n) bind(c)
      import :: c_int, c_char
      character(kind=c_char) :: n(*)
    end function
  end interface
  integer :: ierr, rank, r, i
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  do i = 0, rank
    r = pmu_region_begin("fortran"//c_null_char)
    r = pmu_region_end("fortran"//c_null_char)
  end do
  call MPI_Finalize(ierr)
end program
FEOF
	libdir=$(dirname "$libmpi")/../lib
	if "$mpif90" -o "$tmp/f" "$tmp/f.f90" -L"$libdir" -Wl,-rpath,"$libdir" -lpmu >"$tmp/f.log" 2>&1; then
		if job fortran 4 120 0 LD_PRELOAD="$libmpi" PMU_OUTPUT="$tmp/fortran/job.json" -- "$tmp/f"; then
			c=$($PY -c 'import json, sys; print([r["calls"] for r in json.load(open(sys.argv[1]))["regions"] if r["name"] == "fortran"][0])' "$tmp/fortran/job.json" 2>&1)
			if [ "$(ls "$tmp/fortran")" = job.json ] && [ "$c" = 10 ]; then ok; else
				bad "Fortran: one job report with 10 calls (1 + 2 + 3 + 4) expected; files $(ls "$tmp/fortran"), calls $c"; fi
		fi
	else
		bad "mpif90 could not build the Fortran program: $(tail -5 "$tmp/f.log")"
	fi
else
	echo "(no mpif90: the Fortran check is left out)"
fi

echo "$checks checks, $fail failed"
[ $fail = 0 ]
