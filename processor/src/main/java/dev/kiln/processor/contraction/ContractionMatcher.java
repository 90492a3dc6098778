package dev.kiln.processor.contraction;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the matrix products in a grid operator: a chain of sequential loops at the top of the
 * worker, each carrying one accumulator updated as {@code acc + a[..] * b[..]} with two unguarded
 * reads at affine indices, the first loop starting from any value computed before it (a bias, zero)
 * and each next one from the previous loop's result (LSTM gates: {@code x Wx + h Wh}). Each loop is
 * one GEMM when its reads give the product's operands unit stride along one of their two
 * dimensions (plain or transposed), every grid dimension is the product's row, its column (the
 * innermost grid dimension) or one batch dimension, and the loop bounds depend on sizes only.
 * Anything else stays a loop: this pass only ever replaces what it can prove is a product.
 */
final class ContractionMatcher {
  private ContractionMatcher() {}

  /** A matched chain: its loops in order and one GEMM each. */
  record Chain(List<Stmt.Loop> loops, List<Contraction.Product> products, ScalarType type) {}

  /** The operator's chain of product loops, or null when it has none this pass can lower. */
  static Chain match(OperatorIr.Grid op) {
    if (op.grid().isEmpty() || hasAccumulation(op.body())) {
      return null;
    }
    Set<String> sizes = new HashSet<>();
    op.scalars().stream().filter(s -> s.type().isIntegral()).forEach(s -> sizes.add(s.name()));
    op.grid().forEach(g -> sizes.add(g.extent().name()));
    List<Stmt.Loop> loops = new ArrayList<>();
    List<Contraction.Product> products = new ArrayList<>();
    ScalarType type = null;
    for (Stmt s : op.body()) {
      if (!(s instanceof Stmt.Loop l)) {
        continue;
      }
      if (!loops.isEmpty() && l.carried().size() == 1
          && l.carried().get(0).init() != loops.get(loops.size() - 1).carried().get(0).result()) {
        break; // a later, unrelated loop: the chain ends before it
      }
      Contraction.Product p = product(op, l, sizes);
      if (p == null) {
        if (loops.isEmpty()) {
          continue;
        }
        break;
      }
      ScalarType t = l.carried().get(0).phi().type();
      if (type != null && t != type) {
        break;
      }
      type = t;
      loops.add(l);
      products.add(p);
    }
    return loops.isEmpty() ? null : new Chain(loops, products, type);
  }

  private static boolean hasAccumulation(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Combine) {
        return true;
      }
      if (s instanceof Stmt.Loop l && hasAccumulation(l.body())) {
        return true;
      }
    }
    return false;
  }

  /** The GEMM of one loop {@code acc = acc + a * b}, or null. */
  private static Contraction.Product product(OperatorIr.Grid op, Stmt.Loop l, Set<String> sizes) {
    if (!isTrue(l.guard()) || l.step() != 1 || !l.body().isEmpty() || l.carried().size() != 1) {
      return null;
    }
    Stmt.Carried c = l.carried().get(0);
    ScalarType t = c.phi().type();
    if (t != ScalarType.FLOAT && t != ScalarType.DOUBLE) {
      return null;
    }
    Affine lo = AffineAnalysis.affine(l.lo());
    Affine hi = AffineAnalysis.affine(l.hi());
    if (lo == null || hi == null || !lo.isConstant() || !hi.isConstant()) {
      return null;
    }
    if (!(c.next() instanceof Expr.Binary add) || add.op() != BinaryOp.ADD || add.type() != t) {
      return null;
    }
    Expr term = add.left() == c.phi() ? add.right() : add.right() == c.phi() ? add.left() : null;
    if (!(term instanceof Expr.Binary mul) || mul.op() != BinaryOp.MUL || mul.type() != t) {
      return null;
    }
    if (!(mul.left() instanceof Expr.Load la) || !(mul.right() instanceof Expr.Load lb)
        || la.type() != t || lb.type() != t || !isTrue(la.guard()) || !isTrue(lb.guard())) {
      return null;
    }
    Affine fa = AffineAnalysis.affine(la.index());
    Affine fb = AffineAnalysis.affine(lb.index());
    if (fa == null || fb == null) {
      return null;
    }
    String k = l.index().name();
    Set<String> vars = new HashSet<>();
    op.grid().forEach(g -> vars.add(g.var().name()));
    vars.add(k);
    if (!vars.containsAll(fa.coefficients().keySet()) || !vars.containsAll(fb.coefficients().keySet())) {
      return null;
    }
    if (fa.coefficient(k).isZero() || fb.coefficient(k).isZero()) {
      return null;
    }
    GridDim n = op.grid().get(op.grid().size() - 1);
    String nv = n.var().name();
    Param.Array a = la.array();
    Param.Array b = lb.array();
    if (!fa.coefficient(nv).isZero() && fb.coefficient(nv).isZero()) { // a holds the column: swap
      Affine ft = fa;
      fa = fb;
      fb = ft;
      Param.Array at = a;
      a = b;
      b = at;
    }
    if (fb.coefficient(nv).isZero() || !fa.coefficient(nv).isZero()) {
      return null; // the innermost grid dimension must be the product's column, read by b only
    }
    List<GridDim> aOnly = new ArrayList<>();
    List<GridDim> others = new ArrayList<>();
    for (GridDim g : op.grid().subList(0, op.grid().size() - 1)) {
      boolean inA = !fa.coefficient(g.var().name()).isZero();
      boolean inB = !fb.coefficient(g.var().name()).isZero();
      if (inA && !inB) {
        aOnly.add(g);
      } else if (inB) {
        others.add(g); // read by both, or by b only (a left operand shared by the batch)
      } else {
        return null; // a grid dimension neither operand reads: a broadcast, not a product
      }
    }
    if (others.size() > 1 || aOnly.size() > 2 || (aOnly.size() == 2 && !others.isEmpty())) {
      return null;
    }
    GridDim m = aOnly.isEmpty() ? null : aOnly.get(aOnly.size() - 1);
    GridDim batch = aOnly.size() == 2 ? aOnly.get(0) : others.isEmpty() ? null : others.get(0);
    Poly kExtent = hi.constantPart().subtract(lo.constantPart());
    Poly cak = fa.coefficient(k);
    Poly cam = m == null ? Poly.ZERO : fa.coefficient(m.var().name());
    boolean transA;
    Poly lda;
    if (cak.equals(Poly.ONE) && !cam.equals(Poly.ONE)) {
      transA = false;
      lda = m == null ? kExtent : cam;
    } else if (m == null || (cam.equals(Poly.ONE) && !cak.equals(Poly.ONE))) {
      transA = true;
      lda = cak;
    } else {
      return null;
    }
    Poly cbk = fb.coefficient(k);
    Poly cbn = fb.coefficient(nv);
    boolean transB;
    Poly ldb;
    if (cbn.equals(Poly.ONE) && !cbk.equals(Poly.ONE)) {
      transB = false;
      ldb = cbk;
    } else if (cbk.equals(Poly.ONE) && !cbn.equals(Poly.ONE)) {
      transB = true;
      ldb = cbn;
    } else {
      return null;
    }
    Poly aOffset = fa.constantPart().add(cak.multiply(lo.constantPart()));
    Poly bOffset = fb.constantPart().add(cbk.multiply(lo.constantPart()));
    Poly strideA = batch == null ? Poly.ZERO : fa.coefficient(batch.var().name());
    Poly strideB = batch == null ? Poly.ZERO : fb.coefficient(batch.var().name());
    for (Poly p : List.of(aOffset, bOffset, strideA, strideB, lda, ldb, kExtent)) {
      if (!p.provablyNonNegative(sizes)) {
        return null; // reversed or shifted reads: not a GEMM operand
      }
    }
    Poly ldc = m == null ? n.size() : DenseLayout.stride(op.grid(), m);
    Poly strideC = batch == null ? Poly.ZERO : DenseLayout.stride(op.grid(), batch);
    return new Contraction.Product(a, b, transA, transB, m, n, batch, kExtent,
        aOffset, lda, strideA, bOffset, ldb, strideB, ldc, strideC);
  }

  private static boolean isTrue(Expr e) {
    return e instanceof Expr.Const c && c.isTrue();
  }
}
