package dev.kiln.runtime.simd;

/**
 * Where a SIMD kernel's vector loop starts so that its vectors do not straddle cache lines. A
 * 64-byte vector at an address that is not a multiple of 64 touches two lines, and a store that
 * does costs about twice one that does not: on HotSpot a float array's element 0 lies 16 bytes
 * past the array's start, and a large array (G1's humongous objects, ZGC's and Shenandoah's large
 * ones) starts on a region's boundary, so a loop from element 0 puts every 16-float vector across
 * two lines. A kernel's loop runs its first few iterations as scalar code, up to the element that
 * this puts on a vector's boundary, then its vectors.
 *
 * <p>Only where the iterations land changes, never what they compute: a loop whose floats depend
 * on how its iterations split into vectors (a derived gradient's partial sums) does not start
 * here, so a kernel's results are the same whatever this chooses. The element's address is not
 * known to Java; this assumes the array starts on a vector boundary (true of the large arrays where
 * it matters), and where that is wrong a loop is as fast as it was without. {@code
 * -Dkiln.simd.align=false} starts every loop at its first iteration. This class names no Vector API
 * type.
 */
public final class Alignment {
  /** The property that turns aligned starts off ({@code false}). */
  public static final String PROPERTY = "kiln.simd.align";

  /** Whether loops start on a vector boundary. */
  public static final boolean ENABLED = !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());

  /** Floats between an array's start and its element 0: 4 on 64-bit HotSpot (a 16-byte header), 3 with compact headers. */
  public static final int HEADER_FLOATS = headerFloats();

  /**
   * Vectors' worth of iterations below which a loop starts at its first: a short row's scalar head
   * would cost more than its vectors' straddles.
   */
  public static final int MIN_VECTORS = 32;

  private Alignment() {}

  /**
   * The first iteration from {@code k} on (at most {@code end}) where a unit-stride access whose
   * element index is {@code index} at iteration {@code k} starts a vector of {@code lanes} floats
   * (a power of two) on a boundary of {@code lanes} floats; {@code k} itself for a short loop.
   */
  public static int start(int k, int end, int index, int lanes) {
    if (!ENABLED || end - k < MIN_VECTORS * lanes) {
      return k;
    }
    return k + (-(index + HEADER_FLOATS) & (lanes - 1));
  }

  private static int headerFloats() {
    try {
      // sun.misc.Unsafe's constant, read by reflection (jdk.unsupported exports it; no memory access)
      int bytes = Class.forName("sun.misc.Unsafe").getField("ARRAY_FLOAT_BASE_OFFSET").getInt(null);
      return bytes / Float.BYTES;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return 16 / Float.BYTES;
    }
  }
}
