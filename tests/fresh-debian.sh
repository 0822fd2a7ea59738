#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/fresh-debian.sh — prove the README's two commands on a fresh machine.
#
# Makes a minimal Debian 12 root (debootstrap --variant=minbase bookworm),
# writes the standard apt sources (main, updates, security, as a standard
# install has them), bind-mounts /dev, /dev/pts, /proc and /sys, clones this
# repository's committed HEAD into /root/libpmu there and runs the README's
# two commands in it exactly as written, as root:
#
#   examples/run-demo.sh
#   tests/run-all.sh
#
# It prints each command's exit status and wall time, and exits 0 only if
# both exited 0 and run-all.sh's last line says ALL TESTS PASSED.
# Nothing the developer machine has installed can hide a missing install
# step: the root starts with Debian's minbase packages and nothing else.
#
# Not run by CI (about 10-15 minutes, most of it the lab's cold start). Run
# it before resolving an issue that changes dependencies, the lab, or the
# README's commands.
#
# usage: tests/fresh-debian.sh [--dir DIR] [--keep] [--mirror URL] [--packages]
#   --dir DIR     where the root goes (default: a new directory under /var/tmp)
#   --keep        leave the root (and its logs) in place afterwards
#   --mirror URL  Debian mirror (default http://deb.debian.org/debian)
#   --packages    instead of the two commands, tests/packages.sh: build the
#                 Debian packages in a fresh root and test them installed in
#                 another (about 6 minutes; see its --help)
# Needs root (debootstrap, chroot, mounts) and network access to the mirror.
# Logs: DIR/fresh-*.log (kept in DIR/../fresh-debian-logs-<date> without --keep).
# The root-making is tests/fresh-root.sh, shared with tests/packages.sh.

set -uo pipefail

FRESH_NAME=fresh-debian
. "$(dirname "$0")/fresh-root.sh"
ARGS=("$@")
# fresh_opt ARG: --packages hands all the other arguments to tests/packages.sh
fresh_opt() {
	[ "$1" = --packages ] || return 1
	local rest=() a
	for a in "${ARGS[@]}"; do [ "$a" = --packages ] || rest+=("$a"); done
	exec "$(dirname "$0")/packages.sh" "${rest[@]}"
}
fresh_opts "$@"
fresh_host_check
fresh_dir
fresh_make_root "$ROOT"
fresh_mount "$ROOT"
fresh_clone "$ROOT"

# run_in_root NAME COMMAND: the README's command, as written, in the root.
run_in_root() { fresh_run "$ROOT" "$@"; }

run_in_root demo "examples/run-demo.sh"
run_in_root test "tests/run-all.sh"

last=$(grep -v '^[[:space:]]*$' "$LOGS/fresh-test.log" | tail -n 1)
echo
echo "fresh Debian 12 root (debootstrap minbase, $(date -u +%Y-%m-%d)), commit ${FRESH_COMMIT:0:7}:"
printf '  %-24s exit %-3s %4d s\n' "examples/run-demo.sh" "${RC[demo]}" "${TIME[demo]}"
printf '  %-24s exit %-3s %4d s\n' "tests/run-all.sh" "${RC[test]}" "${TIME[test]}"
echo "  run-all.sh's last line: $last"
grep -E '^lab/|^lab: [0-9]+ passed|riscv32-baremetal' "$LOGS/fresh-test.log" | sed 's/^/  /'
if [ "${RC[demo]}" = 0 ] && [ "${RC[test]}" = 0 ] && [[ $last == "ALL TESTS PASSED"* ]]; then
	echo "fresh-debian: PASS"
	exit 0
fi
echo "fresh-debian: FAIL"
exit 1
