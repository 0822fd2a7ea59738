# SPDX-License-Identifier: MIT
# Sourced by the tests that run Debian's OpenMPI (test-mpi.sh, test-mpi-aggregate.sh): ok() and bad()
# counting $checks and $fail, $PY (the oracle's Python: Debian's, with python3-jsonschema), $mpirun,
# and the environment a container or CI runner needs. Exits 77 (naming what is missing) where Python
# or mpirun is not installed.
fail=0 checks=0
ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fail=$((fail + 1)); echo "FAIL: $*"; }

PY=/usr/bin/python3   # Debian's, with python3-jsonschema (tests/deps.sh)
[ -x $PY ] || PY=$(command -v python3) || { echo "SKIP: python3 (the oracle) is not installed"; exit 77; }
mpirun=$(command -v mpirun) || { echo "SKIP: mpirun is not installed (Debian: openmpi-bin; tests/deps.sh installs it)"; exit 77; }

# A container or CI runner: root (OpenMPI refuses it without both variables), no ssh (every rank is
# local: no remote launch agent), the shared-memory transport without cross-memory attach (ptrace is
# often forbidden there), more ranks than CPUs.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm_rsh_agent= \
	OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
