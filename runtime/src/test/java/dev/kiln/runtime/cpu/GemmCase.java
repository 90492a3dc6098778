package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;

/**
 * One randomly filled product for the GEMM tests, in double (each test rounds to float where it
 * needs): operands laid out with the case's offsets, leading dimensions and batch strides, every
 * element outside the matrices filled too, and the check against a plain loop in double with the
 * bound {@code (k + 2) * eps * (sum_p |a*b| + |beta*c|)} (and that no element outside C changed).
 */
final class GemmCase {
  final int batch;
  final boolean transA;
  final boolean transB;
  final int m;
  final int n;
  final int k;
  final int aOffset;
  final int lda;
  final int strideA;
  final int bOffset;
  final int ldb;
  final int strideB;
  final int cOffset;
  final int ldc;
  final int strideC;
  final double beta;
  final double[] a;
  final double[] b;
  final double[] c;

  /** A case with the given layout; {@code pad} elements follow every row and matrix. */
  GemmCase(long seed, int batch, boolean transA, boolean transB, int m, int n, int k, int pad,
      int offset, boolean sharedA, boolean interleavedC, double beta) {
    this.batch = batch;
    this.transA = transA;
    this.transB = transB;
    this.m = m;
    this.n = n;
    this.k = k;
    this.beta = beta;
    int rowsA = transA ? k : m;
    int colsA = transA ? m : k;
    int rowsB = transB ? n : k;
    int colsB = transB ? k : n;
    aOffset = offset;
    lda = Math.max(1, colsA + pad);
    strideA = sharedA ? 0 : rowsA * lda + pad;
    bOffset = offset + 1;
    ldb = Math.max(1, colsB + pad);
    strideB = rowsB * ldb + pad;
    cOffset = offset + 2;
    if (interleavedC) {
      strideC = n + pad;
      ldc = Math.max(1, batch * strideC);
    } else {
      ldc = Math.max(1, n + pad);
      strideC = m * ldc + pad;
    }
    Random random = new Random(seed);
    a = fill(random, aOffset + batch * (long) Math.max(strideA, rowsA * lda) + pad);
    b = fill(random, bOffset + batch * (long) strideB + pad);
    c = fill(random, cOffset + (interleavedC ? (long) m * ldc : batch * (long) strideC) + pad);
  }

  private static double[] fill(Random random, long length) {
    double[] values = new double[(int) length];
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextDouble() * 2 - 1;
    }
    return values;
  }

  /** Puts NaN in every element of every C matrix (what beta == 0 must not read). */
  void poisonC() {
    for (int q = 0; q < batch; q++) {
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          c[cIndex(q, i, j)] = Double.NaN;
        }
      }
    }
  }

  int cIndex(int q, int i, int j) {
    return cOffset + q * strideC + i * ldc + j;
  }

  double opA(double[] values, int q, int i, int p) {
    int base = aOffset + q * strideA;
    return transA ? values[base + p * lda + i] : values[base + i * lda + p];
  }

  double opB(double[] values, int q, int p, int j) {
    int base = bOffset + q * strideB;
    return transB ? values[base + j * ldb + p] : values[base + p * ldb + j];
  }

  static float[] floats(double[] values) {
    float[] f = new float[values.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) values[i];
    }
    return f;
  }

  static double[] doubles(float[] values) {
    double[] d = new double[values.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = values[i];
    }
    return d;
  }

  /**
   * Checks {@code result} (C after the product, as double) against the plain loop over {@code
   * aUsed}, {@code bUsed}, {@code cBefore} (the operands as the backend saw them) with machine
   * epsilon {@code eps}.
   */
  void check(String what, double[] aUsed, double[] bUsed, double[] cBefore, double[] result,
      double eps) {
    boolean[] inC = new boolean[result.length];
    for (int q = 0; q < batch; q++) {
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          int at = cIndex(q, i, j);
          inC[at] = true;
          double sum = 0;
          double magnitude = 0;
          for (int p = 0; p < k; p++) {
            double product = opA(aUsed, q, i, p) * opB(bUsed, q, p, j);
            sum += product;
            magnitude += Math.abs(product);
          }
          if (beta != 0) {
            sum += beta * cBefore[at];
            magnitude += Math.abs(beta * cBefore[at]);
          }
          double bound = (k + 2) * eps * magnitude;
          if (!(Math.abs(result[at] - sum) <= bound)) {
            fail(what + ": C[" + q + "][" + i + "][" + j + "] = " + result[at] + ", expected " + sum
                + " within " + bound);
          }
        }
      }
    }
    for (int at = 0; at < result.length; at++) {
      if (!inC[at] && Double.doubleToRawLongBits(result[at])
          != Double.doubleToRawLongBits(cBefore[at])) {
        fail(what + ": element " + at + " outside C changed from " + cBefore[at] + " to "
            + result[at]);
      }
    }
  }

  @Override
  public String toString() {
    return "batch " + batch + (transA ? " A^T" : " A") + (transB ? " B^T" : " B") + " m=" + m
        + " n=" + n + " k=" + k + " lda=" + lda + " ldb=" + ldb + " ldc=" + ldc + " strides "
        + strideA + "/" + strideB + "/" + strideC + " offset " + aOffset + " beta " + beta;
  }
}
