#!/usr/bin/env bash
# Kiln's kernels that draw random numbers, scalar against SIMD, beside System.arraycopy of the same
# bytes, in one JVM each (BENCHMARKS.md, "tenth CPU session"): dropout (KRandom.uniform) and
# x + sigma * normal over 2^24 floats, best of 25 calls after 5 warm-up calls. Run after
# `mvn -B install -DskipTests`; KILN_THREADS=1 for one thread. Kiln only: PyTorch draws other
# numbers from its own generator, so there is no side-by-side case to compare them with.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/bench"
cat > "$work/src/bench/Draws.java" <<'JAVA'
package bench;

import dev.kiln.*;

public final class Draws {
  @Operator
  public static void dropout(@Dim int N, @Shape("N") float[] x, int seed, float p, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = KRandom.uniform(seed, 3, i) < p ? 0f : x[i] / (1f - p);
    }
  }

  @Operator
  public static void gauss(@Dim int N, @Shape("N") float[] x, int seed, float sigma, @Out @Shape("N") float[] y) {
    for (@Parallel int i = 0; i < N; i++) {
      y[i] = x[i] + sigma * KRandom.normal(seed, 2, i);
    }
  }

  public static void main(String[] args) {
    int n = 1 << 24;
    float[] x = new float[n];
    float[] y = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = i * 1e-3f;
    }
    double drop = 1e9, gauss = 1e9, copy = 1e9;
    for (int r = 0; r < 30; r++) {
      long t0 = System.nanoTime();
      DrawsKernels.dropout(n, x, r, 0.3f, y);
      long t1 = System.nanoTime();
      DrawsKernels.gauss(n, x, r, 1f, y);
      long t2 = System.nanoTime();
      System.arraycopy(x, 0, y, 0, n);
      long t3 = System.nanoTime();
      if (r >= 5) {
        drop = Math.min(drop, (t1 - t0) / 1e6);
        gauss = Math.min(gauss, (t2 - t1) / 1e6);
        copy = Math.min(copy, (t3 - t2) / 1e6);
      }
    }
    System.out.printf("%-55s dropout %7.2f ms   x + sigma * normal %7.2f ms   copy %6.2f ms%n",
        "SIMD " + dev.kiln.runtime.simd.Simd.describe() + ":", drop, gauss, copy);
  }
}
JAVA
jars=$(find "$HOME/.m2/repository/org/bytedeco" "$HOME/.m2/repository/org/jcuda" -name '*.jar' 2>/dev/null | tr '\n' ':')
cp="$root/annotations/target/kiln-annotations-0.1.0-SNAPSHOT.jar:$root/runtime/target/kiln-runtime-0.1.0-SNAPSHOT.jar:$jars"
javac -nowarn -d "$work/out" -cp "$cp" --add-modules jdk.incubator.vector \
  -processorpath "$root/processor/target/kiln-processor-0.1.0-SNAPSHOT-all.jar" "$work/src/bench/Draws.java" 2>/dev/null
threads=${KILN_THREADS:+-Dkiln.cpu.threads=$KILN_THREADS}
for simd in always false; do
  java --add-modules jdk.incubator.vector $threads -Dkiln.simd=$simd -cp "$work/out:$cp" bench.Draws 2>/dev/null
done
