package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jcuda.CudaException;
import org.junit.jupiter.api.Test;

/** The reasons {@link CudaRuntime#unavailableReason()} gives, from what the probe may throw. */
class UnavailabilityTest {
  /** What JCuda 12.6.0 throws on a machine without the NVIDIA driver (abridged). */
  private static final String NO_LIBCUDA = "Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"\n"
      + "Operating system name: Linux\n---(start of nested stack traces)---\n"
      + "java.lang.UnsatisfiedLinkError: no JCudaDriver-12.6.0-linux-x86_64 in java.library.path: /usr/lib\n"
      + "Stack trace from the attempt to load the library as a resource:\n"
      + "java.lang.UnsatisfiedLinkError: /tmp/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1:"
      + " cannot open shared object file: No such file or directory\n";

  private static void assertSentence(String s) {
    assertTrue(Character.isUpperCase(s.charAt(0)) && s.endsWith("."), s);
    assertTrue(!s.contains("\n"), s);
  }

  @Test
  void noDriver() {
    String r = Unavailability.describe(new UnsatisfiedLinkError(NO_LIBCUDA));
    assertEquals("No CUDA driver: libcuda.so.1 (the NVIDIA driver's library) was not found;"
        + " install the NVIDIA driver to use a GPU.", r);
  }

  @Test
  void noDriverOnTheSecondAttemptToo() {
    Throwable second = new NoClassDefFoundError("Could not initialize class jcuda.driver.JCudaDriver");
    second.initCause(new ExceptionInInitializerError("Exception java.lang.UnsatisfiedLinkError: " + NO_LIBCUDA));
    assertTrue(Unavailability.describe(second).startsWith("No CUDA driver: libcuda.so.1"));
  }

  @Test
  void noJCuda() {
    assertEquals(Unavailability.NO_JCUDA,
        Unavailability.describe(new NoClassDefFoundError("jcuda/driver/JCudaDriver")));
    assertSentence(Unavailability.NO_JCUDA);
  }

  @Test
  void driverErrors() {
    assertEquals("No CUDA device: the NVIDIA driver found no GPU (CUDA_ERROR_NO_DEVICE).",
        Unavailability.describe(new CudaException("CUDA_ERROR_NO_DEVICE")));
    assertTrue(Unavailability.describe(new CudaException("CUDA_ERROR_INSUFFICIENT_DRIVER"))
        .contains("too old"));
    assertTrue(Unavailability.describe(new CudaException("CUDA_ERROR_STUB_LIBRARY"))
        .startsWith("No CUDA driver"));
    assertEquals("CUDA could not be initialised: CUDA_ERROR_UNKNOWN.",
        Unavailability.describe(new CudaException("CUDA_ERROR_UNKNOWN")));
    assertSentence(Unavailability.NO_DEVICE);
  }

  @Test
  void otherFailuresAreStillOneSentence() {
    assertSentence(Unavailability.describe(new UnsatisfiedLinkError("no JCudaDriver in path\nmore")));
    assertSentence(Unavailability.describe(new UnsatisfiedLinkError(
        "/tmp/libJCudaDriver.so: undefined symbol: cuCtxCreate_v4")));
    assertTrue(Unavailability.describe(new UnsatisfiedLinkError("x: undefined symbol: cuFoo_v2"))
        .contains("cuFoo_v2"));
    assertSentence(Unavailability.describe(new IllegalStateException("odd")));
    assertSentence(Unavailability.describe(new IllegalStateException()));
    assertSentence(Unavailability.describe(new UnsatisfiedLinkError(
        "x.so: libfoo.so.3: cannot open shared object file")));
  }

  @Test
  void nvrtc() {
    String missing = "Error while loading native library \"JNvrtc-12.6.0-linux-x86_64\"\n"
        + "java.lang.UnsatisfiedLinkError: /tmp/libJNvrtc-12.6.0-linux-x86_64.so: libnvrtc.so.12:"
        + " cannot open shared object file: No such file or directory";
    assertEquals("JCuda's NVRTC binding needs libnvrtc.so.12, which was not found",
        Unavailability.describeNvrtc(new UnsatisfiedLinkError(missing)));
    assertEquals("libnvrtc.so.12", Unavailability.missingLibrary(missing));
  }

  @Test
  void noCublas12() {
    String r = Unavailability.describeCublas(new UnsatisfiedLinkError(
        NO_LIBCUDA.replace("JCudaDriver", "JCublas2").replace("libcuda.so.1", "libcublas.so.12")));
    assertTrue(r.startsWith("JCublas 12.6.0 needs libcublas.so.12, CUDA 12's cuBLAS, which was not found;"), r);
    assertSentence(r);
  }

  @Test
  void noJCublas() {
    assertEquals("JCublas is not on the class path (add the dependency org.jcuda:jcublas:12.6.0).",
        Unavailability.describeCublas(new NoClassDefFoundError("jcuda/jcublas/JCublas2")));
  }
}
