package dev.kiln.runtime.cpu;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Which of a kernel's two forms runs its chunks: its SIMD form or its scalar twin, chosen by
 * measuring both while the JIT warms up.
 *
 * <p>Why: HotSpot runs Vector API code in the interpreter and in C1-compiled code with every
 * vector an object and every lane-wise operation a call, until C2 compiles the kernel and turns
 * them into instructions. Until then a SIMD form is tens to hundreds of times slower than its scalar
 * twin (softmax over 2048x2048 on the 2-core machine: the first call 1.1 s against 84 ms scalar, the
 * next five 40-120 ms against 19-35; the sample's ten LSTM training steps 74-85 ms a step against
 * 9-14), so turning SIMD on made every short run slower.
 *
 * <p>So a kernel whose SIMD form gives the scalar form's floats at every index (every SIMD form
 * but those compiled with {@code -Akiln.simd.sums=reorder}) starts on the scalar form and hands the
 * SIMD form the first indices of each chunk, timing the two pieces one after the other on the same
 * thread. The SIMD piece is sized by the last measured ratio of their times per outer index to cost
 * about {@link #SIMD_PIECE} of the chunk's scalar time (first {@link #FIRST_RATIO} is assumed; a
 * chunk where one index would cost more hands the SIMD form one index in some calls only; while the
 * SIMD form stays over {@link #WARMING_RATIO} times slower in chunks of a tenth of a millisecond
 * or more, the target grows to {@link #MAX_SIMD_PIECE} for up to {@link #RAMP_END} chunks, so that
 * a hot kernel's SIMD form is called often enough to be compiled), and it runs as up to {@link #PIECES} calls of the SIMD method, each of at
 * least one index, or four for a row kernel's jammed path, where the share allows: HotSpot compiles a method
 * with C2 once it has been called, and looped, often enough, so where chunks are a few dozen indices
 * or more the JIT gets there in tens of calls rather than thousands, while each call stays within
 * about a quarter (later up to all) of its scalar time again (wherever the SIMD form is at most {@link #MAX_RATIO} times
 * slower; beyond that the share is sized as if it were). Once the SIMD form is
 * faster per index in {@link #STREAK} measured chunks in a row it runs every chunk, from then on;
 * if it is still not after {@link #MAX_TRIALS} measured chunks, the scalar form does. (Softmax over
 * 2048x2048: the first call 0.4 s instead of 1.1, the SIMD form adopted at about the 17th call;
 * the sample's training with SIMD on 9.6-19 ms a step instead of 74-85, the scalar kernels' 9-14.)
 *
 * <p>The results never depend on the choice: both forms give the same floats at every index, and
 * the chunks are cut from the sizes alone (the split of a chunk only decides which form computes
 * which of its indices). One choice per launcher call site (the SIMD lambda's class), shared by
 * every thread that calls it; the measurements are kept under the object's lock, once a chunk.
 */
final class SimdChoice {
  /** The form that runs a kernel's chunks. */
  enum Form {
    /** Measuring: each chunk split between the two forms. */
    TRYING,
    /** Every chunk SIMD. */
    SIMD,
    /** Every chunk scalar: the SIMD form was not faster in {@link #MAX_TRIALS} measured chunks. */
    SCALAR
  }

  /** Measured chunks in a row with the SIMD form faster per index that adopt it. */
  static final int STREAK = 3;

  /** Measured chunks after which a SIMD form that is still not faster is given up. */
  static final int MAX_TRIALS = 20_000;

  /** The most calls of the SIMD form a measured chunk makes, each on its own part of the SIMD piece. */
  static final int PIECES = 32;

  /**
   * The fewest indices of a call of the SIMD form, where the share has that many, for a launcher
   * that does not say ({@link CpuExecutor#forEachChunkChoosing(String, int, int, CpuExecutor.ChunkBody,
   * CpuExecutor.ChunkBody, int)} takes it from the generated launcher: 4 for a row kernel that runs
   * rows four at a time, 1 otherwise).
   */
  static final int PIECE_INDICES = 4;

  /** The ratio of SIMD to scalar time per index assumed before the first measurement. */
  static final double FIRST_RATIO = 32;

  /**
   * The largest ratio the SIMD piece is sized by: a piece slowed by a pause (a collection, the JIT's
   * threads on a small machine) still leaves the SIMD form some work in the next calls.
   */
  static final double MAX_RATIO = 4096;

  /** The SIMD piece's target cost, as a fraction of the chunk's scalar time. */
  static final double SIMD_PIECE = 0.25;

  /**
   * The largest target the SIMD piece's cost grows to while the SIMD form is still far slower
   * ({@link #WARMING_RATIO}): a kernel launched many times will be launched many more, and the JIT
   * compiles the SIMD form sooner the more often it is called (an LSTM cell's at B=256, H=512 was
   * adopted after about 450 launches at a quarter, in about 80 at up to the whole chunk's time).
   */
  static final double MAX_SIMD_PIECE = 1.0;

  /** Measured chunks over which the target grows by another {@link #SIMD_PIECE}. */
  static final int RAMP = 32;

  /**
   * Measured chunks after which the target is {@link #SIMD_PIECE} again whatever the ratio: a SIMD
   * form the JIT has not compiled by then (too large for C2, say) costs a quarter more, not double.
   */
  static final int RAMP_END = 1024;

  /**
   * The ratio above which the SIMD form is taken to still run in the interpreter or C1's code (C2's
   * is at most a few times slower than the scalar form where it is slower at all).
   */
  static final double WARMING_RATIO = 4;

  /**
   * The scalar time of a chunk below which its SIMD share stays at {@link #SIMD_PIECE}: a small
   * kernel gains little from being compiled sooner, and pays the larger share on every launch until
   * then (the sample's 60 training steps were 8% slower with it).
   */
  static final double RAMP_MIN_CHUNK_NANOS = 100_000;

  private static final ConcurrentLinkedQueue<SimdChoice> ALL = new ConcurrentLinkedQueue<>();

  private static final ClassValue<SimdChoice> BY_CALL_SITE = new ClassValue<>() {
    @Override
    protected SimdChoice computeValue(Class<?> type) {
      SimdChoice c = new SimdChoice();
      ALL.add(c);
      return c;
    }
  };

  private volatile Form form = Form.TRYING;
  private volatile String kernel;
  private double ratio = FIRST_RATIO;
  private double simdNanosPerIndex = Double.NaN;
  private double scalarNanosPerIndex = Double.NaN;
  private int streak;
  private int trials;
  private boolean simdRan;
  private double credit;

  SimdChoice() {}

  /** The choice of the launcher call site whose SIMD chunk body has class {@code simdBody}. */
  static SimdChoice of(Class<?> simdBody, String kernel) {
    SimdChoice c = BY_CALL_SITE.get(simdBody);
    if (c.kernel == null) { // named once: not a store on every launch
      c.kernel = kernel;
    }
    return c;
  }

  /** The form that runs the kernel's chunks now. */
  Form form() {
    return form;
  }

  /**
   * How many of a chunk's {@code length} outer indices the SIMD form takes in this call: about
   * {@link #target} of the chunk's scalar time at the last measured ratio, at most all but one
   * (all of a chunk of one index). Where one index would cost more than that, the SIMD form takes
   * one index in some calls and none in the others, as often as keeps its cost at that fraction on
   * average (a small kernel, whose chunk is a few rows, is not slowed by half again each call).
   */
  synchronized int simdShare(int length) {
    double want = length * target(length) / Math.min(ratio, MAX_RATIO);
    int most = length == 1 ? 1 : length - 1;
    if (want >= 1) {
      return (int) Math.min(most, Math.rint(want));
    }
    credit += want;
    if (credit >= 1) {
      credit -= 1;
      return 1;
    }
    return 0;
  }

  /**
   * The SIMD piece's target cost as a fraction of the chunk's scalar time: {@link #SIMD_PIECE},
   * growing by as much every {@link #RAMP} measured chunks up to {@link #MAX_SIMD_PIECE} while the
   * SIMD form is more than {@link #WARMING_RATIO} times slower, for the first {@link #RAMP_END},
   * in chunks of {@code length} indices that take the scalar form at least {@link
   * #RAMP_MIN_CHUNK_NANOS}.
   */
  private double target(int length) {
    if (ratio <= WARMING_RATIO || trials >= RAMP_END
        || !(scalarNanosPerIndex * length >= RAMP_MIN_CHUNK_NANOS)) {
      return SIMD_PIECE;
    }
    return Math.min(MAX_SIMD_PIECE, SIMD_PIECE * (1 + trials / (double) RAMP));
  }

  /**
   * Records one chunk's measurement: {@code simdIndices} outer indices computed by the SIMD form in
   * {@code simdNanos}, {@code scalarIndices} by the scalar form in {@code scalarNanos} (either count
   * may be 0: then the form measured is compared with the other's last time; a call without SIMD
   * indices only updates the scalar time). The SIMD form's first run is not compared: it loads and
   * initialises the Vector API's classes, hundreds of times its later time.
   */
  synchronized void record(int simdIndices, long simdNanos, int scalarIndices, long scalarNanos) {
    if (form != Form.TRYING) {
      return;
    }
    if (simdIndices > 0 && !simdRan) {
      simdRan = true; // its first run loads and initialises the Vector API's classes: not a measure
      simdIndices = 0;
    }
    if (simdIndices > 0) {
      simdNanosPerIndex = Math.max(1, simdNanos) / (double) simdIndices;
    }
    if (scalarIndices > 0) {
      scalarNanosPerIndex = Math.max(1, scalarNanos) / (double) scalarIndices;
    }
    if (Double.isNaN(simdNanosPerIndex) || Double.isNaN(scalarNanosPerIndex)) {
      return;
    }
    if (simdIndices == 0) {
      return; // a call the SIMD form sat out: its scalar time is kept for the next comparison
    }
    ratio = simdNanosPerIndex / scalarNanosPerIndex;
    trials++;
    streak = ratio < 1 ? streak + 1 : 0;
    if (streak >= STREAK) {
      form = Form.SIMD;
    } else if (trials >= MAX_TRIALS) {
      form = Form.SCALAR;
    }
  }

  /**
   * The chunk body of a measuring call: each chunk split between {@code simd} (its first {@link
   * #simdShare} indices, in up to {@link #PIECES} calls of at least {@code minimumPiece} indices
   * each where the share has that many) and {@code scalar} (the rest), both timed and recorded.
   */
  CpuExecutor.ChunkBody trial(CpuExecutor.ChunkBody simd, CpuExecutor.ChunkBody scalar, int minimumPiece) {
    int fewest = Math.max(1, minimumPiece);
    return (chunk, lo, hi) -> {
      int length = hi - lo;
      if (length < 1) {
        scalar.run(chunk, lo, hi);
        return;
      }
      int mid = lo + simdShare(length);
      long start = System.nanoTime();
      // in up to PIECES calls: HotSpot compiles a method with C2 after enough calls of it (and
      // iterations of its loops), so the JIT reaches the SIMD form's fast code sooner
      int pieces = Math.max(1, Math.min(PIECES, (mid - lo) / fewest));
      for (int p = 0; p < pieces; p++) {
        simd.run(chunk, lo + (int) ((long) (mid - lo) * p / pieces), lo + (int) ((long) (mid - lo) * (p + 1) / pieces));
      }
      long split = System.nanoTime();
      if (hi > mid) {
        scalar.run(chunk, mid, hi);
      }
      long end = System.nanoTime();
      record(mid - lo, split - start, hi - mid, end - split);
    };
  }

  /** One line: the form, and what it was chosen on. */
  synchronized String describe() {
    return switch (form) {
      case SIMD -> String.format(java.util.Locale.ROOT, "simd (after %d measured chunks, %.2fx the scalar time)", trials, ratio);
      case SCALAR -> String.format(java.util.Locale.ROOT, "scalar (simd still %.2fx its time after %d measured chunks)", ratio, trials);
      case TRYING -> trials == 0 ? "trying (not measured yet)"
          : String.format(java.util.Locale.ROOT, "trying (simd %.2fx the scalar time, %d measured chunks)", ratio, trials);
    };
  }

  /** Every kernel's choice so far (kernel name to {@link #describe()}), in name order. */
  static Map<String, String> all() {
    Map<String, String> out = new TreeMap<>();
    for (SimdChoice c : ALL) {
      String kernel = c.kernel;
      if (kernel == null) {
        continue; // created by a launch that has not named it yet
      }
      out.merge(kernel, c.describe(), (a, b) -> a + "; " + b);
    }
    return out;
  }
}
