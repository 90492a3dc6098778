#!/usr/bin/env bash
# Packs what the GPU test run needs into .gpu/ (git-ignored), for a machine that has CUDA and a
# driver but no Java: a jlink'ed JRE, the JUnit console launcher, the tests' and runtime's classes
# with every dependency jar, a class path file, and the sample's classes. Run from the repository root:
#
#   bash scripts/gpu-bundle.sh            # here, on the build machine
#   bash .gpu/run.sh                      # there, on the GPU machine (the device tool carries .gpu)
#
# .gpu/run.sh runs every @Tag("gpu") test of runtime/ and tests/ and then the sample, and writes
# JUnit's reports under $OUT (or .gpu/reports) when that is set.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=.gpu
junit_version=1.10.3

mvn -B -q install -DskipTests
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
tar -C "$out" -czf "$out/jre.tgz" jre && rm -rf "$out/jre"
( cd "$out" && ls lib/*.jar | tr '\n' ':' ) > "$out/classpath.txt"
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# On the GPU machine, from the repository root: the GPU tests, then the sample on CUDA.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
[ -x jre/bin/java ] || tar -xzf jre.tgz
reports=${OUT:-$PWD/reports}
mkdir -p "$reports"
nvidia-smi -L || true
status=0
for module in runtime tests; do
  jre/bin/java -jar junit-platform-console-standalone-*.jar execute \
    --class-path "$module-test-classes:$module-classes:$(cat classpath.txt)" \
    --scan-class-path "$module-test-classes" --include-tag gpu \
    --details=tree --reports-dir "$reports/$module" || status=1
done
jre/bin/java --add-modules jdk.incubator.vector -Dkiln.device=cuda -cp "sample-classes:$(cat classpath.txt)" dev.kiln.sample.Main || status=1
exit $status
RUN
chmod +x "$out/run.sh"
du -sh "$out"
