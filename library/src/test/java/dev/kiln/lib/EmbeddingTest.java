package dev.kiln.lib;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Embedding}: the lookup is exact; its gradient, a scatter-add with repeated ids, agrees with
 * the plain Java (sums in another order) and with central differences; an id outside the table
 * throws as Java does, before anything is written.
 */
class EmbeddingTest {
  /** {@code n} ids in {@code [0, v)}, most of them repeated when {@code n > v}. */
  static int[] ids(long seed, int n, int v) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = random.nextInt(v);
    }
    return ids;
  }

  @ParameterizedTest(name = "N={0}, V={1}, D={2}")
  @CsvSource({"1, 1, 1", "5, 3, 7", "0, 4, 3", "4, 5, 0", "300, 17, 33", "2000, 1000, 64"})
  void lookupIsExactAndTheGradientAddsEveryRowItsIdNames(int n, int v, int d) {
    int[] ids = ids(n, n, Math.max(v, 1));
    float[] table = Data.floats(61, v * d);
    float[] expected = Data.filled(n * d, Float.NaN);
    Embedding.embedding(n, v, d, ids, table, expected);
    float[] actual = Data.filled(n * d, Float.NaN);
    EmbeddingKernels.embedding(n, v, d, ids, table, actual);
    Agreement.assertSame(expected, actual);

    float[] dy = Data.floats(62, n * d);
    float[] dtable = Data.filled(v * d, Float.NaN); // overwritten, never added to
    Embedding.embeddingBackward(n, v, d, ids, table, expected, dy, dtable);
    float[] kDtable = Data.filled(v * d, Float.NaN);
    EmbeddingKernels.embeddingGrad(n, v, d, ids, table, actual, dy, kDtable);
    Agreement.assertClose(dtable, kDtable, 1e-5, 1e-5);
    if (n > 0 && d > 0) {
      FiniteDifferences.checkDirectional(dy, kDtable, table, t -> {
        float[] y = new float[n * d];
        Embedding.embedding(n, v, d, ids, t, y);
        return y;
      });
    }
  }

  @Test
  void aRowLookedUpTwiceGetsBothRowsOfTheGradient() {
    int[] ids = {2, 0, 2, 2};
    float[] table = new float[3 * 2];
    float[] dy = {1, 10, 2, 20, 3, 30, 4, 40};
    float[] dtable = Data.filled(6, Float.NaN);
    EmbeddingKernels.embeddingGrad(4, 3, 2, ids, table, new float[8], dy, dtable);
    Agreement.assertSame(new float[] {2, 20, 0, 0, 8, 80}, dtable);
  }

  @Test
  void anIdOutsideTheTableThrowsAsJavaDoes() {
    int[] ids = {0, 3};
    float[] table = Data.floats(63, 3 * 2);
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> Embedding.embedding(2, 3, 2, ids, table, new float[4]));
    float[] y = Data.filled(4, Float.NaN);
    ArrayIndexOutOfBoundsException e = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> EmbeddingKernels.embedding(2, 3, 2, ids, table, y));
    assertTrue(e.getMessage().contains("embedding"), e.getMessage());
    float[] dtable = Data.filled(6, 7f);
    assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> EmbeddingKernels.scatterAddRows(2, 3, 2, ids, new float[4], dtable));
    Agreement.assertSame(Data.filled(6, 7f), dtable);
  }
}
