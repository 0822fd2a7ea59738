# Sourced by examples/run-demo.sh and tests/run-all.sh: install Debian
# packages that are missing (apt-get, with sudo when not root).
pmu_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	local sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	echo "installing: ${missing[*]}" >&2
	$sudo apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
PMU_BUILD_DEPS=(gcc g++ meson ninja-build pkg-config libjson-c-dev libpfm4-dev)
