#!/usr/bin/env bash
# Row standardisation two ways over 2048x2048 floats (BENCHMARKS.md, "nineteenth CPU session"): a
# composite whose row statistics are a user monoid (Welford and Chan's record, reduced by rows and
# fused with the pass that reads it: one worker a row carries the record), beside the same math as
# one row kernel of two exact passes (the mean, then the centred squares) as the library's layer norm
# writes it, and System.arraycopy of the same bytes; medians of 15 calls in each of 5 rounds, after
# `mvn -B install -DskipTests`. KILN_THREADS=1 for one thread.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/bench"
cat > "$work/src/bench/Rows.java" <<'JAVA'
package bench;

import dev.kiln.*;

public final class Rows {
  public record Stats(float n, float mean, float m2) {
    @Identity
    public static Stats empty() {
      return new Stats(0f, 0f, 0f);
    }

    public static Stats of(float x) {
      return new Stats(1f, x, 0f);
    }

    public Stats combine(Stats o) {
      if (o.n == 0f) {
        return this;
      }
      if (n == 0f) {
        return o;
      }
      float total = n + o.n;
      float d = o.mean - mean;
      return new Stats(total, mean + d * (o.n / total), m2 + o.m2 + d * d * (n * o.n / total));
    }
  }

  @Operator
  public static void empties(@Dim int B, @Out @Shape("B") Stats[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      s[b] = Stats.empty();
    }
  }

  @Operator
  public static void rowStats(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Reduce @Shape("B") Stats[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < N; k++) {
        s[b] = s[b].combine(Stats.of(x[b * N + k]));
      }
    }
  }

  @Operator
  public static void scaleRows(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Shape("B") Stats[] s,
      @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int k = 0; k < N; k++) {
        y[b * N + k] = (x[b * N + k] - s[b].mean()) * KMath.rsqrt(s[b].m2() / s[b].n() + 1e-5f);
      }
    }
  }

  @Operator
  public static void byMonoid(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    Stats[] s = new Stats[B];
    empties(B, s);
    rowStats(B, N, x, s);
    scaleRows(B, N, x, s, y);
  }

  @Operator
  public static void twoPasses(@Dim int B, @Dim int N, @Shape("B, N") float[] x, @Out @Shape("B, N") float[] y) {
    for (@Parallel int b = 0; b < B; b++) {
      float s = 0f;
      for (int k = 0; k < N; k++) s += x[b * N + k];
      float mean = s / N;
      float v = 0f;
      for (int k = 0; k < N; k++) v += (x[b * N + k] - mean) * (x[b * N + k] - mean);
      float r = KMath.rsqrt(v / N + 1e-5f);
      for (int k = 0; k < N; k++) y[b * N + k] = (x[b * N + k] - mean) * r;
    }
  }

  public static void main(String[] args) {
    int b = 2048, n = 2048;
    float[] x = new float[b * n];
    java.util.Random random = new java.util.Random(1);
    for (int i = 0; i < x.length; i++) {
      x[i] = 100f + (float) random.nextGaussian();
    }
    float[] y = new float[b * n], z = new float[b * n], c = new float[b * n];
    for (int round = 0; round < 5; round++) {
      long[] monoid = new long[15], passes = new long[15], copy = new long[15];
      for (int i = 0; i < 15; i++) {
        long t0 = System.nanoTime();
        RowsKernels.byMonoid(b, n, x, y);
        long t1 = System.nanoTime();
        RowsKernels.twoPasses(b, n, x, z);
        long t2 = System.nanoTime();
        System.arraycopy(x, 0, c, 0, x.length);
        long t3 = System.nanoTime();
        monoid[i] = t1 - t0;
        passes[i] = t2 - t1;
        copy[i] = t3 - t2;
      }
      java.util.Arrays.sort(monoid);
      java.util.Arrays.sort(passes);
      java.util.Arrays.sort(copy);
      double diff = 0;
      for (int i = 0; i < y.length; i++) {
        diff = Math.max(diff, Math.abs(y[i] - z[i]));
      }
      System.out.printf("round %d: monoid rows %6.2f ms   two passes %6.2f ms   copy %5.2f ms   (largest difference %.2e)%n",
          round, monoid[7] / 1e6, passes[7] / 1e6, copy[7] / 1e6, diff);
    }
  }
}
JAVA
jars=$(find "$HOME/.m2/repository/org/bytedeco" "$HOME/.m2/repository/org/jcuda" -name '*.jar' 2>/dev/null | tr '\n' ':')
cp="$root/annotations/target/kiln-annotations-0.1.0-SNAPSHOT.jar:$root/runtime/target/kiln-runtime-0.1.0-SNAPSHOT.jar:$jars"
javac -nowarn -d "$work/out" -cp "$cp" --add-modules jdk.incubator.vector \
  -processorpath "$root/processor/target/kiln-processor-0.1.0-SNAPSHOT-all.jar" "$work/src/bench/Rows.java" 2>/dev/null
threads=${KILN_THREADS:+-Dkiln.cpu.threads=$KILN_THREADS}
java --add-modules jdk.incubator.vector $threads -cp "$work/out:$cp" bench.Rows 2>/dev/null
