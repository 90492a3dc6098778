package dev.kiln.processor.check;

import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.analysis.IndexTerms;
import dev.kiln.processor.ir.analysis.Injectivity;
import dev.kiln.processor.ir.analysis.Term;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Proves that no two workers write the same element of an {@code @Out} array: each store's index
 * must be affine and injective in the grid variables (whatever values the worker's own loops
 * take), and every pair of stores to one array must hit disjoint elements across workers.
 */
public final class RaceCheck implements IrCheck {
  static final RaceCheck INSTANCE = new RaceCheck();

  /** A store with the ranges of the variables around it. */
  private record StoreSite(Stmt.Store store, Map<String, Poly[]> ranges) {}

  private RaceCheck() {}

  @Override
  public List<Finding> check(OperatorIr.Grid op) {
    return races(op);
  }

  /** The stores that race, each a finding at its statement (the write-race error). */
  public static List<Finding> races(OperatorIr.Grid op) {
    Set<String> dims = new HashSet<>();
    op.dims().forEach(d -> dims.add(d.name()));
    Set<String> grid = new HashSet<>();
    for (GridDim g : op.grid()) {
      grid.add(g.var().name());
    }
    List<StoreSite> sites = new ArrayList<>();
    collect(op.body(), IndexTerms.gridRanges(op), sites);
    List<Finding> findings = new ArrayList<>();
    Map<Param.Array, List<StoreSite>> byArray = new LinkedHashMap<>();
    for (StoreSite s : sites) {
      String problem = single(s, grid, dims);
      if (problem != null) {
        findings.add(finding(s.store(), problem));
      } else {
        byArray.computeIfAbsent(s.store().array(), k -> new ArrayList<>()).add(s);
      }
    }
    for (List<StoreSite> group : byArray.values()) {
      for (int i = 0; i < group.size(); i++) {
        for (int j = 0; j < i; j++) {
          String problem = pair(group.get(j), group.get(i), grid, dims);
          if (problem != null) {
            findings.add(finding(group.get(i).store(), problem));
            break;
          }
        }
      }
    }
    return findings;
  }

  private static Finding finding(Stmt.Store store, String problem) {
    return new Finding(new Site.Statement(store.origin()), Message.WRITE_RACE, new Object[] {store.array().name(), problem});
  }

  private static void collect(List<Stmt> body, Map<String, Poly[]> ranges, List<StoreSite> out) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        out.add(new StoreSite(st, Map.copyOf(ranges)));
      } else if (s instanceof Stmt.Loop loop) {
        Map<String, Poly[]> inner = new HashMap<>(ranges);
        IndexTerms.addLoopRange(loop, inner);
        if (!inner.containsKey(loop.index().name())) {
          addEnclosingRange(loop, inner);
        }
        collect(loop.body(), inner, out);
      }
    }
  }

  /**
   * For a loop whose bounds use the variables around it ({@code for (int j = 0; j < i; j++)}, a
   * triangle): a range that holds every value it takes, its bounds' extremes over those variables'
   * ranges ({@code [0, N - 1)} for {@code i} in {@code [0, N)}). Larger than the loop's range for any
   * one worker, which is sound here: a store proved distinct over the larger range is distinct over
   * the smaller.
   */
  private static void addEnclosingRange(Stmt.Loop loop, Map<String, Poly[]> ranges) {
    Affine lo = AffineAnalysis.affine(loop.lo());
    Affine hi = AffineAnalysis.affine(loop.hi());
    Poly least = lo == null ? null : extreme(lo, ranges, false);
    Poly most = hi == null ? null : extreme(hi, ranges, true);
    if (least != null && most != null) {
      ranges.put(loop.index().name(), new Poly[] {least, most});
    }
  }

  /** The greatest (or least) value of {@code a} over the ranges of its variables, or null when a coefficient's sign is unknown. */
  private static Poly extreme(Affine a, Map<String, Poly[]> ranges, boolean greatest) {
    Poly out = a.constantPart();
    for (Map.Entry<String, Poly> t : a.coefficients().entrySet()) {
      Poly[] r = ranges.get(t.getKey());
      Poly c = t.getValue();
      if (r == null || !c.isConstant()) {
        return null;
      }
      boolean up = c.constantTerm() >= 0;
      Poly last = r[1].subtract(Poly.ONE);
      out = out.add(c.multiply(up == greatest ? last : r[0]));
    }
    return out;
  }

  /**
   * Null when the store at {@code ia} is the store at {@code ib} at one more value of one of
   * {@code ib}'s loop variables, just before or just after that loop's range (a scan that writes a
   * row's first element before its loop writes the rest: {@code y[b*N]}, then {@code y[b*N + k]} for
   * k from 1), and {@code ib} over the range so extended gives different workers different elements:
   * then the two stores never meet across workers. Else a reason (not reported; the caller's is).
   */
  private static String asOneLoop(Affine ia, Map<String, Poly[]> ra, Affine ib, Map<String, Poly[]> rb,
      Set<String> grid, Set<String> dims) {
    for (Map.Entry<String, Poly> t : ib.coefficients().entrySet()) {
      String v = t.getKey();
      Poly c = t.getValue();
      Poly[] range = rb.get(v);
      if (grid.contains(v) || ia.coefficients().containsKey(v) || range == null || !c.isConstant() || c.isZero()) {
        continue;
      }
      Affine rest = ib.subtract(Affine.variable(v).scale(c));
      if (!rest.coefficients().equals(ia.coefficients())) {
        continue;
      }
      Poly steps = ia.constantPart().subtract(rest.constantPart()).divideExactly(c); // ia is ib at v = steps
      if (steps == null) {
        continue;
      }
      Poly[] wider = steps.equals(range[0].subtract(Poly.ONE)) ? new Poly[] {steps, range[1]}
          : steps.equals(range[1]) ? new Poly[] {range[0], range[1].add(Poly.ONE)} : null;
      if (wider == null) {
        continue;
      }
      Map<String, Poly[]> ranges = new HashMap<>(ra);
      ranges.putAll(rb);
      ranges.put(v, wider);
      List<Term> terms = IndexTerms.of(ib, ranges, grid, dims);
      if (terms != null && Injectivity.provable(terms, dims)) {
        return null;
      }
    }
    return "not one loop";
  }

  /** Why one store may race with itself across workers, or null. */
  private static String single(StoreSite s, Set<String> grid, Set<String> dims) {
    Affine index = AffineAnalysis.affine(s.store().index());
    if (index == null) {
      return "its index is not an affine function of the @Parallel variables, so Kiln cannot prove"
          + " that it differs between workers";
    }
    for (String g : grid) {
      if (index.coefficient(g).isZero()) {
        return "its index " + index + " does not depend on the @Parallel variable '" + g + "'";
      }
    }
    List<Term> terms = IndexTerms.of(index, s.ranges(), grid, dims);
    if (terms == null) {
      return s.ranges().keySet().containsAll(index.coefficients().keySet())
          ? "its index " + index + " may give two workers the same element (a coefficient may be zero)"
          : "its index " + index + " uses a loop whose bounds are not sizes";
    }
    return Injectivity.provable(terms, dims) ? null
        : "its index " + index + " may give two workers the same element" + overlappingStrides(terms, dims);
  }

  /**
   * When one worker's variable steps by no more than another term spans at every size ({@code 2*i +
   * j} with j in [0, 3): i steps by 2, j spans 2), the strides overlap: name them, and what would
   * separate them.
   */
  private static String overlappingStrides(List<Term> terms, Set<String> dims) {
    for (Term g : terms) {
      if (!g.distinguishes()) {
        continue;
      }
      for (Term t : terms) {
        if (t != g && t.span().subtract(g.magnitude()).provablyNonNegative(dims)) {
          return ": the strides overlap, '" + g.name() + "' steps by " + g.magnitude() + " while '" + t.name()
              + "' spans " + t.span() + " within one step (a step of at least " + t.span().add(Poly.ONE)
              + " would keep workers apart)";
        }
      }
    }
    return "";
  }

  /**
   * {@code ib} with each of its loop variables that {@code ia} lacks renamed to one of {@code ia}'s
   * loop variables over the same range with the same coefficient: two loops of one worker that
   * walk the same range (a concat written by two loops) then compare as one. Sound because the
   * pair check lets the shared variable take any value of the range for either store.
   */
  private static Affine alignLoopVariables(Affine ia, Map<String, Poly[]> ra, Affine ib, Map<String, Poly[]> rb) {
    Affine out = Affine.constant(ib.constantPart());
    java.util.Set<String> taken = new HashSet<>(ib.coefficients().keySet());
    for (Map.Entry<String, Poly> t : ib.coefficients().entrySet()) {
      String name = t.getKey();
      if (!ia.coefficients().containsKey(name) && rb.containsKey(name)) {
        for (Map.Entry<String, Poly> candidate : ia.coefficients().entrySet()) {
          Poly[] r1 = ra.get(candidate.getKey());
          Poly[] r2 = rb.get(name);
          if (!taken.contains(candidate.getKey()) && r1 != null && r1[0].equals(r2[0]) && r1[1].equals(r2[1])
              && candidate.getValue().equals(t.getValue())) {
            name = candidate.getKey();
            taken.add(name);
            break;
          }
        }
      }
      out = out.add(Affine.variable(name).scale(t.getValue()));
    }
    return out;
  }

  /** Why two stores to one array may hit one element from different workers, or null. */
  private static String pair(StoreSite a, StoreSite b, Set<String> grid, Set<String> dims) {
    Affine ia = AffineAnalysis.affine(a.store().index());
    Affine ib = AffineAnalysis.affine(b.store().index());
    String overlap = "the stores at " + ia + " and at " + ib + " may overlap between workers";
    ib = alignLoopVariables(ia, a.ranges(), ib, b.ranges());
    if (!ia.coefficients().equals(ib.coefficients())) {
      String joined = asOneLoop(ia, a.ranges(), ib, b.ranges(), grid, dims);
      if (joined == null) {
        return null;
      }
      joined = asOneLoop(ib, b.ranges(), ia, a.ranges(), grid, dims);
      return joined == null ? null : overlap;
    }
    Poly offset = ib.constantPart().subtract(ia.constantPart());
    if (offset.isZero()) {
      return null; // the same element, written twice by the same worker
    }
    Poly magnitude = IndexTerms.magnitude(offset, dims);
    Map<String, Poly[]> ranges = new HashMap<>(a.ranges());
    ranges.putAll(b.ranges());
    List<Term> terms = magnitude == null ? null : IndexTerms.of(ia, ranges, grid, dims);
    if (terms == null) {
      return overlap;
    }
    terms.add(new Term("(which store)", magnitude, magnitude, false));
    return Injectivity.provable(terms, dims) ? null : overlap;
  }
}
