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

  private ReductionPlan() {}

  /** The arrays of records {@code op} combines into, in the order of their first update. */
  static List<Group> groups(OperatorIr.Grid op) {
    Map<String, Stmt.Combine> first = new LinkedHashMap<>();
    Map<String, Set<Expr>> indices = new HashMap<>();
    Map<String, Map<String, Poly[]>> ranges = new HashMap<>();
    collectCombines(op.body(), IndexTerms.gridRanges(op), first, indices, ranges);
    Set<String> dims = new HashSet<>();
    op.dims().forEach(d -> dims.add(d.name()));
    return first.values().stream()
        .map(c -> new Group(c.monoid(), c.param(), c.arrays(),
            !chunksDisjoint(op, indices.get(c.param()), ranges.get(c.param()), dims)))
        .toList();
  }

  private static void collectCombines(List<Stmt> body, Map<String, Poly[]> scope, Map<String, Stmt.Combine> first,
      Map<String, Set<Expr>> indices, Map<String, Map<String, Poly[]>> ranges) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Combine c) {
        first.putIfAbsent(c.param(), c);
        indices.computeIfAbsent(c.param(), k -> new HashSet<>()).add(c.index());
        ranges.computeIfAbsent(c.param(), k -> new HashMap<>()).putAll(scope);
      } else if (s instanceof Stmt.Loop loop) {
        Map<String, Poly[]> inner = new HashMap<>(scope);
        IndexTerms.addLoopRange(loop, inner);
        collectCombines(loop.body(), inner, first, indices, ranges);
      }
    }
  }

  static List<Entry> of(OperatorIr.Grid op) {
    Map<Param.Array, ReduceKind> kinds = new LinkedHashMap<>();
    Map<Param.Array, Set<Expr>> indices = new HashMap<>();
    Map<Param.Array, Map<String, Poly[]>> ranges = new HashMap<>();
    collect(op.body(), IndexTerms.gridRanges(op), kinds, indices, ranges);
    Set<String> dims = new HashSet<>();
    op.dims().forEach(d -> dims.add(d.name()));
    return kinds.entrySet().stream()
        .filter(e -> e.getKey().role() == ArrayRole.REDUCE)
        .map(e -> new Entry(e.getKey(), e.getValue(),
            !chunksDisjoint(op, indices.get(e.getKey()), ranges.get(e.getKey()), dims)))
        .toList();
  }

  private static boolean chunksDisjoint(OperatorIr.Grid op, Set<Expr> indices, Map<String, Poly[]> ranges, Set<String> dims) {
    if (op.grid().isEmpty() || indices.size() != 1) {
      return op.grid().isEmpty();
    }
    Affine index = AffineAnalysis.affine(indices.iterator().next());
    String outer = op.grid().get(0).var().name();
    if (index == null || index.coefficient(outer).isZero()) {
      return false;
    }
    List<Term> terms = IndexTerms.of(index, ranges, Set.of(outer), dims);
    return terms != null && Injectivity.provable(terms, dims);
  }

  private static void collect(List<Stmt> body, Map<String, Poly[]> scope, Map<Param.Array, ReduceKind> kinds,
      Map<Param.Array, Set<Expr>> indices, Map<Param.Array, Map<String, Poly[]>> ranges) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Accumulate a) {
        kinds.putIfAbsent(a.array(), a.op());
        indices.computeIfAbsent(a.array(), k -> new HashSet<>()).add(a.index());
        ranges.computeIfAbsent(a.array(), k -> new HashMap<>()).putAll(scope);
      } else if (s instanceof Stmt.Loop loop) {
        Map<String, Poly[]> inner = new HashMap<>(scope);
        IndexTerms.addLoopRange(loop, inner);
        collect(loop.body(), inner, kinds, indices, ranges);
      }
    }
  }
}
