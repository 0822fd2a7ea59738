#!/bin/bash
# The main job: install what is needed, build libpmu, and count a sample
# workload with `pmu stat` (software events where no hardware PMU exists).
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/deps.sh
pmu_install "${PMU_BUILD_DEPS[@]}"
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
build/tools/pmu info | head -3
exec build/tools/pmu stat -- build/examples/workload "${1:-64}"
