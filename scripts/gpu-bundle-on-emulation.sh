#!/usr/bin/env bash
# Runs the GPU bundle (.gpu/, made by scripts/gpu-bundle.sh) here, on the emulated CUDA driver
# instead of a GPU: the same jlink'ed JRE, JUnit console launcher, tests and sample as on a GPU
# machine, so that a bundle that cannot run is found before a GPU is lent. Needs gcc, g++ and nvcc.
#
#   bash scripts/gpu-bundle.sh && bash scripts/gpu-bundle-on-emulation.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -x .gpu/run.sh ] || { echo "no .gpu/run.sh: run bash scripts/gpu-bundle.sh first" >&2; exit 1; }
emulation=$(mktemp -d)
trap 'rm -rf "$emulation"' EXIT
deps=$(mvn -B -q -pl tests dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)
classes=tests/target/test-classes:tests/target/classes:runtime/target/test-classes:sample-app/target/classes
java -cp "$classes:$deps" dev.kiln.tests.cuda.EmulatedDriver "$emulation/driver" > "$emulation/env.sh"
# shellcheck disable=SC1091
source "$emulation/env.sh"
OUT=${OUT:-$emulation/reports} bash .gpu/run.sh
