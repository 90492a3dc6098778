package dev.kiln.processor.frontend;

import com.sun.source.tree.Tree;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Refuses array accesses that are out of bounds for every worker: a constant index below zero or
 * at least the array's length, or an unconditional index whose smallest value (every variable
 * with a non-negative coefficient at its lower bound) is already past the end. Sizes ({@code @Dim}
 * symbols) are taken to be at least 1; an empty grid runs no worker at all.
 *
 * <p>And those out of bounds for some worker at every size ({@code KILN047}): an affine index read
 * or written unconditionally (no {@code if} or {@code ?:} around it, and inside sequential loops
 * that run at every size) whose least value over the worker grid and the loops is below zero
 * ({@code x[i - 1]} at {@code i = 0}) or whose greatest is at least the length ({@code x[i + 1]} at
 * {@code i = N - 1}, column 3 of a {@code [N, 3]} array). An affine function over a box of
 * variables takes its extremes at corners, so the worker named in the message is one where the
 * plain method throws; the message says which, and how to guard it.
 *
 * <p>Such an access that is neither provably inside nor provably outside for every size (an offset
 * from a scalar argument, {@code x[i + k]}; a length the index's range does not fit for every size)
 * gets a warning ({@code KILN049}), collected for the front end to report once lowering succeeds.
 */
final class BoundsCheck {
  private final Set<String> dims;

  /** The lower bound of each grid and loop variable in scope. */
  final Map<String, Poly> lowerBounds = new HashMap<>();

  /** The source name of each grid and loop variable ({@code k} for {@code k_2}), for messages. */
  final Map<String, String> sourceNames = new HashMap<>();

  /** The greatest value of each grid and loop variable in scope that every size reaches (step 1). */
  final Map<String, Poly> upperBounds = new HashMap<>();

  /**
   * How many enclosing sequential loops run under a condition or may run no iteration: inside
   * them an access with a true guard is still not done at every size.
   */
  int conditionalLoops;

  /** An access that may be out of bounds at some sizes or arguments ({@code KILN049}, a warning). */
  record Warning(Tree at, Object[] args) {}

  private final java.util.List<Warning> warnings = new java.util.ArrayList<>();
  private final Set<Tree> warned = new java.util.HashSet<>();

  /** The KILN049 warnings found so far, one per access. */
  java.util.List<Warning> warnings() {
    return warnings;
  }

  BoundsCheck(Set<String> dims) {
    this.dims = dims;
  }

  /** The {@code @Dim} symbols, each taken to be at least 1. */
  Set<String> dims() {
    return dims;
  }

  void check(Tree at, Param.Array array, Expr index, Expr guard) {
    Affine a = AffineAnalysis.affine(index);
    if (a == null) {
      return;
    }
    Poly length = array.shape().length();
    if (a.isConstant()) {
      Poly c = a.constantPart();
      if (c.negate().subtract(Poly.ONE).provablyNonNegative(dims)
          || c.subtract(length).provablyNonNegative(dims)) {
        throw new KilnDiagnostic(at, Message.INDEX_OUT_OF_BOUNDS, a, array.name(), length);
      }
      return;
    }
    if (!(guard instanceof Expr.Const g && g.isTrue())) {
      return;
    }
    everyWorker(at, array, a, length);
    if (conditionalLoops == 0) {
      edges(at, array, a, length);
    }
  }

  /** KILN008 when {@code a}'s least value (non-negative coefficients only) is already past the end. */
  private void everyWorker(Tree at, Param.Array array, Affine a, Poly length) {
    Poly min = a.constantPart();
    for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
      Poly lo = lowerBounds.get(t.getKey());
      if (lo == null || !t.getValue().provablyNonNegative(dims)) {
        return;
      }
      min = min.add(t.getValue().multiply(lo));
    }
    if (min.subtract(length).provablyNonNegative(dims)) {
      throw new KilnDiagnostic(at, Message.INDEX_OUT_OF_BOUNDS, a, array.name(), length);
    }
  }

  /** KILN047 when {@code a}'s least value is below zero, or its greatest at least {@code length}, at every size. */
  private void edges(Tree at, Param.Array array, Affine a, Poly length) {
    Poly min = a.constantPart();
    Poly max = a.constantPart();
    StringBuilder atMin = new StringBuilder();
    StringBuilder atMax = new StringBuilder();
    for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
      String v = t.getKey();
      Poly c = t.getValue();
      Poly lo = lowerBounds.get(v);
      Poly hi = upperBounds.get(v);
      if (lo == null || hi == null) {
        return;
      }
      boolean up = c.provablyNonNegative(dims);
      if (!up && !c.negate().provablyNonNegative(dims)) {
        return;
      }
      min = min.add(c.multiply(up ? lo : hi));
      max = max.add(c.multiply(up ? hi : lo));
      name(atMin, v, up ? lo : hi);
      name(atMax, v, up ? hi : lo);
    }
    Affine shown = inSourceNames(a);
    if (Poly.constant(-1).subtract(min).provablyNonNegative(dims)) {
      throw new KilnDiagnostic(at, Message.INDEX_OUT_OF_BOUNDS_AT_EDGE, shown, array.name(), atMin,
          "below 0 (" + min + ")", shown + " >= 0");
    }
    if (max.subtract(length).provablyNonNegative(dims)) {
      throw new KilnDiagnostic(at, Message.INDEX_OUT_OF_BOUNDS_AT_EDGE, shown, array.name(), atMax,
          max + ", past its " + length + " elements", shown + " < " + length);
    }
    if (!(min.provablyNonNegative(dims) && length.subtract(Poly.ONE).subtract(max).provablyNonNegative(dims))
        && warned.add(at)) {
      warnings.add(new Warning(at, new Object[] {shown, array.name(), min, max, array.name(), length}));
    }
  }

  private void name(StringBuilder b, String v, Poly value) {
    b.append(b.length() == 0 ? "" : ", ").append(sourceNames.getOrDefault(v, v)).append(" = ").append(value);
  }

  /** {@code a} with its variables under their source names, unless two would then share one. */
  private Affine inSourceNames(Affine a) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    Affine out = Affine.constant(a.constantPart());
    for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
      String shown = sourceNames.getOrDefault(t.getKey(), t.getKey());
      if (!seen.add(shown)) {
        return a;
      }
      out = out.add(Affine.variable(shown).scale(t.getValue()));
    }
    return out;
  }
}
