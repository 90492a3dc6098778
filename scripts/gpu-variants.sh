#!/usr/bin/env bash
# Times hand-edited kernel variants beside the build's own PTX, in one device call. On the build
# machine, put each variant's PTX under .gpu/var-<name>/META-INF/kiln/<package>/<Class>.ptx (nvcc
# -ptx -arch=compute_80 -std=c++17 -lineinfo -I cuda-templates/src/main/resources on an edited copy
# of the build's .cu; the module must keep every kernel the timed cases launch), then there:
#
#   bash scripts/gpu-variants.sh '<case regex>'
#
# runs dev.kiln.bench.GpuSideBySide on the cases the regex selects with the build's PTX, with each
# variant's first on the class path (the runtime loads a class's PTX from the first entry that has
# it), and with the build's again, so that drift over the run shows. Each case is still checked
# against its CPU kernel: a variant that computes something else says DISAGREES.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.gpu"
[ -x jre/bin/java ] || tar -xzf jre.tgz
for name in cublas nvrtc; do
  if ! ldconfig -p | grep -q "lib$name\.so\.12 "; then
    lib13=$(find /usr/local/cuda*/lib64 /usr/local/cuda*/targets/*/lib -name "lib$name.so.13*" 2>/dev/null | head -n 1)
    if [ -n "$lib13" ]; then
      mkdir -p "compat-$name" && cp "compat/lib$name.so.12" "compat-$name/"
      export LD_LIBRARY_PATH="$PWD/compat-$name:$(dirname "$lib13")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    fi
  fi
done
regex=${1:-.}
for v in build var-* build; do
  [ -d "$v" ] || [ "$v" = build ] || continue
  echo "==> $v ($(date -u +%T))"
  cp=bench-classes
  [ "$v" = build ] || cp="$v:bench-classes"
  timeout 150 jre/bin/java --add-modules jdk.incubator.vector -Dkiln.blas=java -cp "$cp:$(cat classpath.txt)" \
    dev.kiln.bench.GpuSideBySide "$regex" 2>&1 | grep -v "^WARNING"
done
echo "==> done ($(date -u +%T))"
