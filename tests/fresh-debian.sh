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
# usage: tests/fresh-debian.sh [--dir DIR] [--keep] [--mirror URL]
#   --dir DIR     where the root goes (default: a new directory under /var/tmp)
#   --keep        leave the root (and its logs) in place afterwards
#   --mirror URL  Debian mirror (default http://deb.debian.org/debian)
# Needs root (debootstrap, chroot, mounts) and network access to the mirror.
# Logs: DIR/fresh-*.log (kept in DIR/../fresh-debian-logs-<date> without --keep).

set -uo pipefail

DIR=
KEEP=0
MIRROR=http://deb.debian.org/debian
while [ $# -gt 0 ]; do
	case $1 in
	--dir) DIR=$2; shift 2 ;;
	--dir=*) DIR=${1#--dir=}; shift ;;
	--keep) KEEP=1; shift ;;
	--mirror) MIRROR=$2; shift 2 ;;
	--mirror=*) MIRROR=${1#--mirror=}; shift ;;
	-h|--help) sed -n '3,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "fresh-debian: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done

SRC=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'fresh-debian: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot and bind mounts); run it with sudo"
git -C "$SRC" rev-parse --verify -q HEAD >/dev/null || die "$SRC is not a git checkout with a commit to clone"
if [ -n "$(git -C "$SRC" status --porcelain --untracked-files=no)" ]; then
	say "note: uncommitted changes in $SRC are not tested: the root gets a clone of HEAD ($(git -C "$SRC" rev-parse --short HEAD))"
fi
if ! command -v debootstrap >/dev/null 2>&1; then
	say "installing debootstrap on this host"
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap; } \
		>/dev/null || die "cannot install debootstrap"
fi

if [ -z "$DIR" ]; then
	DIR=$(mktemp -d /var/tmp/libpmu-fresh.XXXXXX) || die "cannot create a directory under /var/tmp"
else
	[ ! -e "$DIR" ] || [ -z "$(ls -A "$DIR")" ] || die "$DIR exists and is not empty"
	mkdir -p "$DIR" || die "cannot create $DIR"
fi
DIR=$(cd "$DIR" && pwd)
ROOT=$DIR/root
LOGS=$DIR

MOUNTS=()
cleanup() {
	local m i
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		m=${MOUNTS[i]}
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	MOUNTS=()
	if [ "$KEEP" = 0 ] && [ -d "$ROOT" ]; then
		local keep=$DIR/../fresh-debian-logs-$(date +%Y%m%d-%H%M%S)
		mkdir -p "$keep" && cp "$LOGS"/fresh-*.log "$keep"/ 2>/dev/null && say "logs kept in $(cd "$keep" && pwd)"
		# refuse to delete anything still mounted
		if ! grep -q " $ROOT/" /proc/mounts; then
			rm -rf "$DIR"
		else
			say "something is still mounted under $ROOT; left in place"
		fi
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

t0=$(date +%s)
say "debootstrap --variant=minbase bookworm into $ROOT"
debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$LOGS/fresh-debootstrap.log" 2>&1 ||
	{ tail -n 20 "$LOGS/fresh-debootstrap.log" >&2; die "debootstrap failed (log: $LOGS/fresh-debootstrap.log)"; }
say "root made in $(($(date +%s) - t0)) s"

# The standard sources of a Debian 12 install (deb822, as the cloud images
# and CI machines have them): main from bookworm, bookworm-updates and
# bookworm-security. linux-source-6.12, which the lab needs, is in
# bookworm-security only.
SEC=${MIRROR%/debian}/debian-security
rm -f "$ROOT/etc/apt/sources.list"
mkdir -p "$ROOT/etc/apt/sources.list.d"
cat >"$ROOT/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $SEC
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null

for m in dev dev/pts proc sys; do
	mkdir -p "$ROOT/$m"
	mount --bind "/$m" "$ROOT/$m" || die "cannot bind-mount /$m"
	MOUNTS+=("$ROOT/$m")
done
mount -t tmpfs tmpfs "$ROOT/tmp" && MOUNTS+=("$ROOT/tmp")

# A clean clone of what is committed, as a newcomer would have it.
git clone -q --no-hardlinks "$SRC" "$ROOT/root/libpmu" || die "git clone failed"
git -C "$ROOT/root/libpmu" checkout -q "$(git -C "$SRC" rev-parse HEAD)" || die "git checkout failed"
# CI clones with shared/ beside the checkout; the tests must not need it, so it is not copied.

# run_in_root NAME COMMAND: the README's command, as written, in the root.
declare -A RC TIME
run_in_root() {
	local name=$1 cmd=$2 t1 rc log=$LOGS/fresh-$1.log
	say "running '$cmd' in the fresh root (log: $log)"
	t1=$(date +%s)
	chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/libpmu && $cmd" </dev/null >"$log" 2>&1
	rc=$?
	RC[$name]=$rc
	TIME[$name]=$(($(date +%s) - t1))
	say "'$cmd': exit $rc after ${TIME[$name]} s"
	[ $rc = 0 ] || { say "last lines of $log:"; tail -n 30 "$log" | sed 's/^/    /' >&2; }
}

run_in_root demo "examples/run-demo.sh"
run_in_root test "tests/run-all.sh"

last=$(grep -v '^[[:space:]]*$' "$LOGS/fresh-test.log" | tail -n 1)
echo
echo "fresh Debian 12 root (debootstrap minbase, $(date -u +%Y-%m-%d)), commit $(git -C "$SRC" rev-parse --short HEAD):"
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
