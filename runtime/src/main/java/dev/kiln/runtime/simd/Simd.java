package dev.kiln.runtime.simd;

/**
 * Whether generated CPU kernels take their SIMD path: a kernel compiled with the Vector API
 * ({@code jdk.incubator.vector} resolved at compile time) has a {@code <Class>SimdKernels} twin, and
 * its launcher runs that twin when this says so. The way Apache Lucene chooses its vectorised
 * implementation: decided once, at class initialisation, from what the running JVM has.
 *
 * <p>On when the module is in the boot layer ({@code java --add-modules jdk.incubator.vector});
 * {@code -Dkiln.simd=false} turns it off. On, a kernel whose SIMD form gives its scalar form's floats
 * runs the scalar form until the SIMD one, compiled by the JIT, measures faster ({@code
 * dev.kiln.runtime.cpu.SimdChoice}: until then HotSpot runs Vector API code tens to hundreds of times slower
 * than scalar code); {@code -Dkiln.simd=always} runs the SIMD forms from the first call. This class
 * names no Vector API type, so it loads on every JVM.
 */
public final class Simd {
  /** The property that turns the SIMD path off ({@code false}) or on from the first call ({@code always}). */
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

  /**
   * Whether launchers run a SIMD form from the first call ({@code -Dkiln.simd=always}) rather than
   * once it measures faster than its scalar form.
   */
  public static final boolean ALWAYS = ENABLED && "always".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());

  private Simd() {}

  /** One line for logs and benchmark headers: on or off, and why. */
  public static String describe() {
    if (ENABLED) {
      return "on (" + MODULE + ", " + LANES + " floats a vector; "
          + (ALWAYS ? "from the first call, -D" + PROPERTY + "=always)" : "each kernel once it measures faster than its scalar form)");
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
