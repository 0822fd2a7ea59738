# SPDX-License-Identifier: MIT
#
# tests/fresh-root.sh — sourced by tests/fresh-debian.sh and tests/packages.sh:
# a minimal Debian 12 root made with debootstrap (--variant=minbase
# bookworm), with the standard apt sources of a Debian 12 install, /dev,
# /dev/pts, /proc and /sys bind-mounted and a tmpfs /tmp, and commands run in
# it as root with a clean environment. Nothing here runs by itself.
#
# The sourcing script sets FRESH_NAME (the prefix of its messages), calls
# fresh_opts "$@" (DIR, KEEP and MIRROR from its options), then
# fresh_host_check and fresh_dir; the exit trap unmounts everything and,
# without KEEP, keeps the logs (DIR/fresh-*.log) in
# DIR/../fresh-debian-logs-<date> and removes DIR.

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FRESH_COMMIT= # set by the first fresh_clone
say() { printf '%s: %s\n' "$FRESH_NAME" "$*" >&2; }
die() { say "$*"; exit 1; }

# fresh_opts ARG...: the options both scripts take. DIR (--dir DIR or
# --dir=DIR; empty: a new directory under /var/tmp), KEEP (--keep: 1, leave
# the roots and logs in place), MIRROR (--mirror URL or --mirror=URL);
# -h/--help prints the script's header comment (from its third line to its
# first line that is not a comment) and exits 0. Any other argument goes to
# fresh_opt ARG where the script defines it (its own options: return 0 when
# taken), else it is an error: exit 2.
fresh_opts() {
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
		-h|--help) awk 'NR < 3 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
		*)
			if declare -F fresh_opt >/dev/null && fresh_opt "$1"; then
				shift
			else
				echo "$FRESH_NAME: unknown argument '$1' (see --help)" >&2
				exit 2
			fi ;;
		esac
	done
}

# fresh_host_check: root, a commit to clone, debootstrap (installed if missing)
fresh_host_check() {
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
}

# fresh_dir: DIR made (or checked empty), LOGS=DIR, ROOT=DIR/root, cleanup on exit
fresh_dir() {
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
	trap fresh_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

fresh_cleanup() {
	local m i
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		m=${MOUNTS[i]}
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	MOUNTS=()
	if [ "$KEEP" = 0 ] && [ -d "$DIR" ] && [ -d "$ROOT" ]; then
		local keep=$DIR/../fresh-debian-logs-$(date +%Y%m%d-%H%M%S)
		mkdir -p "$keep" && cp "$LOGS"/fresh-*.log "$keep"/ 2>/dev/null && say "logs kept in $(cd "$keep" && pwd)"
		# refuse to delete anything still mounted
		if ! grep -q " $DIR/" /proc/mounts; then
			rm -rf "$DIR"
		else
			say "something is still mounted under $DIR; left in place"
		fi
	fi
}

# fresh_make_root R: debootstrap minbase bookworm into R, with apt sources and resolv.conf
fresh_make_root() {
	local r=$1 t0
	t0=$(date +%s)
	say "debootstrap --variant=minbase bookworm into $r"
	debootstrap --variant=minbase bookworm "$r" "$MIRROR" >"$LOGS/fresh-debootstrap.log" 2>&1 ||
		{ tail -n 20 "$LOGS/fresh-debootstrap.log" >&2; die "debootstrap failed (log: $LOGS/fresh-debootstrap.log)"; }
	say "root made in $(($(date +%s) - t0)) s"

	# The standard sources of a Debian 12 install (deb822, as the cloud images
	# and CI machines have them): main from bookworm, bookworm-updates and
	# bookworm-security. linux-source-6.12, which the lab needs, is in
	# bookworm-security only.
	local sec=${MIRROR%/debian}/debian-security
	rm -f "$r/etc/apt/sources.list"
	mkdir -p "$r/etc/apt/sources.list.d"
	cat >"$r/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $sec
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null
}

# fresh_mount R: bind-mount /dev, /dev/pts, /proc, /sys; a tmpfs /tmp
fresh_mount() {
	local r=$1 m
	for m in dev dev/pts proc sys; do
		mkdir -p "$r/$m"
		mount --bind "/$m" "$r/$m" || die "cannot bind-mount /$m"
		MOUNTS+=("$r/$m")
	done
	mount -t tmpfs tmpfs "$r/tmp" && MOUNTS+=("$r/tmp")
}

# fresh_clone R: a clean clone of what is committed into R/root/libpmu, as a newcomer would have it;
# FRESH_COMMIT: the commit cloned (the first clone's: HEAD may move while a long run goes on, and the
# summary must name what was tested, not what HEAD is at its end)
fresh_clone() {
	local r=$1
	FRESH_COMMIT=${FRESH_COMMIT:-$(git -C "$SRC" rev-parse HEAD)}
	git clone -q --no-hardlinks "$SRC" "$r/root/libpmu" || die "git clone failed"
	git -C "$r/root/libpmu" checkout -q "$FRESH_COMMIT" || die "git checkout failed"
	# CI clones with shared/ beside the checkout; the tests must not need it, so it is not copied.
}

# fresh_run R NAME COMMAND: COMMAND in R/root/libpmu as root with a clean environment;
# output in LOGS/fresh-NAME.log, exit status in RC[NAME], seconds in TIME[NAME]
declare -A RC TIME
fresh_run() {
	local r=$1 name=$2 cmd=$3 t1 rc log=$LOGS/fresh-$2.log
	say "running '$cmd' in the fresh root (log: $log)"
	t1=$(date +%s)
	chroot "$r" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/libpmu && $cmd" </dev/null >"$log" 2>&1
	rc=$?
	RC[$name]=$rc
	TIME[$name]=$(($(date +%s) - t1))
	say "'$cmd': exit $rc after ${TIME[$name]} s"
	[ $rc = 0 ] || { say "last lines of $log:"; tail -n 30 "$log" | sed 's/^/    /' >&2; }
	return $rc
}
