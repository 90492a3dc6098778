package dev.kiln.tests.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.cpu.UnorderedSums;
import dev.kiln.runtime.simd.Simd;
import dev.kiln.tests.Data;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The SIMD kernels: which operators get one (and why not), and that launchers (SIMD when
 * {@link Simd#ENABLED}, scalar in the build's second run with {@code -Dkiln.simd=false}) and the
 * SIMD methods called directly give the plain-Java source's floats exactly, at sizes around the
 * vector length (the masked tail) and on data full of special values.
 */
class SimdTest {
  /** Every 7th value special: NaN, infinities, signed zeros, a subnormal, exp's overflow edges. */
  static float[] data(long seed, int n) {
    float[] x = Data.floats(seed, n, -6f, 6f);
    float[] specials = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f, Float.MIN_VALUE, 88.8f,
        -104f, 1e30f, 2f, 0.5f};
    for (int i = 0; i < n; i += 7) {
      x[i] = specials[(int) ((seed + i) % specials.length)];
    }
    return x;
  }

  @Test
  void theSimdPathIsOnUnlessTurnedOff() {
    assertEquals(!"false".equals(System.getProperty(Simd.PROPERTY)), Simd.ENABLED, Simd.describe());
    // the build's runs: 16 floats (AVX-512) by default, 8 and 4 by -XX:MaxVectorSize=32 and 16
    String max = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-XX:MaxVectorSize=")).findFirst().orElse(null);
    if (max != null) {
      assertEquals(Integer.parseInt(max.substring(max.indexOf('=') + 1)) / Float.BYTES, Simd.LANES, Simd.describe());
    }
  }

  @Test
  void theListingSaysWhichKernelsHaveSimdFormsAndWhyNot() throws IOException {
    Map<String, String> expected = new LinkedHashMap<>();
    for (String op : new String[] {"arithmetic", "functions", "selects", "guarded", "rows", "indexMasks", "blocks", "columns",
        "drop", "divided", "drawRows", "drawNormal"}) {
      expected.put(op, "yes, neighbouring workers as lanes");
    }
    expected.put("rowPairs", "yes, neighbouring workers as lanes");
    expected.put("rowConcat", "yes, neighbouring workers as lanes, a loop a store in rows of at most 2048");
    expected.put("rowSplit", "yes, neighbouring workers as lanes, a loop a store in rows of at most 2048");
    expected.put("columnFolds", "yes, neighbouring workers as lanes, rows outermost over blocks of 1024 lanes");
    expected.put("columnScaled", "yes, neighbouring workers as lanes, rows outermost over blocks of 1024 lanes");
    expected.put("columnPasses", "yes, neighbouring workers as lanes, rows outermost over blocks of 1024 lanes");
    expected.put("columnParts", "yes, neighbouring workers as lanes, rows outermost over blocks of 1024 lanes,"
        + " its 3 loops dealt to the threads over blocks of 8192 lanes");
    expected.put("softmax", "yes, 3 of 3 sequential loops as vectors, exp kept in y for a later loop, 4 rows at a time, "
        + "1 loop adds its sums after its vectors, from the terms it stores or loads");
    expected.put("weightedSoftmax", "yes, 3 of 3 sequential loops as vectors");
    expected.put("guardedDivision", "yes, 1 of 1 sequential loops as vectors, 4 rows at a time");
    expected.put("folds", "yes, 1 of 1 sequential loops as vectors, 4 rows at a time");
    expected.put("rowExtremes", "yes, 1 of 1 sequential loops as vectors");
    expected.put("partialRows", "yes, 1 of 1 sequential loops as vectors");
    expected.put("rewritten", "yes, 2 of 2 sequential loops as vectors");
    expected.put("overlappingStores", "no, neighbouring workers do not write neighbouring elements of y; "
        + "its loops: a loop's stores into y may write one element in different iterations");
    expected.put("prefixSum", "no, neighbouring workers do not write neighbouring elements of y; its loops: a loop uses s before the loop ends");
    expected.put("firstMax", "yes, 3 of 3 sequential loops as vectors, 4 rows at a time");
    expected.put("rowSum", "yes, 1 of 1 sequential loops as vectors, 4 rows at a time");
    expected.put("runningStats", "yes, 1 of 2 sequential loops as vectors (not: a loop uses mean before the loop ends),"
        + " 4 rows at a time");
    expected.put("laneSoftmax", "yes, 2 of 2 sequential loops as vectors, 1 lane sum as vectors, exp kept in y for a later loop");
    expected.put("laneNorm", "yes, 1 of 1 sequential loops as vectors, 2 lane sums as vectors");
    expected.put("laneFolds", "yes, 3 lane sums as vectors");
    expected.put("laneRefused", "no, a read of x is not unit-stride in b; its loops: a loop's step is not 1");
    expected.put("laneSoftmaxSaving_k0", expected.get("laneSoftmax"));
    expected.put("laneNormSaving_k0", expected.get("laneNorm"));
    // their backward passes reading the saved sums: the other lane sums still run as vectors
    expected.put("laneSoftmaxGradSaved_k0", "yes, 2 of 2 sequential loops as vectors, adj$x$1 computed again where read, "
        + "adj$x$2 computed again where read, exp kept in dx for a later loop");
    expected.put("laneNormGradSaved_k0", "yes, 2 of 2 sequential loops as vectors, 1 lane sum as vectors, "
        + "adj$x$1 computed again where read, adj$x$2 computed again where read, adj$x$3 computed again where read");
    expected.put("strided", "no, a read of x is not unit-stride in i");
    expected.put("withLog", "no, log has no bit-exact vector form");
    expected.put("indexAsValue", "no, a conversion depends on i");
    expected.put("intOutput", "no, y is not a float array");
    expected.put("drawStrided", "no, an index is not unit-stride in i");
    // the training forms of the row and column kernels whose gradients read their loops' results
    // (WorkerStatistics): the forward kernels' forms, and the backward kernels without those loops
    expected.put("columnFoldsSaving_k0", "yes, neighbouring workers as lanes, rows outermost over blocks of 1024 lanes");
    expected.put("columnPassesSaving_k0", "yes, neighbouring workers as lanes, rows outermost over blocks of 1024 lanes");
    expected.put("columnPassesGradSaved_k0", "yes, 1 of 3 sequential loops as vectors (not: a read of x is not unit-stride in b_3), "
        + "4 rows at a time");
    expected.put("columnPassesGradSaved_k1", "no, a read of adj$x$2 is not unit-stride in j1");
    expected.put("softmaxSaving_k0", expected.get("softmax"));
    expected.put("weightedSoftmaxSaving_k0", expected.get("weightedSoftmax"));
    expected.put("firstMaxSaving_k0", expected.get("firstMax"));
    expected.put("rowExtremesSaving_k0", expected.get("rowExtremes"));
    expected.put("columnFoldsGradSaved_k0", "no, neighbouring workers do not write neighbouring elements of adj$x$1; "
        + "its loops: a read of x is not unit-stride in b");
    expected.put("columnFoldsGradSaved_k1", "no, a read of adj$x$1 is not unit-stride in j1");
    expected.put("softmaxGradSaved_k0", "yes, 2 of 2 sequential loops as vectors, adj$x$1 computed again where read, "
        + "adj$x$2 computed again where read, exp kept in dx for a later loop");
    expected.put("weightedSoftmaxGradSaved_k0", "yes, 2 of 2 sequential loops as vectors, adj$x$2 computed again where read");
    expected.put("firstMaxGradSaved_k0", "yes, 2 of 2 sequential loops as vectors, adj$x$2 computed again where read");
    expected.put("rowExtremesGradSaved_k0", "yes, 2 of 2 sequential loops as vectors");
    Map<String, String> listed = new LinkedHashMap<>();
    try (InputStream in = SimdOps.class.getResourceAsStream("/META-INF/kiln/dev/kiln/tests/simd/SimdOps.ir.txt")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String line : text.split("\n")) {
        if (line.startsWith("simd ") && !line.contains("Grad_")) {
          listed.put(line.substring(5, line.indexOf(':')), line.substring(line.indexOf(':') + 2));
        }
      }
    }
    assertEquals(expected, listed);
  }

  @Test
  void theSimdClassHasAMethodForEachAcceptedKernelAndNoOther() throws ClassNotFoundException {
    Class<?> simd = Class.forName("dev.kiln.tests.simd.SimdOpsSimdKernels");
    Set<String> methods = new TreeSet<>();
    for (Method m : simd.getDeclaredMethods()) {
      if (!m.isSynthetic()) {
        methods.add(m.getName());
      }
    }
    assertTrue(methods.containsAll(Set.of("arithmetic", "functions", "selects", "guarded", "rows", "blocks",
        "functionsGrad_k0", "softmax", "softmax$rows$loop0", "weightedSoftmax",
        "weightedSoftmax$loop0", "weightedSoftmax$loop1", "folds", "partialRows", "rowSum", "columns", "firstMax",
        "softmaxGrad_k0", "columnFolds", "columnScaled", "columnScaledGrad_k0", "drop", "drawRows", "dropGrad_k0",
        "drawNormal", "divided")),
        methods.toString());
    for (String refused : new String[] {"strided", "withLog", "indexAsValue", "intOutput", "prefixSum", "overlappingStores",
        "drawStrided"}) {
      assertTrue(!methods.contains(refused), refused + " in " + methods);
    }
  }

  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 3, 15, 16, 17, 31, 33, 64, 100, 1000})
  void elementwiseKernelsGiveTheSourcesFloats(int n) {
    float[] a = data(n, n);
    float[] b = data(n + 99, n);
    for (int k = 0; k < n; k += 5) {
      b[k] = a[k]; // equal operands for the comparisons
    }
    float[] want = new float[n];
    float[] got = new float[n];
    float[] direct = new float[n];

    SimdOps.arithmetic(n, a, b, 0.75f, want);
    SimdOpsKernels.arithmetic(n, a, b, 0.75f, got);
    SimdOpsSimdKernels.arithmetic(0, n, n, a, b, 0.75f, direct);
    same("arithmetic", want, got, direct);

    float[] want2 = new float[n];
    float[] got2 = new float[n];
    float[] direct2 = new float[n];
    SimdOps.functions(n, a, b, want, want2);
    SimdOpsKernels.functions(n, a, b, got, got2);
    SimdOpsSimdKernels.functions(0, n, n, a, b, direct, direct2);
    same("functions y", want, got, direct);
    same("functions z", want2, got2, direct2);

    for (boolean flip : new boolean[] {false, true}) {
      SimdOps.selects(n, a, b, flip, want);
      SimdOpsKernels.selects(n, a, b, flip, got);
      SimdOpsSimdKernels.selects(0, n, n, a, b, flip, direct);
      same("selects " + flip, want, got, direct);
    }

    Arrays.fill(want, 7f);
    Arrays.fill(got, 7f);
    Arrays.fill(direct, 7f);
    SimdOps.guarded(n, a, want);
    SimdOpsKernels.guarded(n, a, got);
    SimdOpsSimdKernels.guarded(0, n, n, a, direct);
    same("guarded", want, got, direct);
  }

  /**
   * A division by a divisor every lane shares gives the quotient's bits for divisors and dividends
   * at every exponent (zeros of both signs, subnormals, infinities, NaN, the edges of the range in
   * which a reciprocal-and-correction form was once tried; see docs/BENCHMARKS.md).
   */
  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 15, 16, 17, 100, 4099})
  void aSharedDivisorGivesTheQuotientsBits(int n) {
    java.util.SplittableRandom random = new java.util.SplittableRandom(n);
    float[] x = data(n + 5, n);
    for (int i = 1; i < n; i += 3) {
      x[i] = Float.intBitsToFloat(random.nextInt()); // any bits: every exponent, NaNs, subnormals
    }
    float[] divisors = {3f, -7.5f, 1f / 3, 0.1f, 1e-30f, -1e30f, 0x1p-60f, 0x1p60f, 0x1p-61f, 0x1.fffffep60f,
        Float.MIN_NORMAL, Float.MIN_VALUE, Float.MAX_VALUE, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
        Float.NaN, Float.intBitsToFloat(0x3fffffff), Float.intBitsToFloat(random.nextInt())};
    for (float d : divisors) {
      for (float[] dividends : new float[][] {x, Data.floats(n, n, 0f, 1f)}) {
        float[] want = new float[n];
        float[] got = new float[n];
        float[] direct = new float[n];
        SimdOps.divided(n, dividends, d, want);
        SimdOpsKernels.divided(n, dividends, d, got);
        SimdOpsSimdKernels.divided(0, n, n, dividends, d, direct);
        same("divided by " + d, want, got, direct);
      }
    }
  }

  /**
   * KRandom.uniform and normal for a vector of consecutive indices (Philox in long lanes, two halves
   * a vector; Box and Muller's logarithm and cosine as KRandom computes them): the plain Java's
   * floats at every size and lane count, indices that wrap past Integer.MAX_VALUE and seeds of every
   * sign included; dropout's derived gradient draws the same mask.
   */
  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 3, 15, 16, 17, 31, 33, 64, 100, 1000, 4099})
  void kernelsThatDrawGiveTheSourcesFloats(int n) {
    float[] x = data(n, n);
    for (int seed : new int[] {0, 1, -1, 2026, Integer.MIN_VALUE, 0x7fffffff}) {
      float[] want = new float[n];
      float[] got = new float[n];
      float[] direct = new float[n];
      SimdOps.drop(n, x, seed, 0.3f, want);
      SimdOpsKernels.drop(n, x, seed, 0.3f, got);
      SimdOpsSimdKernels.drop(0, n, n, x, seed, 0.3f, direct);
      same("drop seed " + seed, want, got, direct);

      float[] dy = Data.floats(n + 7, n, -1f, 1f);
      float[] dx = new float[n];
      SimdOpsKernels.dropGrad(n, x, seed, 0.3f, want, dy, dx);
      for (int i = 0; i < n; i++) {
        boolean dropped = dev.kiln.KRandom.uniform(seed, 4, i) < 0.3f;
        float scaled = dy[i] / (1f - 0.3f);
        assertTrue(dropped ? dx[i] == 0f : Math.abs(dx[i] - scaled) <= Math.ulp(scaled),
            "dropGrad seed " + seed + " at " + i + ": " + dx[i] + (dropped ? " where dropped" : " for " + scaled));
      }

      float[] normalWant = new float[n];
      float[] normalGot = new float[n];
      float[] normalDirect = new float[n];
      SimdOps.drawNormal(n, seed, normalWant);
      SimdOpsKernels.drawNormal(n, seed, normalGot);
      SimdOpsSimdKernels.drawNormal(0, n, n, seed, normalDirect);
      same("drawNormal seed " + seed, normalWant, normalGot, normalDirect);

      for (int offset : new int[] {0, 5, Integer.MAX_VALUE - 20}) {
        int b = 3;
        float[] rowsWant = new float[b * n];
        float[] rowsGot = new float[b * n];
        float[] rowsDirect = new float[b * n];
        SimdOps.drawRows(b, n, seed, offset, rowsWant);
        SimdOpsKernels.drawRows(b, n, seed, offset, rowsGot);
        SimdOpsSimdKernels.drawRows(0, b, b, n, seed, offset, rowsDirect);
        same("drawRows seed " + seed + " offset " + offset, rowsWant, rowsGot, rowsDirect);
      }
    }
  }

  @ParameterizedTest(name = "B=3, N={0}")
  @ValueSource(ints = {0, 1, 15, 16, 17, 40})
  void rowAndBlockKernelsGiveTheSourcesFloats(int n) {
    int rows = 3;
    float[] x = data(5, rows * n);
    float[] scale = data(6, rows);
    float[] shift = data(7, n);
    float[] want = new float[rows * n];
    float[] got = new float[rows * n];
    float[] direct = new float[rows * n];
    SimdOps.rows(rows, n, x, scale, shift, want);
    SimdOpsKernels.rows(rows, n, x, scale, shift, got);
    SimdOpsSimdKernels.rows(0, rows, rows, n, x, scale, shift, direct);
    same("rows", want, got, direct);

    int c = 2;
    float[] wide = data(8, rows * c * 2 * n);
    float[] bwant = new float[rows * c * n];
    float[] bgot = new float[rows * c * n];
    float[] bdirect = new float[rows * c * n];
    SimdOps.blocks(rows, c, n, wide, bwant);
    SimdOpsKernels.blocks(rows, c, n, wide, bgot);
    SimdOpsSimdKernels.blocks(0, rows, rows, c, n, wide, bdirect);
    same("blocks", bwant, bgot, bdirect);
  }

  /**
   * Column loops over the same rows in one pass and one that starts from another's result, at
   * widths around a vector and past a block of 1024 columns (finite data: a NaN would fill its
   * column and hide the order of the rest).
   */
  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "3, 17", "40, 15", "7, 40", "50, 1100", "9, 2049"})
  void columnLoopsInOnePassGiveTheSourcesFloats(int rows, int n) {
    float[] x = Data.floats(81, rows * n, -3f, 3f);
    float[] y = Data.floats(82, rows * n, -3f, 3f);
    float[] w = Data.floats(83, n, 0.5f, 1.5f);
    float[][] want = {new float[n], new float[n], new float[n]};
    float[][] got = {new float[n], new float[n], new float[n]};
    float[][] direct = {new float[n], new float[n], new float[n]};
    SimdOps.columnPasses(rows, n, x, y, w, want[0], want[1], want[2]);
    SimdOpsKernels.columnPasses(rows, n, x, y, w, got[0], got[1], got[2]);
    SimdOpsSimdKernels.columnPasses(0, n, rows, n, x, y, w, direct[0], direct[1], direct[2]);
    for (int i = 0; i < 3; i++) {
      same("columnPasses " + i, want[i], got[i], direct[i]);
    }
  }

  /**
   * Column loops dealt to the threads, each over whole rows, through the launcher (dealt where the
   * columns make more than one chunk) and each part called directly: at widths around a vector, past
   * a block of 1024 columns and past a part's block of 8192.
   */
  @ParameterizedTest(name = "B={0}, N={1}")
  @CsvSource({"1, 1", "3, 17", "40, 15", "300, 2100", "9, 2049", "64, 9000"})
  void columnLoopsDealtToTheThreadsGiveTheSourcesFloats(int rows, int n) {
    float[] x = Data.floats(84, rows * n, -3f, 3f);
    float[] y = Data.floats(85, rows * n, -3f, 3f);
    float[][] want = new float[4][n];
    float[][] got = new float[4][n];
    float[][] direct = new float[4][n];
    SimdOps.columnParts(rows, n, x, y, want[0], want[1], want[2], want[3]);
    SimdOpsKernels.columnParts(rows, n, x, y, got[0], got[1], got[2], got[3]);
    SimdOpsSimdKernels.columnParts$part0(0, n, rows, n, x, y, direct[0], direct[1], direct[2], direct[3]);
    SimdOpsSimdKernels.columnParts$part1(0, n / 2, rows, n, x, y, direct[0], direct[1], direct[2], direct[3]);
    SimdOpsSimdKernels.columnParts$part1(n / 2, n, rows, n, x, y, direct[0], direct[1], direct[2], direct[3]);
    SimdOpsSimdKernels.columnParts$part2(0, n, rows, n, x, y, direct[0], direct[1], direct[2], direct[3]);
    for (int i = 0; i < 4; i++) {
      same("columnParts " + i, want[i], got[i], direct[i]);
    }
  }

  /**
   * Rows whose stores run as loops of their own up to 2048 workers (StoreStreams) and as one loop
   * beyond: at lengths of a vector's remainder, at and about the limit, and past it.
   */
  @ParameterizedTest(name = "B=3, N={0}")
  @ValueSource(ints = {0, 1, 15, 17, 40, 1000, 2047, 2048, 2049, 3000})
  void rowsWhoseStoresRunAsLoopsOfTheirOwnGiveTheSourcesFloats(int n) {
    int rows = 3;
    float[] x = data(71, rows * 2 * n);
    float[] y = data(72, rows * n);
    float[] want = new float[rows * 2 * n];
    float[] got = new float[rows * 2 * n];
    float[] direct = new float[rows * 2 * n];
    SimdOps.rowConcat(rows, n, x, y, want);
    SimdOpsKernels.rowConcat(rows, n, x, y, got);
    SimdOpsSimdKernels.rowConcat(0, rows, rows, n, x, y, direct);
    same("rowConcat", want, got, direct);

    float[][] split = {new float[rows * n], new float[rows * n], new float[rows * n], new float[rows * n],
        new float[rows * n], new float[rows * n]};
    SimdOps.rowSplit(rows, n, x, split[0], split[1]);
    SimdOpsKernels.rowSplit(rows, n, x, split[2], split[3]);
    SimdOpsSimdKernels.rowSplit(0, rows, rows, n, x, split[4], split[5]);
    same("rowSplit lo", split[0], split[2], split[4]);
    same("rowSplit hi", split[1], split[3], split[5]);

    float[] a = java.util.Arrays.copyOf(x, rows * n);
    float[][] pairs = {new float[rows * n], new float[rows * n], new float[rows * n], new float[rows * n],
        new float[rows * n], new float[rows * n]};
    SimdOps.rowPairs(rows, n, a, y, pairs[0], pairs[1]);
    SimdOpsKernels.rowPairs(rows, n, a, y, pairs[2], pairs[3]);
    SimdOpsSimdKernels.rowPairs(0, rows, rows, n, a, y, pairs[4], pairs[5]);
    same("rowPairs sum", pairs[0], pairs[2], pairs[4]);
    same("rowPairs product", pairs[1], pairs[3], pairs[5]);
  }

  /** Comparisons of the lane variable with a row index: the masks' lanes switch inside a vector. */
  @ParameterizedTest(name = "R={0}, C={1}")
  @CsvSource({"1, 1", "3, 40", "40, 3", "20, 33", "70, 70", "5, 100"})
  void indexMasksGiveTheSourcesFloats(int r, int c) {
    float[] x = data(61 + r, r * c);
    float[] want = new float[r * c];
    float[] got = new float[r * c];
    float[] direct = new float[r * c];
    SimdOps.indexMasks(r, c, x, want);
    SimdOpsKernels.indexMasks(r, c, x, got);
    SimdOpsSimdKernels.indexMasks(0, r, r, c, x, direct);
    same("indexMasks", want, got, direct);
  }

  @ParameterizedTest(name = "B=7, N={0}")
  @ValueSource(ints = {0, 1, 15, 16, 17, 40})
  void columnKernelsRunTheRowLoopInEveryLane(int n) {
    int rows = 7;
    float[] x = data(41 + n, rows * n);
    float[][] want = {new float[n], new float[n], new float[rows * n]};
    float[][] got = {new float[n], new float[n], new float[rows * n]};
    float[][] direct = {new float[n], new float[n], new float[rows * n]};
    SimdOps.columns(rows, n, x, want[0], want[1], want[2]);
    SimdOpsKernels.columns(rows, n, x, got[0], got[1], got[2]);
    SimdOpsSimdKernels.columns(0, n, rows, n, x, direct[0], direct[1], direct[2]);
    for (int i = 0; i < 3; i++) {
      same("columns " + i, want[i], got[i], direct[i]);
    }
  }

  @ParameterizedTest(name = "B=5, N={0}")
  @ValueSource(ints = {0, 1, 2, 15, 16, 17, 33, 100, 1000})
  void rowKernelsWithVectorLoopsGiveTheSourcesFloats(int n) {
    int rows = 5;
    float[] x = data(31 + n, rows * n);
    float[] w = data(32 + n, n);
    for (int k = 0; k < n; k++) {
      w[k] = Math.abs(w[k]) + 0.5f; // no division by zero in the difference fold
    }
    float[] want = new float[rows * n];
    float[] got = new float[rows * n];
    float[] direct = new float[rows * n];
    SimdOps.softmax(rows, n, x, want);
    SimdOpsKernels.softmax(rows, n, x, got);
    SimdOpsSimdKernels.softmax(0, rows, rows, n, x, direct);
    same("softmax", want, got, direct);
    float[] chunked = new float[rows * n];
    SimdOpsSimdKernels.softmax(0, 1, rows, n, x, chunked); // one row alone, then four rows at a time from row 1
    SimdOpsSimdKernels.softmax(1, rows, rows, n, x, chunked);
    same("softmax in chunks [0, 1) and [1, 5)", want, got, chunked);

    float[] divided = new float[rows];
    float[] dividedGot = new float[rows];
    float[] dividedDirect = new float[rows];
    SimdOps.guardedDivision(rows, n, x, divided);
    SimdOpsKernels.guardedDivision(rows, n, x, dividedGot);
    SimdOpsSimdKernels.guardedDivision(0, rows, rows, n, x, dividedDirect);
    same("guardedDivision", divided, dividedGot, dividedDirect);

    float[] c = {1f, -1f, 0.5f, 0f, 2f};
    Arrays.fill(want, 9f);
    Arrays.fill(got, 9f);
    Arrays.fill(direct, 9f);
    SimdOps.weightedSoftmax(rows, n, x, c, want);
    SimdOpsKernels.weightedSoftmax(rows, n, x, c, got);
    SimdOpsSimdKernels.weightedSoftmax(0, rows, rows, n, x, c, direct);
    same("weightedSoftmax", want, got, direct);

    float[][] wantF = new float[4][rows];
    float[][] gotF = new float[4][rows];
    float[][] directF = new float[4][rows];
    SimdOps.folds(rows, n, x, w, wantF[0], wantF[1], wantF[2], wantF[3]);
    SimdOpsKernels.folds(rows, n, x, w, gotF[0], gotF[1], gotF[2], gotF[3]);
    SimdOpsSimdKernels.folds(0, rows, rows, n, x, w, directF[0], directF[1], directF[2], directF[3]);
    for (int i = 0; i < 4; i++) {
      same("folds " + i, wantF[i], gotF[i], directF[i]);
    }

    float[] rowSum = new float[rows];
    float[] rowSumGot = new float[rows];
    float[] rowSumDirect = new float[rows];
    SimdOps.rowSum(rows, n, x, rowSum);
    SimdOpsKernels.rowSum(rows, n, x, rowSumGot);
    SimdOpsSimdKernels.rowSum(0, rows, rows, n, x, rowSumDirect);
    same("rowSum", rowSum, rowSumGot, rowSumDirect);

    // a scalar recurrence, four rows' chains side by side: each row's floats as the source's
    Arrays.fill(want, 9f);
    Arrays.fill(got, 9f);
    Arrays.fill(direct, 9f);
    SimdOps.runningStats(rows, n, x, want);
    SimdOpsKernels.runningStats(rows, n, x, got);
    SimdOpsSimdKernels.runningStats(0, rows, rows, n, x, direct);
    same("runningStats", want, got, direct);

    float[] limit = {1f, -1f, 0.5f, Float.NaN, 3f};
    Arrays.fill(want, 9f);
    Arrays.fill(got, 9f);
    Arrays.fill(direct, 9f);
    SimdOps.partialRows(rows, n, x, limit, want);
    SimdOpsKernels.partialRows(rows, n, x, limit, got);
    SimdOpsSimdKernels.partialRows(0, rows, rows, n, x, limit, direct);
    same("partialRows", want, got, direct);
  }

  /**
   * Lane sums: every lane's partial folded in the source's order, the partials then in lane order;
   * rows shorter than a block, a block and a part of one, several blocks; 32, 48, 16 and 128 lanes.
   */
  @ParameterizedTest(name = "B=5, N={0}")
  @ValueSource(ints = {0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 100, 129, 1000, 2048})
  void laneSumsGiveTheSourcesFloats(int n) {
    int rows = 5;
    float[] x = data(41 + n, rows * n);
    laneKernelsAgree(rows, n, x);
    float[][] wantR = new float[2][rows];
    float[][] gotR = new float[2][rows];
    SimdOps.laneRefused(rows, n, x, wantR[0], wantR[1]);
    SimdOpsKernels.laneRefused(rows, n, x, gotR[0], gotR[1]);
    assertArrayEquals(wantR[0], gotR[0], "laneRefused (8 lanes)");
    assertArrayEquals(wantR[1], gotR[1], "laneRefused (a term reading the lane)");
  }

  /**
   * Long rows of finite values (special values would make every sum NaN and hide a term in the
   * wrong place), where the vector loops start at the first element on a vector's boundary
   * ({@code Alignment}): rows of 999, 1000 and 2100 floats start at a different offset each, so
   * each row runs a different number of iterations before its vectors (one by one, or as one
   * overlapping vector in a loop that only stores). Every result the source's bits, however the
   * rows are cut into calls. (A lane sum's blocks rotated to a boundary, a form tried and taken
   * out, passed the special-value tests with a misplaced lane and failed these.)
   */
  @ParameterizedTest(name = "B=5, N={0}")
  @ValueSource(ints = {999, 1000, 2048, 2100})
  void longRowsGiveTheSourcesFloatsWhereverTheirVectorsStart(int n) {
    int rows = 5;
    float[] x = Data.floats(71 + n, rows * n, -3f, 3f);
    float[] want = new float[rows * n];
    float[] got = new float[rows * n];
    float[] direct = new float[rows * n];
    float[] cut = new float[rows * n];
    laneKernelsAgree(rows, n, x);
    SimdOps.softmax(rows, n, x, want);
    SimdOpsKernels.softmax(rows, n, x, got);
    SimdOpsSimdKernels.softmax(0, rows, rows, n, x, direct);
    same("softmax", want, got, direct);
    float[][] wantF = new float[4][rows];
    float[][] gotF = new float[4][rows];
    float[][] directF = new float[4][rows];
    float[] w = Data.floats(72 + n, n, 0.5f, 2f);
    SimdOps.folds(rows, n, x, w, wantF[0], wantF[1], wantF[2], wantF[3]);
    SimdOpsKernels.folds(rows, n, x, w, gotF[0], gotF[1], gotF[2], gotF[3]);
    SimdOpsSimdKernels.folds(0, rows, rows, n, x, w, directF[0], directF[1], directF[2], directF[3]);
    for (int i = 0; i < 4; i++) {
      same("folds " + i, wantF[i], gotF[i], directF[i]);
    }
    SimdOps.rowSum(rows, n, x, wantF[0]);
    SimdOpsKernels.rowSum(rows, n, x, gotF[0]);
    SimdOpsSimdKernels.rowSum(0, rows, rows, n, x, directF[0]);
    same("rowSum", wantF[0], gotF[0], directF[0]);
    int all = rows * n;
    float[] b = Data.floats(73 + n, all, -3f, 3f);
    SimdOps.arithmetic(all, x, b, 0.75f, want);
    SimdOpsKernels.arithmetic(all, x, b, 0.75f, got);
    SimdOpsSimdKernels.arithmetic(0, all, all, x, b, 0.75f, direct);
    SimdOpsSimdKernels.arithmetic(0, 1001, all, x, b, 0.75f, cut);
    SimdOpsSimdKernels.arithmetic(1001, all, all, x, b, 0.75f, cut);
    same("arithmetic", want, got, direct);
    same("arithmetic in calls [0, 1001) and [1001, B N)", want, got, cut);
  }

  /**
   * Column folds with the rows outermost: fewer columns than a vector, a block and a part of one,
   * more than one block of 1024 (and chunks that start inside a vector and inside a block).
   */
  @ParameterizedTest(name = "B=5, N={0}")
  @ValueSource(ints = {0, 1, 15, 16, 17, 100, 1024, 1040, 2100})
  void columnFoldsGiveTheSourcesFloats(int n) {
    int rows = 5;
    float[] x = data(61 + n, rows * n);
    float[] w = data(62 + n, n);
    float[][] want = {new float[n], new float[n]};
    float[][] got = {new float[n], new float[n]};
    float[][] direct = {new float[n], new float[n]};
    SimdOps.columnFolds(rows, n, x, w, want[0], want[1]);
    SimdOpsKernels.columnFolds(rows, n, x, w, got[0], got[1]);
    int cut = n / 3;
    SimdOpsSimdKernels.columnFolds(0, cut, rows, n, x, w, direct[0], direct[1]);
    SimdOpsSimdKernels.columnFolds(cut, n, rows, n, x, w, direct[0], direct[1]);
    same("columnFolds' sums", want[0], got[0], direct[0]);
    same("columnFolds' maxima", want[1], got[1], direct[1]);
  }

  /**
   * The derived backward kernel of a softmax whose sum is a lane sum computes exp(x - m) in a plain
   * loop and again in the lane nest; its SIMD form keeps the first loop's value per worker and reads
   * it back in the nest (CallStash, "exp kept per worker for a later loop"). Its floats against the
   * launcher's: in the build's run with {@code -Dkiln.simd=false} the launcher runs the scalar
   * kernel, which computes exp twice; on data full of special values, at sizes around the lanes.
   */
  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 15, 16, 17, 31, 32, 33, 100, 1000})
  void aLaneSoftmaxsGradientKeepsItsExpAndGivesTheSameFloats(int n) {
    int rows = 5;
    float[] x = data(101 + n, rows * n);
    float[] y = new float[rows * n];
    float[] m = new float[rows];
    float[] s = new float[rows];
    SimdOpsKernels.laneSoftmaxSaving(rows, n, x, y, m, s);
    float[] dy = data(102 + n, rows * n);
    float[] launcher = new float[rows * n];
    float[] composite = new float[rows * n];
    float[] direct = new float[rows * n];
    SimdOpsKernels.laneSoftmaxGradSaved_k0(rows, n, x, m, s, dy, launcher);
    SimdOpsKernels.laneSoftmaxGradSaved(rows, n, x, y, m, s, dy, composite);
    SimdOpsSimdKernels.laneSoftmaxGradSaved_k0(0, rows, rows, n, x, m, s, dy, direct);
    same("laneSoftmaxGradSaved", launcher, composite, direct);
  }

  /**
   * A loop of max and min folds only, which the SIMD form runs with several accumulators per fold
   * combined after the loop (SimdLoops.maxMinCopies): the source's bits where the grouping would
   * show if Math.max and Math.min were not associative (signed zeros, a NaN in any position, the
   * infinities), at sizes below, at and past the unrolled step, each row in a chunk of its own
   * (one row at a time, the accumulators' form) and all rows at once (rows side by side).
   */
  @ParameterizedTest(name = "N={0}")
  @ValueSource(ints = {0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200, 1000})
  void maxAndMinFoldsWithSeveralAccumulatorsGiveTheSourcesFloats(int n) {
    int rows = 7;
    float[] x = data(91 + n, rows * n);
    for (int k = 0; k < n; k++) {
      x[k] = -0f; // row 0: negative zeros and one positive zero, whose maximum is +0
      x[n + k] = -0f; // row 1: negative zeros only
      x[2 * n + k] = 0f; // row 2: positive zeros and one negative zero, whose minimum is -0
      x[3 * n + k] = Float.isNaN(x[3 * n + k]) ? 2f : Math.abs(x[3 * n + k]) + 1f; // row 3: no NaN but the one placed below
      x[4 * n + k] = x[4 * n + k] != x[4 * n + k] ? 1f : x[4 * n + k]; // row 4: infinities, no NaN
    }
    if (n > 0) {
      x[(n * 5) / 7] = 0f;
      x[2 * n + (n * 3) / 5] = -0f;
      x[3 * n + n - 1] = Float.NaN; // in the last vector or the scalar tail
      x[5 * n + n / 2] = Float.NaN;
    }
    float[][] want = {new float[rows], new float[rows]};
    float[][] got = {new float[rows], new float[rows]};
    float[][] direct = {new float[rows], new float[rows]};
    float[][] alone = {new float[rows], new float[rows]};
    SimdOps.rowExtremes(rows, n, x, want[0], want[1]);
    SimdOpsKernels.rowExtremes(rows, n, x, got[0], got[1]);
    SimdOpsSimdKernels.rowExtremes(0, rows, rows, n, x, direct[0], direct[1]);
    for (int b = 0; b < rows; b++) {
      SimdOpsSimdKernels.rowExtremes(b, b + 1, rows, n, x, alone[0], alone[1]);
    }
    for (int i = 0; i < 2; i++) {
      same("rowExtremes " + i, want[i], got[i], direct[i]);
      same("rowExtremes " + i + ", a row at a time", want[i], got[i], alone[i]);
    }
    if (n > 0) {
      assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(want[0][0]), "the source's maximum of row 0");
      assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(want[1][2]), "the source's minimum of row 2");
      assertTrue(Float.isNaN(want[0][3]), "the source's maximum of row 3");
    }
  }

  /**
   * A derived gradient's sum in the lanes form (columnScaled's {@code dw[n] = Σ_b dsum[n] x[b, n]},
   * each column a lane; the rows not a multiple of 16, so the partials wrap unevenly): the floats of
   * sixteen partials per column in the tree of UnorderedSums, at every vector width the build's
   * runs use, in any cut of the grid.
   */
  @ParameterizedTest(name = "B={0}")
  @ValueSource(ints = {0, 1, 15, 16, 17, 40})
  void lanesKeepAGradientsSumInPartials(int rows) {
    for (int n : new int[] {0, 1, 15, 16, 17, 100, 1040}) {
      float[] x = data(71 + n + rows, rows * n);
      float[] w = data(72 + n, n);
      float[] sum = new float[n];
      float[] dsum = Data.floats(73 + n, n, -1f, 1f);
      float[] want = new float[n];
      for (int j = 0; j < n; j++) {
        float[] parts = new float[16];
        for (int b = 0; b < rows; b++) {
          parts[b % 16] += dsum[j] * x[b * n + j];
        }
        want[j] = 0f + UnorderedSums.total(parts);
      }
      float[] got = new float[n];
      float[] dx = new float[rows * n];
      SimdOpsKernels.columnScaledGrad(rows, n, x, w, sum, dsum, dx, got);
      float[] direct = new float[n];
      int cut = n / 3;
      SimdOpsSimdKernels.columnScaledGrad_k0(0, cut, rows, n, x, dsum, direct);
      SimdOpsSimdKernels.columnScaledGrad_k0(cut, n, rows, n, x, dsum, direct);
      same("columnScaledGrad's dw, B=" + rows + ", N=" + n, want, got, direct);
    }
  }

  /**
   * A loop carrying "seen so far": rows with ties (the first maximum only), with the maximum in
   * any lane of a vector or in the scalar tail, all equal, all -inf (then every element is the
   * maximum, and -inf == -inf), with a NaN (no element equals a NaN maximum).
   */
  @ParameterizedTest(name = "B=6, N={0}")
  @ValueSource(ints = {0, 1, 2, 15, 16, 17, 33, 100, 1000})
  void firstMaximumLoopsGiveTheSourcesFloats(int n) {
    int rows = 6;
    float[] x = Data.floats(41 + n, rows * n, -3f, 3f);
    for (int i = 0; i < x.length; i++) {
      x[i] = Math.round(x[i]); // many ties
    }
    for (int k = 0; k < n; k++) {
      x[2 * n + k] = 5f; // all equal: the first element
      x[3 * n + k] = Float.NEGATIVE_INFINITY;
    }
    if (n > 3) {
      x[4 * n + n / 2] = Float.NaN;
      x[5 * n + n - 1] = 9f; // the last element, in the tail or the last vector
    }
    float[] want = new float[rows * n];
    float[] got = new float[rows * n];
    float[] direct = new float[rows * n];
    float[][] after = new float[3][rows];
    SimdOps.firstMax(rows, n, x, want, after[0]);
    SimdOpsKernels.firstMax(rows, n, x, got, after[1]);
    SimdOpsSimdKernels.firstMax(0, rows, rows, n, x, direct, after[2]);
    same("firstMax", want, got, direct);
    same("firstMax's sum after the first maximum", after[0], after[1], after[2]);
    for (int b : new int[] {1, 2}) { // fewer rows than RowJam takes
      float[] few = new float[b * n];
      float[] fewAfter = new float[b];
      SimdOpsSimdKernels.firstMax(0, b, b, n, x, few, fewAfter);
      assertArrayEquals(Arrays.copyOf(want, b * n), few, "firstMax, " + b + " rows");
      assertArrayEquals(Arrays.copyOf(after[0], b), fewAfter, "firstMax's sums, " + b + " rows");
    }
  }

  /**
   * A derived gradient's adjoint sums are the only sums the listing marks "(any order)": the
   * recomputed forward sum of exponentials keeps the source's order.
   */
  @Test
  void theListingMarksOnlyTheAdjointSumsAsAnyOrder() throws IOException {
    String text;
    try (InputStream in = SimdOps.class.getResourceAsStream("/META-INF/kiln/dev/kiln/tests/simd/SimdOps.gradients.ir.txt")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String kernel = text.substring(text.indexOf("operator softmaxGrad_k0 grid"));
    kernel = kernel.substring(0, kernel.indexOf("\n\n") < 0 ? kernel.length() : kernel.indexOf("\n\n"));
    // (one: the adjoint of the row's sum; its maximum takes none, ShiftInvariance)
    assertEquals(1, kernel.split("\\(any order\\)", -1).length - 1, kernel);
    assertTrue(kernel.contains("next adj = %17 (any order)\n"), kernel);
    assertTrue(kernel.contains("next s = %5\n"), kernel);
  }

  /**
   * The derived gradient of softmax (one fused kernel: its temporaries kept per worker, exp kept
   * per worker for a later loop, four rows at a time) gives
   * the floats of its adjoint written out as plain Java in the IR's order (SimdOps.gradients.ir.txt),
   * its adjoint sums in sixteen partials ({@code PartialSums}) at every vector width the build's
   * runs use (16, 8 and 4 floats).
   */
  @ParameterizedTest(name = "B=6, N={0}")
  @ValueSource(ints = {0, 1, 2, 15, 16, 17, 33, 100, 1000})
  void softmaxGradientGivesItsAdjointsFloats(int n) {
    int rows = 6;
    float[] x = data(51 + n, rows * n);
    float[] dy = Data.floats(52 + n, rows * n, -1f, 1f);
    for (int k = 0; k < n; k++) {
      x[k] = Math.round(x[k]); // ties in the first row
    }
    float[] y = new float[rows * n];
    float[] want = adjointOfSoftmax(rows, n, x, dy);
    float[] got = new float[rows * n];
    float[] direct = new float[rows * n];
    SimdOpsKernels.softmaxGrad(rows, n, x, y, dy, got);
    SimdOpsSimdKernels.softmaxGrad_k0(0, 1, rows, n, x, dy, direct);
    SimdOpsSimdKernels.softmaxGrad_k0(1, rows, rows, n, x, dy, direct);
    same("softmaxGrad", want, got, direct);
  }

  /**
   * softmaxGrad_k0 of SimdOps.gradients.ir.txt, statement by statement: its row maximum takes no
   * adjoint (softmax does not move with it), each division by the row's sum a product with its
   * reciprocal where the gradient rule makes one.
   */
  private static float[] adjointOfSoftmax(int rows, int n, float[] x, float[] dy) {
    float[] dx = new float[rows * n];
    for (int b = 0; b < rows; b++) {
      float m = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < n; k++) m = dev.kiln.KMath.max(m, x[b * n + k]);
      float s = 0f;
      for (int k = 0; k < n; k++) s = s + dev.kiln.KMath.exp(x[b * n + k] - m);
      float[] a1 = new float[n];
      float[] a2 = new float[n];
      // the adjoint sum (any order in the IR) in sixteen partials: term k to partial k % 16
      float[] adjParts = new float[16];
      for (int k = 0; k < n; k++) {
        float d = dy[b * n + k];
        float q = 1f / s;
        float e = dev.kiln.KMath.exp(x[b * n + k] - m);
        a1[k] = d * q * e;
        adjParts[k % 16] += -(d * (e / s) * q);
      }
      float adj = 0f + UnorderedSums.total(adjParts);
      for (int k = 0; k < n; k++) {
        a2[k] = adj * dev.kiln.KMath.exp(x[b * n + k] - m);
      }
      for (int k = 0; k < n; k++) dx[b * n + k] = a1[k] + a2[k];
    }
    return dx;
  }

  @Test
  void largeGridsSplitIntoChunksGiveTheSourcesFloats() {
    int n = 100_003; // several chunks on the test pool (grain 256), a tail in the last
    float[] a = data(11, n);
    float[] b = data(12, n);
    float[] want = new float[n];
    float[] want2 = new float[n];
    float[] got = new float[n];
    float[] got2 = new float[n];
    SimdOps.functions(n, a, b, want, want2);
    SimdOpsKernels.functions(n, a, b, got, got2);
    assertArrayEquals(want, got);
    assertArrayEquals(want2, got2);
  }

  @ParameterizedTest(name = "B=3, N={0}")
  @ValueSource(ints = {1, 17, 40})
  void aRowWrittenTwiceKeepsTheSecondLoopsValues(int n) {
    int rows = 3;
    float[] x = data(78 + n, rows * n);
    float[] want = new float[rows * n];
    float[] got = new float[rows * n];
    float[] direct = new float[rows * n];
    SimdOps.rewritten(rows, n, x, want);
    SimdOpsKernels.rewritten(rows, n, x, got);
    SimdOpsSimdKernels.rewritten(0, rows, rows, n, x, direct);
    same("rewritten", want, got, direct);
  }

  /** Its loop has no vector form (it had one, and the vector kept the wrong store's value). */
  @ParameterizedTest(name = "B=3, N={0}")
  @ValueSource(ints = {2, 17, 40})
  void overlappingStoresKeepTheScalarLoopsOrder(int n) {
    int rows = 3;
    float[] x = data(77 + n, rows * n);
    float[] want = new float[rows * 2 * n];
    float[] got = new float[rows * 2 * n];
    SimdOps.overlappingStores(rows, n, x, want);
    SimdOpsKernels.overlappingStores(rows, n, x, got);
    assertArrayEquals(want, got, "overlappingStores: launcher (" + Simd.describe() + ") against the source");
  }

  /**
   * The lane-sum kernels ({@code laneSoftmax}, {@code laneNorm}, {@code laneFolds}) on {@code rows}
   * rows of {@code n}: the source's floats from the launcher, from the SIMD kernel over all rows,
   * and (laneNorm) from it in two calls, rows [0, 2) and [2, rows).
   */
  private static void laneKernelsAgree(int rows, int n, float[] x) {
    float[] want = new float[rows * n];
    float[] got = new float[rows * n];
    float[] direct = new float[rows * n];
    float[] cut = new float[rows * n];
    SimdOps.laneSoftmax(rows, n, x, want);
    SimdOpsKernels.laneSoftmax(rows, n, x, got);
    SimdOpsSimdKernels.laneSoftmax(0, rows, rows, n, x, direct);
    same("laneSoftmax", want, got, direct);
    SimdOps.laneNorm(rows, n, x, want);
    SimdOpsKernels.laneNorm(rows, n, x, got);
    SimdOpsSimdKernels.laneNorm(0, rows, rows, n, x, direct);
    SimdOpsSimdKernels.laneNorm(0, Math.min(2, rows), rows, n, x, cut);
    SimdOpsSimdKernels.laneNorm(Math.min(2, rows), rows, rows, n, x, cut);
    same("laneNorm", want, got, direct);
    same("laneNorm in calls [0, 2) and [2, " + rows + ")", want, got, cut);
    float[][] wantF = new float[4][rows];
    float[][] gotF = new float[4][rows];
    float[][] directF = new float[4][rows];
    SimdOps.laneFolds(rows, n, x, wantF[0], wantF[1], wantF[2], wantF[3]);
    SimdOpsKernels.laneFolds(rows, n, x, gotF[0], gotF[1], gotF[2], gotF[3]);
    SimdOpsSimdKernels.laneFolds(0, rows, rows, n, x, directF[0], directF[1], directF[2], directF[3]);
    for (int i = 0; i < 4; i++) {
      same("laneFolds " + i, wantF[i], gotF[i], directF[i]);
    }
  }

  private static void same(String what, float[] source, float[] launcher, float[] simd) {
    assertArrayEquals(source, launcher, what + ": launcher (" + Simd.describe() + ") against the source");
    assertArrayEquals(source, simd, what + ": SIMD kernel against the source");
  }
}
