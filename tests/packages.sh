#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/packages.sh — build the Debian packages from a clean clone in a fresh
# Debian 12 root and test them installed in another fresh root, as an HPC
# site installs from its distribution. Also run as
# `tests/fresh-debian.sh --packages`. The roots come from tests/fresh-root.sh
# (debootstrap --variant=minbase bookworm, as tests/fresh-debian.sh makes them).
#
# Build root (a clone of HEAD in /root/libpmu):
#   deps     apt-get build-dep ./ (debian/control), and PMU_PACKAGE_BUILD_DEPS
#            of tests/deps.sh (lintian)
#   build    dpkg-buildpackage -us -uc -b
#   lintian  lintian -i -I -E --pedantic on the .changes (its tags are printed)
#   source   doc/building.md's commands (once the README's): meson setup
#            --prefix=/usr/local, install, ldconfig; examples/count.c built
#            with pkg-config and run; import pmu from where meson installed
#            it; man pmu_set_read
# Install root (a second copy of the fresh root, with a clone for examples/):
#   install  apt-get install of the six .deb files and PMU_PACKAGE_TEST_DEPS;
#            libpmu0 depends on libpfm4 (which it loads with dlopen), neither
#            it nor libpmu-dev on an MPI; libpmu-mpi0 on Open MPI's library
#            (libopenmpi3, libmpi.so.40)
#   mpi      examples/mpi-imbalance.c built with mpicc and `pkg-config
#            libpmu libpmu-mpi` against libpmu-mpi-dev, run by mpirun on 2
#            ranks: one job report (libpmu-report-regions/1), no other file
#   count    examples/count.c compiled with `pkg-config --cflags --libs
#            libpmu` against the installed libpmu-dev, and run (not linked
#            with libpfm4); the installed binding encodes a name only
#            libpfm4 knows
#   info     pmu info; the installed pmu is not linked with libpfm4, and
#            pmu list libpfm4 lists libpfm4's names through the library
#   man      man pmu-stat, man pmu (section 1, package pmu),
#            man pmu_set_read, man pmu_region_end (a group's page), man libpmu
#   python   examples/python-loop.py with python3-pmu
#   venv     pip install --no-index bindings/python into a venv; its pmu
#            loads the packaged libpmu.so.0 and runs examples/python-loop.py
#   complete bash-completion loads share/bash-completion/completions/pmu
# Prints each step's exit status and time and exits 0 only if all are 0.
#
# usage: tests/packages.sh [--dir DIR] [--keep] [--mirror URL]   (as root)
#   --dir DIR     where the roots go (default: a new directory under /var/tmp)
#   --keep        leave the roots, the packages and the logs in place
#   --mirror URL  Debian mirror (default http://deb.debian.org/debian)
# About 6 minutes, most of it apt. Logs: DIR/fresh-*.log (kept in
# DIR/../fresh-debian-logs-<date> without --keep).

set -uo pipefail

FRESH_NAME=packages
. "$(dirname "$0")/fresh-root.sh"
fresh_opts "$@"
. "$SRC/tests/deps.sh"
fresh_host_check
fresh_dir
IROOT=$DIR/root-install
APT='DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0 --no-install-recommends'

fresh_make_root "$ROOT"
t0=$(date +%s)
cp -a "$ROOT" "$IROOT" || die "cannot copy the root to $IROOT"
say "second root copied in $(($(date +%s) - t0)) s"

STEPS=()
step() { STEPS+=("$2"); fresh_run "$@"; }

# --- build root
fresh_mount "$ROOT"
fresh_clone "$ROOT"
step "$ROOT" deps "apt-get update -q && $APT build-dep ./ && $APT install ${PMU_PACKAGE_BUILD_DEPS[*]}"
step "$ROOT" build "dpkg-buildpackage -us -uc -b"
step "$ROOT" lintian "lintian -i -I -E --pedantic ../libpmu_*.changes"
# doc/building.md's source install, as written there
step "$ROOT" source "$APT install man-db && meson setup build --prefix=/usr/local && ninja -C build &&
	meson install -C build && ldconfig &&
	cc -o count examples/count.c \$(pkg-config --cflags --libs libpmu) && ./count &&
	cd /tmp && python3 -c 'import pmu; print(\"pmu\", pmu.__version__, pmu.__file__, pmu.library_path)' &&
	man -P cat pmu_set_read | head -n 8"

# --- install root
fresh_mount "$IROOT"
fresh_clone "$IROOT"
mkdir -p "$IROOT/tmp/debs"
debs=$(cd "$ROOT/root" && ls libpmu0_*.deb libpmu-dev_*.deb libpmu-mpi0_*.deb libpmu-mpi-dev_*.deb pmu_*.deb \
	python3-pmu_*.deb 2>/dev/null)
[ -n "$debs" ] && (cd "$ROOT/root" && cp $debs "$IROOT/tmp/debs/")
step "$IROOT" install "apt-get update -q && $APT install $(printf '/tmp/debs/%s ' $debs) ${PMU_PACKAGE_TEST_DEPS[*]} &&
	dpkg-query -W libpmu0 libpmu-dev libpmu-mpi0 libpmu-mpi-dev pmu python3-pmu &&
	dpkg-query -W -f='\${Depends}\n' libpmu0 | grep -w libpfm4 &&
	! dpkg-query -W -f='\${Depends}\n' libpmu0 libpmu-dev | grep -i mpi &&
	dpkg-query -W -f='\${Depends}\n' libpmu-mpi0 | grep -w libopenmpi3"
step "$IROOT" count "cc -o /tmp/count examples/count.c \$(pkg-config --cflags --libs libpmu) && /tmp/count &&
	ldd /tmp/count | grep libpmu && ! ldd /tmp/count | grep libpfm &&
	python3 -c 'import pmu; c = pmu.Context(cpuid=\"GenuineIntel-6-55-4\"); print(c.resolve(\"skx::L1D:REPLACEMENT\"))'"
step "$IROOT" mpi "mpicc -o /tmp/mpi-imbalance examples/mpi-imbalance.c \$(pkg-config --cflags --libs libpmu libpmu-mpi) &&
	ldd /tmp/mpi-imbalance | grep libpmu-mpi && ! ldd \$(pkg-config --variable=libdir libpmu)/libpmu.so.0 | grep -i mpi &&
	cd /tmp && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm_rsh_agent= OMPI_MCA_btl=self,vader \
	OMPI_MCA_btl_vader_single_copy_mechanism=none PMU_EVENTS=task-clock PMU_OUTPUT=/tmp/job/report.json \
	sh -c 'mkdir -p /tmp/job && mpirun -np 2 --oversubscribe /tmp/mpi-imbalance 1000000 16' &&
	ls /tmp/job && test \$(ls /tmp/job | wc -l) = 1 && grep -q libpmu-report-regions/1 /tmp/job/report.json"
step "$IROOT" info "pmu info && ! ldd \$(command -v pmu) | grep libpfm &&
	PMU_CPUID=GenuineIntel-6-55-4 pmu list libpfm4 | grep -F 'skx::L1D:REPLACEMENT'"
step "$IROOT" man "man -P cat pmu-stat | head -n 8 && man -P cat pmu | head -n 5 &&
	man -P cat pmu_set_read | head -n 8 && man -P cat pmu_region_end | head -n 5 && man -P cat libpmu | head -n 5"
step "$IROOT" python "python3 examples/python-loop.py && python3 -c 'import pmu; print(\"pmu\", pmu.__version__, pmu.__file__, pmu.library_path)'"
step "$IROOT" venv "python3 -m venv /tmp/venv && /tmp/venv/bin/pip install -q --no-index bindings/python &&
	cd /tmp && /tmp/venv/bin/python -c 'import pmu; print(\"pmu\", pmu.__version__, pmu.__file__, pmu.library_path)' &&
	/tmp/venv/bin/python /root/libpmu/examples/python-loop.py"
# (_completion_loader returns 124 when it loaded a file: "retry the completion")
step "$IROOT" complete "bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader pmu; complete -p pmu'"

echo
echo "Debian packages in fresh Debian 12 roots (debootstrap minbase, $(date -u +%Y-%m-%d)), commit ${FRESH_COMMIT:0:7}:"
all=0
for s in "${STEPS[@]}"; do
	printf '  %-9s exit %-3s %4d s\n' "$s" "${RC[$s]}" "${TIME[$s]}"
	[ "${RC[$s]}" = 0 ] || all=1
done
echo "  packages: $(echo $debs)"
echo "  lintian tags:"
grep -E '^[EWIPXO]: ' "$LOGS/fresh-lintian.log" | sort | uniq -c | sed 's/^/    /'
grep -qE '^[EWIPXO]: ' "$LOGS/fresh-lintian.log" || echo "    none"
grep -h '^pmu ' "$LOGS/fresh-source.log" "$LOGS/fresh-python.log" "$LOGS/fresh-venv.log" 2>/dev/null | sed 's/^/  import: /'
if [ "$KEEP" = 1 ]; then say "roots, packages (in $ROOT/root) and logs kept in $DIR"; fi
if [ $all = 0 ]; then
	echo "packages: PASS"
	exit 0
fi
echo "packages: FAIL"
exit 1
