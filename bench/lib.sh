# SPDX-License-Identifier: MIT
#
# bench/lib.sh — sourced by the bench scripts that read the QEMU lab's
# output (bench/read-cost.sh, bench/region-cost.sh): the guests' "BENCH ..."
# lines of $bdir/GUEST/console.txt turned into markdown table rows.
# The sourcing script sets bdir (the lab's build directory).

# bench_lines GUEST PATTERN: the BENCH lines of GUEST that start with PATTERN,
# carriage returns removed; nothing (and status 0) where there are none
bench_lines() { grep -h "^BENCH $2" "$bdir/$1/console.txt" 2>/dev/null | tr -d '\r' || true; }

# bench_fields WORDS: f[KEY]=VALUE for each KEY=VALUE word of WORDS
bench_fields() {
	local kv
	declare -gA f=()
	for kv in $1; do f[${kv%%=*}]=${kv#*=}; done
}

# bench_rows GUEST PATTERN COLUMNS ROW: a table row for each line
# "BENCH <PATTERN...> arch=A <count>=N KEY=VALUE..." of GUEST: ROW A N,
# with the fields in f; a line "... arch=A <count>=N unavailable (why)" is
# instead the row "| A | N | unavailable (why) |", the reason cut at 72
# characters and the row padded with empty cells to COLUMNS columns
bench_rows() {
	local columns=$3 row=$4 a n rest
	bench_lines "$1" "$2" | while read -r _ _ a n rest; do
		a=${a#arch=}; n=${n#*=}
		if [[ $rest == unavailable* ]]; then
			printf '| %s | %s | %s |' "$a" "$n" "${rest:0:72}"
			printf '%.0s |' $(seq 4 "$columns")
			echo
			continue
		fi
		bench_fields "$rest"
		"$row" "$a" "$n"
	done
}
