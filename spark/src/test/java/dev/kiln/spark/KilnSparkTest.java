package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Operators split over Spark's local mode (two worker threads) against one call of their launcher
 * on one machine: maps, row kernels, a composite and draws addressed through {@code @Offset} bit for
 * bit on 1, 2 and 5 parts; reductions within their rounding and the same bits on every run of a
 * given partitioning (integers exact).
 */
class KilnSparkTest {
  private static JavaSparkContext sc;

  @BeforeAll
  static void start() {
    sc = SparkTests.context("kiln-spark-test");
  }

  @AfterAll
  static void stop() {
    sc.stop();
  }

  private static float[] data(long seed, int n) {
    return SparkTests.data(seed, n);
  }

  private static final int B = 37;
  private static final int N = 129;

  @ParameterizedTest(name = "{0} parts")
  @ValueSource(ints = {1, 2, 5})
  void mapsRowKernelsAndCompositesAreTheSingleCallsBits(int parts) {
    float[] x = data(1, B * N);
    float[] gamma = data(2, N);
    float[] beta = data(3, N);

    float[] one = new float[B * N];
    ShardOpsKernels.scaleShift(B, N, x, gamma, beta, one);
    float[] split = new float[B * N];
    KilnSpark.Run run = KilnSpark.run(sc, ShardOps.class, "scaleShift", parts, KilnSpark.Split.ALWAYS, B, N, x, gamma, beta, split);
    Agreement.assertSame(one, split);
    assertEquals("B", run.dim());
    assertTrue(run.sharded(), run.decision());

    ShardOpsKernels.softmax(B, N, x, one);
    KilnSpark.run(sc, ShardOps.class, "softmax", parts, KilnSpark.Split.ALWAYS, B, N, x, split);
    Agreement.assertSame(one, split);
    float[] plain = new float[B * N];
    ShardOps.softmax(B, N, x, plain);
    Agreement.assertSame(plain, split);

    ShardOpsKernels.softmaxScaled(B, N, x, gamma, beta, one);
    KilnSpark.run(sc, ShardOps.class, "softmaxScaled", parts, KilnSpark.Split.ALWAYS, B, N, x, gamma, beta, split);
    Agreement.assertSame(one, split);

    float[] dy = data(4, B * N);
    float[] y = new float[B * N];
    ShardOpsKernels.softmax(B, N, x, y);
    ShardOpsKernels.softmaxGrad(B, N, x, y, dy, one);
    KilnSpark.run(sc, ShardOps.class, "softmaxGrad", parts, KilnSpark.Split.ALWAYS, B, N, x, y, dy, split);
    Agreement.assertSame(one, split);
  }

  @ParameterizedTest(name = "{0} parts")
  @ValueSource(ints = {1, 2, 5})
  void drawsAddressedByTheGlobalRowAreTheSameUnderAnySplit(int parts) {
    float[] x = data(5, B * N);
    float[] one = new float[B * N];
    ShardOpsKernels.dropout(B, N, 42, 0, x, one);
    float[] plain = new float[B * N];
    ShardOps.dropout(B, N, 42, 0, x, plain);
    Agreement.assertSame(plain, one);
    float[] split = new float[B * N];
    KilnSpark.run(sc, ShardOps.class, "dropout", parts, KilnSpark.Split.ALWAYS, B, N, 42, 0, x, split);
    Agreement.assertSame(one, split);
  }

  @ParameterizedTest(name = "{0} parts")
  @ValueSource(ints = {1, 2, 5})
  void reductionsCombineTheirPartsInAFixedTree(int parts) {
    float[] x = data(6, B * N);
    float[] one = data(7, N);
    float[] initial = one.clone();
    ShardOpsKernels.columnSums(B, N, x, one);
    float[] split = initial.clone();
    KilnSpark.run(sc, ShardOps.class, "columnSums", parts, KilnSpark.Split.ALWAYS, B, N, x, split);
    Agreement.assertClose(one, split, 1e-5, 1e-5);
    float[] again = initial.clone();
    KilnSpark.run(sc, ShardOps.class, "columnSums", parts, KilnSpark.Split.ALWAYS, B, N, x, again);
    Agreement.assertSame(split, again);

    int[] count = {3};
    float[] largest = {-100f};
    ShardOpsKernels.countAndMax(B * N, x, 0.5f, count, largest);
    int[] countSplit = {3};
    float[] largestSplit = {-100f};
    KilnSpark.run(sc, ShardOps.class, "countAndMax", parts, KilnSpark.Split.ALWAYS, B * N, x, 0.5f, countSplit, largestSplit);
    assertArrayEquals(count, countSplit);
    Agreement.assertSame(largest, largestSplit);
  }

  @Test
  void theProcessorsPlanSaysWhatSplitsAndWhy() {
    ShardPlan softmax = ShardPlan.of(ShardOps.class, "softmax");
    assertEquals("B", softmax.dim());
    ShardPlan dropout = ShardPlan.of(ShardOps.class, "dropout");
    assertEquals(ShardPlan.Role.OFFSET, dropout.params().get(3).role());
    ShardPlan running = ShardPlan.of(ShardOps.class, "runningSum");
    assertFalse(running.shardable());
    assertNull(running.dim());
    assertEquals(java.util.List.of("B: it uses B as a value"), running.refusals());
    ShardPlan grad = ShardPlan.of(ShardOps.class, "scaleShiftGrad");
    assertEquals("B", grad.dim());
    assertEquals(ShardPlan.Role.SUM, grad.param("dgamma").role(), "dgamma sums over B");
    assertEquals(ShardPlan.Role.ROWS, grad.param("dx").role());
  }

  @ParameterizedTest(name = "{0} parts")
  @ValueSource(ints = {1, 2, 5})
  void sumsOverTheSplitSizeAddTheParts(int parts) {
    float[] x = data(13, B * N);
    float[] one = new float[N];
    ShardOpsKernels.columnTotals(B, N, x, one);
    float[] split = data(14, N); // overwritten, as the operator overwrites it
    KilnSpark.run(sc, ShardOps.class, "columnTotals", parts, KilnSpark.Split.ALWAYS, B, N, x, split);
    Agreement.assertClose(one, split, 1e-5, 1e-5);

    float[] gamma = data(15, N);
    float[] beta = data(16, N);
    float[] y = new float[B * N];
    ShardOpsKernels.scaleShift(B, N, x, gamma, beta, y);
    float[] dy = data(17, B * N);
    float[][] whole = {new float[B * N], new float[N], new float[N]};
    ShardOpsKernels.scaleShiftGrad(B, N, x, gamma, beta, y, dy, whole[0], whole[1], whole[2]);
    float[][] parted = {new float[B * N], new float[N], new float[N]};
    KilnSpark.run(sc, ShardOps.class, "scaleShiftGrad", parts, KilnSpark.Split.ALWAYS, B, N, x, gamma, beta, y, dy,
        parted[0], parted[1], parted[2]);
    Agreement.assertSame(whole[0], parted[0]);
    for (int i = 1; i < 3; i++) {
      Agreement.assertClose(whole[i], parted[i], 1e-5, 1e-5);
    }
  }

  @Test
  void anOperatorThatCannotBeSplitRunsWholeOrFailsWhenForced() {
    float[] x = data(8, B);
    float[] y = new float[B];
    KilnSpark.Run run = KilnSpark.run(sc, ShardOps.class, "runningSum", 4, KilnSpark.Split.AUTO, B, x, y);
    assertFalse(run.sharded());
    assertTrue(run.decision().contains("cannot be split"), run.decision());
    float[] plain = new float[B];
    ShardOps.runningSum(B, x, plain);
    Agreement.assertSame(plain, y);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.run(sc, ShardOps.class, "runningSum", 4, KilnSpark.Split.ALWAYS, B, x, y));
    assertTrue(e.getMessage().contains("'runningSum' cannot be split: B: it uses B as a value"), e.getMessage());
  }

  /**
   * On local mode the parts share the driver's cores, which Kiln's launcher already uses: the cost
   * model runs every call whole, and says so. (Where it would split, with more cores: ShardCostTest.)
   */
  @Test
  void theCostModelRunsCallsWholeWhereTheClusterHasNoMoreCores() {
    float[] xs = data(12, 16 * 1024);
    float[] ys = new float[16 * 1024];
    KilnSpark.Run run = KilnSpark.run(sc, ShardOps.class, "gaussianSums", 2, KilnSpark.Split.AUTO, 16, 1024, xs, ys);
    assertFalse(run.sharded(), run.decision());
    assertTrue(run.decision().startsWith("run whole on the driver: estimated"), run.decision());
    float[] one = new float[16 * 1024];
    ShardOpsKernels.gaussianSums(16, 1024, xs, one);
    Agreement.assertSame(one, ys);
  }

  @Test
  void misusedCallsNameTheOperatorAndTheArgument() {
    float[] x = data(11, 10);
    IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.run(sc, ShardOps.class, "softmax", 2, KilnSpark.Split.ALWAYS, 2, 5, x));
    assertTrue(few.getMessage().contains("operator 'softmax' takes 4 arguments, 3 given"), few.getMessage());
    IllegalArgumentException ragged = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.run(sc, ShardOps.class, "softmax", 2, KilnSpark.Split.ALWAYS, 3, 5, new float[16], new float[15]));
    assertTrue(ragged.getMessage().contains("argument 'x' has 16 elements, not a whole number of rows of B = 3"), ragged.getMessage());
    float[] same = data(18, 3 * 5);
    IllegalArgumentException inPlace = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.run(sc, ShardOps.class, "softmax", 2, KilnSpark.Split.ALWAYS, 3, 5, same, same));
    assertTrue(inPlace.getMessage().contains("operator 'softmax': arguments 'x' and 'y' are one array"), inPlace.getMessage());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.run(sc, ShardOps.class, "nosuch", 2, KilnSpark.Split.ALWAYS));
    assertTrue(unknown.getMessage().contains("ShardOps has no grid or composite operator 'nosuch'"), unknown.getMessage());
  }
}
