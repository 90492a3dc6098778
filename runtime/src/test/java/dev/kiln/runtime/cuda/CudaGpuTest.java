package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.KilnException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CUDA runtime on a real GPU, with the kernels of {@code META-INF/kiln/dev/kiln/runtime/cuda/
 * TestKernels.{cu,ptx}}. Skipped, with the reason, where CUDA is not available.
 */
@Tag("gpu")
class CudaGpuTest {
  private static final String BASE = "dev/kiln/runtime/cuda/TestKernels";
  private static CudaDevice device;

  /** Per test, so that each is reported as skipped with the reason. */
  @BeforeEach
  void needsAGpu() {
    Assumptions.assumeTrue(CudaRuntime.available(),
        () -> "no CUDA here: " + CudaRuntime.unavailableReason());
    device = CudaRuntime.device();
  }

  private static CudaKernel kernel(String name) {
    return device.kernel(CudaGpuTest.class, BASE, name);
  }

  @Test
  void describesTheDevice() {
    assertSame(device, CudaRuntime.device());
    assertEquals(0, device.ordinal());
    assertFalse(device.name().isBlank());
    assertTrue(device.driverVersion() >= 11000, "driver " + device.driverVersion());
    assertTrue(device.computeCapability() >= 50, "cc " + device.computeCapability());
    assertTrue(device.multiprocessors() > 0 && device.totalMemory() > 0);
    assertTrue(device.limits().maxGridX() >= 65535);
    assertTrue(device.toString().contains(device.name()));
  }

  @Test
  void arraysRoundTrip() {
    float[] f = new float[1 << 20];
    double[] d = new double[1000];
    int[] i = new int[77];
    for (int k = 0; k < f.length; k++) {
      f[k] = k * 0.5f - 3;
    }
    for (int k = 0; k < d.length; k++) {
      d[k] = Math.sin(k);
    }
    for (int k = 0; k < i.length; k++) {
      i[k] = k * k - 40;
    }
    try (DeviceFloatArray df = device.upload(f);
        DeviceDoubleArray dd = device.upload(d);
        DeviceIntArray di = device.upload(i);
        DeviceFloatArray empty = device.upload(new float[0])) {
      assertEquals(f.length, df.length());
      assertArrayEquals(f, df.download());
      assertArrayEquals(d, dd.download());
      int[] back = new int[i.length];
      di.download(back);
      assertArrayEquals(i, back);
      assertEquals(0, empty.download().length);
      di.zero();
      assertArrayEquals(new int[i.length], di.download());
    }
  }

  @Test
  void mapKernel() {
    int n = 100_003;
    float[] x = new float[n];
    for (int k = 0; k < n; k++) {
      x[k] = k % 1000 - 500;
    }
    try (DeviceFloatArray dx = device.upload(x); DeviceFloatArray dy = device.allocFloats(n)) {
      CudaKernel k = kernel("axpb_map");
      assertEquals("axpb_map", k.name());
      assertEquals("dev.kiln.runtime.cuda.TestKernels.axpb_map", k.qualifiedName());
      assertSame(k, kernel("axpb_map"));
      k.launchMap(null, n, (long) n, 2f, dx, 0.5f, dy);
      float[] y = dy.download();
      for (int i = 0; i < n; i++) {
        assertEquals(2f * x[i] + 0.5f, y[i], 0f, "y[" + i + "]");
      }
      k.launchMap(device.defaultStream(), 0, 0L, 2f, dx, 0.5f, dy);
    }
  }

  @Test
  void gridKernelIn2dWithABoolean() {
    int r = 300;
    int c = 70;
    try (DeviceIntArray out = device.allocInts((long) r * c)) {
      for (boolean negate : new boolean[] {false, true}) {
        kernel("index2d").launchGrid(null, new long[] {r, c}, r, c, negate, out);
        int[] v = out.download();
        for (int i = 0; i < r; i++) {
          for (int j = 0; j < c; j++) {
            int expected = i * 1000 + j;
            assertEquals(negate ? -expected : expected, v[i * c + j], "out[" + i + ", " + j + "]");
          }
        }
      }
    }
  }

  @Test
  void gridKernelIn4d() {
    int a = 3;
    int b = 5;
    int c = 17;
    int d = 33;
    try (DeviceDoubleArray out = device.allocDoubles((long) a * b * c * d)) {
      out.zero();
      kernel("index4d").launchGrid(null, new long[] {a, b, c, d}, a, b, c, d, out);
      double[] v = out.download();
      for (int i = 0; i < v.length; i++) {
        assertEquals(i, v[i], 0.0, "out[" + i + "]");
      }
    }
  }

  @Test
  void reducingKernel() {
    int rows = 37;
    int cols = 1000;
    double[] x = new double[rows * cols];
    double[] expected = new double[rows];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        x[i * cols + j] = (i + 1) * (j % 7);
        expected[i] += x[i * cols + j];
      }
    }
    try (DeviceDoubleArray dx = device.upload(x); DeviceDoubleArray s = device.allocDoubles(rows)) {
      s.zero();
      kernel("rowSums").launchReducing(null, rows, rows, cols, dx, s);
      assertArrayEquals(expected, s.download(), 0.0);
    }
  }

  @Test
  void streams() {
    try (CudaStream stream = device.newStream();
        DeviceFloatArray x = device.upload(new float[] {1, 2, 3});
        DeviceFloatArray y = device.allocFloats(3)) {
      assertFalse(stream.isDefault());
      kernel("axpb_map").launchMap(stream, 3, 3L, -1f, x, 0f, y);
      stream.synchronize();
      assertArrayEquals(new float[] {-1, -2, -3}, y.download());
      stream.close();
      stream.close();
      assertThrows(IllegalStateException.class, stream::synchronize);
      assertThrows(IllegalStateException.class,
          () -> kernel("axpb_map").launchMap(stream, 3, 3L, -1f, x, 0f, y));
    }
    device.defaultStream().close();
    device.defaultStream().synchronize();
    device.synchronize();
  }

  @Test
  void usableFromAnotherThread() throws InterruptedException {
    AtomicReference<Object> result = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try (DeviceIntArray a = device.upload(new int[] {4, 5, 6})) {
        result.set(a.download());
      } catch (Throwable e) {
        result.set(e);
      }
    });
    t.start();
    t.join();
    assertArrayEquals(new int[] {4, 5, 6}, (int[]) result.get(), String.valueOf(result.get()));
  }

  @Test
  void outOfMemoryIsAKilnException() {
    KilnException e = assertThrows(KilnException.class, () -> device.allocFloats(1L << 50));
    assertTrue(e.getMessage().startsWith("could not allocate " + CudaErrors.bytes(4L << 50) + " on "
        + device.description() + ": CUDA_ERROR_OUT_OF_MEMORY"), e.getMessage());
  }

  @Test
  void wrongNamesAndArgumentsAreClearErrors() {
    KilnException noKernel = assertThrows(KilnException.class, () -> kernel("nope"));
    assertTrue(noKernel.getMessage().contains("no kernel 'nope'")
        && noKernel.getMessage().contains("axpb_map"), noKernel.getMessage());
    KilnException noModule = assertThrows(KilnException.class,
        () -> device.kernel(CudaGpuTest.class, "dev/kiln/runtime/cuda/Missing", "k"));
    assertTrue(noModule.getMessage().contains("neither"), noModule.getMessage());
    try (DeviceFloatArray x = device.allocFloats(4)) {
      IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
          () -> kernel("axpb_map").launchMap(null, 4, 4, 2f, x, 0f, x));
      assertTrue(wrong.getMessage().contains("argument 0"), wrong.getMessage());
    }
  }

  @Test
  void countsAndTimesLaunches() {
    boolean timing = device.timing();
    try (DeviceFloatArray x = device.allocFloats(1 << 16)) {
      device.resetStats();
      device.setTiming(true);
      for (int i = 0; i < 5; i++) {
        kernel("axpb_map").launchMap(null, 1 << 16, 1L << 16, 1f, x, 0f, x);
      }
      kernel("axpb_map").launchMap(null, 0, 0L, 1f, x, 0f, x);
      LaunchStats stats = device.stats();
      assertEquals(5, stats.launches());
      assertEquals(5, stats.launches("axpb_map"));
      assertEquals(5, stats.launches("dev.kiln.runtime.cuda.TestKernels.axpb_map"));
      assertTrue(stats.millis("axpb_map") > 0, stats.format());
      assertTrue(stats.timing());
      device.resetStats();
      assertEquals(0, device.stats().launches());
    } finally {
      device.setTiming(timing);
    }
  }

  @Test
  void compilesSourceOnlyKernelsWithNvrtc() {
    String base = "dev/kiln/runtime/cuda/SourceOnlyKernels";
    CudaKernel k;
    try {
      k = device.kernel(CudaGpuTest.class, base, "axpb_source_map");
    } catch (KilnException e) {
      Assumptions.assumeFalse(e.getMessage().contains("NVRTC, which would compile"),
          () -> "no NVRTC here: " + e.getMessage());
      throw e;
    }
    assertNotNull(device.moduleOrigin(base));
    assertTrue(device.moduleOrigin(base).contains("NVRTC"), device.moduleOrigin(base));
    try (DeviceFloatArray x = device.upload(new float[] {1, 2}); DeviceFloatArray y = device.allocFloats(2)) {
      k.launchMap(null, 2, 2L, 10f, x, 1f, y);
      assertArrayEquals(new float[] {11, 21}, y.download());
    }
  }
}
