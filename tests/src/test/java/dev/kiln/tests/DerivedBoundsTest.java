package dev.kiln.tests;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.testing.Agreement;
import dev.kiln.tests.ops.DerivedBounds;
import dev.kiln.tests.ops.DerivedBoundsKernels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code @Parallel} bounds made of {@code @Dim}s: the kernels run exactly the plain loops' workers
 * (bit for bit, a GEMM leaf within its contraction bound), the IR keeps the bound as a polynomial,
 * a composite fuses a call whose grid is {@code [B, 4*H]}, and a bound past {@code int} is refused
 * by the launcher, as the source's own {@code int} arithmetic would have wrapped.
 */
class DerivedBoundsTest {
  @ParameterizedTest(name = "N1={0}, N2={1}")
  @CsvSource({"0, 0", "0, 5", "5, 0", "1, 1", "7, 12", "3000, 5000"})
  void concat(int n1, int n2) {
    float[] x = Data.floats(81, n1);
    float[] y = Data.floats(82, n2);
    float[] expected = Data.filled(n1 + n2, Float.NaN);
    DerivedBounds.concat(n1, n2, x, y, expected);
    float[] actual = Data.filled(n1 + n2, Float.NaN);
    DerivedBoundsKernels.concat(n1, n2, x, y, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "B={0}, H={1}")
  @CsvSource({"0, 3", "3, 0", "1, 1", "2, 5", "9, 17", "64, 100"})
  void gateActivations(int b, int h) {
    float[] g = Data.floats(83, b * 4 * h);
    float[] bias = Data.floats(84, 4 * h);
    float[] expected = Data.filled(b * 4 * h, Float.NaN);
    DerivedBounds.gateActivations(b, h, g, bias, expected);
    float[] actual = Data.filled(b * 4 * h, Float.NaN);
    DerivedBoundsKernels.gateActivations(b, h, g, bias, actual);
    Agreement.assertSame(expected, actual);
  }

  @ParameterizedTest(name = "B={0}, I={1}, H={2}")
  @CsvSource({"1, 1, 1", "2, 3, 5", "0, 3, 2", "16, 24, 9", "33, 70, 20"})
  void gatesAsAProductAndAsAComposite(int b, int i, int h) {
    float[] x = Data.floats(85, b * i);
    float[] w = Data.floats(86, i * 4 * h);
    float[] bias = Data.floats(87, 4 * h);
    float[] expected = Data.filled(b * 4 * h, Float.NaN);
    DerivedBounds.gateProduct(b, i, h, x, w, expected);
    float[] actual = Data.filled(b * 4 * h, Float.NaN);
    DerivedBoundsKernels.gateProduct(b, i, h, x, w, actual);
    float[] magnitude = new float[b * 4 * h];
    DerivedBounds.gateProduct(b, i, h, Agreement.abs(x), Agreement.abs(w), magnitude);
    Agreement.assertWithinContraction(expected, actual, magnitude, i);

    float[] plain = Data.filled(b * 4 * h, Float.NaN);
    dev.kiln.tests.fusion.Composites.derivedBoundGates(b, i, h, x, w, bias, plain);
    float[] fused = Data.filled(b * 4 * h, Float.NaN);
    dev.kiln.tests.fusion.CompositesKernels.derivedBoundGates(b, i, h, x, w, bias, fused);
    // sigmoid's slope is at most 1/4, so the product's bound holds for the activations too
    Agreement.assertWithinContraction(plain, fused, magnitude, i);
  }

  @ParameterizedTest(name = "N={0}")
  @CsvSource({"0", "1", "6", "5000"})
  void pairSums(int n) {
    float[] x = Data.floats(88, 2 * n + 2);
    float[] expected = Data.filled(2 * n + 1, Float.NaN);
    DerivedBounds.pairSums(n, x, expected);
    float[] actual = Data.filled(2 * n + 1, Float.NaN);
    DerivedBoundsKernels.pairSums(n, x, actual);
    Agreement.assertSame(expected, actual);
  }

  @Test
  void theIrKeepsTheBoundAsAPolynomial() throws IOException {
    String ir = resource("META-INF/kiln/dev/kiln/tests/ops/DerivedBounds.ir.txt");
    assertTrue(ir.contains("parallel j < 4*H"), ir);
    assertTrue(ir.contains("parallel i < N1 + N2"), ir);
    assertTrue(ir.contains("parallel i < 2*N + 1"), ir);
  }

  @Test
  void theCompositeFusesTheActivationsIntoTheProductsKernel() throws IOException {
    String json = resource("META-INF/kiln/dev/kiln/tests/fusion/Composites.fusion.json");
    int at = json.indexOf("\"name\": \"derivedBoundGates\"");
    assertTrue(at >= 0, json);
    String gates = json.substring(at);
    assertTrue(gates.contains("\"leaf\": \"gemm\""), gates);
  }

  @Test
  void aBoundPastIntIsRefusedNamingTheOperatorAndTheBound() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DerivedBoundsKernels.gateActivations(0, 1 << 29, new float[0], new float[0], new float[0]));
    assertTrue(e.getMessage().contains("gateActivations") && e.getMessage().contains("4*H"), e.getMessage());
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = DerivedBoundsTest.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IOException(path + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
