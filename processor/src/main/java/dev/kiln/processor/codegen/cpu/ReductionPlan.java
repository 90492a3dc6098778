package dev.kiln.processor.codegen.cpu;

import dev.kiln.processor.ir.analysis.IndexTerms;
import dev.kiln.processor.ir.analysis.Injectivity;
import dev.kiln.processor.ir.analysis.Term;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Monoid;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.Stmt;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the CPU kernel combines each {@code @Reduce} output. The grid's outermost dimension is cut
 * into chunks that run in parallel. When the reduced index provably gives different chunks
 * different elements (row sums over a grid chunked by rows), each chunk accumulates straight into
 * the output, in the source's order. Otherwise each chunk accumulates into a private copy, and the
 * copies are combined in a fixed tree ({@code dev.kiln.runtime.cpu.Partials}).
 */
final class ReductionPlan {
  /** One reduced array: its operator, and whether chunks need private partial results. */
  record Entry(Param.Array array, ReduceKind op, boolean partials) {}

  /**
   * One reduced array of records (a user monoid): its method, its name, its components' arrays,
   * and whether chunks need private partial results.
   */
  record Group(Monoid monoid, String param, List<Param.Array> arrays, boolean partials) {}

  /**
   * Where one reduced target (an array, or an array of records by its name) is accumulated into:
   * its first statement, every index, and the ranges of the variables in scope there.
   */
  private record Sites(Stmt first, Set<Expr> indices, Map<String, Poly[]> ranges) {}

  private ReductionPlan() {}

  /** The arrays of records {@code op} combines into, in the order of their first update. */
  static List<Group> groups(OperatorIr.Grid op) {
    Set<String> dims = dims(op);
    List<Group> out = new java.util.ArrayList<>();
    sites(op).values().forEach(w -> {
      if (w.first() instanceof Stmt.Combine c) {
        out.add(new Group(c.monoid(), c.param(), c.arrays(), !chunksDisjoint(op, w, dims)));
      }
    });
    return out;
  }

  static List<Entry> of(OperatorIr.Grid op) {
    Set<String> dims = dims(op);
    List<Entry> out = new java.util.ArrayList<>();
    sites(op).values().forEach(w -> {
      if (w.first() instanceof Stmt.Accumulate a && a.array().role() == ArrayRole.REDUCE) {
        out.add(new Entry(a.array(), a.op(), !chunksDisjoint(op, w, dims)));
      }
    });
    return out;
  }

  private static Set<String> dims(OperatorIr.Grid op) {
    Set<String> dims = new HashSet<>();
    op.dims().forEach(d -> dims.add(d.name()));
    return dims;
  }

  private static boolean chunksDisjoint(OperatorIr.Grid op, Sites sites, Set<String> dims) {
    Set<Expr> indices = sites.indices();
    if (op.grid().isEmpty() || indices.size() != 1) {
      return op.grid().isEmpty();
    }
    Affine index = AffineAnalysis.affine(indices.iterator().next());
    String outer = op.grid().get(0).var().name();
    if (index == null || index.coefficient(outer).isZero()) {
      return false;
    }
    List<Term> terms = IndexTerms.of(index, sites.ranges(), Set.of(outer), dims);
    return terms != null && Injectivity.provable(terms, dims);
  }

  /** Every reduced target of {@code op}, in the order of its first accumulation or combine. */
  private static Map<Object, Sites> sites(OperatorIr.Grid op) {
    Map<Object, Sites> out = new LinkedHashMap<>();
    collect(op.body(), IndexTerms.gridRanges(op), out);
    return out;
  }

  private static void collect(List<Stmt> body, Map<String, Poly[]> scope, Map<Object, Sites> out) {
    for (Stmt s : body) {
      Object target = s instanceof Stmt.Accumulate a ? a.array() : s instanceof Stmt.Combine c ? c.param() : null;
      Expr index = s instanceof Stmt.Accumulate a ? a.index() : s instanceof Stmt.Combine c ? c.index() : null;
      if (target != null) {
        Sites sites = out.computeIfAbsent(target, k -> new Sites(s, new HashSet<>(), new HashMap<>()));
        sites.indices().add(index);
        sites.ranges().putAll(scope);
      } else if (s instanceof Stmt.Loop loop) {
        Map<String, Poly[]> inner = new HashMap<>(scope);
        IndexTerms.addLoopRange(loop, inner);
        collect(loop.body(), inner, out);
      }
    }
  }
}
