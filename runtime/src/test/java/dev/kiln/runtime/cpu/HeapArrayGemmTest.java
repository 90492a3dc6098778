package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JNI shim that lets OpenBLAS multiply Java arrays in place: that the build made it where it
 * could, that products use it, and that they give the staged path's bits ({@link
 * GemmAgreementTest} checks both paths against a plain loop, with offsets and gaps).
 */
class HeapArrayGemmTest {
  private static final String SHIM = "/dev/kiln/runtime/cpu/native/linux-x86_64/libkilnblas.so";

  @AfterEach
  void backInPlace() {
    HeapArrayGemm.useInPlace(true);
  }

  /** A build on Linux x86_64 with a C compiler must ship the shim (the script never fails it). */
  @Test
  void theBuildShipsTheShimWhereItHadACompiler() {
    assumeTrue(BlasBackendTest.nativesShipped(), "the shim is built for linux-x86_64 here");
    assumeTrue(onPath("cc") || onPath("gcc") || onPath("clang"), "no C compiler on PATH");
    assertNotNull(HeapArrayGemm.class.getResource(SHIM),
        "runtime/src/main/native/build.sh did not build " + SHIM + " though a C compiler is here;"
            + " its output in the Maven log says why");
  }

  @Test
  void productsRunInPlaceWhereTheShimIs() {
    assumeTrue(BlasBackendTest.nativesShipped(), "the build ships OpenBLAS natives for linux-x86_64 only");
    assumeTrue(HeapArrayGemm.class.getResource(SHIM) != null, "the build had no C compiler");
    assumeTrue(System.getProperty(HeapArrayGemm.PROPERTY) == null, "-Dkiln.blas.arrays is set");
    assumeTrue(System.getProperty(BlasBackend.PROPERTY) == null, "-Dkiln.blas is set");
    String backend = Gemm.backend();
    assertTrue(backend.contains("in place on the Java arrays"), backend);
    assertTrue(HeapArrayGemm.state().direct());
  }

  /**
   * With {@code -Dkiln.blas.threading=shared} (in a child JVM: the choice is made once a JVM),
   * OpenBLAS divides each product among the caller and the shim's worker, and products from four
   * Java threads at once each equal the product alone.
   */
  @Test
  void sharedThreadsDivideProductsAndKeepEachCallersResult(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path log = dir.resolve("child.log");
    assumeTrue(BlasBackendTest.nativesShipped(), "the build ships OpenBLAS natives for linux-x86_64 only");
    assumeTrue(HeapArrayGemm.class.getResource(SHIM) != null, "the build had no C compiler");
    java.nio.file.Path javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java");
    Process process = new ProcessBuilder(List.of(javaBin.toString(), "-Dkiln.blas=openblas",
        "-Dkiln.blas.threading=shared",
        "-Dkiln.cpu.threads=2", "-cp", System.getProperty("java.class.path"), SharedProducts.class.getName()))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    if (!process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("the child JVM did not finish in 120 s (a product hung?):\n" + java.nio.file.Files.readString(log));
    }
    String text = java.nio.file.Files.readString(log);
    assertEquals(0, process.exitValue(), text);
    assertTrue(text.contains("openblas (2 threads, shared: OpenBLAS divides each product among the caller"
        + " and Kiln's 1 native worker; in place on the Java arrays)"), text);
    assertTrue(text.contains("4 callers x 20 products: each equal to its product alone"), text);
  }

  /** The child of {@link #sharedThreadsDivideProductsAndKeepEachCallersResult}. */
  static final class SharedProducts {
    public static void main(String[] args) throws Exception {
      System.out.println(Gemm.backend());
      productsFromSeveralThreads(4, 20);
      System.out.println("4 callers x 20 products: each equal to its product alone");
    }
  }

  /**
   * Products from several Java threads at once, each divided among the shim's workers, one at a
   * time: each C is what the same product gives alone.
   */
  @Test
  void productsFromSeveralThreadsAtOnceEachGetTheirOwnResult() throws Exception {
    assumeTrue(BlasBackendTest.nativesShipped(), "the build ships OpenBLAS natives for linux-x86_64 only");
    Gemm.backend();
    productsFromSeveralThreads(4, 20);
  }

  /** {@code callers} threads each run {@code rounds} products at once; each C must equal its product alone. */
  static void productsFromSeveralThreads(int callers, int rounds) throws Exception {
    Random random = new Random(11);
    int m = 160, n = 144, k = 200; // 4.6 million multiply-adds: OpenBLAS divides it
    float[][] as = new float[callers][];
    float[][] bs = new float[callers][];
    float[][] alone = new float[callers][];
    for (int t = 0; t < callers; t++) {
      as[t] = floats(random, m * k);
      bs[t] = floats(random, k * n);
      alone[t] = new float[m * n];
      Gemm.sgemm(false, false, m, n, k, as[t], 0, k, bs[t], 0, n, 0f, alone[t], 0, n);
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(callers);
    try {
      java.util.List<java.util.concurrent.Future<float[]>> results = new java.util.ArrayList<>();
      for (int t = 0; t < callers; t++) {
        int caller = t;
        results.add(pool.submit(() -> {
          float[] c = new float[m * n];
          for (int round = 0; round < rounds; round++) {
            Gemm.sgemm(false, false, m, n, k, as[caller], 0, k, bs[caller], 0, n, 0f, c, 0, n);
          }
          return c;
        }));
      }
      for (int t = 0; t < callers; t++) {
        assertArrayEquals(alone[t], results.get(t).get(60, java.util.concurrent.TimeUnit.SECONDS), "caller " + t);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** OpenBLAS packs its operands itself, so where they live does not change a bit of C. */
  @Test
  void inPlaceAndStagedGiveTheSameBits() {
    assumeTrue(BlasBackendTest.nativesShipped(), "the build ships OpenBLAS natives for linux-x86_64 only");
    Gemm.backend();
    assumeTrue(HeapArrayGemm.useInPlace(true), HeapArrayGemm.state().description());
    Random random = new Random(7);
    int m = 301, n = 257, k = 190;
    for (int trans = 0; trans < 4; trans++) {
      boolean ta = (trans & 1) != 0;
      boolean tb = (trans & 2) != 0;
      float[] a = floats(random, m * k + 5);
      float[] b = floats(random, k * n + 3);
      float[] c0 = floats(random, m * n + 11);
      float[] inPlace = c0.clone();
      float[] staged = c0.clone();
      HeapArrayGemm.useInPlace(true);
      Gemm.sgemm(ta, tb, m, n, k, a, 5, ta ? m : k, b, 3, tb ? k : n, 0.5f, inPlace, 11, n);
      assertFalse(HeapArrayGemm.useInPlace(false));
      Gemm.sgemm(ta, tb, m, n, k, a, 5, ta ? m : k, b, 3, tb ? k : n, 0.5f, staged, 11, n);
      assertArrayEquals(staged, inPlace, "transA " + ta + ", transB " + tb);
      for (int i = 0; i < 11; i++) {
        assertEquals(c0[i], inPlace[i], "element " + i + " before C changed");
      }
    }
  }

  @Test
  void thePropertyNamesAWay() {
    assertEquals("operands staged off-heap: -Dkiln.blas.arrays=staged",
        HeapArrayGemm.decide("staged", symbol -> 1).description());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HeapArrayGemm.decide("pinned", symbol -> 1));
    assertEquals("-Dkiln.blas.arrays=pinned is not a way to pass arrays; use direct or staged",
        e.getMessage());
    // the backend refuses every product with that message (BlasBackend.choice), as for -Dkiln.blas
    assertEquals(e.getMessage(), HeapArrayGemm.refusal("pinned"));
    assertEquals(null, HeapArrayGemm.refusal(null));
    assertEquals(null, HeapArrayGemm.refusal(" Staged "));
    assertEquals(null, HeapArrayGemm.refusal("direct"));
  }

  private static float[] floats(Random random, int length) {
    float[] x = new float[length];
    for (int i = 0; i < length; i++) {
      x[i] = random.nextFloat() * 2 - 1;
    }
    return x;
  }

  private static boolean onPath(String command) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (new File(dir, command).canExecute()) {
        return true;
      }
    }
    return false;
  }
}
