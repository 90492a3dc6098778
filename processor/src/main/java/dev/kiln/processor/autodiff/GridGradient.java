package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
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
 * The derived gradient of a grid operator {@code f}, as a composite {@code fGrad} for the merger to
 * fuse: an adjoint kernel over the forward grid ({@link ReverseSweep}) that stores the adjoint of
 * every read, then one gather per floating-point input ({@link Gather}). Its parameters are
 * {@code f}'s (outputs now read), one upstream gradient per floating-point output, then one
 * gradient per floating-point input array, which it overwrites.
 */
public final class GridGradient {
  private GridGradient() {}

  /** Whether {@code op} has anything to differentiate: a floating-point input array and output. */
  public static boolean applies(OperatorIr op) {
    return op instanceof OperatorIr.Grid grid && !wrt(grid).isEmpty() && !outputs(grid).isEmpty();
  }

  static List<Param.Array> wrt(OperatorIr op) {
    return op.arrays().stream().filter(a -> a.role() == ArrayRole.IN && a.elementType().isFloating()).toList();
  }

  static List<Param.Array> outputs(OperatorIr op) {
    return op.arrays().stream().filter(a -> a.role() != ArrayRole.IN && a.elementType().isFloating()).toList();
  }

  /**
   * Whether the adjoint kernel can write {@code x}'s gradient itself instead of a gather: every
   * worker reads {@code x} at the top level, unconditionally, at indices that no two reads share
   * (across workers and within one, proved as for stores), and the reads cover {@code x} (as many
   * as it has elements). Split, concatenation, transpose and elementwise reads qualify; then each
   * element's gradient is the adjoint of the one read of it.
   */
  private static boolean writesDirectly(OperatorIr.Grid op, Param.Array x, List<Occurrence> reads) {
    if (reads.isEmpty() || reads.stream().anyMatch(o -> !o.chain().isEmpty() || !o.unguarded())) {
      return false;
    }
    ExprFactory f = new ExprFactory();
    Param.Array asOut = new Param.Array(x.name(), x.position(), x.elementType(), x.shape(), ArrayRole.OUT);
    List<Stmt> stores = new ArrayList<>();
    for (Occurrence o : reads) {
      stores.add(new Stmt.Store(asOut, o.index(), f.constant(x.elementType(), 0), f.trueValue(), null));
    }
    List<Param> params = new ArrayList<>(op.params());
    params.set(params.indexOf(x), asOut);
    OperatorIr.Grid reads0 = new OperatorIr.Grid(op.owner(), op.name(), params, op.grid(), stores);
    if (!dev.kiln.processor.check.RaceCheck.races(reads0).isEmpty()) {
      return false;
    }
    Poly workers = Poly.ONE;
    for (dev.kiln.processor.ir.GridDim g : op.grid()) {
      workers = workers.multiply(g.size());
    }
    return workers.scale(reads.size()).equals(x.shape().length());
  }

  /** The adjoint body with the stores of {@code reads}' temporaries turned into stores of {@code dx} at the read index. */
  private static List<Stmt> redirect(List<Stmt> body, List<Occurrence> reads, Param.Array dx) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : body) {
      Occurrence o = null;
      if (s instanceof Stmt.Store st) {
        for (Occurrence r : reads) {
          if (r.temp().equals(st.array())) {
            o = r;
          }
        }
      }
      if (o != null) {
        Stmt.Store st = (Stmt.Store) s;
        out.add(new Stmt.Store(dx, o.index(), st.value(), st.guard(), st.origin()));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  /** The gradient composite of {@code op}; call only when {@link #applies}. */
  public static CompositeIr derive(OperatorIr.Grid op) throws NotDifferentiable {
    ExprFactory f = new ExprFactory();
    f.startOperator();
    Set<String> taken = new HashSet<>();
    op.params().forEach(p -> taken.add(p.name()));
    List<Param> sig = new ArrayList<>();
    Map<Param.Array, Param.Array> outputsIn = new HashMap<>();
    for (Param p : op.params()) {
      if (p instanceof Param.Array a && a.role() != ArrayRole.IN) {
        Param.Array in = new Param.Array(a.name(), a.position(), a.elementType(), a.shape(), ArrayRole.IN);
        outputsIn.put(a, in);
        sig.add(in);
      } else {
        sig.add(p);
      }
    }
    List<Param> forwardPart = List.copyOf(sig);
    Map<Param.Array, Param.Array> upstream = new LinkedHashMap<>();
    for (Param.Array out : outputs(op)) {
      Param.Array d = new Param.Array(GradientNames.gradient(out.name(), taken), sig.size(), out.elementType(),
          out.shape(), ArrayRole.IN);
      upstream.put(out, d);
      sig.add(d);
    }
    Map<Param.Array, Param.Array> grads = new LinkedHashMap<>();
    for (Param.Array x : wrt(op)) {
      Param.Array d = new Param.Array(GradientNames.gradient(x.name(), taken), sig.size(), x.elementType(),
          x.shape(), ArrayRole.OUT);
      grads.put(x, d);
      sig.add(d);
    }
    ReverseSweep sweep = new ReverseSweep(f, op, new LinkedHashSet<>(grads.keySet()), upstream, outputsIn);
    List<Stmt> adjointBody = sweep.run();
    List<Occurrence> occurrences = new ArrayList<>(sweep.occurrences());
    Set<Param.Array> direct = new LinkedHashSet<>();
    for (Param.Array x : grads.keySet()) {
      List<Occurrence> reads = occurrences.stream().filter(o -> o.array().equals(x)).toList();
      if (writesDirectly(op, x, reads)) {
        direct.add(x);
        adjointBody = redirect(adjointBody, reads, grads.get(x));
        occurrences.removeAll(reads);
      }
    }

    String name = GradientNames.launcher(op.name());
    CompositeBuilder b = new CompositeBuilder(name, op.owner(), sig);
    List<Param> adjointParams = new ArrayList<>(forwardPart);
    adjointParams.addAll(upstream.values());
    List<Param.Array> extrema = TieCounts.outputs(op);
    for (Param.Array y : extrema) {
      Param.Array counts = TieCounts.counts(y, ArrayRole.IN);
      adjointParams.add(counts);
      b.temp(counts.name(), counts.elementType(), y.shape().length(), null);
    }
    if (!extrema.isEmpty()) {
      b.call(TieCounts.counter(op, forwardPart, outputsIn), Map.of());
    }
    direct.forEach(x -> adjointParams.add(grads.get(x)));
    Set<Param.Array> flatTemps = new java.util.HashSet<>();
    sweep.flats().forEach(fl -> flatTemps.add(fl.occurrence().temp()));
    occurrences.stream().filter(o -> !flatTemps.contains(o.temp())).forEach(o -> adjointParams.add(o.temp()));
    OperatorIr.Grid adjoint = new OperatorIr.Grid(op.owner(), op.name() + "$adjoint", adjointParams, op.grid(), adjointBody);
    for (Occurrence o : occurrences) {
      b.temp(o.temp().name(), o.temp().elementType(), o.temp().shape().length(), o.origin());
    }
    if (occurrences.size() > flatTemps.size() || !direct.isEmpty()) {
      b.call(adjoint, Map.of());
    }
    List<Param> flatParams = new ArrayList<>(adjointParams.subList(0, forwardPart.size() + upstream.size()));
    extrema.forEach(y -> flatParams.add(TieCounts.counts(y, ArrayRole.IN)));
    int n = 0;
    for (ReverseSweep.Flat fl : sweep.flats()) {
      FlatAdjoint flat = FlatAdjoint.of(f, op, fl, flatParams, ++n);
      b.call(flat.op(), flat.sizes());
    }
    Map<String, Param.Scalar> sizes = new HashMap<>();
    op.scalars().forEach(s -> sizes.put(s.name(), s));
    Gather gather = new Gather(f, op, sizes);
    for (Map.Entry<Param.Array, Param.Array> g : grads.entrySet()) {
      if (!direct.contains(g.getKey())) {
        gatherCall(b, gather, op, g.getKey(), g.getValue(), occurrences);
      }
    }
    return b.build();
  }

  /** The call of the gather writing {@code dx}, the gradient of {@code x}, from the adjoints of its reads. */
  private static void gatherCall(CompositeBuilder b, Gather gather, OperatorIr.Grid op, Param.Array x, Param.Array dx,
      List<Occurrence> occurrences) throws NotDifferentiable {
    Map<Occurrence, Param.Array> reads = new LinkedHashMap<>();
    for (Occurrence o : occurrences) {
      if (o.array().equals(x)) {
        reads.put(o, new Param.Array(o.temp().name(), -1, o.temp().elementType(), o.temp().shape(), ArrayRole.IN));
      }
    }
    List<Param> extra = new ArrayList<>();
    OperatorIr.Grid built = gather.build(op.name() + "$" + dx.name(), x, dx, new ArrayList<>(reads.keySet()), reads, extra);
    List<Param> params = new ArrayList<>();
    op.scalars().stream().filter(s -> s.type().isIntegral()).forEach(params::add);
    params.addAll(extra);
    params.addAll(reads.values());
    params.add(dx);
    OperatorIr.Grid gatherOp = built.withParams(params); // a gather has no source names
    Map<String, Poly> extents = new HashMap<>();
    for (int d = 0; d < gatherOp.grid().size(); d++) {
      Param.Scalar e = gatherOp.grid().get(d).extent();
      if (extra.contains(e)) {
        extents.put(e.name(), x.shape().extents().get(d));
      }
    }
    b.call(gatherOp, extents);
  }
}
