package dev.kiln.tests.fusion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.tests.Data;
import dev.kiln.tests.gradients.Gradients;
import dev.kiln.tests.gradients.GradientsKernels;
import dev.kiln.tests.ops.Normalization;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A row maximum that the outputs do not depend on takes no adjoint ({@code
 * autodiff.ShiftInvariance}): softmax and log-softmax are the same for every shift of the maximum
 * they subtract, so their derived backward kernels neither sum the adjoint reaching it nor walk
 * the row again to pass it to the maximum's element. Read from the gradient listings: the
 * backward composite has one temporary per read of {@code x} that receives an adjoint ({@code
 * adj$x$<n>}, whether stored or computed again where dx is gathered), so the maximum's loop no
 * longer counts. Where an output does move with the maximum, it keeps
 * its adjoint ({@code GradientCheckTest} checks all of these against finite differences).
 */
class ShiftInvariantGradientsTest {

  @ParameterizedTest(name = "{0}.{1}: {2} reads of x take an adjoint")
  @CsvSource({
      // the sum's and the output loop's reads of x; not the maximum's
      "Normalization, softmax, 2",
      "Gradients, logSoftmax, 2",
      "Gradients, softmaxD, 2",
      // its exponents (x - m) / t move by -c / t: still the same outputs
      "Gradients, softmaxAt, 2",
      // (x - m) * x moves by a different multiple in every term: the maximum's read counts again
      "Gradients, softmaxOfScaledShifts, 3",
      // exp(x - m) alone moves with m: the maximum's read takes the adjoint through it
      "Gradients, expFromMax, 2",
      // out2 = sum(x - m) moves by -N times a shift: the maximum's read counts again
      "Gradients, softmaxAndShiftedSum, 3",
      // layer norm's mean is no shift: every read of x takes an adjoint
      "Normalization, layerNorm, 3",
  })
  void onlyTheReadsWhoseValuesTheOutputsDependOnTakeAnAdjoint(String owner, String op, int reads) {
    Class<?> cls = owner.equals("Normalization") ? Normalization.class : Gradients.class;
    String listing = FusionResources.text(cls, ".gradients.ir.txt");
    int start = listing.indexOf("\ncomposite " + op + "Grad(");
    assertTrue(start >= 0, "no composite " + op + "Grad in the listing of " + owner);
    String composite = listing.substring(start + 1, listing.indexOf("\n\n", start + 1));
    int n = 0;
    for (Matcher m = Pattern.compile("\n  temp adj\\$x\\$\\d+\\[").matcher(composite); m.find(); ) {
      n++;
    }
    assertEquals(reads, n, composite);
  }

  /**
   * The derived gradients against the formulas, computed in double: softmax's {@code y (dy - sum(dy
   * y))} and log-softmax's {@code dy - softmax(x) sum(dy)}. Rows of large values (where the row
   * maximum matters to exp), a row of equal values (every element attains it), one-element rows.
   */
  @ParameterizedTest(name = "R={0}, N={1}")
  @CsvSource({"1, 1", "3, 5", "4, 17", "2, 300", "7, 64"})
  void theGradientsAgreeWithTheirFormulas(int r, int n) {
    float[] x = Data.floats(91, r * n, -30f, 30f);
    for (int k = 0; k < n; k++) {
      x[k] = 80f + k % 3; // exp(80) overflows a float: only the shift keeps the row finite
    }
    if (r > 1) {
      for (int k = 0; k < n; k++) {
        x[n + k] = 2.5f; // ties everywhere
      }
    }
    float[] dy = Data.floats(92, r * n, -1f, 1f);
    double[] soft = new double[r * n];
    for (int i = 0; i < r; i++) {
      double m = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < n; k++) {
        m = Math.max(m, x[i * n + k]);
      }
      double s = 0;
      for (int k = 0; k < n; k++) {
        s += Math.exp(x[i * n + k] - m);
      }
      for (int k = 0; k < n; k++) {
        soft[i * n + k] = Math.exp(x[i * n + k] - m) / s;
      }
    }
    float[] y = new float[r * n];
    float[] dx = Data.filled(r * n, Float.NaN);
    GradientsKernels.logSoftmax(r, n, x, y);
    GradientsKernels.logSoftmaxGrad(r, n, x, y, dy, dx);
    for (int i = 0; i < r; i++) {
      double sum = 0;
      for (int k = 0; k < n; k++) {
        sum += dy[i * n + k];
      }
      for (int k = 0; k < n; k++) {
        int j = i * n + k;
        double expected = dy[j] - soft[j] * sum;
        assertEquals(expected, dx[j], 1e-5 * (1 + Math.abs(sum)), "log-softmax dx at row " + i + ", column " + k);
      }
    }
    float[] ys = new float[r * n];
    float[] dxs = Data.filled(r * n, Float.NaN);
    dev.kiln.tests.ops.NormalizationKernels.softmax(r, n, x, ys);
    dev.kiln.tests.ops.NormalizationKernels.softmaxGrad(r, n, x, ys, dy, dxs);
    for (int i = 0; i < r; i++) {
      double dot = 0;
      for (int k = 0; k < n; k++) {
        dot += dy[i * n + k] * soft[i * n + k];
      }
      for (int k = 0; k < n; k++) {
        int j = i * n + k;
        double expected = soft[j] * (dy[j] - dot);
        assertEquals(expected, dxs[j], 1e-6, "softmax dx at row " + i + ", column " + k);
      }
    }
  }
}
