package dev.kiln.tests.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.runtime.cuda.CudaDevice;
import dev.kiln.runtime.cuda.CudaRuntime;
import dev.kiln.runtime.cuda.CudaStream;
import dev.kiln.runtime.cuda.DeviceFloatArray;
import dev.kiln.runtime.cuda.DeviceIntArray;
import dev.kiln.tests.Data;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * User monoids on CUDA: a {@code @Reduce} array of records is one device array per component;
 * chunks of workers fold into private partial records ({@code <op>_partials}, each starting at the
 * record's {@code @Identity}), and {@code <op>_fold} combines the output's record and the chunks'
 * in chunk order with the record's method. Compared with the plain Java: an exact monoid bit for
 * bit, floating-point ones within rounding. Run on the emulated driver by {@code EmulatedGpuTest};
 * skipped, saying why, where there is no CUDA device.
 */
@Tag("gpu")
class MonoidsCudaTest {
  private CudaDevice device;

  @BeforeEach
  void needsCuda() {
    assumeTrue(CudaRuntime.available(), () -> "no CUDA here: " + CudaRuntime.unavailableReason());
    device = CudaRuntime.device();
  }

  @Test
  void welfordAndArgMaxOverAllWorkers() {
    int n = 300_000;
    float[] x = Data.floats(21, n, 9999f, 10001f);
    x[1234] = 2e4f;
    x[250_000] = 2e4f;
    MeanVar[] plain = {MeanVar.empty()};
    Monoids.meanVar(n, x, plain);
    ArgMax[] plainMax = {ArgMax.none()};
    Monoids.argMax(n, x, plainMax);
    CudaStream s = device.defaultStream();
    try (DeviceFloatArray dx = device.upload(x);
        DeviceFloatArray count = device.upload(new float[1]);
        DeviceFloatArray mean = device.upload(new float[1]);
        DeviceFloatArray m2 = device.upload(new float[1]);
        DeviceFloatArray value = device.upload(new float[1]);
        DeviceIntArray index = device.upload(new int[] {-1})) {
      MonoidsKernels.meanVar(s, n, dx, count, mean, m2);
      MonoidsKernels.argMax(s, n, dx, value, index);
      MeanVar got = new MeanVar(count.download()[0], mean.download()[0], m2.download()[0]);
      assertEquals(n, got.n(), "the count is exact");
      double[] exact = MonoidsTest.exact(x, 0, n, 1);
      // chunks of Welford combined by Chan: closer than the plain loop's float Welford, whose
      // updates d / n fall below the mean's last bit as n grows
      assertEquals(exact[1], got.mean(), 1e-2);
      assertEquals(exact[2], got.variance(), exact[2] * 1e-3);
      assertEquals(plain[0].n(), got.n());
      assertEquals(plainMax[0], new ArgMax(value.download()[0], index.download()[0]), "an exact monoid: the loop's answer");
    }
  }

  @Test
  void topThreeOverAllWorkersAndByRows() {
    int n = 300_000;
    float[] x = Data.floats(23, n, -1f, 1f);
    x[250_000] = 7f;
    x[17] = 7f;
    x[123_456] = 6f;
    Top3[] plain = {Top3.none()};
    Monoids.top3(n, x, plain);
    int b = 50;
    int cols = n / b;
    Top3[] plainRows = MonoidsTest.noTop3s(b);
    Monoids.rowTop3(b, cols, x, plainRows);
    CudaStream s = device.defaultStream();
    try (DeviceFloatArray dx = device.upload(x);
        DeviceFloatArray v0 = device.upload(new float[1]);
        DeviceIntArray i0 = device.upload(new int[] {-1});
        DeviceFloatArray v1 = device.upload(new float[1]);
        DeviceIntArray i1 = device.upload(new int[] {-1});
        DeviceFloatArray v2 = device.upload(new float[1]);
        DeviceIntArray i2 = device.upload(new int[] {-1});
        DeviceFloatArray rv0 = device.upload(new float[b]);
        DeviceIntArray ri0 = device.upload(filled(b, -1));
        DeviceFloatArray rv1 = device.upload(new float[b]);
        DeviceIntArray ri1 = device.upload(filled(b, -1));
        DeviceFloatArray rv2 = device.upload(new float[b]);
        DeviceIntArray ri2 = device.upload(filled(b, -1))) {
      MonoidsKernels.top3(s, n, dx, v0, i0, v1, i1, v2, i2);
      MonoidsKernels.rowTop3(s, b, cols, dx, rv0, ri0, rv1, ri1, rv2, ri2);
      Top3 got = new Top3(v0.download()[0], i0.download()[0], v1.download()[0], i1.download()[0], v2.download()[0],
          i2.download()[0]);
      assertEquals(plain[0], got, "an exact monoid: the loop's answer");
      assertEquals(new Top3(7f, 17, 7f, 250_000, 6f, 123_456), got);
      float[] a0 = rv0.download();
      int[] b0 = ri0.download();
      float[] a1 = rv1.download();
      int[] b1 = ri1.download();
      float[] a2 = rv2.download();
      int[] b2 = ri2.download();
      for (int r = 0; r < b; r++) {
        assertEquals(plainRows[r], new Top3(a0[r], b0[r], a1[r], b1[r], a2[r], b2[r]), "row " + r);
      }
    }
  }

  private static int[] filled(int n, int value) {
    int[] a = new int[n];
    java.util.Arrays.fill(a, value);
    return a;
  }

  @Test
  void rowsColumnsAndBucketsAgree() {
    int b = 64;
    int n = 500;
    float[] x = Data.floats(22, b * n, 1f, 5f);
    MeanVar[] rows = new MeanVar[b];
    java.util.Arrays.fill(rows, MeanVar.empty());
    Monoids.rowMeanVar(b, n, x, rows);
    MeanVar[] cols = new MeanVar[n];
    java.util.Arrays.fill(cols, MeanVar.empty());
    Monoids.columnMeanVar(b, n, x, cols);
    int[] bucket = new int[b * n];
    for (int i = 0; i < bucket.length; i++) {
      bucket[i] = (i * 7) % 11;
    }
    LogSumExp[] lse = new LogSumExp[11];
    java.util.Arrays.fill(lse, LogSumExp.empty());
    MeanVar[] all = {MeanVar.empty()};
    Monoids.bucketLogSumExp(b * n, 11, x, bucket, lse, all);
    CudaStream s = device.defaultStream();
    try (DeviceFloatArray dx = device.upload(x);
        DeviceIntArray db = device.upload(bucket);
        DeviceFloatArray rn = device.upload(new float[b]);
        DeviceFloatArray rm = device.upload(new float[b]);
        DeviceFloatArray rv = device.upload(new float[b]);
        DeviceFloatArray cn = device.upload(new float[n]);
        DeviceFloatArray cm = device.upload(new float[n]);
        DeviceFloatArray cv = device.upload(new float[n]);
        DeviceFloatArray lmax = device.upload(filled(11, LogSumExp.empty().max()));
        DeviceFloatArray lsum = device.upload(new float[11]);
        DeviceFloatArray an = device.upload(new float[1]);
        DeviceFloatArray am = device.upload(new float[1]);
        DeviceFloatArray av = device.upload(new float[1])) {
      MonoidsKernels.rowMeanVar(s, b, n, dx, rn, rm, rv);
      MonoidsKernels.columnMeanVar(s, b, n, dx, cn, cm, cv);
      MonoidsKernels.bucketLogSumExp(s, b * n, 11, dx, db, lmax, lsum, an, am, av);
      float[][] r = {rn.download(), rm.download(), rv.download()};
      for (int i = 0; i < b; i++) {
        assertEquals(rows[i].n(), r[0][i], "row " + i);
        assertEquals(rows[i].mean(), r[1][i], 1e-4f, "row " + i);
        assertEquals(rows[i].m2(), r[2][i], rows[i].m2() * 1e-3f, "row " + i);
      }
      float[][] c = {cn.download(), cm.download(), cv.download()};
      for (int k = 0; k < n; k++) {
        assertEquals(cols[k].n(), c[0][k], "column " + k);
        assertEquals(cols[k].mean(), c[1][k], 1e-4f, "column " + k);
        assertEquals(cols[k].m2(), c[2][k], cols[k].m2() * 1e-3f, "column " + k);
      }
      float[] mx = lmax.download();
      float[] sm = lsum.download();
      for (int j = 0; j < 11; j++) {
        LogSumExp got = new LogSumExp(mx[j], sm[j]);
        assertEquals(lse[j].max(), got.max(), "bucket " + j);
        assertEquals(lse[j].value(), got.value(), 1e-4f * Math.abs(lse[j].value()), "bucket " + j);
      }
      assertEquals(b * n, an.download()[0]);
    }
  }

  @Test
  void aBucketOutsideTheArrayThrowsAsInJava() {
    int n = 1000;
    int[] bucket = new int[n];
    bucket[700] = 3;
    CudaStream s = device.defaultStream();
    try (DeviceFloatArray dx = device.upload(Data.floats(23, n, -1f, 1f));
        DeviceIntArray db = device.upload(bucket);
        DeviceFloatArray lmax = device.upload(filled(3, LogSumExp.empty().max()));
        DeviceFloatArray lsum = device.upload(new float[3]);
        DeviceFloatArray an = device.upload(new float[1]);
        DeviceFloatArray am = device.upload(new float[1]);
        DeviceFloatArray av = device.upload(new float[1])) {
      ArrayIndexOutOfBoundsException e = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> MonoidsKernels.bucketLogSumExp(s, n, 3, dx, db, lmax, lsum, an, am, av));
      assertEquals(true, e.getMessage().contains("bucketLogSumExp"), e.getMessage());
      assertEquals(0f, an.download()[0], "nothing is folded into the outputs");
    }
  }

  @Test
  void wideComponentsOnTheDevice() {
    int n = 200_000;
    float[] x = Data.floats(26, n, -0.75f, 1.25f);
    Tally[] plain = {Tally.none(), Tally.none()};
    Monoids.tallyBySign(n, x, plain);
    CudaStream s = device.defaultStream();
    try (DeviceFloatArray dx = device.upload(x);
        dev.kiln.runtime.cuda.DeviceLongArray count = device.upload(new long[2]);
        dev.kiln.runtime.cuda.DeviceDoubleArray sum = device.upload(new double[2])) {
      MonoidsKernels.tallyBySign(s, n, dx, count, sum);
      long[] c = count.download();
      double[] t = sum.download();
      for (int k = 0; k < 2; k++) {
        assertEquals(plain[k].n(), c[k], "side " + k);
        assertEquals(plain[k].sum(), t[k], 1e-9 * Math.abs(plain[k].sum()), "side " + k);
      }
    }
  }

  /** Arrays of records in and out of a kernel on the device: one device array a component. */
  @Test
  void recordArraysInAndOut() {
    int n = 5000;
    float[] re = Data.floats(24, n, -1f, 1f);
    float[] im = Data.floats(25, n, -1f, 1f);
    Complex[] z = RecordArraysTest.complexes(re, im);
    Complex[] w = new Complex[n];
    RecordArrays.complexAffine(n, z, 0.5f, -2f, w);
    CudaStream s = device.defaultStream();
    try (DeviceFloatArray zr = device.upload(re);
        DeviceFloatArray zi = device.upload(im);
        DeviceFloatArray wr = device.allocFloats(n);
        DeviceFloatArray wi = device.allocFloats(n)) {
      RecordArraysKernels.complexAffine(s, n, zr, zi, 0.5f, -2f, wr, wi);
      float[] gotRe = wr.download();
      float[] gotIm = wi.download();
      for (int i = 0; i < n; i++) {
        assertEquals(w[i].re(), gotRe[i], 1e-6f, "re " + i);
        assertEquals(w[i].im(), gotIm[i], 1e-6f, "im " + i);
      }
    }
  }

  /** Derived gradients through @ElementGradient methods on the device, against the CPU kernels. */
  @Test
  void gradientsThroughMonoids() {
    int n = 20_000;
    int k = 5;
    float[] x = Data.floats(26, n, -3f, 3f);
    int[] bucket = new int[n];
    for (int i = 0; i < n; i++) {
      bucket[i] = (i * 13) % k;
    }
    MeanVar[] all = MonoidsTest.empties(1);
    float[][] l = MonoidGradientsTest.bucketLogSumExp(n, k, x, bucket, all);
    float[] lmax = l[0];
    float[] lsum = l[1];
    float[] dmax = Data.floats(27, k, -1f, 1f);
    float[] dsum = Data.floats(28, k, -1f, 1f);
    float[][] stats = {{all[0].n()}, {all[0].mean()}, {all[0].m2()}};
    float[][] dstats = {{0.1f}, {0.9f}, {-0.35f}};
    float[] want = new float[n];
    MonoidsKernels.bucketLogSumExpGrad(n, k, x, bucket, lmax, lsum, stats[0], stats[1], stats[2], dmax, dsum,
        dstats[0], dstats[1], dstats[2], want);
    CudaStream s = device.defaultStream();
    try (DeviceFloatArray dx = device.upload(x);
        DeviceIntArray db = device.upload(bucket);
        DeviceFloatArray dlmax = device.upload(lmax);
        DeviceFloatArray dlsum = device.upload(lsum);
        DeviceFloatArray sn = device.upload(stats[0]);
        DeviceFloatArray sm = device.upload(stats[1]);
        DeviceFloatArray s2 = device.upload(stats[2]);
        DeviceFloatArray gmax = device.upload(dmax);
        DeviceFloatArray gsum = device.upload(dsum);
        DeviceFloatArray gn = device.upload(dstats[0]);
        DeviceFloatArray gm = device.upload(dstats[1]);
        DeviceFloatArray g2 = device.upload(dstats[2]);
        DeviceFloatArray out = device.allocFloats(n)) {
      MonoidsKernels.bucketLogSumExpGrad(s, n, k, dx, db, dlmax, dlsum, sn, sm, s2, gmax, gsum, gn, gm, g2, out);
      float[] got = out.download();
      for (int i = 0; i < n; i++) {
        assertEquals(want[i], got[i], 1e-5f * Math.max(1f, Math.abs(want[i])), "dx " + i);
      }
    }
  }

  private static float[] filled(int n, float v) {
    float[] a = new float[n];
    java.util.Arrays.fill(a, v);
    return a;
  }

  @Test
  void compositesKeepTheirStatisticsInDeviceTemporaries() {
    int b = 40;
    int n = 3000;
    float[] x = Data.floats(27, b * n, 99f, 101f);
    float[] plain = new float[b * n];
    MonoidComposites.rowStandardize(b, n, x, plain);
    int m = 50_000;
    float[] v = Data.floats(28, m, -9f, -1f);
    v[31_337] = -0.5f;
    float[] plainHot = new float[m];
    MonoidComposites.oneHotOfMax(m, v, plainHot);
    CudaStream s = device.defaultStream();
    try (DeviceFloatArray dx = device.upload(x);
        DeviceFloatArray dy = device.upload(new float[b * n]);
        DeviceFloatArray dv = device.upload(v);
        DeviceFloatArray hot = device.upload(new float[m])) {
      MonoidCompositesKernels.rowStandardize(s, b, n, dx, dy);
      MonoidCompositesKernels.oneHotOfMax(s, m, dv, hot);
      float[] got = dy.download();
      for (int i = 0; i < got.length; i++) {
        // one device thread a row folds the row's records in the source's order, as the plain Java does
        assertEquals(plain[i], got[i], 1e-5, "element " + i);
      }
      org.junit.jupiter.api.Assertions.assertArrayEquals(plainHot, hot.download(),
          "the arg-max's identity (index -1) is stored on the device before the reduction");
    }
    // the composite's own @Out array of records, one device array a component
    MeanVar[] stats = new MeanVar[b];
    float[] plainY = new float[b * n];
    MonoidComposites.rowStandardizeWithStats(b, n, x, plainY, stats);
    try (DeviceFloatArray dx = device.upload(x);
        DeviceFloatArray dy = device.upload(new float[b * n]);
        DeviceFloatArray count = device.upload(new float[b]);
        DeviceFloatArray mean = device.upload(new float[b]);
        DeviceFloatArray m2 = device.upload(new float[b])) {
      MonoidCompositesKernels.rowStandardizeWithStats(s, b, n, dx, dy, count, mean, m2);
      float[] c = count.download();
      float[] mu = mean.download();
      float[] sq = m2.download();
      for (int r = 0; r < b; r++) {
        assertEquals(stats[r], new MeanVar(c[r], mu[r], sq[r]), "row " + r);
      }
      float[] got = dy.download();
      for (int i = 0; i < got.length; i++) {
        assertEquals(plainY[i], got[i], 1e-5, "element " + i);
      }
    }
  }

  /**
   * A record over all workers and the root of its variance in one kernel's form: on the device the
   * fold kernel's one thread combines the chunks' records, then runs the root.
   */
  @Test
  void aTotalRecordsScalarEpilogueRunsInTheFoldKernel() {
    for (int n : new int[] {1, 7, 300_000}) {
      float[] x = Data.floats(29 + n, n, 9f, 11f);
      float[] plain = {Float.NaN};
      MonoidComposites.spread(n, x, plain);
      try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray out = device.upload(new float[] {Float.NaN})) {
        MonoidCompositesKernels.spread(device.defaultStream(), n, dx, out);
        assertEquals(plain[0], out.download()[0], 1e-4f * Math.max(1f, plain[0]), "N=" + n);
      }
    }
  }

  /** The library's monoid operators, read from its jar's IR and fused here, on the device. */
  @Test
  void libraryMonoidsFromAnotherJar() {
    int b = 300;
    int n = 700;
    float[] x = Data.floats(29, b * n, 99f, 101f);
    float[] plain = new float[n];
    LibraryMonoids.columnDeviations(b, n, x, plain);
    try (DeviceFloatArray dx = device.upload(x);
        DeviceFloatArray out = device.upload(new float[n])) {
      LibraryMonoidsKernels.columnDeviations(device.defaultStream(), b, n, dx, out);
      float[] got = out.download();
      for (int i = 0; i < n; i++) {
        // one device thread a column folds the column's records in the source's order
        assertEquals(plain[i], got[i], 1e-5, "column " + i);
      }
    }
  }
}
