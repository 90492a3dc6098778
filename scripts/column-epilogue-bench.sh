#!/usr/bin/env bash
# A reduction down columns and its epilogue over 2048x2048 floats (BENCHMARKS.md, "twentieth CPU
# session"): each composite fused (one kernel, a worker a column adding its column in order, rows
# outermost over blocks of columns) beside the same two operators called one after the other (the
# @Reduce kernel, chunks of rows into partial sums combined in a tree, then the epilogue's kernel),
# and System.arraycopy of the same bytes. biasSgd: column sums then an SGD step (its kernel has a
# SIMD form); inverseNorms: the sum of squares then rsqrt (no bit-exact vector rsqrt: the scalar
# form). Medians of 15 calls in each of 5 rounds, after `mvn -B install -DskipTests`.
# KILN_THREADS=1 for one thread; KILN_SIMD=false for the scalar forms only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/bench"
cat > "$work/src/bench/Columns.java" <<'JAVA'
package bench;

import dev.kiln.*;

public final class Columns {
  @Operator
  public static void colSums(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Reduce @Shape("N") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        s[n] += x[b * N + n];
      }
    }
  }

  @Operator
  public static void colSquares(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Reduce @Shape("N") float[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        s[n] += x[b * N + n] * x[b * N + n];
      }
    }
  }

  @Operator
  public static void sgd(@Dim int N, float rate, @Shape("N") float[] g, @Shape("N") float[] w, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = w[i] - rate * g[i];
    }
  }

  @Operator
  public static void inverseRoots(@Dim int N, @Shape("N") float[] s, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = KMath.rsqrt(s[i] + 1e-5f);
    }
  }

  @Operator
  public static void biasSgd(@Dim int B, @Dim int N, float rate, @Shape("B, N") float[] dy, @Shape("N") float[] w,
      @Out @Shape("N") float[] out) {
    float[] g = new float[N];
    colSums(B, N, dy, g);
    sgd(N, rate, g, w, out);
  }

  @Operator
  public static void inverseNorms(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("N") float[] out) {
    float[] s = new float[N];
    colSquares(B, N, x, s);
    inverseRoots(N, s, out);
  }

  public static void main(String[] args) {
    int b = 2048, n = 2048;
    float[] x = new float[b * n];
    java.util.Random random = new java.util.Random(1);
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) random.nextGaussian();
    }
    float[] w = new float[n], c = new float[b * n];
    float[] fused = new float[n], split = new float[n], fusedN = new float[n], splitN = new float[n];
    for (int round = 0; round < 5; round++) {
      long[][] t = new long[5][15];
      for (int i = 0; i < 15; i++) {
        long t0 = System.nanoTime();
        ColumnsKernels.biasSgd(b, n, 0.01f, x, w, fused);
        long t1 = System.nanoTime();
        float[] g = new float[n];
        ColumnsKernels.colSums(b, n, x, g);
        ColumnsKernels.sgd(n, 0.01f, g, w, split);
        long t2 = System.nanoTime();
        ColumnsKernels.inverseNorms(b, n, x, fusedN);
        long t3 = System.nanoTime();
        float[] s = new float[n];
        ColumnsKernels.colSquares(b, n, x, s);
        ColumnsKernels.inverseRoots(n, s, splitN);
        long t4 = System.nanoTime();
        System.arraycopy(x, 0, c, 0, x.length);
        long t5 = System.nanoTime();
        t[0][i] = t1 - t0;
        t[1][i] = t2 - t1;
        t[2][i] = t3 - t2;
        t[3][i] = t4 - t3;
        t[4][i] = t5 - t4;
      }
      for (long[] r : t) {
        java.util.Arrays.sort(r);
      }
      float[] plain = new float[n];
      Columns.biasSgd(b, n, 0.01f, x, w, plain);
      boolean same = java.util.Arrays.equals(plain, fused);
      System.out.printf("round %d: biasSgd fused %5.2f ms, two kernels %5.2f   inverseNorms fused %5.2f ms, two kernels %5.2f"
          + "   copy %5.2f ms   (fused = plain Java's bits: %s)%n",
          round, t[0][7] / 1e6, t[1][7] / 1e6, t[2][7] / 1e6, t[3][7] / 1e6, t[4][7] / 1e6, same);
    }
    dev.kiln.runtime.cpu.CpuExecutor.simdChoices().forEach((k, v) -> System.out.println(k + ": " + v));
  }
}
JAVA
jars=$(find "$HOME/.m2/repository/org/bytedeco" "$HOME/.m2/repository/org/jcuda" -name '*.jar' 2>/dev/null | tr '\n' ':')
cp="$root/annotations/target/kiln-annotations-0.1.0-SNAPSHOT.jar:$root/runtime/target/kiln-runtime-0.1.0-SNAPSHOT.jar:$jars"
javac -nowarn -d "$work/out" -cp "$cp" --add-modules jdk.incubator.vector \
  -processorpath "$root/processor/target/kiln-processor-0.1.0-SNAPSHOT-all.jar" "$work/src/bench/Columns.java" 2>/dev/null
threads=${KILN_THREADS:+-Dkiln.cpu.threads=$KILN_THREADS}
simd=${KILN_SIMD:+-Dkiln.simd=$KILN_SIMD}
java --add-modules jdk.incubator.vector ${KILN_JAVA_OPTS:-} $threads $simd -cp "$work/out:$cp" bench.Columns 2>/dev/null
