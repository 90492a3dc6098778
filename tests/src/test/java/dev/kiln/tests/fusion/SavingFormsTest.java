package dev.kiln.tests.fusion;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.Data;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The training forms of a composite whose fused forward pass stores a temporary: {@code
 * stencilDiamondSaving} hands {@code y} (the matrix-vector product) to the caller, and {@code
 * stencilDiamondGradSaved} takes it instead of computing the product again. Both must give what the
 * plain forms give (the same kernels, so the same bits), and the saved backward pass runs one
 * product fewer.
 */
class SavingFormsTest {
  @ParameterizedTest(name = "M={0}, K={1}")
  @CsvSource({"1, 1", "5, 3", "37, 20", "300, 70"})
  void theSavingFormsGiveThePlainFormsResults(int m, int k) throws IOException {
    float[] a = Data.floats(91, m * k);
    float[] x = Data.floats(92, k);
    float[] out = Data.filled(m, Float.NaN);
    GraphsKernels.stencilDiamond(m, k, a, x, out);
    float[] out2 = Data.filled(m, Float.NaN);
    float[] y = Data.filled(m, Float.NaN);
    GraphsKernels.stencilDiamondSaving(m, k, a, x, out2, y);
    Agreement.assertSame(out, out2);
    float[] product = Data.filled(m, Float.NaN);
    PrimsKernels.matvec(m, k, a, x, product);
    Agreement.assertSame(product, y);

    float[] dout = Data.floats(93, m);
    float[] da = Data.filled(m * k, Float.NaN);
    float[] dx = Data.filled(k, Float.NaN);
    GraphsKernels.stencilDiamondGrad(m, k, a, x, out, dout, da, dx);
    float[] da2 = Data.filled(m * k, Float.NaN);
    float[] dx2 = Data.filled(k, Float.NaN);
    GraphsKernels.stencilDiamondGradSaved(m, k, a, x, out, y, dout, da2, dx2);
    Agreement.assertSame(da, da2);
    Agreement.assertSame(dx, dx2);

    String listing = resource("META-INF/kiln/dev/kiln/tests/fusion/Graphs.gradients.ir.txt");
    String saved = listing.substring(listing.indexOf("composite stencilDiamondGradSaved("));
    saved = saved.substring(0, saved.indexOf("\n\n"));
    assertTrue(!saved.contains("matvec#") && saved.contains("in y[M]"), saved);
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = SavingFormsTest.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IOException(path + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
