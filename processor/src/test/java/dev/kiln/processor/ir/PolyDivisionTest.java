package dev.kiln.processor.ir;

import static com.google.common.truth.Truth.assertThat;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Exact division by polynomials of several terms, which delinearization needs for extents such as 3*OW + 2*KW - 4. */
class PolyDivisionTest {
  private static final Poly OW = Poly.symbol("OW");
  private static final Poly KW = Poly.symbol("KW");
  private static final Poly OH = Poly.symbol("OH");
  private static final Poly W = OW.scale(3).add(KW.scale(2)).add(Poly.constant(-4));

  @Test
  void dividesAMultipleOfASum() {
    assertThat(W.scale(3).divideExactly(W)).isEqualTo(Poly.constant(3));
    assertThat(W.multiply(OH).divideExactly(W)).isEqualTo(OH);
    Poly h = OH.scale(3).add(Poly.symbol("KH").scale(2)).add(Poly.constant(-4));
    assertThat(W.multiply(h).multiply(Poly.symbol("ci")).divideExactly(W.multiply(h))).isEqualTo(Poly.symbol("ci"));
  }

  @Test
  void refusesWhatItDoesNotDivide() {
    assertThat(W.add(Poly.ONE).divideExactly(W)).isNull();
    assertThat(OW.divideExactly(W)).isNull();
    assertThat(W.scale(3).add(OH).divideExactly(W)).isNull();
  }

  @Test
  void delinearizesAStridedWindowReadPerDimension() {
    // x[ci, 3*oh + 2*kh, 3*ow + 2*kw] in a [CI, H, W] array, W = 3*OW + 2*KW - 4
    Poly h = OH.scale(3).add(Poly.symbol("KH").scale(2)).add(Poly.constant(-4));
    Shape shape = new Shape("CI, H, W", List.of(Poly.symbol("CI"), h, W));
    Affine flat = Affine.variable("ci").scale(h.multiply(W))
        .add(Affine.variable("oh").scale(W.scale(3))).add(Affine.variable("kh").scale(W.scale(2)))
        .add(Affine.variable("ow").scale(Poly.constant(3))).add(Affine.variable("kw").scale(Poly.constant(2)));
    List<Affine> axes = AffineAnalysis.delinearize(flat, shape);
    assertThat(axes.get(0)).isEqualTo(Affine.variable("ci"));
    assertThat(axes.get(1)).isEqualTo(Affine.variable("oh").scale(Poly.constant(3)).add(Affine.variable("kh").scale(Poly.constant(2))));
    assertThat(axes.get(2)).isEqualTo(Affine.variable("ow").scale(Poly.constant(3)).add(Affine.variable("kw").scale(Poly.constant(2))));
  }
}
