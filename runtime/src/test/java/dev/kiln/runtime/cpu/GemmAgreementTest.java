package dev.kiln.runtime.cpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both backends, both precisions, against a plain loop in double: every transpose, offsets,
 * leading dimensions and batch strides with gaps, shared A, interleaved C, beta 0 (over NaN), 1
 * and others, k = 0, m or n = 0, and sizes that are not multiples of the Java kernel's blocks
 * (rows of four, {@value JavaSgemm#MC}-row, {@value JavaSgemm#NC}-column, {@value
 * JavaSgemm#KC}-deep panels, {@value JavaSgemm#ROW_GROUP}-row groups), split over threads or not. The backend is forced through {@link Gemm#sgemmOn}, whatever the
 * size and the system properties.
 */
class GemmAgreementTest {
  private static final int[][] SIZES = {
    {1, 1, 1}, {3, 5, 7}, {4, 16, 4}, {17, 33, 9}, {5, 2, 300}, {131, 9, 13}, {6, 270, 5},
    // large enough for CpuExecutor to split: over columns (m < n), over rows
    {70, 90, 40}, {150, 40, 60}, {517, 3, 5}, {130, 131, 90}, {64, 700, 100},
    {0, 4, 3}, {4, 0, 3}, {4, 3, 0},
  };

  /** Each backend; OpenBLAS's both on the Java arrays in place ({@link HeapArrayGemm}) and staged. */
  static Stream<Arguments> backends() {
    return Stream.of(BlasBackend.values()).flatMap(backend -> backend == BlasBackend.JAVA
        ? Stream.of(Arguments.of(backend, false))
        : Stream.of(Arguments.of(backend, true), Arguments.of(backend, false)));
  }

  @AfterEach
  void backInPlace() {
    HeapArrayGemm.useInPlace(true);
  }

  @ParameterizedTest(name = "{0}, in place {1}")
  @MethodSource("backends")
  void singleProducts(BlasBackend backend, boolean inPlace) {
    assumeBackend(backend, inPlace);
    long seed = 1;
    for (int[] size : SIZES) {
      for (int trans = 0; trans < 4; trans++) {
        for (double beta : new double[] {0, 1, -1.5}) {
          int pad = (int) (seed % 3) * 2;
          GemmCase gc = new GemmCase(seed++, 1, (trans & 1) != 0, (trans & 2) != 0, size[0],
              size[1], size[2], pad, pad * 3, false, false, beta);
          if (beta == 0) {
            gc.poisonC();
          }
          runBoth(backend, gc);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}, in place {1}")
  @MethodSource("backends")
  void batches(BlasBackend backend, boolean inPlace) {
    assumeBackend(backend, inPlace);
    List<GemmCase> cases = new ArrayList<>();
    long seed = 100;
    for (int trans = 0; trans < 4; trans++) {
      boolean ta = (trans & 1) != 0;
      boolean tb = (trans & 2) != 0;
      cases.add(new GemmCase(seed++, 3, ta, tb, 7, 11, 5, 2, 3, false, false, 0.5));
      cases.add(new GemmCase(seed++, 4, ta, tb, 9, 6, 21, 1, 0, true, false, 0));
      cases.add(new GemmCase(seed++, 3, ta, tb, 5, 8, 6, 3, 1, false, true, 1));
      cases.add(new GemmCase(seed++, 2, ta, tb, 40, 70, 35, 0, 0, false, true, 0));
      cases.add(new GemmCase(seed++, 5, ta, tb, 3, 4, 0, 1, 2, false, false, 2));
      cases.add(new GemmCase(seed++, 0, ta, tb, 3, 4, 5, 1, 2, false, false, 0));
    }
    for (GemmCase gc : cases) {
      if (gc.beta == 0) {
        gc.poisonC();
      }
      runBoth(backend, gc);
    }
  }

  /** Through the public entry points: small products run in Java, larger on the chosen backend. */
  @ParameterizedTest
  @MethodSource("publicSizes")
  void publicEntryPoints(int m, int n, int k) {
    GemmCase gc = new GemmCase(m + 31L * n + 7L * k, 1, true, false, m, n, k, 1, 2, false, false, 0.25);
    float[] a = GemmCase.floats(gc.a);
    float[] b = GemmCase.floats(gc.b);
    float[] c = GemmCase.floats(gc.c);
    double[] cBefore = GemmCase.doubles(c);
    Gemm.sgemm(gc.transA, gc.transB, m, n, k, a, gc.aOffset, gc.lda, b, gc.bOffset, gc.ldb, 0.25f,
        c, gc.cOffset, gc.ldc);
    gc.check("sgemm " + gc, GemmCase.doubles(a), GemmCase.doubles(b), cBefore,
        GemmCase.doubles(c), Math.ulp(1f));
    double[] dc = gc.c.clone();
    Gemm.dgemmBatched(1, gc.transA, gc.transB, m, n, k, gc.a, gc.aOffset, gc.lda, 0, gc.b,
        gc.bOffset, gc.ldb, 0, 0.25, dc, gc.cOffset, gc.ldc, 0);
    gc.check("dgemmBatched " + gc, gc.a, gc.b, gc.c, dc, Math.ulp(1d));
  }

  static Stream<Arguments> publicSizes() {
    return Stream.of(Arguments.of(8, 8, 8), Arguments.of(64, 96, 80), Arguments.of(300, 257, 129));
  }

  private static void runBoth(BlasBackend backend, GemmCase gc) {
    float[] a = GemmCase.floats(gc.a);
    float[] b = GemmCase.floats(gc.b);
    float[] c = GemmCase.floats(gc.c);
    double[] cBefore = GemmCase.doubles(c);
    Gemm.sgemmOn(backend, gc.batch, gc.transA, gc.transB, gc.m, gc.n, gc.k, a, gc.aOffset, gc.lda,
        gc.strideA, b, gc.bOffset, gc.ldb, gc.strideB, (float) gc.beta, c, gc.cOffset, gc.ldc,
        gc.strideC);
    gc.check(backend + " sgemm " + gc, GemmCase.doubles(a), GemmCase.doubles(b), cBefore,
        GemmCase.doubles(c), Math.ulp(1f));

    double[] dc = gc.c.clone();
    Gemm.dgemmOn(backend, gc.batch, gc.transA, gc.transB, gc.m, gc.n, gc.k, gc.a, gc.aOffset,
        gc.lda, gc.strideA, gc.b, gc.bOffset, gc.ldb, gc.strideB, gc.beta, dc, gc.cOffset, gc.ldc,
        gc.strideC);
    gc.check(backend + " dgemm " + gc, gc.a, gc.b, gc.c, dc, Math.ulp(1d));
  }

  static void assumeBackend(BlasBackend backend) {
    if (backend != BlasBackend.JAVA) {
      assumeTrue(BlasBackendTest.nativesShipped(),
          "the build ships OpenBLAS natives for linux-x86_64 only");
    }
  }

  /** As {@link #assumeBackend(BlasBackend)}, with OpenBLAS's operands in place or staged. */
  static void assumeBackend(BlasBackend backend, boolean inPlace) {
    assumeBackend(backend);
    if (backend != BlasBackend.JAVA) {
      Gemm.backend(); // loads OpenBLAS and the shim
      assumeTrue(HeapArrayGemm.useInPlace(inPlace) == inPlace,
          "products cannot run in place here: " + HeapArrayGemm.state().description());
    }
  }
}
