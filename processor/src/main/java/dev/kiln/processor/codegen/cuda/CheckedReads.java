package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.analysis.IndexTerms;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads at an index computed from data ({@code table[index[i] * D + d]}): nothing proves them inside
 * the array, and a GPU does not check. Plain Java throws {@code ArrayIndexOutOfBoundsException}
 * there; a kernel cannot throw, so it checks the index against the array's length (a kernel
 * argument), reads 0 instead and sets the device's index-error flag, which the runtime checks at the
 * next synchronising call ({@code CudaDevice.indexErrors}). "From data" includes loop variables whose
 * bounds are data and values a loop carries from data. Reads at other indices are checked the same
 * way unless the index is affine and provably inside the array for every worker, iteration and size
 * ({@code x[i + 1]} in a kernel over {@code i < N} reading {@code [N]}: Java throws at the last
 * worker; the processor's KILN047 refuses it only when unguarded, and a guard it cannot see through,
 * or a size that makes it fail only sometimes, leaves it to this check).
 *
 * <p>Stores are checked the same way: a store not provably inside its array (the race check has
 * already made it affine and distinct across workers; KILN049 warned about it) writes nothing
 * outside {@code [0, length)} and sets the flag, where a GPU would write past the array.
 *
 * <p>A kernel with such reads or stores takes, after all its other parameters, the length of each
 * array accessed so ({@code long long <a>_length}) and the flag ({@code int* read_errors}).
 */
final class CheckedReads {
  private CheckedReads() {}

  /** The loads of {@code op} to check, and the arrays they read, in parameter order. */
  record Found(Set<Expr> loads, Set<Stmt.Store> stores, List<Param.Array> arrays) {}

  /** The arrays {@code op} reads at a data-dependent index, in parameter order. */
  static List<Param.Array> arrays(OperatorIr.Grid op) {
    return find(op).arrays();
  }

  /**
   * Every load whose index depends on data: on another load, or on a loop variable whose bounds do,
   * or on a value a loop carries that does (a CSR row {@code for (e = start[i]; e < end[i]; e++)}, a
   * chain {@code j = next[j]}). Statements, their guards, loops' guards and carried values included.
   */
  static Found find(OperatorIr.Grid op) {
    Search search = new Search(op);
    search.statements(op.body());
    List<Param.Array> ordered = new ArrayList<>();
    for (Param p : op.params()) {
      if (p instanceof Param.Array a && search.arrays.contains(a)) {
        ordered.add(a);
      }
    }
    return new Found(Set.copyOf(search.loads), Set.copyOf(search.stores), ordered);
  }

  private static final class Search {
    final Set<Expr> loads = new HashSet<>();
    final Set<Stmt.Store> stores = new HashSet<>();
    final Set<Param.Array> arrays = new LinkedHashSet<>();
    final Set<Expr.Var> dataVars = new HashSet<>();
    final Map<Expr, Boolean> memo = new HashMap<>();
    /** The ranges {@code [lo, hi)} of the grid's and the loops' variables, as sizes, where known. */
    final Map<String, Poly[]> ranges;
    final Set<String> dims = new HashSet<>();

    Search(OperatorIr.Grid op) {
      ranges = IndexTerms.gridRanges(op);
      op.dims().forEach(d -> dims.add(d.name()));
    }

    void statements(List<Stmt> body) {
      for (Stmt s : body) {
        if (s instanceof Stmt.Store st) {
          if (visit(st.index()) || !provablyInside(st.index(), st.array())) {
            stores.add(st); // a GPU would write past the array: checked like a read
            arrays.add(st.array());
          }
          visit(st.value());
          visit(st.guard());
        } else if (s instanceof Stmt.Accumulate a) {
          visit(a.index());
          visit(a.value());
          visit(a.guard());
        } else if (s instanceof Stmt.Combine c) {
          visit(c.index());
          c.values().forEach(this::visit);
          visit(c.guard());
        } else {
          Stmt.Loop l = (Stmt.Loop) s;
          IndexTerms.addLoopRange(l, ranges);
          boolean dataBounds = visit(l.lo()) | visit(l.hi());
          visit(l.guard());
          if (dataBounds) {
            dataVars.add(l.index());
          }
          for (Stmt.Carried c : l.carried()) {
            if (visit(c.init())) {
              dataVars.add(c.phi());
            }
          }
          // A carried value that becomes data in an iteration is data in the next: repeat until stable.
          boolean changed = true;
          while (changed) {
            changed = false;
            memo.clear();
            statements(l.body());
            for (Stmt.Carried c : l.carried()) {
              if (visit(c.next()) && dataVars.add(c.phi())) {
                changed = true;
              }
            }
          }
          for (Stmt.Carried c : l.carried()) {
            if (dataVars.contains(c.phi())) {
              dataVars.add(c.result());
              memo.clear();
            }
          }
        }
      }
    }

    /** Marks the loads to check under {@code e}; returns whether {@code e} depends on data. */
    boolean visit(Expr e) {
      Boolean known = memo.get(e);
      if (known != null) {
        return known;
      }
      boolean data = e instanceof Expr.Var v && dataVars.contains(v);
      for (Expr o : e.operands()) {
        data |= visit(o);
      }
      if (e instanceof Expr.Load l) {
        if (visit(l.index()) || !provablyInside(l.index(), l.array())) {
          loads.add(l);
          arrays.add(l.array());
        }
        data = true;
      }
      memo.put(e, data);
      return data;
    }

    /**
     * Whether {@code l}'s index is affine and within its array for every worker, loop iteration and
     * size (guards not counted: a read under {@code i > 0} at {@code i - 1} is checked, and cannot fail).
     */
    private boolean provablyInside(Expr index, Param.Array array) {
      Affine a = AffineAnalysis.affine(index);
      return a != null && IndexTerms.within(a, array.shape().length(), ranges, dims);
    }
  }

  /**
   * Declares the parameters of the checked reads and turns the checks on in {@code emitter}; the
   * parameters go after all the kernel's others.
   */
  static List<CodeBlock> declare(OperatorIr.Grid op, BodyEmitter emitter, Names names) {
    Found found = find(op);
    List<CodeBlock> params = new ArrayList<>();
    if (found.arrays().isEmpty()) {
      return params;
    }
    Map<Param.Array, String> lengths = new LinkedHashMap<>();
    for (Param.Array a : found.arrays()) {
      String length = names.fresh(CudaNames.identifier(a.name()) + "_length");
      lengths.put(a, length);
      params.add(CodeBlock.of("long long $N", length));
    }
    String flag = names.fresh("read_errors");
    params.add(CodeBlock.of("int* __restrict__ $N", flag));
    emitter.checkedAccesses(found.loads(), found.stores(), lengths, flag);
    return params;
  }
}
