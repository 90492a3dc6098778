package dev.kiln.processor.contraction;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.transform.Rewriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The contraction pass: lowers each grid operator whose workers compute matrix products to GEMM
 * leaves plus an epilogue kernel (see {@link Contraction}). Runs after fusion and autodiff, on every
 * kernel the class will generate (operators as written, fused kernels of composites, gradient
 * kernels), so forward and backward products alike become library calls.
 */
public final class Contractions {
  private Contractions() {}

  /**
   * The contraction form of {@code op}, or null when it has no product loop to lower.
   *
   * @param epilogueName the name for the epilogue kernel, given the operator's name
   * @param prologueName the name for a prologue kernel, given the operator's name
   * @param sizes the values of size parameters that a composite computes for its fused kernels
   *     ({@code extent0 = 4*H}), so that a store at {@code b*4*H + n} is seen to be dense
   */
  public static Contraction lower(OperatorIr.Grid op, UnaryOperator<String> epilogueName,
      UnaryOperator<String> prologueName, Map<String, Poly> sizes) {
    return lower(op, epilogueName, prologueName, sizes, Map.of());
  }

  /**
   * As {@link #lower(OperatorIr.Grid, UnaryOperator, UnaryOperator, Map)} for an epilogue lowered in
   * turn: {@code available} holds the operands earlier prologues wrote, which {@code op} takes as
   * parameters, by name, with the prologue that wrote each. An epilogue that still has loops takes
   * this contraction's operands, and those, as parameters too, so that a product nested in it can
   * read them.
   */
  public static Contraction lower(OperatorIr.Grid op, UnaryOperator<String> epilogueName,
      UnaryOperator<String> prologueName, Map<String, Poly> sizes, Map<String, OperatorIr.Grid> available) {
    ContractionMatcher.Chain chain = ContractionMatcher.match(op, available);
    if (chain == null) {
      return null;
    }
    Stmt.Loop first = chain.loops().get(0);
    Stmt.Loop last = chain.loops().get(chain.loops().size() - 1);
    Expr.Var result = last.carried().get(0).result();
    Expr init = first.carried().get(0).init();
    List<Stmt> rest = new ArrayList<>(op.body());
    rest.removeAll(chain.loops());
    Set<Expr> used = uses(rest);
    for (Stmt.Loop l : chain.loops()) {
      if (l != last && used.contains(l.carried().get(0).result())) {
        return null; // a partial sum used on its own
      }
    }
    Param.Array product = new Param.Array(freshName(op, "product"), op.params().size(), chain.type(),
        new Shape(DenseLayout.text(op.grid()), DenseLayout.extents(op.grid())), ArrayRole.IN);
    Param.Array direct = directTarget(op, rest, result, sizes);
    boolean zeroInit = init instanceof Expr.Const c && c.type().isFloating()
        && Double.doubleToRawLongBits(c.floatingValue()) == 0L;
    List<OperatorIr.Grid> prologues = new ArrayList<>();
    for (OperatorIr.Grid p : chain.prologues()) {
      prologues.add(new OperatorIr.Grid(p.owner(), prologueName.apply(op.name()), p.params(), p.grid(), p.body(), p.names()));
    }
    List<Param.Array> operands = new ArrayList<>();
    if (rest.stream().anyMatch(st -> st instanceof Stmt.Loop)) {
      prologues.forEach(p -> operands.add(Contraction.operand(p)));
    }
    OperatorIr.Grid epilogue;
    Stmt.Store separate = direct == null && zeroInit ? separateStore(op, rest, result, sizes) : null;
    if (separate != null) {
      // the sum stored as it is, among other work: the products go straight into that output and the
      // epilogue does the rest (a second, independent sum: a gradient's dk beside its dq)
      direct = separate.array();
      rest.remove(separate);
      epilogue = epilogue(op, rest, result, init, product, operands, epilogueName.apply(op.name()));
    } else {
      epilogue = direct != null && zeroInit ? null
          : epilogue(op, rest, result, init, product, operands, epilogueName.apply(op.name()));
    }
    String reason = reason(op, chain, prologues) + (epilogue == null
        ? "; the products are written straight into '" + direct.name() + "', with nothing left to do after them"
        : "; the rest of each worker (its initial value, activation and stores) runs as the fused epilogue kernel "
            + epilogue.name() + ", one pass over the products" + (direct != null ? " in '" + direct.name() + "'" : ""));
    return new Contraction(op, chain.type(), chain.products(), product, direct, epilogue, prologues, reason);
  }

  /**
   * A store of the sum as it is, at the worker's own index, into an output that nothing else in the
   * worker reads or writes, where the worker uses the sum nowhere else: the products can be written
   * there directly and the store dropped from the epilogue. Null when there is none.
   */
  private static Stmt.Store separateStore(OperatorIr.Grid op, List<Stmt> rest, Expr.Var result, Map<String, Poly> sizes) {
    Stmt.Store found = null;
    for (Stmt st : rest) {
      if (st instanceof Stmt.Store s && s.value() == result && s.guard() instanceof Expr.Const g && g.isTrue()
          && s.array().role() == ArrayRole.OUT && s.array().elementType() == result.type() && found == null) {
        Affine index = AffineAnalysis.affine(s.index());
        if (index != null && substitute(DenseLayout.index(op.grid()), sizes).equals(substitute(index, sizes))) {
          found = s;
        }
      }
    }
    if (found == null) {
      return null;
    }
    List<Stmt> others = new ArrayList<>(rest);
    others.remove(found);
    Set<Expr> used = uses(others);
    if (used.contains(result) || StmtWalk.writtenArrays(others).contains(found.array().name())) {
      return null;
    }
    for (Expr e : used) {
      if (e instanceof Expr.Load l && l.array().name().equals(found.array().name())) {
        return null;
      }
    }
    return found;
  }

  /** The output the products can be written into directly: the worker's only store, of the sum, at its own index. */
  private static Param.Array directTarget(OperatorIr.Grid op, List<Stmt> rest, Expr.Var result, Map<String, Poly> sizes) {
    if (rest.size() != 1 || !(rest.get(0) instanceof Stmt.Store s) || s.value() != result
        || !(s.guard() instanceof Expr.Const g && g.isTrue()) || s.array().role() != ArrayRole.OUT
        || s.array().elementType() != result.type()) {
      return null;
    }
    Affine index = AffineAnalysis.affine(s.index());
    return index != null && substitute(DenseLayout.index(op.grid()), sizes).equals(substitute(index, sizes)) ? s.array() : null;
  }

  private static Affine substitute(Affine a, Map<String, Poly> sizes) {
    Affine out = Affine.constant(a.constantPart().substitute(sizes));
    for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
      out = out.add(Affine.variable(t.getKey()).scale(t.getValue().substitute(sizes)));
    }
    return out;
  }

  /** The worker without the product loops, reading the products where it read their sum. */
  private static OperatorIr.Grid epilogue(OperatorIr.Grid op, List<Stmt> rest, Expr.Var result, Expr init,
      Param.Array product, List<Param.Array> operands, String name) {
    ExprFactory f = new ExprFactory();
    Rewriter[] rw = new Rewriter[1];
    rw[0] = new Rewriter(f, (original, rebuilt) -> {
      if (original != result) {
        return rebuilt;
      }
      Expr sum = f.load(product, DenseLayout.indexExpr(f, op.grid(), op::scalar), f.trueValue(), 0);
      return f.binary(BinaryOp.ADD, rw[0].rewrite(init), sum, -1);
    });
    List<Param> params = new ArrayList<>(op.params());
    if (uses(rest).contains(result)) {
      params.add(product); // not when the products went straight into an output the rest leaves alone
    }
    for (Param.Array operand : operands) {
      // read by a product nested in the epilogue, if one computes the same operand
      params.add(new Param.Array(operand.name(), params.size(), operand.elementType(), operand.shape(), ArrayRole.IN));
    }
    OperatorIr.Grid withoutLoops = new OperatorIr.Grid(op.owner(), name, params, op.grid(), rest, op.names());
    return rw[0].rewrite(withoutLoops, (s, index) -> index);
  }

  /** Every expression node the statements use, through loops. */
  private static Set<Expr> uses(List<Stmt> body) {
    Set<Expr> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    List<Expr> roots = new ArrayList<>();
    collectRoots(body, roots);
    List<Expr> work = new ArrayList<>(roots);
    while (!work.isEmpty()) {
      Expr e = work.remove(work.size() - 1);
      if (seen.add(e)) {
        work.addAll(e.operands());
      }
    }
    return seen;
  }

  private static void collectRoots(List<Stmt> body, List<Expr> roots) {
    for (Stmt s : body) {
      roots.add(s.guard());
      if (s instanceof Stmt.Store st) {
        roots.add(st.index());
        roots.add(st.value());
      } else if (s instanceof Stmt.Accumulate a) {
        roots.add(a.index());
        roots.add(a.value());
      } else if (s instanceof Stmt.Combine c) {
        roots.add(c.index());
        roots.addAll(c.values());
      } else if (s instanceof Stmt.Loop l) {
        roots.add(l.lo());
        roots.add(l.hi());
        for (Stmt.Carried c : l.carried()) {
          roots.add(c.init());
          roots.add(c.next());
        }
        collectRoots(l.body(), roots);
      }
    }
  }

  private static String freshName(OperatorIr.Grid op, String base) {
    Set<String> taken = new HashSet<>();
    op.params().forEach(p -> taken.add(p.name()));
    String name = base;
    for (int n = 2; taken.contains(name); n++) {
      name = base + "_" + n;
    }
    return name;
  }

  /** One line per product, e.g. {@code gemm x[B, K] * w[K, N] (k < K) -> [B, N]}. */
  static String reason(OperatorIr.Grid op, ContractionMatcher.Chain chain, List<OperatorIr.Grid> prologues) {
    StringBuilder b = new StringBuilder();
    for (Contraction.Product p : chain.products()) {
      OperatorIr.Grid prologue = prologueOf(p, chain.prologues(), prologues);
      b.append(b.length() == 0 ? "" : "; ")
          .append("the loop's sum of ").append(prologue == null ? p.a().name() : "its computed term")
          .append(" * ").append(p.b().name())
          .append(" is a matrix product (").append(dims(p)).append(")")
          .append(prologue == null ? "" : ", the term's other factor computed first by the prologue kernel "
              + prologue.name());
    }
    return b.toString();
  }

  private static OperatorIr.Grid prologueOf(Contraction.Product p, List<OperatorIr.Grid> matched,
      List<OperatorIr.Grid> named) {
    for (int i = 0; i < matched.size(); i++) {
      if (Contraction.operand(matched.get(i)) == p.a()) {
        return named.get(i);
      }
    }
    return null;
  }

  static String dims(Contraction.Product p) {
    String m = p.m() == null ? "1" : p.m().bound();
    String batch = p.batch() == null ? "" : p.batch().bound() + " x ";
    return batch + m + " x " + p.k() + " times " + p.k() + " x " + p.n().bound()
        + (p.transA() ? ", " + p.a().name() + " transposed" : "")
        + (p.transB() ? ", " + p.b().name() + " transposed" : "");
  }

  /** For tests and listings: the text form of a contraction. */
  public static String describe(Contraction c) {
    StringBuilder b = new StringBuilder("contraction ").append(c.op().name()).append('\n');
    for (Contraction.Product p : c.products()) {
      b.append("  gemm ").append(p.a().name()).append(p.transA() ? "^T" : "")
          .append(" * ").append(p.b().name()).append(p.transB() ? "^T" : "")
          .append(" -> ").append(c.direct() != null ? c.direct().name() : c.product().name())
          .append(" [").append(dims(p)).append("]")
          .append(" lda=").append(p.lda()).append(" ldb=").append(p.ldb()).append(" ldc=").append(p.ldc())
          .append(p.aOffset().isZero() ? "" : " aOffset=" + p.aOffset())
          .append(p.bOffset().isZero() ? "" : " bOffset=" + p.bOffset())
          .append(p.batch() == null ? "" : " strides=" + p.strideA() + "," + p.strideB() + "," + p.strideC())
          .append('\n');
    }
    for (OperatorIr.Grid p : c.prologues()) {
      b.append("  prologue ").append(p.name()).append(" -> ").append(Contraction.operand(p).name())
          .append(" [").append(Contraction.operand(p).shape().text()).append("]\n");
    }
    b.append("  epilogue ").append(c.epilogue() == null ? "none" : c.epilogue().name()).append('\n');
    return b.toString();
  }

  /** The contractions by the name of their operator, in order. */
  public static Map<String, Contraction> byOperator(List<Contraction> all) {
    Map<String, Contraction> m = new java.util.LinkedHashMap<>();
    all.forEach(c -> m.put(c.op().name(), c));
    return m;
  }
}
