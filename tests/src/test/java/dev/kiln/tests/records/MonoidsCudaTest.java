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

  private static float[] filled(int n, float v) {
    float[] a = new float[n];
    java.util.Arrays.fill(a, v);
    return a;
  }
}
