package dev.kiln.processor.ir.analysis;

import dev.kiln.processor.ir.Poly;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Decides, symbolically, that an affine index gives different workers different elements: a
 * mixed-radix argument. Order the terms from least to most significant; if every term from the
 * least significant distinguishing one upwards has a magnitude greater than the spans of all terms
 * below it, two points whose most significant difference is in such a term can never meet; and
 * two different workers always differ in one (the terms below the first distinguishing one vary
 * only inside a worker). Inequalities hold for every size at least 1 ({@link
 * Poly#provablyNonNegative}).
 */
public final class Injectivity {
  private static final int MAX_TERMS = 7;

  private Injectivity() {}

  public static boolean provable(List<Term> terms, Set<String> dims) {
    if (terms.size() > MAX_TERMS) {
      return false;
    }
    return search(new ArrayList<>(terms), Poly.ZERO, false, dims);
  }

  /** Tries every order bottom-up, pruning as soon as a term cannot sit where it is tried. */
  private static boolean search(List<Term> left, Poly spanBelow, boolean constrained, Set<String> dims) {
    if (left.isEmpty()) {
      return true;
    }
    for (int i = 0; i < left.size(); i++) {
      Term t = left.get(i);
      boolean mustDominate = constrained || t.distinguishes();
      if (mustDominate && !t.magnitude().subtract(Poly.ONE).subtract(spanBelow).provablyNonNegative(dims)) {
        continue;
      }
      List<Term> rest = new ArrayList<>(left);
      rest.remove(i);
      if (search(rest, spanBelow.add(t.span()), mustDominate, dims)) {
        return true;
      }
    }
    return false;
  }
}
