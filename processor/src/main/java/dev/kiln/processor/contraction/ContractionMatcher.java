package dev.kiln.processor.contraction;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.transform.Rewriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the matrix products in a grid operator: a chain of sequential loops at the top of the
 * worker, each carrying one accumulator updated as {@code acc + a[..] * b[..]} with two unguarded
 * reads at affine indices, the first loop starting from any value computed before it (a bias, zero)
 * and each next one from the previous loop's result (LSTM gates: {@code x Wx + h Wh}). Each loop is
 * one GEMM when its reads give the product's operands unit stride along one of their two
 * dimensions (plain or transposed), every grid dimension is the product's row, its column (the
 * innermost grid dimension) or one batch dimension, and the loop bounds depend on sizes only.
 *
 * <p>A term {@code x * b[..]} or {@code c ? x * b[..] : 0}, where {@code b} is read at the column
 * and {@code x} and {@code c} are computed from the other grid coordinates and the loop index only
 * (a derived gradient's masked, scaled adjoint: attention's {@code j <= i ? dscores / sqrt(D) * k :
 * 0}), is a product too: its left operand {@code c ? x : 0} is computed first, by a prologue kernel
 * over those coordinates and the loop index, into a buffer the GEMM reads. Where {@code c} is false
 * the GEMM multiplies a zero by {@code b}, which the loop skipped: the same sum for finite {@code b}
 * (LANGUAGE.md, "Matrix products").
 *
 * <p>Anything else stays a loop: this pass only ever replaces what it can prove is a product.
 */
final class ContractionMatcher {
  private ContractionMatcher() {}

  /**
   * A matched chain: its loops in order, one GEMM each, and the prologue kernels that compute
   * left operands (named {@code <op>$prologue<n>} until the pass names them).
   */
  record Chain(List<Stmt.Loop> loops, List<Contraction.Product> products, ScalarType type,
      List<OperatorIr.Grid> prologues) {}

  /** One loop's GEMM and, when its left operand is computed, the prologue kernel that computes it. */
  private record Match(Contraction.Product product, OperatorIr.Grid prologue) {}

  /**
   * The operator's chain of product loops, or null when it has none this pass can lower.
   *
   * @param available operands that earlier prologues wrote and {@code op} takes as parameters (a
   *     nested epilogue's), by name, with the prologue that wrote each: a term whose operand is one
   *     of them reads it instead of getting a prologue of its own
   */
  static Chain match(OperatorIr.Grid op, Map<String, OperatorIr.Grid> available) {
    if (op.grid().isEmpty() || hasAccumulation(op.body())) {
      return null;
    }
    Set<String> sizes = new HashSet<>();
    op.scalars().stream().filter(s -> s.type().isIntegral()).forEach(s -> sizes.add(s.name()));
    op.grid().forEach(g -> sizes.add(g.extent().name()));
    List<Stmt.Loop> loops = new ArrayList<>();
    List<Contraction.Product> products = new ArrayList<>();
    List<OperatorIr.Grid> prologues = new ArrayList<>();
    ScalarType type = null;
    for (Stmt s : op.body()) {
      if (!(s instanceof Stmt.Loop l)) {
        continue;
      }
      if (!loops.isEmpty() && l.carried().size() == 1
          && l.carried().get(0).init() != loops.get(loops.size() - 1).carried().get(0).result()) {
        break; // a later, unrelated loop: the chain ends before it
      }
      Match p = product(op, l, sizes, prologues.size(), available);
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
      products.add(p.product());
      if (p.prologue() != null) {
        prologues.add(p.prologue());
      }
    }
    return loops.isEmpty() ? null : new Chain(loops, products, type, prologues);
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
  private static Match product(OperatorIr.Grid op, Stmt.Loop l, Set<String> sizes, int prologuesSoFar,
      Map<String, OperatorIr.Grid> available) {
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
    Expr mask = null;
    if (term instanceof Expr.Select s && s.ifFalse() instanceof Expr.Const zero && zero.type() == t
        && zero.floatingValue() == 0) {
      mask = s.cond();
      term = s.ifTrue();
    }
    if (!(term instanceof Expr.Binary mul) || mul.op() != BinaryOp.MUL || mul.type() != t) {
      return null;
    }
    if (mask == null && mul.left() instanceof Expr.Load la && mul.right() instanceof Expr.Load lb) {
      if (la.type() != t || lb.type() != t || !isTrue(la.guard()) || !isTrue(lb.guard())) {
        return null;
      }
      Affine fa = AffineAnalysis.affine(la.index());
      Affine fb = AffineAnalysis.affine(lb.index());
      if (fa == null || fb == null) {
        return null;
      }
      Contraction.Product p = product(op, l, lo, hi, sizes, la.array(), fa, lb.array(), fb);
      return p == null ? null : new Match(p, null);
    }
    return withPrologue(op, l, lo, hi, sizes, mask, mul, t, prologuesSoFar, available);
  }

  /**
   * The GEMM of a loop whose term is {@code x * b[..]} (under a mask {@code c ? .. : 0} when {@code
   * mask} is not null), with {@code c ? x : 0} computed first by a prologue kernel; null unless
   * {@code b} is read at the column and {@code x} and the mask depend on other grid coordinates and
   * the loop index only, and read no array the operator writes.
   */
  private static Match withPrologue(OperatorIr.Grid op, Stmt.Loop l, Affine lo, Affine hi, Set<String> sizes,
      Expr mask, Expr.Binary mul, ScalarType t, int prologuesSoFar, Map<String, OperatorIr.Grid> available) {
    GridDim n = op.grid().get(op.grid().size() - 1);
    String nv = n.var().name();
    Expr.Load lb;
    Expr x;
    if (mul.right() instanceof Expr.Load r && r.index().dependsOn(n.var())) {
      lb = r;
      x = mul.left();
    } else if (mul.left() instanceof Expr.Load r && r.index().dependsOn(n.var())) {
      lb = r;
      x = mul.right();
    } else {
      return null;
    }
    Affine fb = AffineAnalysis.affine(lb.index());
    if (fb == null || lb.type() != t || !(isTrue(lb.guard()) || lb.guard() == mask) || !lo.constantPart().isZero()
        || !(l.hi() instanceof Expr.ScalarRef kSize) || kSize.param().type() != ScalarType.INT) {
      return null;
    }
    if (!isTrue(lb.guard()) && !withinShape(op, lb.array(), fb, l.index().name(), kSize.param().name(), sizes)) {
      return null; // read under the mask only: the GEMM reads every row, which must lie inside the array
    }
    List<Expr> roots = mask == null ? List.of(x) : List.of(x, mask);
    Set<String> written = StmtWalk.writtenArrays(op.body());
    Set<String> read = new HashSet<>();
    for (Expr e : StmtWalk.nodes(roots)) {
      if (e instanceof Expr.Var v && v != l.index()) {
        if (v.kind() != Expr.VarKind.GRID || v.name().equals(nv)) {
          return null; // the column, another loop's value or index: not a left operand
        }
        read.add(v.name());
      } else if (e instanceof Expr.Load load && (written.contains(load.array().name())
          || !(isTrue(load.guard()) || load.guard() == mask))) {
        return null;
      }
    }
    ExprFactory f = new ExprFactory();
    Expr.Var k = f.newVar(l.index().name(), ScalarType.INT, Expr.VarKind.GRID);
    List<GridDim> grid = new ArrayList<>();
    for (GridDim g : op.grid()) {
      if (read.contains(g.var().name())) {
        grid.add(g);
      }
    }
    // the loop index innermost, unless the term reads along the row and not along the index (a
    // transposed adjoint, dk's dscores[i, j] summed over i): then the operand is laid out the way it
    // is read, with the row innermost, and the GEMM reads it transposed
    GridDim row = grid.isEmpty() ? null : grid.get(grid.size() - 1);
    boolean rowInnermost = row != null && fb.coefficient(row.var().name()).isZero()
        && unitStrideReads(roots, row.var().name()) > unitStrideReads(roots, l.index().name());
    grid.add(rowInnermost ? grid.size() - 1 : grid.size(), new GridDim(k, kSize.param()));
    Set<String> taken = new HashSet<>();
    op.params().forEach(q -> taken.add(q.name()));
    String name = "operand" + (prologuesSoFar == 0 ? "" : "_" + (prologuesSoFar + 1));
    while (taken.contains(name)) {
      name = name + "$";
    }
    Param.Array operand = new Param.Array(name, op.params().size(), t,
        new Shape(DenseLayout.text(grid), DenseLayout.extents(grid)), ArrayRole.OUT);
    Affine fa = DenseLayout.index(grid);
    Rewriter rw = new Rewriter(f, (original, rebuilt) -> original == l.index() ? k : atTop(f, rebuilt));
    Expr value = rw.rewrite(mask == null ? x : f.select(mask, x, f.constant(t, 0)));
    for (Map.Entry<String, OperatorIr.Grid> earlier : available.entrySet()) {
      Param param = op.params().stream().filter(q -> q.name().equals(earlier.getKey())).findFirst().orElse(null);
      if (param instanceof Param.Array reused && reused.elementType() == t && SameOperand.as(earlier.getValue(), grid, value)) {
        // an earlier prologue wrote these floats, laid out this way: read them, no prologue of its own
        Contraction.Product p = product(op, l, lo, hi, sizes, reused, fa, lb.array(), fb);
        return p == null ? null : new Match(p, null);
      }
    }
    Contraction.Product p = product(op, l, lo, hi, sizes, operand, fa, lb.array(), fb);
    if (p == null) {
      return null;
    }
    Expr index = DenseLayout.indexExpr(f, grid, op::scalar);
    List<Param> params = new ArrayList<>(op.params());
    params.add(operand);
    List<Stmt> body = List.of(new Stmt.Store(operand, index, value, f.trueValue(), l.origin()));
    OperatorIr.Grid prologue = new OperatorIr.Grid(op.owner(), op.name() + "$prologue" + prologuesSoFar, params,
        grid, body, java.util.Map.of());
    return new Match(p, prologue);
  }

  /**
   * Whether every index {@code fb} takes over the grid and the loop ({@code k < kSize}) lies inside
   * {@code b}'s shape: its largest, at each variable's last value (coefficients are non-negative), at
   * most the shape's length less one, for all sizes of at least 1.
   */
  private static boolean withinShape(OperatorIr.Grid op, Param.Array b, Affine fb, String k, String kSize,
      Set<String> sizes) {
    Poly last = fb.constantPart();
    for (Map.Entry<String, Poly> term : fb.coefficients().entrySet()) {
      if (!term.getValue().provablyNonNegative(sizes)) {
        return false;
      }
      Poly extent = null;
      if (term.getKey().equals(k)) {
        extent = Poly.symbol(kSize);
      } else {
        for (GridDim g : op.grid()) {
          if (g.var().name().equals(term.getKey())) {
            extent = g.size();
          }
        }
      }
      if (extent == null) {
        return false;
      }
      last = last.add(term.getValue().multiply(extent.subtract(Poly.ONE)));
    }
    return b.shape().length().subtract(Poly.ONE).subtract(last).provablyNonNegative(sizes);
  }

  /** How many of the loads under {@code roots} read consecutive elements as {@code var} counts up. */
  private static int unitStrideReads(List<Expr> roots, String var) {
    int n = 0;
    for (Expr e : StmtWalk.nodes(roots)) {
      if (e instanceof Expr.Load load) {
        Affine a = AffineAnalysis.affine(load.index());
        if (a != null && a.coefficient(var).equals(Poly.ONE)) {
          n++;
        }
      }
    }
    return n;
  }

  /** A load or integer division moved from the loop's scope to the prologue's top level. */
  private static Expr atTop(ExprFactory f, Expr e) {
    if (e instanceof Expr.Load l && l.scope() != 0) {
      return f.load(l.array(), l.index(), l.guard(), 0);
    }
    if (e instanceof Expr.Binary b && b.scope() != 0 && b.scope() != -1) {
      return f.binary(b.op(), b.left(), b.right(), 0);
    }
    return e;
  }

  /**
   * The GEMM of a loop whose term multiplies {@code a} and {@code b}, read at the affine indices
   * {@code fa} and {@code fb}, or null when they are not a product's operands.
   */
  private static Contraction.Product product(OperatorIr.Grid op, Stmt.Loop l, Affine lo, Affine hi, Set<String> sizes,
      Param.Array a, Affine fa, Param.Array b, Affine fb) {
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
