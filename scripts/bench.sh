#!/usr/bin/env bash
# The side-by-side benchmark: Kiln's generated CPU kernels beside DJL's PyTorch engine (CPU, eager)
# and a streaming copy, in one run (JMH; about 5 minutes on 2 cores). Builds the benchmarks module
# (Maven profile `bench`, never part of the test run) and runs it; an optional argument selects
# cases by regular expression (e.g. `bash scripts/bench.sh 'Dense|LstmStep'`).
# Each case's Kiln result is first compared with PyTorch's; a case that disagrees gets no timing.
# KILN_BENCH_SUMS=reorder compiles the operators with -Akiln.simd.sums=reorder (see LANGUAGE.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mvn -B -q -Pbench install -DskipTests -pl benchmarks -am -Dkiln.bench.sums="${KILN_BENCH_SUMS:-exact}"
# --add-modules jdk.incubator.vector: Kiln's SIMD kernels (JMH's forks inherit the flag); add
# -Dkiln.simd=false after it to time the scalar kernels instead.
exec java --add-modules jdk.incubator.vector ${KILN_BENCH_JAVA_OPTS:-} -jar benchmarks/target/kiln-benchmarks.jar "$@"
