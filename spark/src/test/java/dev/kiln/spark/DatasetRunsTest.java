package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Operators over a dataset of row blocks (blocks of 10, 0, 15 and 12 rows in three partitions)
 * against one launcher call on all 37 rows: rows bit for bit, draws through {@code @Offset} too;
 * reductions the same bits on every run, integers exact.
 */
class DatasetRunsTest {
  private static JavaSparkContext sc;
  private static final int B = 37;
  private static final int N = 65;
  private static final int[] BLOCKS = {10, 0, 15, 12};

  @BeforeAll
  static void start() {
    sc = SparkTests.context("kiln-dataset-test");
  }

  @AfterAll
  static void stop() {
    sc.stop();
  }

  private static float[] data(long seed, int n) {
    return SparkTests.data(seed, n);
  }

  /** {@code x}'s rows as blocks of {@link #BLOCKS} rows of width {@code n}, in three partitions. */
  private static JavaRDD<RowBlock> blocks(String name, float[] x, int n) {
    List<RowBlock> blocks = new ArrayList<>();
    int first = 0;
    for (int rows : BLOCKS) {
      blocks.add(new RowBlock(first, rows, Map.of(name, java.util.Arrays.copyOfRange(x, first * n, (first + rows) * n))));
      first += rows;
    }
    return sc.parallelize(blocks, 3);
  }

  private static float[] assemble(List<RowBlock> blocks, String name, int n) {
    float[] out = new float[B * n];
    List<RowBlock> sorted = new ArrayList<>(blocks);
    sorted.sort(Comparator.comparingLong(RowBlock::first));
    for (RowBlock b : sorted) {
      float[] rows = (float[]) b.array(name);
      System.arraycopy(rows, 0, out, (int) b.first() * n, rows.length);
    }
    return out;
  }

  @Test
  void rowsOfADatasetAreTheSingleCallsBits() {
    float[] x = data(1, B * N);
    float[] gamma = data(2, N);
    float[] beta = data(3, N);
    float[] one = new float[B * N];
    ShardOpsKernels.softmaxScaled(B, N, x, gamma, beta, one);
    List<RowBlock> out = KilnSpark.mapRows(blocks("x", x, N), ShardOps.class, "softmaxScaled",
        Map.of("N", N, "gamma", gamma, "beta", beta)).collect();
    Agreement.assertSame(one, assemble(out, "y", N));

    ShardOpsKernels.dropout(B, N, 9, 100, x, one);
    List<RowBlock> dropped = KilnSpark.mapRows(blocks("x", x, N), ShardOps.class, "dropout",
        Map.of("N", N, "seed", 9, "row0", 100)).collect();
    Agreement.assertSame(one, assemble(dropped, "y", N));
  }

  @Test
  void reductionsOfADatasetAreTheSameOnEveryRun() {
    float[] x = data(4, B * N);
    float[] initial = data(5, N);
    float[] one = initial.clone();
    ShardOpsKernels.columnSums(B, N, x, one);
    Map<String, Object> sums = KilnSpark.reduceRows(blocks("x", x, N), ShardOps.class, "columnSums", Map.of("K", N, "s", initial));
    Agreement.assertClose(one, (float[]) sums.get("s"), 1e-5, 1e-5);
    Map<String, Object> again = KilnSpark.reduceRows(blocks("x", x, N), ShardOps.class, "columnSums", Map.of("K", N, "s", initial));
    Agreement.assertSame((float[]) sums.get("s"), (float[]) again.get("s"));

    int[] count = {0};
    float[] largest = {Float.NEGATIVE_INFINITY};
    ShardOpsKernels.countAndMax(B * N, x, 0.25f, count, largest);
    List<RowBlock> elements = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      int from = B * N * i / 4;
      int to = B * N * (i + 1) / 4;
      elements.add(new RowBlock(from, to - from, Map.of("x", java.util.Arrays.copyOfRange(x, from, to))));
    }
    Map<String, Object> counted = KilnSpark.reduceRows(sc.parallelize(elements, 2), ShardOps.class, "countAndMax",
        Map.of("t", 0.25f, "count", new int[] {0}, "largest", new float[] {Float.NEGATIVE_INFINITY}));
    assertArrayEquals(count, (int[]) counted.get("count"));
    Agreement.assertSame(largest, (float[]) counted.get("largest"));
  }

  /**
   * A user monoid over a dataset: each block's rows summarised by a Kiln operator that carries a
   * record (Welford), the rows' summaries combined by the record's own combine (Chan) in the fixed
   * tree. Values of mean 10^4: accurate, and the same on every run.
   */
  @Test
  void aUserMonoidCombinesTheBlocksSummariesInATree() {
    int n = 4096;
    SplittableRandom r = new SplittableRandom(7);
    float[] x = new float[B * n];
    for (int i = 0; i < x.length; i++) {
      x[i] = 1e4f + (float) (r.nextDouble() * 2 - 1);
    }
    java.util.function.Supplier<Moments> run = () -> {
      List<RowBlock> blocks = KilnSpark.mapRows(blocks("x", x, n), ShardOps.class, "rowMoments", Map.of("N", n)).collect();
      List<RowBlock> sorted = new ArrayList<>(blocks);
      sorted.sort(Comparator.comparingLong(RowBlock::first));
      List<Moments> rows = new ArrayList<>();
      for (RowBlock block : sorted) {
        float[] count = (float[]) block.array("n");
        float[] mean = (float[]) block.array("mean");
        float[] m2 = (float[]) block.array("m2");
        for (int i = 0; i < block.rows(); i++) {
          rows.add(new Moments(count[i], mean[i], m2[i]));
        }
      }
      return KilnSpark.treeReduce(rows, Moments::combine);
    };
    Moments total = run.get();
    double m = 0;
    for (float v : x) {
      m += v;
    }
    m /= x.length;
    double exact = 0;
    for (float v : x) {
      exact += (v - m) * (v - m);
    }
    exact /= x.length;
    assertTrue(Math.abs(total.variance() - exact) / exact < 1e-3, total.variance() + " against " + exact);
    assertTrue(total.n() == B * n, "count " + total.n());
    org.junit.jupiter.api.Assertions.assertEquals(total, run.get(), "the same tree, the same bits");
  }

  @Test
  void misusedDatasetCallsNameTheOperatorAndTheParameter() {
    JavaRDD<RowBlock> blocks = blocks("x", data(6, B * N), N);
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.mapRows(blocks, ShardOps.class, "softmaxScaled", Map.of("N", N)));
    assertTrue(missing.getMessage().contains("operator 'softmaxScaled': no argument 'gamma'"), missing.getMessage());
    IllegalArgumentException reduce = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.mapRows(blocks, ShardOps.class, "columnSums", Map.of("K", N)));
    assertTrue(reduce.getMessage().contains("has the output 's', reduced over the rows, which no block owns: use KilnSpark.reduceRows"),
        reduce.getMessage());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.mapRows(blocks, ShardOps.class, "softmax", Map.of("N", N, "z", 1)));
    assertTrue(unknown.getMessage().contains("operator 'softmax' has no parameter 'z'"), unknown.getMessage());
    IllegalArgumentException unsplittable = assertThrows(IllegalArgumentException.class,
        () -> KilnSpark.mapRows(blocks, ShardOps.class, "runningSum", Map.of()));
    assertTrue(unsplittable.getMessage().contains("operator 'runningSum' cannot be split: B: it uses B as a value"),
        unsplittable.getMessage());
  }
}
