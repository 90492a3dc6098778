package dev.kiln.processor.shard;

import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether one grid kernel can be split along a {@code @Dim} {@code D}: run on any slice of rows of
 * {@code D} with the same result for those rows, so that parts run anywhere and their results put
 * together are the whole run's. Proved from the IR:
 *
 * <ul>
 *   <li>exactly one {@code @Parallel} loop runs over {@code D} (variable {@code v}), and no other
 *       grid size involves {@code D};
 *   <li>every array whose {@link dev.kiln.processor.ir.Shape} involves {@code D} has it as its
 *       leading extent only ({@code rows}), and every access to it stays in row {@code v} ({@link
 *       RowAccess}): a worker reads and writes its own row only;
 *   <li>every other array is read at indices that do not use {@code v} except through values read
 *       from a row ({@code whole}: each part reads it all), or is a {@code @Reduce} output
 *       ({@code reduce}: each part adds into the identity, the parts are combined); an {@code @Out}
 *       array outside the rows would be written by every part and is refused;
 *   <li>neither {@code v} nor {@code D} is used as a value, except {@code v} plus the operator's
 *       {@code @Offset("D")} parameter, which the runner sets to each part's first row: values
 *       computed from a global row index ({@code KRandom}'s draws) are the same under any split.
 * </ul>
 *
 * A kernel without a {@code @Parallel} loop over {@code D} may instead sum over it: a sequential
 * loop over all of {@code D} ({@code for (int b = 0; b < B; b++)}, at the top of the worker) whose
 * carried values are sums from 0 of terms reading rows {@code b} only, each result stored as it is
 * into an array {@code D} does not size ({@code sum}: a column sum, a weight gradient); each part
 * then writes its rows' sums, and the parts are added. A kernel with neither (in a composite's
 * plan) is run whole by every part: allowed when it touches no array that {@code D} sizes and does
 * not use {@code D}.
 */
final class ShardAnalysis {
  private ShardAnalysis() {}

  /** An array's role in a split kernel. */
  enum Role {
    ROWS("rows"), WHOLE("whole"), REDUCE("reduce"), SUM("sum"), WRITTEN_WHOLE("written whole");

    final String text;

    Role(String text) {
      this.text = text;
    }
  }

  /**
   * A kernel's verdict: each array's role and the reduction of {@code reduce} ones, or the reason it
   * cannot be split; operations per row of {@code D} (all workers of the row).
   */
  record Verdict(Map<String, Role> arrays, Map<String, ReduceKind> reductions, Poly rowWork, boolean alongDim, String refusal) {
    static Verdict refused(String why) {
      return new Verdict(Map.of(), Map.of(), Poly.ZERO, false, why);
    }
  }

  /** The verdict for splitting {@code op}, a grid kernel, along {@code dim}; {@code offsets} are its {@code @Offset(dim)} parameters. */
  static Verdict of(OperatorIr.Grid op, String dim, Set<String> offsets) {
    if (op.finishes()) {
      return Verdict.refused("it runs statements after every worker on its totals, which need every part's"
          + " partial totals combined first");
    }
    Stmt.Combine combine = StmtWalk.firstCombine(op.body());
    if (combine != null) {
      return Verdict.refused("it reduces into '" + combine.param() + "' with " + combine.monoid()
          + " (parts' partial results of a record are not combined across parts yet)");
    }
    Set<String> dims = op.dims().stream().map(Param::name).collect(Collectors.toSet());
    GridDim along = null;
    for (GridDim g : op.grid()) {
      if (g.size().equals(Poly.symbol(dim))) {
        if (along != null) {
          return Verdict.refused("two @Parallel loops run over " + dim);
        }
        along = g;
      } else if (g.size().symbols().contains(dim)) {
        return Verdict.refused("the @Parallel loop over '" + g.var().sourceName() + "' runs to " + g.bound() + ", which involves " + dim);
      }
    }
    String v = along == null ? null : along.var().name();
    Map<String, RowAccess.Range> ranges = new HashMap<>();
    Poly perRow = Poly.ONE;
    for (GridDim g : op.grid()) {
      ranges.put(g.var().name(), new RowAccess.Range(Poly.ZERO, g.size().subtract(Poly.ONE)));
      if (g != along) {
        perRow = perRow.multiply(g.size());
      }
    }
    Walk walk = new Walk(v, dim, offsets, dims);
    walk.statements(op.body(), ranges, along == null);
    if (walk.refusal != null) {
      return Verdict.refused(walk.refusal);
    }
    Map<String, Role> roles = new LinkedHashMap<>();
    Map<String, ReduceKind> reductions = new LinkedHashMap<>();
    for (Param.Array a : op.arrays()) {
      if (a.role() == ArrayRole.SCRATCH) {
        continue;
      }
      List<Access> accesses = walk.accesses.getOrDefault(a.name(), List.of());
      boolean sized = a.shape().extents().stream().anyMatch(e -> e.symbols().contains(dim));
      if (sized) {
        List<Poly> extents = a.shape().extents();
        if (!extents.get(0).equals(Poly.symbol(dim)) || extents.subList(1, extents.size()).stream().anyMatch(e -> e.symbols().contains(dim))) {
          return Verdict.refused("'" + a.name() + "' has shape " + a.shape() + ", where " + dim + " is not the leading extent alone");
        }
        Poly rowLength = a.shape().stride(0);
        for (Access x : accesses) {
          if (x.row() == null) {
            return Verdict.refused("it uses '" + a.name() + "', which " + dim + " sizes, outside a loop over " + dim);
          }
          String why = RowAccess.check(x.index(), x.row(), rowLength, dim, x.ranges(), dims);
          if (why != null) {
            return Verdict.refused("'" + a.name() + "' is accessed at " + why);
          }
        }
        roles.put(a.name(), Role.ROWS);
        continue;
      }
      for (Access x : accesses) {
        if (x.row() != null && usesVariable(x.index(), x.row())) {
          return Verdict.refused("'" + a.name() + "' is not sized by " + dim + " but its index uses the row index");
        }
        if (mentions(x.index(), dim)) {
          return Verdict.refused("'" + a.name() + "' is indexed with " + dim + " itself");
        }
      }
      switch (a.role()) {
        case IN -> roles.put(a.name(), Role.WHOLE);
        case REDUCE -> {
          roles.put(a.name(), Role.REDUCE);
          if (walk.reductions.containsKey(a.name())) {
            reductions.put(a.name(), walk.reductions.get(a.name()));
          }
        }
        default -> {
          if (walk.sumStores.contains(a.name())) {
            if (walk.otherStores.contains(a.name())) {
              return Verdict.refused("'" + a.name() + "' is written both with a sum over " + dim + " and otherwise");
            }
            roles.put(a.name(), Role.SUM);
            continue;
          }
          if (along != null || !walk.sumStores.isEmpty()) {
            return Verdict.refused("every part would write all of '" + a.name() + "', which " + dim + " does not size");
          }
          roles.put(a.name(), Role.WRITTEN_WHOLE);
        }
      }
    }
    Poly rowWork = walk.work.multiply(perRow);
    return new Verdict(roles, reductions, rowWork, along != null || !walk.sumStores.isEmpty(), null);
  }

  /**
   * An access to an array at {@code index}, with the ranges of the loop variables around it, and
   * the variable that walks the rows of {@code D} there (the {@code @Parallel} one, or a loop's that
   * sums over {@code D}; null outside both).
   */
  record Access(Expr index, Map<String, RowAccess.Range> ranges, String row) {}

  /** Collects accesses and operation counts, and refuses uses of {@code v} or {@code D} as values. */
  private static final class Walk {
    final String v;
    final String dim;
    final Set<String> offsets;
    final Set<String> dims;
    final Map<String, List<Access>> accesses = new HashMap<>();
    /** Each {@code @Reduce} array's operator (the front end allows one per array). */
    final Map<String, ReduceKind> reductions = new HashMap<>();
    /** The variable walking the rows where the walk is (the @Parallel one, or a summing loop's). */
    String row;
    /** The results of loops that sum over D; where they are stored. */
    final Set<String> sumResults = new java.util.HashSet<>();
    final Set<String> sumStores = new java.util.HashSet<>();
    final Set<String> otherStores = new java.util.HashSet<>();
    Poly work = Poly.ZERO;
    String refusal;

    Walk(String v, String dim, Set<String> offsets, Set<String> dims) {
      this.v = v;
      this.dim = dim;
      this.offsets = offsets;
      this.dims = dims;
      this.row = v;
    }

    /** Walks {@code body}, adding its operations (a loop's times its trip count, where known) to {@link #work}. */
    void statements(List<Stmt> body, Map<String, RowAccess.Range> ranges, boolean top) {
      for (Stmt s : body) {
        if (s instanceof Stmt.Store st) {
          access(st.array().name(), st.index(), ranges);
          if (st.value() instanceof Expr.Var r && sumResults.contains(r.name())) {
            sumStores.add(st.array().name());
            values(ranges, st.guard());
          } else {
            otherStores.add(st.array().name());
            values(ranges, st.value(), st.guard());
          }
          indexLoads(st.index(), ranges);
        } else if (s instanceof Stmt.Accumulate a) {
          access(a.array().name(), a.index(), ranges);
          reductions.put(a.array().name(), a.op());
          values(ranges, a.value(), a.guard());
          indexLoads(a.index(), ranges);
        } else {
          Stmt.Loop l = (Stmt.Loop) s;
          if (top && v == null && sumsOverDim(l)) {
            summingLoop(l, ranges);
            continue;
          }
          values(ranges, l.lo(), l.hi(), l.guard());
          l.carried().forEach(c -> values(ranges, c.init()));
          Map<String, RowAccess.Range> inner = new HashMap<>(ranges);
          Affine lo = AffineAnalysis.affine(l.lo());
          Affine hi = AffineAnalysis.affine(l.hi());
          Poly trips = Poly.ONE;
          if (lo != null && hi != null && lo.isConstant() && hi.isConstant()) {
            inner.put(l.index().name(), new RowAccess.Range(lo.constantPart(), hi.constantPart().subtract(Poly.ONE)));
            trips = hi.constantPart().subtract(lo.constantPart());
            if (l.step() > 1 || trips.symbols().contains(dim)) {
              trips = Poly.ONE;
            }
          }
          Poly outer = work;
          work = Poly.ZERO;
          l.carried().forEach(c -> values(inner, c.next()));
          statements(l.body(), inner, false);
          work = outer.add(work.multiply(trips));
        }
      }
    }

    private void access(String array, Expr index, Map<String, RowAccess.Range> ranges) {
      accesses.computeIfAbsent(array, k -> new ArrayList<>()).add(new Access(index, ranges, row));
    }

    /** {@code for (b = 0; b < D; b++)} unguarded, its carried values sums from 0: {@code next = phi + term}, phi used there only. */
    private boolean sumsOverDim(Stmt.Loop l) {
      if (!(l.lo() instanceof Expr.Const lo && lo.integralValue() == 0) || l.step() != 1
          || !(l.hi() instanceof Expr.ScalarRef hi && hi.param().name().equals(dim))
          || !(l.guard() instanceof Expr.Const g && g.isTrue()) || l.carried().isEmpty()) {
        return false;
      }
      if (!StmtWalk.writtenArrays(l.body()).isEmpty()) {
        return false;
      }
      List<Expr> roots = new ArrayList<>();
      for (Stmt inner : l.body()) {
        roots.addAll(StmtWalk.exprs(inner));
      }
      for (Stmt.Carried c : l.carried()) {
        if (!(c.init() instanceof Expr.Const zero) || zero.type() == ScalarType.BOOL
            || (zero.type().isFloating() ? zero.floatingValue() != 0 : zero.integralValue() != 0)) {
          return false;
        }
        if (!(c.next() instanceof Expr.Binary add && add.op() == BinaryOp.ADD
            && (add.left() == c.phi()) != (add.right() == c.phi()))) {
          return false;
        }
        roots.add(c.next());
      }
      // each phi is an operand of its own next only
      List<Expr> nodes = StmtWalk.nodes(roots);
      for (Stmt.Carried c : l.carried()) {
        int parents = 0;
        for (Expr node : nodes) {
          for (Expr o : node.operands()) {
            if (o == c.phi()) {
              parents += node == c.next() ? 1 : 2;
            }
          }
        }
        if (parents != 1) {
          return false;
        }
      }
      return true;
    }

    /** A loop that sums over D: its body walks row {@code b}; its results may only be stored. */
    private void summingLoop(Stmt.Loop l, Map<String, RowAccess.Range> ranges) {
      Map<String, RowAccess.Range> inner = new HashMap<>(ranges);
      inner.put(l.index().name(), new RowAccess.Range(Poly.ZERO, Poly.symbol(dim).subtract(Poly.ONE)));
      String outerRow = row;
      row = l.index().name();
      Poly outer = work;
      work = Poly.ZERO;
      for (Stmt.Carried c : l.carried()) {
        Expr.Binary add = (Expr.Binary) c.next();
        values(inner, add.left() == c.phi() ? add.right() : add.left());
      }
      statements(l.body(), inner, false);
      // per row of D: the body once
      work = outer.add(work);
      row = outerRow;
      l.carried().forEach(c -> sumResults.add(c.result().name()));
    }

    /** The loads inside an index (a gather's index read from an array) are accesses too. */
    private void indexLoads(Expr index, Map<String, RowAccess.Range> ranges) {
      for (Expr.Load load : StmtWalk.loads(List.of(index))) {
        access(load.array().name(), load.index(), ranges);
      }
    }

    /** Expressions evaluated for their value: loads are accesses, {@code v} and {@code D} may not appear. */
    private void values(Map<String, RowAccess.Range> ranges, Expr... roots) {
      Set<Expr> seen = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Expr root : roots) {
        value(root, ranges, seen);
      }
      work = work.add(Poly.constant(seen.size()));
    }

    private void value(Expr e, Map<String, RowAccess.Range> ranges, Set<Expr> seen) {
      if (e == null || !seen.add(e)) {
        return;
      }
      if (e instanceof Expr.Load load) {
        access(load.array().name(), load.index(), ranges);
        indexLoads(load.index(), ranges);
        value(load.guard(), ranges, seen);
        return;
      }
      if (e instanceof Expr.Binary b && b.op() == BinaryOp.ADD && offsetPlusRow(b.left(), b.right())) {
        return;
      }
      if (e instanceof Expr.Var sum && sumResults.contains(sum.name()) && refusal == null) {
        refusal = "it uses the sum over " + dim + " '" + sum.sourceName() + "' other than by storing it";
      }
      if (row != null && e instanceof Expr.Var var && var.name().equals(row) && refusal == null) {
        refusal = "it uses the row index '" + var.sourceName() + "' as a value (add an @Offset(\"" + dim
            + "\") parameter to it where a value must depend on the global row)";
      }
      if (e instanceof Expr.ScalarRef s && s.param().name().equals(dim) && refusal == null) {
        refusal = "it uses " + dim + " as a value";
      }
      e.operands().forEach(o -> value(o, ranges, seen));
    }

    private boolean offsetPlusRow(Expr a, Expr b) {
      return row != null
          && (a instanceof Expr.ScalarRef s && offsets.contains(s.param().name()) && b instanceof Expr.Var x && x.name().equals(row)
              || b instanceof Expr.ScalarRef s2 && offsets.contains(s2.param().name()) && a instanceof Expr.Var y && y.name().equals(row));
    }
  }

  /** Whether {@code e} uses variable {@code v} other than inside the index of a load (a value read from a row). */
  static boolean usesVariable(Expr e, String v) {
    if (e instanceof Expr.Var var) {
      return var.name().equals(v);
    }
    if (e instanceof Expr.Load load) {
      return load.guard() != null && usesVariable(load.guard(), v);
    }
    for (Expr o : e.operands()) {
      if (usesVariable(o, v)) {
        return true;
      }
    }
    return false;
  }

  private static boolean mentions(Expr e, String dim) {
    if (e instanceof Expr.ScalarRef s) {
      return s.param().name().equals(dim);
    }
    for (Expr o : e.operands()) {
      if (mentions(o, dim)) {
        return true;
      }
    }
    return false;
  }

}
