package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
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
 * next synchronising call ({@code CudaDevice.indexErrors}). Affine reads are left as they are: the
 * processor's checks and the worker's guards cover them.
 *
 * <p>A kernel with such reads takes, after all its other parameters, the length of each array read
 * so ({@code long long <a>_length}) and the flag ({@code int* read_errors}).
 */
final class CheckedReads {
  private CheckedReads() {}

  /** The arrays {@code op} reads at a data-dependent index, in parameter order. */
  static List<Param.Array> arrays(OperatorIr op) {
    Set<Param.Array> found = new LinkedHashSet<>();
    Map<Expr, Boolean> memo = new HashMap<>();
    collect(op.body(), found, memo);
    List<Param.Array> ordered = new ArrayList<>();
    for (Param p : op.params()) {
      if (p instanceof Param.Array a && found.contains(a)) {
        ordered.add(a);
      }
    }
    return ordered;
  }

  private static void collect(List<Stmt> body, Set<Param.Array> found, Map<Expr, Boolean> memo) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        visit(st.index(), found, memo);
        visit(st.value(), found, memo);
        visit(st.guard(), found, memo);
      } else if (s instanceof Stmt.Accumulate a) {
        visit(a.index(), found, memo);
        visit(a.value(), found, memo);
        visit(a.guard(), found, memo);
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        visit(l.lo(), found, memo);
        visit(l.hi(), found, memo);
        collect(l.body(), found, memo);
      }
    }
  }

  /** Finds the checked loads under {@code e}; returns whether {@code e} reads memory. */
  private static boolean visit(Expr e, Set<Param.Array> found, Map<Expr, Boolean> memo) {
    Boolean known = memo.get(e);
    if (known != null) {
      return known;
    }
    boolean reads = false;
    for (Expr o : e.operands()) {
      reads |= visit(o, found, memo);
    }
    if (e instanceof Expr.Load l) {
      if (visit(l.index(), found, memo)) {
        found.add(l.array());
      }
      reads = true;
    }
    memo.put(e, reads);
    return reads;
  }

  /**
   * Declares the parameters of the checked reads and turns the checks on in {@code emitter}; the
   * parameters go after all the kernel's others.
   */
  static List<CodeBlock> declare(OperatorIr op, BodyEmitter emitter, Names names) {
    List<Param.Array> arrays = arrays(op);
    List<CodeBlock> params = new ArrayList<>();
    if (arrays.isEmpty()) {
      return params;
    }
    Map<Param.Array, String> lengths = new LinkedHashMap<>();
    for (Param.Array a : arrays) {
      String length = names.fresh(CudaNames.identifier(a.name()) + "_length");
      lengths.put(a, length);
      params.add(CodeBlock.of("long long $N", length));
    }
    String flag = names.fresh("read_errors");
    params.add(CodeBlock.of("int* __restrict__ $N", flag));
    emitter.checkedLoads(lengths, flag);
    return params;
  }
}
