package dev.kiln.processor.autodiff;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.CompositeIr;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.PolyExpr;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.transform.Rewriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Training forms of a grid operator whose derived gradient computes again what each worker's
 * sequential loops computed (a row's maximum and sum of exponentials in softmax, its sum and sum of
 * squared deviations in layer norm): {@code <op>Saving} is the operator that also stores, per
 * worker, the float results of its top-level loops ({@code mSaved[b]}, {@code sSaved[b]}), and
 * {@code <op>GradSaved} is its gradient with those loops replaced by loads of what was saved.
 *
 * <p>The saved floats are the ones the gradient would compute: the forward kernel and the gradient's
 * replay run the same loop in the same order (both keep the source's order of additions), so the
 * saved form's results are {@code <op>Grad}'s, bit for bit. Only loops that store nothing, are not
 * guarded, and whose every carried result is floating-point are saved; the others are still run
 * again.
 */
public final class WorkerStatistics {
  /** The saving forward composite and the backward composite that reads what it saves. */
  public record Forms(CompositeIr forward, CompositeIr backward) {}

  private WorkerStatistics() {}

  /**
   * The forms for {@code op}, whose derived gradient composite is {@code gradient}, or null where
   * the gradient's adjoint kernel runs none of {@code op}'s top-level loops again.
   */
  public static Forms of(OperatorIr.Grid op, CompositeIr gradient, String forwardName, String backwardName) {
    if (op.grid().isEmpty() || op.finishes() || hasReduction(op.body())) {
      return null;
    }
    String adjointName = op.name() + "$adjoint";
    CompositeIr.Call adjointCall = null;
    for (CompositeIr.Call c : gradient.calls()) {
      if (c.callee().name().equals(adjointName)) {
        adjointCall = c;
      }
    }
    if (adjointCall == null) {
      return null;
    }
    Set<Integer> replayed = new HashSet<>();
    for (Stmt s : adjointCall.callee().body()) {
      if (s instanceof Stmt.Loop l) {
        replayed.add(l.id());
      }
    }
    Set<String> taken = new HashSet<>();
    op.params().forEach(p -> taken.add(p.name()));
    gradient.signature().params().forEach(p -> taken.add(p.name()));
    gradient.temps().forEach(t -> taken.add(t.name()));
    List<Poly> extents = new ArrayList<>();
    for (GridDim g : op.grid()) {
      extents.add(g.size());
    }
    Shape shape = new Shape(extents.toString(), extents);
    // per saved loop result, its array (in the forward's order of loops)
    Map<Expr.Var, String> savedAs = new LinkedHashMap<>();
    Set<Integer> savedLoops = new HashSet<>();
    for (Stmt s : op.body()) {
      if (s instanceof Stmt.Loop l && replayed.contains(l.id()) && savable(l)) {
        savedLoops.add(l.id());
      }
    }
    // a replayed loop's result is saved where what stays of the adjoint kernel reads it
    Set<Expr> used = new HashSet<>();
    for (Stmt s : adjointCall.callee().body()) {
      if (!(s instanceof Stmt.Loop l && savedLoops.contains(l.id()))) {
        StmtWalk.exprs(s).forEach(e -> reach(e, used));
      }
    }
    for (Stmt s : op.body()) {
      if (!(s instanceof Stmt.Loop l && savedLoops.contains(l.id()))) {
        continue;
      }
      for (Stmt.Carried c : l.carried()) {
        if (!used.contains(c.result())) {
          continue;
        }
        String name = c.result().sourceName() + "Saved";
        for (int n = 2; !taken.add(name); n++) {
          name = c.result().sourceName() + "Saved" + n;
        }
        savedAs.put(c.result(), name);
      }
    }
    if (savedAs.isEmpty()) {
      return null;
    }
    int first = op.params().size();
    Map<Expr.Var, Param.Array> outs = new LinkedHashMap<>();
    Map<Expr.Var, Param.Array> ins = new LinkedHashMap<>();
    int n = 0;
    for (Map.Entry<Expr.Var, String> e : savedAs.entrySet()) {
      outs.put(e.getKey(), new Param.Array(e.getValue(), first + n, e.getKey().type(), shape, ArrayRole.OUT));
      ins.put(e.getKey(), new Param.Array(e.getValue(), first + n, e.getKey().type(), shape, ArrayRole.IN));
      n++;
    }
    Map<String, Param.Scalar> sizes = new HashMap<>();
    op.scalars().forEach(s -> sizes.put(s.name(), s));
    return new Forms(forward(op, outs, shape, sizes, forwardName),
        backward(op, gradient, adjointCall, savedLoops, ins, shape, sizes, backwardName));
  }

  /** Whether {@code l}'s results can be saved and the loop left out of the gradient. */
  private static boolean savable(Stmt.Loop l) {
    if (!(l.guard() instanceof Expr.Const c) || !c.isTrue() || l.carried().isEmpty() || storesIn(l.body())) {
      return false;
    }
    return l.carried().stream().allMatch(c2 -> c2.result().type().isFloating());
  }

  /** Adds {@code e} and every node it is made of to {@code seen}. */
  private static void reach(Expr e, Set<Expr> seen) {
    if (seen.add(e)) {
      e.operands().forEach(o -> reach(o, seen));
    }
  }

  private static boolean storesIn(List<Stmt> body) {
    for (Stmt s : body) {
      if (!(s instanceof Stmt.Loop l) || storesIn(l.body())) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasReduction(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Accumulate || s instanceof Stmt.Combine || s instanceof Stmt.Loop l && hasReduction(l.body())) {
        return true;
      }
    }
    return false;
  }

  private static Expr workerIndex(ExprFactory f, OperatorIr.Grid op, Shape shape, Map<String, Param.Scalar> sizes) {
    List<Expr> coords = new ArrayList<>();
    op.grid().forEach(g -> coords.add(g.var()));
    return PolyExpr.rowMajor(f, coords, shape, sizes);
  }

  /** {@code op} that also stores each saved result after its loop, as a composite of one call. */
  private static CompositeIr forward(OperatorIr.Grid op, Map<Expr.Var, Param.Array> outs, Shape shape, Map<String, Param.Scalar> sizes,
      String name) {
    ExprFactory f = new ExprFactory();
    Expr index = workerIndex(f, op, shape, sizes);
    List<Stmt> body = new ArrayList<>();
    for (Stmt s : op.body()) {
      body.add(s);
      if (s instanceof Stmt.Loop l) {
        for (Stmt.Carried c : l.carried()) {
          Param.Array out = outs.get(c.result());
          if (out != null) {
            body.add(new Stmt.Store(out, index, c.result(), f.trueValue(), l.origin()));
          }
        }
      }
    }
    List<Param> params = new ArrayList<>(op.params());
    params.addAll(outs.values());
    OperatorIr.Grid saving = new OperatorIr.Grid(op.owner(), op.name() + "$saving", params, op.grid(), body, op.names(), List.of());
    CompositeBuilder b = new CompositeBuilder(name, op.owner(), params);
    b.call(saving, Map.of());
    return b.build();
  }

  /**
   * The gradient composite with the adjoint kernel's replays of the saved loops replaced by loads
   * of their results, the saved arrays taken after the forward parameters.
   */
  private static CompositeIr backward(OperatorIr.Grid op, CompositeIr gradient, CompositeIr.Call adjointCall, Set<Integer> savedLoops,
      Map<Expr.Var, Param.Array> ins, Shape shape, Map<String, Param.Scalar> sizes, String name) {
    OperatorIr.Grid adjoint = adjointCall.callee();
    ExprFactory f = new ExprFactory();
    Expr index = workerIndex(f, op, shape, sizes);
    Map<Expr, Expr> loads = new HashMap<>();
    ins.forEach((v, a) -> loads.put(v, f.load(a, index, f.trueValue(), 0)));
    Rewriter rewriter = new Rewriter(f, (original, rebuilt) -> loads.getOrDefault(original, rebuilt));
    List<Stmt> kept = adjoint.body().stream().filter(s -> !(s instanceof Stmt.Loop l && savedLoops.contains(l.id()))).toList();
    List<Stmt> body = rewriter.rewrite(kept, (s, e) -> e);
    List<Param> params = new ArrayList<>(adjoint.params());
    params.addAll(ins.values());
    OperatorIr.Grid replaced = new OperatorIr.Grid(adjoint.owner(), adjoint.name(), params, adjoint.grid(), body, Map.of(),
        adjoint.finish());
    List<CompositeIr.Arg> args = new ArrayList<>(adjointCall.args());
    ins.values().forEach(a -> args.add(new CompositeIr.Arg.Tensor(a.name())));
    List<CompositeIr.Call> calls = new ArrayList<>();
    for (CompositeIr.Call c : gradient.calls()) {
      calls.add(c == adjointCall
          ? new CompositeIr.Call(c.id(), replaced, c.dims(), args, c.origin(), c.line())
          : c);
    }
    List<Param> sig = new ArrayList<>();
    int forwardParams = op.params().size();
    List<Param> old = gradient.signature().params();
    for (int i = 0; i < old.size(); i++) {
      if (i == forwardParams) {
        sig.addAll(ins.values());
      }
      sig.add(old.get(i));
    }
    OperatorIr.Composite signature = new OperatorIr.Composite(gradient.signature().owner(), name, renumbered(sig));
    return new CompositeIr(signature, gradient.temps(), calls);
  }

  /** {@code params} with their positions made their places in the list. */
  private static List<Param> renumbered(List<Param> params) {
    List<Param> out = new ArrayList<>();
    for (int i = 0; i < params.size(); i++) {
      Param p = params.get(i);
      out.add(p instanceof Param.Array a
          ? new Param.Array(a.name(), i, a.elementType(), a.shape(), a.role(), a.record())
          : p instanceof Param.Scalar s ? new Param.Scalar(s.name(), i, s.type(), s.dim()) : p);
    }
    return out;
  }
}
