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

  /**
   * Floats in the JVM's preferred vector, or 0 without the module. The SIMD kernels are written for
   * 4, 8 or 16 (128-, 256- and 512-bit vectors: SSE, NEON, AVX2, AVX-512, SVE up to 512 bits), the
   * widths at which a derived gradient's sums keep their sixteen partials in whole vectors.
   */
  public static final int LANES = preferredFloatLanes();

  /** Whether launchers run their kernels' SIMD twins. */
  public static final boolean ENABLED = ModuleLayer.boot().findModule(MODULE).isPresent()
      && !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true"))
      && (LANES == 4 || LANES == 8 || LANES == 16);

  private Simd() {}

  /** One line for logs and benchmark headers: on or off, and why. */
  public static String describe() {
    if (ENABLED) {
      return "on (" + MODULE + ", " + LANES + " floats a vector)";
    }
    if (ModuleLayer.boot().findModule(MODULE).isEmpty()) {
      return "off (run with --add-modules " + MODULE + " to turn it on)";
    }
    if ("false".equalsIgnoreCase(System.getProperty(PROPERTY, "true"))) {
      return "off (-D" + PROPERTY + "=false)";
    }
    return "off (vectors of " + LANES + " floats; Kiln's SIMD kernels are written for 4, 8 or 16)";
  }

  private static int preferredFloatLanes() {
    if (ModuleLayer.boot().findModule(MODULE).isEmpty()) {
      return 0;
    }
    try {
      // by reflection, so that this class names no Vector API type
      Object species = Class.forName(MODULE + ".FloatVector").getField("SPECIES_PREFERRED").get(null);
      return (Integer) Class.forName(MODULE + ".VectorSpecies").getMethod("length").invoke(species);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return 0;
    }
  }
}
