#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The Python package (bindings/python) as users install it:
#   - one version: meson's project version (given by meson) equals
#     pmu.__version__ and the PMU_VERSION_* macros of <pmu.h> (test-debian
#     checks debian/changelog's);
#   - pyproject.toml read by the backend's own parser (Pythons without
#     tomllib) equals tomllib's reading;
#   - `pip install --no-index bindings/python` into a new venv (no network):
#     pip's installed-files list and `pip show` say version and files, the
#     installed files equal the source files byte for byte, and `import pmu`
#     there loads libpmu (PMU_LIBRARY) and gives the version;
#   - `pip install -e` imports the source tree's pmu; the sdist installs too.
# usage: test-python-package.sh VERSION SRCDIR LIBPMU_SO
set -u
version=$1 src=$2 lib=$3
py=/usr/bin/python3
[ -x $py ] || py=$(command -v python3)
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

# --- one version
v=$(sed -n -E 's/^__version__ = "([^"]*)"$/\1/p' "$src/bindings/python/pmu/__init__.py")
[ "$v" = "$version" ] || bad "pmu.__version__ '$v' != meson project version '$version'"
h=$(awk '/^#define PMU_VERSION_(MAJOR|MINOR|MICRO) / { printf "%s%s", sep, $3; sep = "." }' "$src/include/pmu.h")
[ "$h" = "$version" ] || bad "<pmu.h> PMU_VERSION_* say '$h', meson '$version'"

# --- pyproject.toml: the fallback parser against tomllib
if $py -c 'import tomllib' 2>/dev/null; then
	$py - "$src/bindings/python" <<'EOF' || bad "the backend's pyproject.toml parser differs from tomllib"
import sys, tomllib
sys.path.insert(0, sys.argv[1] + "/backend")
import pmu_wheel
text = open(sys.argv[1] + "/pyproject.toml", encoding="utf-8").read()
sys.exit(0 if pmu_wheel.parse_pyproject(text) == tomllib.loads(text) else 1)
EOF
fi

# --- pip into a venv
if ! $py -m venv "$tmp/venv" >"$tmp/venv.log" 2>&1; then
	cat "$tmp/venv.log"
	echo "SKIP: $py -m venv failed (Debian: python3-venv; tests/deps.sh installs it); version checks: $fail failed"
	[ "$fail" = 0 ] && exit 77
	exit 1
fi
cp -r "$src/bindings/python" "$tmp/src"        # pip may write into the tree it builds
if ! "$tmp/venv/bin/pip" install -q --no-index "$tmp/src" >"$tmp/pip.log" 2>&1; then
	cat "$tmp/pip.log"; bad "pip install --no-index bindings/python failed"
else
	site=$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
	for f in $(cd "$src/bindings/python" && find pmu -name '*.py'); do
		cmp -s "$src/bindings/python/$f" "$site/$f" || bad "$site/$f differs from bindings/python/$f"
	done
	shown=$("$tmp/venv/bin/pip" show -f libpmu)
	grep -qx "Version: $version" <<<"$shown" || bad "pip show libpmu: $(grep Version <<<"$shown")"
	grep -qx '  pmu/__init__.py' <<<"$shown" || bad "pip show -f libpmu lists no pmu/__init__.py"
	out=$(cd "$tmp" && PMU_LIBRARY=$lib "$tmp/venv/bin/python" -c \
		'import pmu; print(pmu.__version__, pmu.version(), pmu.__file__)')
	[ "$out" = "$version $version $site/pmu/__init__.py" ] || bad "import pmu in the venv: '$out'"
	"$tmp/venv/bin/pip" uninstall -q -y libpmu >/dev/null 2>&1 || bad "pip uninstall libpmu failed"
	[ ! -e "$site/pmu" ] || bad "pip uninstall left $site/pmu"
fi

# --- editable install: the source tree's package
if "$tmp/venv/bin/pip" install -q --no-index -e "$tmp/src" >"$tmp/pip-e.log" 2>&1; then
	out=$(cd "$tmp" && PMU_LIBRARY=$lib "$tmp/venv/bin/python" -c 'import pmu; print(pmu.__file__)')
	[ "$out" = "$tmp/src/pmu/__init__.py" ] || bad "pip install -e: pmu is '$out'"
	"$tmp/venv/bin/pip" uninstall -q -y libpmu >/dev/null 2>&1
else
	cat "$tmp/pip-e.log"; bad "pip install -e failed"
fi

# --- the sdist builds and installs
sdist=$(cd "$tmp/src" && $py -c 'import sys; sys.path.insert(0, "backend"); import pmu_wheel; print(pmu_wheel.build_sdist(sys.argv[1]))' "$tmp")
if [ -f "$tmp/$sdist" ] && "$tmp/venv/bin/pip" install -q --no-index "$tmp/$sdist" >"$tmp/pip-s.log" 2>&1; then
	out=$(cd "$tmp" && PMU_LIBRARY=$lib "$tmp/venv/bin/python" -c 'import pmu; print(pmu.__version__)')
	[ "$out" = "$version" ] || bad "from the sdist: pmu.__version__ '$out'"
else
	cat "$tmp/pip-s.log" 2>/dev/null; bad "the sdist '$sdist' did not install"
fi

echo "test-python-package: version $version; pip install, pip install -e, sdist: $fail failed"
[ "$fail" = 0 ]
