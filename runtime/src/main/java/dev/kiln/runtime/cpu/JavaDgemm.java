package dev.kiln.runtime.cpu;

/**
 * The pure-Java double-precision product behind {@link Gemm} when OpenBLAS cannot load, when
 * {@code -Dkiln.blas=java}, and for products too small to pay for a native call.
 *
 * <p>Blocked as in GotoBLAS: for each {@value #NC}-column panel of C and each {@value #KC}-deep
 * slice of the sum, B's slice is packed into {@value #KC} row arrays (the panel stays in L2) and
 * A's rows into {@value #MC}-row blocks; a kernel then adds four k-steps of one row at a time into
 * that row's accumulator, a {@value #NC}-double array of its own, which is added into C once the
 * whole sum is done. Why arrays of their own: C2 (JDK 17) vectorises {@code t[j] += x*u[j] + y*v[j]
 * + ...} only when every array is indexed by the bare loop variable; the same loop over {@code
 * c[c0 + j]} and {@code b[b0 + j]}, or over several rows of one array, stays scalar (measured on
 * AVX-512: 50 GFLOP/s a core against 15). The packed depth is padded to a multiple of four with
 * zeros in both panels, so the kernel has no remainder in k (0*0 adds nothing to a sum).
 *
 * <p>Work is split over rows of C (over columns when C is wider than it is tall) through {@link
 * CpuExecutor}; each task packs its own panels. {@link JavaSgemm} is the same code in float:
 * change both together.
 */
final class JavaDgemm {
  static final int KC = 128;
  static final int NC = 256;
  static final int MC = 128;
  static final int ROW_GROUP = 4 * MC;
  private static final int COLUMN_UNIT = 64;

  private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

  private JavaDgemm() {}

  /** {@code C += opA(A) * opB(B)}, C already scaled by beta; every size positive, arguments checked. */
  static void multiplyAdd(boolean transA, boolean transB, int m, int n, int k, double[] a, int aOffset,
      int lda, double[] b, int bOffset, int ldb, double[] c, int cOffset, int ldc, boolean parallel) {
    if (!parallel) {
      block(transA, transB, k, a, aOffset, lda, b, bOffset, ldb, c, cOffset, ldc, 0, m, 0, n);
    } else if (m >= n) {
      int units = (m + 3) / 4;
      CpuExecutor.parallelFor(units, 4L * n * k, (chunk, lo, hi) -> block(transA, transB, k, a,
          aOffset, lda, b, bOffset, ldb, c, cOffset, ldc, lo * 4, Math.min(m, hi * 4), 0, n));
    } else {
      int units = (n + COLUMN_UNIT - 1) / COLUMN_UNIT;
      CpuExecutor.parallelFor(units, (long) COLUMN_UNIT * m * k, (chunk, lo, hi) -> block(transA,
          transB, k, a, aOffset, lda, b, bOffset, ldb, c, cOffset, ldc, 0, m, lo * COLUMN_UNIT,
          Math.min(n, hi * COLUMN_UNIT)));
    }
  }

  /**
   * Rows {@code [i0, i1)} and columns {@code [j0, j1)} of C, on the calling thread, in groups of
   * {@value #ROW_GROUP} rows (which bounds the row sums a thread keeps).
   */
  private static void block(boolean transA, boolean transB, int k, double[] a, int aOffset, int lda,
      double[] b, int bOffset, int ldb, double[] c, int cOffset, int ldc, int i0, int i1, int j0,
      int j1) {
    for (int ig = i0; ig < i1; ig += ROW_GROUP) {
      rows(transA, transB, k, a, aOffset, lda, b, bOffset, ldb, c, cOffset, ldc, ig,
          Math.min(i1, ig + ROW_GROUP), j0, j1);
    }
  }

  private static void rows(boolean transA, boolean transB, int k, double[] a, int aOffset, int lda,
      double[] b, int bOffset, int ldb, double[] c, int cOffset, int ldc, int i0, int i1, int j0,
      int j1) {
    Buffers buffers = BUFFERS.get();
    double[] ap = buffers.aPanel;
    double[][] bRows = buffers.bRows;
    double[][] sums = buffers.sums(i1 - i0);
    for (int jc = j0; jc < j1; jc += NC) {
      int nc = Math.min(NC, j1 - jc);
      for (int pc = 0; pc < k; pc += KC) {
        int kc = Math.min(KC, k - pc);
        int kp = (kc + 3) & ~3;
        packB(transB, b, bOffset, ldb, pc, kc, kp, jc, nc, bRows);
        for (int ic = i0; ic < i1; ic += MC) {
          int mc = Math.min(MC, i1 - ic);
          packA(transA, a, aOffset, lda, ic, mc, pc, kc, kp, ap);
          for (int i = 0; i < mc; i++) {
            kernel(ap, i * kp, kp, bRows, nc, sums[ic - i0 + i]);
          }
        }
      }
      for (int i = i0; i < i1; i++) {
        double[] sum = sums[i - i0];
        int row = cOffset + i * ldc + jc;
        for (int j = 0; j < nc; j++) {
          c[row + j] += sum[j];
        }
        java.util.Arrays.fill(sum, 0, nc, 0d);
      }
    }
  }

  /** {@code bRows[p][j] = opB(pc+p, jc+j)}, rows {@code kc..kp-1} zero. */
  private static void packB(boolean transB, double[] b, int bOffset, int ldb, int pc, int kc, int kp,
      int jc, int nc, double[][] bRows) {
    if (!transB) {
      for (int p = 0; p < kc; p++) {
        System.arraycopy(b, bOffset + (pc + p) * ldb + jc, bRows[p], 0, nc);
      }
    } else {
      for (int j = 0; j < nc; j++) {
        int from = bOffset + (jc + j) * ldb + pc;
        for (int p = 0; p < kc; p++) {
          bRows[p][j] = b[from + p];
        }
      }
    }
    for (int p = kc; p < kp; p++) {
      java.util.Arrays.fill(bRows[p], 0, nc, 0d);
    }
  }

  /** {@code ap[i*kp + p] = opA(ic+i, pc+p)}, columns {@code kc..kp-1} zero. */
  private static void packA(boolean transA, double[] a, int aOffset, int lda, int ic, int mc, int pc,
      int kc, int kp, double[] ap) {
    if (!transA) {
      for (int i = 0; i < mc; i++) {
        System.arraycopy(a, aOffset + (ic + i) * lda + pc, ap, i * kp, kc);
      }
    } else {
      for (int p = 0; p < kc; p++) {
        int from = aOffset + (pc + p) * lda + ic;
        for (int i = 0; i < mc; i++) {
          ap[i * kp + p] = a[from + i];
        }
      }
    }
    if (kp > kc) {
      for (int i = 0; i < mc; i++) {
        java.util.Arrays.fill(ap, i * kp + kc, i * kp + kp, 0d);
      }
    }
  }

  /** {@code sum[j] += sum_p ap[a0 + p] * bRows[p][j]} over the packed depth {@code kp}. */
  private static void kernel(double[] ap, int a0, int kp, double[][] bRows, int nc, double[] sum) {
    for (int p = 0; p < kp; p += 4) {
      double x = ap[a0 + p];
      double y = ap[a0 + p + 1];
      double z = ap[a0 + p + 2];
      double w = ap[a0 + p + 3];
      double[] u = bRows[p];
      double[] v = bRows[p + 1];
      double[] s = bRows[p + 2];
      double[] t = bRows[p + 3];
      for (int j = 0; j < nc; j++) {
        sum[j] += x * u[j] + y * v[j] + z * s[j] + w * t[j];
      }
    }
  }

  /** One thread's packed panels and row sums, the sums grown to the most rows a task had. */
  private static final class Buffers {
    final double[] aPanel = new double[MC * KC];
    final double[][] bRows = new double[KC][NC];
    private double[][] sums = new double[0][];

    double[][] sums(int rows) {
      if (sums.length < rows) {
        double[][] grown = java.util.Arrays.copyOf(sums, rows);
        for (int i = sums.length; i < rows; i++) {
          grown[i] = new double[NC];
        }
        sums = grown;
      }
      return sums;
    }
  }
}
