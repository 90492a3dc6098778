package dev.kiln.processor.ir.analysis;

import static com.google.common.truth.Truth.assertThat;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A {@code @Dim} divided by a constant read as the size {@code c*Q + R}, as the gradient's gather needs it. */
class DividedSizesTest {
  private final ExprFactory f = new ExprFactory();
  private final Param.Scalar n = new Param.Scalar("N", 1, ScalarType.INT, true);
  private final Param.Scalar k = new Param.Scalar("k", 2, ScalarType.INT, false);
  private final Map<String, Param.Scalar> sizes = Map.of("N", n, "k", k);

  private Expr half() {
    return f.binary(BinaryOp.DIV, f.scalar(n), f.integral(ScalarType.INT, 2), 0);
  }

  @Test
  void readsAnIndexWithHalfASizeAsAffine() {
    Expr.Var b = f.newVar("b", ScalarType.INT, Expr.VarKind.GRID);
    Expr.Var i = f.newVar("i", ScalarType.INT, Expr.VarKind.GRID);
    // b*N + i + N/2
    Expr index = f.binary(BinaryOp.ADD, f.binary(BinaryOp.ADD, f.binary(BinaryOp.MUL, b, f.scalar(n), 0), i, 0), half(), 0);
    assertThat(AffineAnalysis.affine(index)).isNull();

    DividedSizes divided = DividedSizes.of(f, sizes, List.of(index));
    Affine a = divided.affine(index);
    Poly q = Poly.symbol("N/2");
    Poly r = Poly.symbol("N%2");
    assertThat(a.coefficient(b.name())).isEqualTo(q.scale(2).add(r));
    assertThat(a.coefficient(i.name())).isEqualTo(Poly.ONE);
    assertThat(a.constantPart()).isEqualTo(q);
    // i + N/2 for i < N/2 stays inside a row of N: N - 1 - (2Q - 1) = R >= 0, which needs R only non-negative
    Poly room = divided.poly(Poly.symbol("N")).subtract(q.scale(2));
    assertThat(room.provablyNonNegative(Set.of("N"), divided.nonNegative())).isTrue();
    assertThat(room.provablyNonNegative(Set.of("N"))).isFalse();
  }

  @Test
  void writesTheSymbolsBackAsDivisions() {
    DividedSizes divided = DividedSizes.of(f, sizes, List.of(half()));
    Expr e = divided.expr(f, Poly.symbol("N/2").scale(2).add(Poly.symbol("N%2")));
    assertThat(AffineAnalysis.affine(e)).isNull(); // a division, not a polynomial of N
    assertThat(divided.affine(e)).isEqualTo(Affine.constant(divided.poly(Poly.symbol("N"))));
  }

  @Test
  void leavesAloneWhatItCannotRead() {
    Expr third = f.binary(BinaryOp.DIV, f.scalar(n), f.integral(ScalarType.INT, 3), 0);
    // N divided by two constants: neither is read
    DividedSizes twoWays = DividedSizes.of(f, sizes, List.of(half(), third));
    assertThat(twoWays.affine(half())).isNull();
    assertThat(twoWays.nonNegative()).isEmpty();
    // a non-@Dim scalar divided, and a @Dim divided by a variable
    Expr byK = f.binary(BinaryOp.DIV, f.scalar(n), f.scalar(k), 0);
    Expr kHalf = f.binary(BinaryOp.DIV, f.scalar(k), f.integral(ScalarType.INT, 2), 0);
    DividedSizes none = DividedSizes.of(f, sizes, List.of(byK, kHalf));
    assertThat(none.affine(byK)).isNull();
    assertThat(none.affine(kHalf)).isNull();
  }
}
