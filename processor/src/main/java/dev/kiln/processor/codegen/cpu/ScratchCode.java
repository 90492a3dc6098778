package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import java.util.List;

/**
 * The code for a kernel's {@code SCRATCH} arrays (one slice of a temporary per worker): each thread
 * allocates its own once per chunk, and each worker starts from zeros, as the composite's
 * zero-filled temporary gave it, unless its first use of the array writes every element before any
 * read (then the fill would be overwritten unread and is left out).
 */
final class ScratchCode {
  private static final ClassName ARRAYS = ClassName.get(java.util.Arrays.class);

  private ScratchCode() {}

  /** {@code final float[] t = new float[size]} for each scratch array of {@code op}. */
  static CodeBlock allocations(OperatorIr.Grid op) {
    CodeBlock.Builder code = CodeBlock.builder();
    op.scratch().forEach(a -> code.add(allocation(op, a)));
    return code.build();
  }

  /** {@code final float[] a = new float[size]}. */
  static CodeBlock allocation(OperatorIr.Grid op, Param.Array a) {
    return CodeBlock.builder()
        .addStatement("final $T $N = new $T[$T.size($S, $S, $L)]", JavaTypes.arrayOf(a.elementType()), a.name(),
            JavaTypes.of(a.elementType()), PolyCode.CHECKS, op.name(),
            "the length " + a.shape().text() + " of the per-worker part of temporary '" + a.name() + "'",
            PolyCode.of(a.shape().length()))
        .build();
  }

  /** At the start of a worker: zeros into each scratch array the worker might read before it writes it. */
  static CodeBlock fills(OperatorIr.Grid op) {
    CodeBlock.Builder code = CodeBlock.builder();
    for (Param.Array a : op.scratch()) {
      if (!writtenFirst(op.body(), a)) {
        code.addStatement("$T.fill($N, $L)", ARRAYS, a.name(),
            a.elementType() == ScalarType.BOOL ? "false" : CodeBlock.of("($T) 0", JavaTypes.of(a.elementType())));
      }
    }
    return code.build();
  }

  /**
   * Whether the first statement of the worker that touches {@code a} is a loop over exactly
   * {@code [0, length)} in steps of one, without a guard, that stores {@code a[i]} unguarded at its
   * own index {@code i} and never reads {@code a}; or, for a slice of one element, an unguarded
   * store of it that reads nothing of {@code a}.
   */
  static boolean writtenFirst(List<Stmt> body, Param.Array a) {
    for (Stmt s : body) {
      if (!CallStash.touches(List.of(s), a)) {
        continue;
      }
      if (s instanceof Stmt.Store st && st.array().equals(a) && SimdPlan.isTrue(st.guard()) && !CallStash.readsIn(List.of(st), a)) {
        // one element per worker, stored at the top level before any read
        Affine at = AffineAnalysis.affine(st.index());
        return a.shape().length().equals(dev.kiln.processor.ir.Poly.ONE) && at != null
            && at.equals(Affine.constant(dev.kiln.processor.ir.Poly.ZERO));
      }
      if (!(s instanceof Stmt.Loop l) || l.step() != 1 || !SimdPlan.isTrue(l.guard()) || CallStash.readsIn(List.of(l), a)) {
        return false;
      }
      Affine lo = AffineAnalysis.affine(l.lo());
      Affine hi = AffineAnalysis.affine(l.hi());
      if (lo == null || hi == null || !lo.equals(Affine.constant(dev.kiln.processor.ir.Poly.ZERO))
          || !hi.equals(Affine.constant(a.shape().length()))) {
        return false;
      }
      for (Stmt inner : l.body()) {
        if (inner instanceof Stmt.Store st && st.array().equals(a) && SimdPlan.isTrue(st.guard())
            && Affine.variable(l.index().name()).equals(AffineAnalysis.affine(st.index()))) {
          return true;
        }
      }
      return false;
    }
    return true; // never touched
  }
}
