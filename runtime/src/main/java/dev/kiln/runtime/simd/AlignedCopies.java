package dev.kiln.runtime.simd;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Copies of a SIMD kernel's row-invariant inputs (layer norm's {@code gamma} and {@code beta}: read
 * whole by every row) into arrays whose elements lie where the large arrays' do, for one call. A
 * kernel's vector loop starts where its store lands on a cache line's boundary ({@link Alignment});
 * a small input the JVM placed anywhere 8 bytes apart is then read by vectors that straddle two lines
 * on most rows, and such an input is read once a row. Measured on layer norm's forward kernel
 * (2048x2048, two threads): 0.43-0.51 ms reading gamma and beta from arrays that start on a region's
 * boundary, against 0.51-0.59 from the JVM's own 8 KB arrays (docs/BENCHMARKS.md).
 *
 * <p>The arrays copied into are G1's humongous objects: at least half a heap region, so each starts
 * on a region's boundary, as the large arrays the kernels write do, and G1 does not move them. Their
 * element 0 lies where a large array's element 0 lies on a cache line, so an input copied to element
 * 0 starts its vectors where the kernel's rows of a length that is a multiple of a vector start
 * theirs. A pool keeps at most {@link #MAX_ARRAYS} of them (one region each: 4 MB on a heap of 6 GB),
 * made at first use, and none on a heap of less than 64 times that; a call that finds none free
 * reads its inputs where they are.
 *
 * <p>A copy changes where the kernel reads its floats, never which floats: the launcher copies
 * only inputs that the kernel does not write (nor may write through an aliased output), whose every
 * load the processor proved inside the array's length, and it copies them before any chunk runs.
 * Nothing is copied under another collector (whose large objects it does not know to lie on a
 * boundary), without the {@code jdk.management} module to ask which collector runs, for fewer than
 * {@link #MIN_ROWS} rows, for inputs shorter than {@link #MIN_LENGTH} floats (whose loops start
 * where they start: {@link Alignment#MIN_VECTORS}) or already humongous, with {@code
 * -Dkiln.simd.align=false}, or with {@code -Dkiln.simd.alignedCopies=false}. This class names no
 * Vector API type.
 */
public final class AlignedCopies implements AutoCloseable {
  /** The property that turns the copies off ({@code false}). */
  public static final String PROPERTY = "kiln.simd.alignedCopies";

  /** Whether launchers copy row-invariant inputs at all (their collector permitting). */
  public static final boolean ENABLED = Alignment.ENABLED
      && !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").trim());

  /** Rows below which a call reads its inputs where they are: the copy would cost more than it saves. */
  public static final long MIN_ROWS = 8;

  /** Floats below which an input is read where it is. */
  public static final int MIN_LENGTH = 256;

  /** The most arrays the pool makes. */
  public static final int MAX_ARRAYS = 4;

  /** Nothing is copied on a heap of fewer than this many times the pool's regions (256 MB with regions of 1 MB). */
  static final long HEAP_SHARE = 64;

  /** The arrays no call holds, the one given back last first (its lines the likeliest still cached). */
  private static final ConcurrentLinkedDeque<float[]> FREE = new ConcurrentLinkedDeque<>();
  private static final AtomicInteger MADE = new AtomicInteger();
  private static final LongAdder COPIED = new LongAdder();

  /** The copies of one call, null when it copies nothing. */
  private List<float[]> taken;

  private final boolean copying;

  private AlignedCopies(boolean copying) {
    this.copying = copying;
  }

  /** The copies of a call over {@code rows} outer indices; {@link #close} gives their arrays back. */
  public static AlignedCopies of(long rows) {
    return new AlignedCopies(ENABLED && rows >= MIN_ROWS && Humongous.FLOATS > 0);
  }

  /**
   * A copy of {@code input} in an array of the pool (the same floats from element 0, a longer
   * array), or {@code input} itself where this call copies nothing or no array is free.
   */
  public float[] copy(float[] input) {
    if (!copying || input.length < MIN_LENGTH || input.length >= Humongous.FLOATS) {
      return input;
    }
    float[] array = FREE.pollFirst();
    if (array == null) {
      if (MADE.incrementAndGet() > MAX_ARRAYS) {
        MADE.decrementAndGet();
        return input;
      }
      array = new float[Humongous.FLOATS];
    }
    System.arraycopy(input, 0, array, 0, input.length);
    COPIED.increment();
    if (taken == null) {
      taken = new ArrayList<>(2);
    }
    taken.add(array);
    return array;
  }

  /** Gives this call's arrays back to the pool. */
  @Override
  public void close() {
    if (taken != null) {
      for (int i = taken.size() - 1; i >= 0; i--) {
        FREE.addFirst(taken.get(i));
      }
      taken = null;
    }
  }

  /** How many inputs launchers have copied since the JVM started (for tests and diagnostics). */
  public static long copied() {
    return COPIED.sum();
  }

  /** One line for logs and benchmark headers: whether inputs are copied, and why not. */
  public static String describe() {
    if (!ENABLED) {
      return "off (-D" + (Alignment.ENABLED ? PROPERTY : Alignment.PROPERTY) + "=false)";
    }
    return Humongous.FLOATS > 0
        ? "on (G1, regions of " + Humongous.regionBytes + " bytes)"
        : "off (" + Humongous.why + ")";
  }

  /** The floats in an array that G1 makes humongous, asked of the JVM once, at first use; 0 when it cannot say. */
  private static final class Humongous {
    static long regionBytes;
    static String why = "";
    static final int FLOATS = floats();

    private static int floats() {
      try {
        // by reflection: jdk.management may be absent (a jlinked runtime), then nothing is copied
        Class<?> bean = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
        @SuppressWarnings({"unchecked", "rawtypes"})
        Object diagnostics = ManagementFactory.getPlatformMXBean((Class) bean);
        Method option = bean.getMethod("getVMOption", String.class);
        Object g1 = option.invoke(diagnostics, "UseG1GC");
        Method value = g1.getClass().getMethod("getValue");
        if (!"true".equals(value.invoke(g1))) {
          why = "the collector is not G1";
          return 0;
        }
        regionBytes = Long.parseLong((String) value.invoke(option.invoke(diagnostics, "G1HeapRegionSize")));
        long floats = regionBytes / 2 / Float.BYTES; // G1: an object of half a region or more is humongous
        if (regionBytes <= 0 || floats >= Integer.MAX_VALUE - 64) {
          why = "a region of " + regionBytes + " bytes";
          return 0;
        }
        long heap = Runtime.getRuntime().maxMemory();
        if (heap / HEAP_SHARE < MAX_ARRAYS * regionBytes) {
          why = "a heap of " + heap + " bytes, of which the pool's " + MAX_ARRAYS + " regions would take more than 1/"
              + HEAP_SHARE;
          return 0;
        }
        return (int) floats;
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        why = "cannot ask the JVM for its collector: " + e;
        return 0;
      }
    }
  }
}
