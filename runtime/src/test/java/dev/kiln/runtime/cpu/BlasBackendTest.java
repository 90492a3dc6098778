package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How {@link BlasBackend} chooses, says why, and stays unloaded until a product needs it. */
class BlasBackendTest {
  /** The runtime's pom ships OpenBLAS natives for linux-x86_64 (kiln.blas.platform). */
  static boolean nativesShipped() {
    String arch = System.getProperty("os.arch");
    return System.getProperty("os.name").toLowerCase().startsWith("linux")
        && ("amd64".equals(arch) || "x86_64".equals(arch));
  }

  private static BlasBackend.Loaded failingLoad(BlasBackend.Threading threading) {
    throw new UnsatisfiedLinkError("no jniopenblas_nolapack in java.library.path");
  }

  @Test
  void fallsBackToJavaSayingWhy() {
    BlasBackend.Choice choice = BlasBackend.choose(null, null, BlasBackendTest::failingLoad);
    assertEquals(BlasBackend.JAVA, choice.backend());
    assertEquals("java (OpenBLAS did not load: UnsatisfiedLinkError: no jniopenblas_nolapack in"
        + " java.library.path)", choice.description());
    assertNull(choice.failure());
  }

  @Test
  void forcedOpenBlasFailsSayingWhy() {
    BlasBackend.Choice choice = BlasBackend.choose("openblas", null, BlasBackendTest::failingLoad);
    assertNull(choice.backend());
    String message = choice.failure().getMessage();
    assertTrue(message.startsWith("-Dkiln.blas=openblas was given, but OpenBLAS did not load:"
        + " UnsatisfiedLinkError: no jniopenblas_nolapack"), message);
    assertTrue(message.contains("org.bytedeco:openblas"), message);
  }

  @Test
  void forcedJavaLoadsNothing() {
    BlasBackend.Choice choice = BlasBackend.choose(" Java ", null, pool -> fail("loaded OpenBLAS"));
    assertEquals(BlasBackend.JAVA, choice.backend());
    assertEquals("java (-Dkiln.blas=java)", choice.description());
  }

  @Test
  void unknownBackendIsRefused() {
    BlasBackend.Choice choice = BlasBackend.choose("atlas", null, pool -> fail("loaded OpenBLAS"));
    assertEquals("-Dkiln.blas=atlas is not a BLAS backend; use mkl, openblas, java or auto",
        choice.failure().getMessage());
  }

  @Test
  void autoPrefersMklWhereOffered() {
    BlasBackend.Choice choice = BlasBackend.choose(null, null,
        (threading, forced) -> new BlasBackend.Loaded("mkl (" + threading + ", forced " + forced + ")",
            true), threading -> fail("loaded OpenBLAS"));
    assertEquals(BlasBackend.NATIVE_ON_KILN_POOL, choice.backend());
    assertEquals("mkl (KILN, forced false)", choice.description());
  }

  @Test
  void autoTakesOpenBlasWhereMklIsNotOffered() {
    BlasBackend.Choice choice = BlasBackend.choose("auto", null, (threading, forced) -> null,
        threading -> new BlasBackend.Loaded("openblas (" + threading + ")", true));
    assertEquals(BlasBackend.NATIVE_ON_KILN_POOL, choice.backend());
    assertEquals("openblas (KILN)", choice.description());
  }

  /** MKL offered but failing to load is said (at WARNING) and OpenBLAS runs the products. */
  @Test
  void autoTakesOpenBlasWhereMklFails() {
    BlasBackend.Choice choice = BlasBackend.choose(null, "own", (threading, forced) -> {
      throw new UnsatisfiedLinkError("libmkl_rt.so.2: cannot open shared object file");
    }, threading -> new BlasBackend.Loaded("openblas (" + threading + ")", false));
    assertEquals(BlasBackend.NATIVE, choice.backend());
    assertEquals("openblas (OWN)", choice.description());
    assertNull(choice.failure());
  }

  @Test
  void forcedMklFailsSayingWhy() {
    BlasBackend.Choice absent = BlasBackend.choose("MKL", null, (threading, forced) -> {
      assertTrue(forced);
      throw new IllegalStateException("its natives (" + MklLibrary.ARTIFACT + ") are not on the class path");
    }, threading -> fail("loaded OpenBLAS"));
    assertNull(absent.backend());
    assertEquals("-Dkiln.blas=mkl was given, but MKL did not load: IllegalStateException: its natives ("
        + MklLibrary.ARTIFACT + ") are not on the class path. " + MklLibrary.FIX,
        absent.failure().getMessage());
    BlasBackend.Choice notOffered = BlasBackend.choose("mkl", null, (threading, forced) -> null,
        threading -> fail("loaded OpenBLAS"));
    assertEquals("-Dkiln.blas=mkl was given, but MKL is not offered here. " + MklLibrary.FIX,
        notOffered.failure().getMessage());
  }

  @Test
  void threadingPicksThePool() {
    List<BlasBackend.Threading> asked = new java.util.ArrayList<>();
    java.util.function.Function<BlasBackend.Threading, BlasBackend.Loaded> load = threading -> {
      asked.add(threading);
      return new BlasBackend.Loaded("openblas (" + threading + ")", threading == BlasBackend.Threading.KILN);
    };
    assertEquals(BlasBackend.NATIVE_ON_KILN_POOL, BlasBackend.choose(null, "kiln", load).backend());
    assertEquals(BlasBackend.NATIVE_ON_KILN_POOL, BlasBackend.choose(null, null, load).backend());
    assertEquals(BlasBackend.NATIVE, BlasBackend.choose("openblas", " Shared ", load).backend());
    assertEquals(BlasBackend.NATIVE, BlasBackend.choose("openblas", "OpenBLAS", load).backend());
    assertEquals(List.of(BlasBackend.Threading.KILN, BlasBackend.Threading.KILN,
        BlasBackend.Threading.SHARED, BlasBackend.Threading.OWN), asked);
    String message = BlasBackend.choose(null, "omp", t -> fail("loaded OpenBLAS")).failure().getMessage();
    assertTrue(message.startsWith("-Dkiln.blas.threading=omp is not a way to run the BLAS's threads;"
        + " use kiln (the default"), message);
  }

  /** Where sharing falls back to blocks on Kiln's pool, the backend follows what the load did. */
  @Test
  void aSharedLoadThatFellBackCutsBlocks() {
    BlasBackend.Choice choice = BlasBackend.choose(null, "shared",
        t -> new BlasBackend.Loaded("openblas (2 threads, Kiln's pool, not shared: why)", true));
    assertEquals(BlasBackend.NATIVE_ON_KILN_POOL, choice.backend());
    assertEquals("openblas (2 threads, Kiln's pool, not shared: why)", choice.description());
  }

  /** MKL where it is offered (an Intel CPU, and the default -Dkiln.blas), else OpenBLAS. */
  @Test
  void nativeBlasLoadsHere() {
    assumeTrue(nativesShipped(), "the build ships OpenBLAS natives for linux-x86_64 only");
    String forced = System.getProperty(BlasBackend.PROPERTY);
    assumeTrue(forced == null || forced.equals("openblas"), "-Dkiln.blas=" + forced);
    String backend = Gemm.backend();
    if (forced == null && MklLibrary.intelCpu()) {
      assertTrue(backend.matches("mkl \\(\\d+ threads?, Kiln's pool; in place on the Java arrays;"
          + " reproducible: CBWR auto, strict; /\\S+\\)"), backend);
      return;
    }
    assertTrue(backend.matches("openblas \\(\\d+ threads?(, shared: OpenBLAS divides each product among the"
        + " caller and Kiln's \\d+ native workers?|, Kiln's pool(, not shared: [^;]+)?); (in place on the"
        + " Java arrays|operands staged off-heap: [^;]+)(; through \\S+)?\\)"), backend);
  }

  /** In a child JVM with -verbose:class: a small product loads no JavaCPP class, a large one does. */
  @Test
  void javaCppLoadsOnlyForProductsThatNeedIt() throws Exception {
    assumeTrue(nativesShipped(), "the build ships OpenBLAS natives for linux-x86_64 only");
    String small = childClassLog("8");
    assertTrue(small.contains("dev.kiln.runtime.cpu.JavaSgemm"), small);
    assertFalse(small.contains("org.bytedeco"), "a small product loaded JavaCPP:\n" + small);
    String large = childClassLog("64");
    assertTrue(large.contains("org.bytedeco.javacpp.Loader"), large);
  }

  private static String childClassLog(String size) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process = new ProcessBuilder(List.of(java.toString(), "-verbose:class", "-cp",
        System.getProperty("java.class.path"), OneProduct.class.getName(), size))
        .redirectErrorStream(true)
        .start();
    byte[] out = process.getInputStream().readAllBytes();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
    String text = new String(out, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), text);
    return text;
  }

  /** The child: one n x n x n product through the public entry point. */
  static final class OneProduct {
    public static void main(String[] args) {
      int n = Integer.parseInt(args[0]);
      float[] x = new float[n * n];
      Gemm.sgemm(false, false, n, n, n, x, 0, n, x.clone(), 0, n, 0f, new float[n * n], 0, n);
    }
  }
}
