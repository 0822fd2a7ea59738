# Sourced by examples/run-demo.sh and tests/run-all.sh: install Debian
# packages that are missing (apt-get, with sudo when not root). Every
# package a script of the project uses is named here, in tests/lab/run
# or (the benchmarks' baselines) in bench/*.sh,
# so that a fresh Debian machine has it (tests/fresh-debian.sh proves it).
pmu_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	local sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	echo "installing: ${missing[*]}" >&2
	# another architecture's packages (multiarch, "PKG:arm64") need that architecture in dpkg first
	for p in "${missing[@]}"; do
		case $p in *:*) dpkg --print-foreign-architectures | grep -qx "${p#*:}" ||
			$sudo dpkg --add-architecture "${p#*:}" || return 1 ;;
		esac
	done
	$sudo apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
# building libpmu and the pmu command
PMU_BUILD_DEPS=(gcc g++ meson ninja-build pkg-config libjson-c-dev libpfm4-dev)
# tests/run-all.sh besides the lab (whose packages tests/lab/run installs):
# valgrind; clang and its sanitizer/libFuzzer runtime; Python with pytest and
# jsonschema; the riscv32 bare-metal test's cross compiler and QEMU; pgrep
# (procps) and perf (linux-perf, the oracle test-cli compares page faults with);
# linux-source-6.12, whose tools/perf/pmu-events (perf's tables and its own
# jevents.py/metric.py) the perf-tree corpus test reads in place
# and the cross compilers with their C libraries, with which
# test-header-levels compiles <pmu.h> for arm64 and riscv64;
# groff-base and man-db (groff, man, lexgrog: test-man3 checks the generated
# pages as lintian does, test-man the section 1 pages and 'pmu help CMD'), bash-completion (test-completion runs the completion
# with its helpers too), python3-venv (test-python-package pip-installs the
# binding into a venv); OpenMPI (openmpi-bin's mpirun, libopenmpi-dev for meson's
# dependency('mpi'): examples/mpi-imbalance is built where it is found, and
# test-mpi runs it as a 4-rank job); qemu-user and Debian's arm64 json-c and libpfm4 (multiarch:
# the arm64 architecture is added to dpkg for them), with which test-arm64-libpfm4 builds libpmu for
# arm64 and runs its check-tables against libpfm4:arm64 under qemu-aarch64;
# likwid, whose performance groups (/usr/share/likwid/perfgroups, read in
# place, never copied) test-likwid-groups maps and evaluates against its own
# reading of LIKWID's formulas, and test-likwid-stat counts on a written machine;
# libpapi7.0, whose /usr/share/papi/7.0/papi_events.csv (PAPI's presets per CPU) test-papi-presets
# reads in place as its oracle;
# gfortran, with which test-compat-examples builds LIKWID's Fortran marker example
# (F-markerAPI.F90) against libpmu-likwid's module, and the build compiles that module
# (likwid.mod); debian-archive-keyring, whose key signs the bookworm sources list with which
# test-compat-examples fetches PAPI's source package (its examples/high_level.c);
# python3-pandas, with which test-frames reads reports into the binding's data frames (pmu.frames)
PMU_TEST_DEPS=(valgrind clang libclang-rt-14-dev python3 python3-pytest python3-jsonschema python3-pandas
	gcc-riscv64-linux-gnu qemu-system-misc procps linux-perf xz-utils linux-source-6.12
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross libc6-dev-riscv64-cross
	groff-base man-db bash-completion python3-venv openmpi-bin libopenmpi-dev
	qemu-user libjson-c-dev:arm64 libpfm4-dev:arm64 likwid libpapi7.0
	gfortran debian-archive-keyring)
# tests/packages.sh (tests/fresh-debian.sh --packages) installs in its fresh
# roots: for building the Debian packages, debian/control's Build-Depends
# (apt-get build-dep; test-debian checks each is named in PMU_BUILD_DEPS or
# here; libopenmpi-dev builds libpmu-mpi0) and lintian; for using them, a
# compiler, pkg-config, man, a venv, bash-completion and mpirun (libpmu-mpi-dev brings mpicc)
PMU_PACKAGE_BUILD_DEPS=(build-essential debhelper dh-python pkgconf python3 lintian libopenmpi-dev)
PMU_PACKAGE_TEST_DEPS=(gcc libc6-dev pkgconf man-db python3-venv bash-completion openmpi-bin)
