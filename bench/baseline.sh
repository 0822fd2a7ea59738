# SPDX-License-Identifier: MIT
#
# bench/baseline.sh — sourced by the bench scripts that measure this tree against a baseline revision
# in the same run under callgrind (bench/plan-open.sh, bench/tables-cost.sh).

# bench_baseline SCRIPT REV: $tmp made (removed at exit, with the worktree in it); valgrind required
# (SCRIPT names the caller in the message); this tree's build/ brought up to date; revision REV checked
# out in the worktree $tmp/base and its library built in $tmp/base-build
bench_baseline() {
	tmp=$(mktemp -d)
	trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
	command -v valgrind >/dev/null || { echo "$1: valgrind (callgrind) is needed: apt-get install valgrind" >&2; exit 1; }
	[ -f build/build.ninja ] || meson setup build >/dev/null
	ninja -C build >/dev/null
	git worktree add -q --detach "$tmp/base" "$2"
	meson setup "$tmp/base-build" "$tmp/base" >/dev/null
	ninja -C "$tmp/base-build" lib/libpmu.so.0.1.0 >/dev/null
}
