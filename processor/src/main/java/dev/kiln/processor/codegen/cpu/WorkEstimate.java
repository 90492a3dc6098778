package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Stmt;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A rough count of the work one index of the outermost grid dimension stands for: the inner grid
 * extents times the worker's IR node count, with sequential loops counted by their trip counts
 * when those are known at launch. The CPU executor compares it with its grain to decide how many
 * tasks to cut the grid into.
 */
final class WorkEstimate {
  private static final long UNKNOWN_TRIPS = 16;

  private WorkEstimate() {}

  static CodeBlock perOuterIndex(OperatorIr.Grid op) {
    CodeBlock work = body(op.body());
    for (int k = 1; k < op.grid().size(); k++) {
      work = CodeBlock.of("$T.mul($L, $N)", PolyCode.CHECKS, work, op.grid().get(k).extentText());
    }
    return work;
  }

  private static CodeBlock body(List<Stmt> body) {
    long flat = 1;
    CodeBlock loops = null;
    Set<Expr> seen = new HashSet<>();
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        flat += nodes(st.value(), seen) + nodes(st.index(), seen);
      } else if (s instanceof Stmt.Accumulate a) {
        flat += nodes(a.value(), seen) + nodes(a.index(), seen);
      } else if (s instanceof Stmt.Combine c) {
        flat += nodes(c.index(), seen);
        for (Expr v : c.values()) {
          flat += nodes(v, seen);
        }
        for (Expr r : c.monoid().combined()) {
          flat += nodes(r, seen);
        }
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        // a lane nest visits each term once: one loop over them
        dev.kiln.processor.ir.analysis.LaneNest nest = dev.kiln.processor.ir.analysis.LaneNest.match(l);
        if (nest != null) {
          l = nest.union();
        }
        CodeBlock trips = isLeaf(l.lo()) && isLeaf(l.hi())
            ? CodeBlock.of("$T.max(0L, (long) $L - (long) $L)", Math.class, leaf(l.hi()), leaf(l.lo()))
            : CodeBlock.of("$LL", UNKNOWN_TRIPS);
        CodeBlock one = CodeBlock.of("$T.mul($L, $L)", PolyCode.CHECKS, trips, body(l.body()));
        loops = loops == null ? one : CodeBlock.of("$T.add($L, $L)", PolyCode.CHECKS, loops, one);
      }
    }
    CodeBlock base = CodeBlock.of("$LL", flat);
    return loops == null ? base : CodeBlock.of("$T.add($L, $L)", PolyCode.CHECKS, base, loops);
  }

  private static boolean isLeaf(Expr e) {
    return e instanceof Expr.Const || e instanceof Expr.ScalarRef;
  }

  private static CodeBlock leaf(Expr e) {
    return e instanceof Expr.Const c ? JavaLiterals.of(c) : CodeBlock.of("$N", ((Expr.ScalarRef) e).param().name());
  }

  private static long nodes(Expr e, Set<Expr> seen) {
    if (!seen.add(e)) {
      return 0;
    }
    long n = e.operands().isEmpty() ? 0 : 1;
    for (Expr o : e.operands()) {
      n += nodes(o, seen);
    }
    return n;
  }
}
