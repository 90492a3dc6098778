package dev.kiln.runtime.simd;

/**
 * Whether generated CPU kernels take their SIMD path: a kernel compiled with the Vector API
 * ({@code jdk.incubator.vector} resolved at compile time) has a {@code <Class>SimdKernels} twin, and
 * its launcher runs that twin when this says so. The way Apache Lucene chooses its vectorised
 * implementation: decided once, at class initialisation, from what the running JVM has.
 *
 * <p>On when the module is in the boot layer ({@code java --add-modules jdk.incubator.vector});
 * {@code -Dkiln.simd=false} turns it off. This class names no Vector API type, so it loads on every
 * JVM.
 */
public final class Simd {
  /** The property that turns the SIMD path off ({@code false}). */
  public static final String PROPERTY = "kiln.simd";

  /** The module the SIMD kernels are written against. */
  public static final String MODULE = "jdk.incubator.vector";

  /** Whether launchers run their kernels' SIMD twins. */
  public static final boolean ENABLED = ModuleLayer.boot().findModule(MODULE).isPresent()
      && !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true"));

  private Simd() {}

  /** One line for logs and benchmark headers: on or off, and why. */
  public static String describe() {
    if (ENABLED) {
      return "on (" + MODULE + ")";
    }
    if (ModuleLayer.boot().findModule(MODULE).isEmpty()) {
      return "off (run with --add-modules " + MODULE + " to turn it on)";
    }
    return "off (-D" + PROPERTY + "=false)";
  }
}
