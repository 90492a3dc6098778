#!/usr/bin/env bash
# Packs what the GPU run needs into .gpu/ (git-ignored), for a machine that has CUDA and a driver
# but no Java: a jlink'ed JRE, the JUnit console launcher, the tests' and runtime's classes with
# every dependency jar, a class path file, the sample's and the benchmarks' classes, and
# compat/libcublas.so.12 and compat/libnvrtc.so.12 (scripts/cuda12-on-13.sh) for a machine with CUDA
# 13 only. Run from the
# repository root:
#
#   bash scripts/gpu-bundle.sh            # here, on the build machine
#   bash .gpu/run.sh [steps...]           # there, on the GPU machine (the device tool carries .gpu)
#
# .gpu/run.sh runs, each under a time limit, the steps named (default: all, in this order):
# `tests` (every @Tag("gpu") test of runtime/ and tests/, and TensorLaunchersTest with
# -Dkiln.device=cuda; JUnit's reports under $OUT or .gpu/reports), `sample` (the sample on CUDA), `bench` (dev.kiln.bench.GpuSideBySide, Kiln's
# launchers on the GPU beside a device copy) and `torch` (scripts/gpu_torch_bench.py, PyTorch on
# the same GPU). Extra arguments for the benchmarks: KILN_GPU_BENCH (a regular expression).
# `variants` (never by default) times hand-edited kernels beside the build's: put each variant's PTX
# under .gpu/var-<name>/META-INF/kiln/<package>/<Class>.ptx (nvcc -ptx -arch=compute_80 -std=c++17
# -lineinfo -I cuda-templates/src/main/resources on an edited copy of the build's .cu, keeping every
# kernel the timed cases launch); the step runs the benchmarks with the build's PTX, with each
# variant's first on the class path (the runtime loads a class's PTX from the first entry that has
# it), then with the build's again, so that drift over the run shows. Each case is still checked
# against its CPU kernel: a variant that computes something else says DISAGREES. `micro` (never by
# default) builds and runs scripts/gpu-micro (hand-written forms of Kiln's GELU and softmax kernels
# beside a device copy), then ncu on it and on PyTorch's GELU and softmax ($OUT/ncu-*.txt).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=.gpu
junit_version=1.10.3

mvn -B -q -Pbench install -DskipTests
rm -rf "$out"
mkdir -p "$out/lib"
jlink --add-modules java.base,java.logging,jdk.unsupported,java.management,java.xml,jdk.incubator.vector \
  --strip-debug --no-man-pages --no-header-files --compress=2 --output "$out/jre"
# Without JavaCPP's OpenBLAS (20 MB of natives, which would take the bundle past the device tool's
# 64 MiB carry): CPU matrix products there run on Gemm's Java fallback, after one warning.
for module in runtime tests; do
  mvn -B -q -pl "$module" dependency:copy-dependencies -DincludeScope=test -DexcludeGroupIds=org.bytedeco \
    -DoutputDirectory="$PWD/$out/lib"
  cp -r "$module/target/classes" "$out/$module-classes"
  cp -r "$module/target/test-classes" "$out/$module-test-classes"
done
mvn -B -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:$junit_version \
  -DoutputDirectory="$PWD/$out"
cp -r sample-app/target/classes "$out/sample-classes"
cp -r benchmarks/target/classes "$out/bench-classes"
cp -r scripts/gpu-micro "$out/micro"
# The fusion reports' HTML pages (10 MB) are for reading, not for any test or run: left out, to keep
# the bundle and the working tree inside the device tool's 64 MiB carry
find "$out" -name '*.fusion.html' -delete
# JCuda's PTX compiler binding (24 MB of natives) is never loaded by Kiln: left out, to keep the
# bundle inside the carry limit
zip -q -d "$out"/lib/jcuda-natives-*.jar 'lib/libJNvPTXCompiler-*'
bash scripts/cuda12-on-13.sh cublas "$out"/lib/jcublas-natives-*.jar "$out/compat"
bash scripts/cuda12-on-13.sh nvrtc "$out"/lib/jcuda-natives-*.jar "$out/compat"
tar -C "$out" -czf "$out/jre.tgz" jre && rm -rf "$out/jre"
# The classes hold every kernel's PTX (over 20 MB of text): packed, they keep the bundle inside the
# carry limit; run.sh unpacks them
classes="runtime-classes runtime-test-classes tests-classes tests-test-classes sample-classes bench-classes"
tar -C "$out" -czf "$out/classes.tgz" $classes && (cd "$out" && rm -rf $classes)
( cd "$out" && ls lib/*.jar | tr '\n' ':' ) > "$out/classpath.txt"
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# On the GPU machine, from anywhere: bash .gpu/run.sh [tests] [sample] [bench] [torch] [variants] [micro]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
[ -x jre/bin/java ] || tar -xzf jre.tgz
[ -d tests-classes ] || tar -xzf classes.tgz
reports=${OUT:-$PWD/reports}
mkdir -p "$reports"
steps=${*:-tests sample bench torch}
nvidia-smi -L || true
# JCuda 12.6's cuBLAS and NVRTC bindings link against libcublas.so.12 and libnvrtc.so.12; on a
# machine with CUDA 13 only, compat/'s shims forward to the .so.13 libraries
compat=
for name in cublas nvrtc; do
  if ! ldconfig -p | grep -q "lib$name\.so\.12 "; then
    lib13=$(find /usr/local/cuda*/lib64 /usr/local/cuda*/targets/*/lib /usr/lib/x86_64-linux-gnu /opt \
      -name "lib$name.so.13*" 2>/dev/null | head -n 1)
    if [ -n "$lib13" ]; then
      echo "no lib$name.so.12 here: compat/lib$name.so.12 forwards to $lib13"
      mkdir -p "compat-$name" && cp "compat/lib$name.so.12" "compat-$name/"
      compat="$compat:$PWD/compat-$name:$(dirname "$lib13")"
    fi
  fi
done
[ -z "$compat" ] || export LD_LIBRARY_PATH="${compat#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
status=0
for step in $steps; do
  echo "==> $step ($(date -u +%T))"
  case $step in
    tests)
      for module in runtime tests; do
        timeout 300 jre/bin/java -jar junit-platform-console-standalone-*.jar execute \
          --class-path "$module-test-classes:$module-classes:$(cat classpath.txt)" \
          --scan-class-path "$module-test-classes" --include-tag gpu \
          --details=tree --details-theme=ascii --reports-dir "$reports/$module" || status=1
      done
      # the device-agnostic tensor launchers, on Kiln.device() = CUDA (not tagged gpu: in a plain
      # test JVM they run on the CPU)
      timeout 120 jre/bin/java -Dkiln.device=cuda -jar junit-platform-console-standalone-*.jar execute \
        --class-path "tests-test-classes:tests-classes:$(cat classpath.txt)" \
        --select-class dev.kiln.tests.TensorLaunchersTest \
        --details=tree --details-theme=ascii --reports-dir "$reports/tensors" || status=1 ;;
    sample)
      timeout 90 jre/bin/java --add-modules jdk.incubator.vector -Dkiln.device=cuda \
        -cp "sample-classes:$(cat classpath.txt)" dev.kiln.sample.Main || status=1 ;;
    bench)
      timeout 150 jre/bin/java --add-modules jdk.incubator.vector -cp "bench-classes:$(cat classpath.txt)" \
        dev.kiln.bench.GpuSideBySide "${KILN_GPU_BENCH:-.}" || status=1 ;;
    torch)
      PYTHONUNBUFFERED=1 timeout 120 python3 ../scripts/gpu_torch_bench.py "${KILN_GPU_BENCH:-.}" || status=1 ;;
    variants)
      for v in build var-* build; do
        [ "$v" = build ] || [ -d "$v" ] || continue
        echo "--- $v"
        cp=bench-classes
        [ "$v" = build ] || cp="$v:bench-classes"
        timeout 150 jre/bin/java --add-modules jdk.incubator.vector -cp "$cp:$(cat classpath.txt)" \
          dev.kiln.bench.GpuSideBySide "${KILN_GPU_BENCH:-.}" || status=1
      done ;;
    micro)
      bash micro/diag.sh || status=1 ;;
    *) echo "unknown step $step"; status=1 ;;
  esac
done
echo "==> done ($(date -u +%T)), status $status"
exit $status
RUN
chmod +x "$out/run.sh"
du -sh "$out"
