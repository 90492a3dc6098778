package dev.kiln.lib;

import dev.kiln.Dim;
import dev.kiln.KMath;
import dev.kiln.Operator;
import dev.kiln.Out;
import dev.kiln.Parallel;
import dev.kiln.Reduce;
import dev.kiln.Shape;

/**
 * Statistics in one pass by a user monoid ({@link MeanVar}): each worker's value is combined into
 * the output's record; chunks of workers keep partial records, which Kiln combines by {@link
 * MeanVar#combine} in a fixed tree, so repeated runs give the same bits. Start each output element
 * at {@link MeanVar#empty()} (or at a summary to extend). Their gradients are derived through
 * {@link MeanVar}'s {@code @ElementGradient} method ({@code meanVarGrad}, {@code columnMeanVarGrad}).
 */
public final class Stats {
  private Stats() {}

  /**
   * Every summary empty ({@link MeanVar#empty()}): where a {@code @Reduce} array of them starts. A
   * composite that keeps summaries in a temporary ({@code MeanVar[] s = new MeanVar[n]}, which Java
   * fills with nulls) calls this first, here or in another module.
   */
  @Operator
  public static void empties(@Dim int N, @Out @Shape("N") MeanVar[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[i] = MeanVar.empty();
    }
  }

  /** Each summary's standard deviation (the population's: the spread over the count; 0 for no values). */
  @Operator
  public static void deviations(@Dim int N, @Shape("N") MeanVar[] s, @Out @Shape("N") float[] sd) {
    for (@Parallel int i = 0; i < N; i++) {
      sd[i] = KMath.sqrt(s[i].variance());
    }
  }

  /** Count, mean and spread of all of {@code x}. */
  @Operator
  public static void meanVar(@Dim int N, @Shape("N") float[] x, @Out @Reduce @Shape("1") MeanVar[] s) {
    for (@Parallel int i = 0; i < N; i++) {
      s[0] = s[0].combine(MeanVar.of(x[i]));
    }
  }

  /** Count, mean and spread of each column of a row-major {@code [B, N]} matrix (batch-norm statistics). */
  @Operator
  public static void columnMeanVar(@Dim int B, @Dim int N, @Shape("B, N") float[] x,
      @Out @Reduce @Shape("N") MeanVar[] s) {
    for (@Parallel int b = 0; b < B; b++) {
      for (@Parallel int n = 0; n < N; n++) {
        s[n] = s[n].combine(MeanVar.of(x[b * N + n]));
      }
    }
  }
}
