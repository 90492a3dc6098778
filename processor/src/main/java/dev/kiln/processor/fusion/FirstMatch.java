package dev.kiln.processor.fusion;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.StmtWalk;
import dev.kiln.processor.ir.transform.Rewriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pass that computes a loop's "seen so far" flag from a search for the first iteration that sets
 * it, in a loop of its own before: part of a fused kernel's device form ({@link Recompute}).
 *
 * <p>A derived gradient through a row maximum sends the maximum's adjoint to the first element equal
 * to it, in a loop that carries {@code seen = seen || x[k] == m} and stores {@code (x[k] == m &&
 * !seen) ? adj : 0} into a temporary, which a later loop adds into {@code dx}. Because of the carried
 * flag the stored value cannot be computed again where it is read, so on a GPU the temporary is a
 * composite-sized array written to memory and read back. Here a loop whose carried boolean is
 * updated as {@code phi || t}, with {@code t} computable anywhere after the loops before it (the
 * conditions of {@link Recompute}), gets a loop before it that finds {@code first}, the least
 * iteration whose {@code t} holds ({@code min(first, t ? k : hi)}, from {@code hi}), and the flag
 * becomes {@code init || first < k} inside the loop and {@code init || first < hi} after it: the
 * same values, iteration by iteration. The stored value then qualifies for {@link Recompute}.
 *
 * <p>Only the device form is rewritten, and only where it lets a temporary go ({@code Recompute}
 * compares): the CPU keeps its sequential loop, and a device kernel with nothing to gain keeps its
 * own form of the flag (a search that stops at each thread's first match).
 */
final class FirstMatch {
  private FirstMatch() {}

  /** {@code op} with every qualifying flag computed from a first-match search; {@code op} itself when none. */
  static OperatorIr.Grid split(OperatorIr.Grid op) {
    OperatorIr.Grid current = op;
    while (true) {
      OperatorIr.Grid next = splitOne(current);
      if (next == null) {
        return current;
      }
      current = next;
    }
  }

  /** The first qualifying flag of {@code op} split, or null when none qualifies. */
  private static OperatorIr.Grid splitOne(OperatorIr.Grid op) {
    List<Stmt> top = op.body();
    Set<String> written = StmtWalk.writtenArrays(top);
    Set<Expr.Var> before = new HashSet<>();
    for (int i = 0; i < top.size(); i++) {
      if (!(top.get(i) instanceof Stmt.Loop l)) {
        continue;
      }
      if (l.step() > 0 && Recompute.isTrue(l.guard())) {
        for (Stmt.Carried c : l.carried()) {
          Expr term = term(c);
          if (term != null && Recompute.recomputable(term, l.index(), before, written)) {
            return split(op, i, c, term);
          }
        }
      }
      l.carried().forEach(c -> before.add(c.result()));
    }
    return null;
  }

  /** {@code t} when {@code c} is a boolean updated as {@code phi || t} or {@code t || phi}; else null. */
  private static Expr term(Stmt.Carried c) {
    if (c.phi().type() != ScalarType.BOOL
        || !(c.next() instanceof Expr.Binary b) || b.op() != BinaryOp.LOR) {
      return null;
    }
    if (b.left() == c.phi() && b.right() != c.phi()) {
      return b.right();
    }
    if (b.right() == c.phi() && b.left() != c.phi()) {
      return b.left();
    }
    return null;
  }

  private static OperatorIr.Grid split(OperatorIr.Grid op, int at, Stmt.Carried flag, Expr term) {
    Stmt.Loop loop = (Stmt.Loop) op.body().get(at);
    ExprFactory f = new ExprFactory();
    Set<String> names = varNames(op.body());
    Expr.Var k = var(f, names, loop.index().name() + "_first", loop.index().type(), Expr.VarKind.LOOP_INDEX);
    Expr.Var phi = var(f, names, "first", loop.index().type(), Expr.VarKind.CARRIED);
    Expr.Var first = var(f, names, "first", loop.index().type(), Expr.VarKind.LOOP_RESULT);
    int id = StmtWalk.maxLoopId(op.body()) + 1;
    Rewriter[] self = new Rewriter[1];
    self[0] = new Rewriter(f, (orig, rebuilt) -> {
      if (orig == flag.phi()) {
        return f.binary(BinaryOp.LOR, self[0].rewrite(flag.init()),
            f.binary(BinaryOp.LT, first, loop.index(), loop.id()), loop.id());
      }
      if (orig == flag.result()) {
        return f.binary(BinaryOp.LOR, self[0].rewrite(flag.init()),
            f.binary(BinaryOp.LT, first, self[0].rewrite(loop.hi()), 0), 0);
      }
      return rebuilt;
    });
    OperatorIr.Grid rewritten = self[0].rewrite(op, (s, index) -> index);
    Expr hi = self[0].rewrite(loop.hi());
    Expr found = f.substitute(self[0].rewrite(term), Map.of(loop.index(), k), id);
    Stmt.Carried search = new Stmt.Carried(phi, hi,
        f.call(MathFn.MIN, phi.type(), List.of(phi, f.select(found, k, hi))), first);
    Stmt.Loop searchLoop = new Stmt.Loop(id, k, self[0].rewrite(loop.lo()), hi, loop.step(), f.trueValue(),
        List.of(search), List.of(), loop.origin());
    List<Stmt> body = new ArrayList<>(rewritten.body());
    Stmt.Loop l = (Stmt.Loop) body.get(at);
    List<Stmt.Carried> carried = new ArrayList<>(l.carried());
    carried.removeIf(c -> c.phi() == flag.phi());
    body.set(at, new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), carried, l.body(), l.origin()));
    body.add(at, searchLoop);
    return rewritten.withBody(body);
  }

  /** A new variable named {@code name}, suffixed until no variable of the operator has its name. */
  private static Expr.Var var(ExprFactory f, Set<String> names, String name, ScalarType type,
      Expr.VarKind kind) {
    String unique = name;
    for (int n = 2; names.contains(unique); n++) {
      unique = name + "_" + n;
    }
    names.add(unique);
    return f.newVar(unique, name, type, kind);
  }

  private static Set<String> varNames(List<Stmt> body) {
    Set<String> out = new HashSet<>();
    List<Expr> roots = new ArrayList<>();
    for (Stmt s : body) {
      roots.addAll(StmtWalk.exprs(s));
      collectVars(s, out);
    }
    for (Expr e : StmtWalk.nodes(roots)) {
      if (e instanceof Expr.Var v) {
        out.add(v.name());
      }
    }
    return out;
  }

  private static void collectVars(Stmt s, Set<String> out) {
    if (s instanceof Stmt.Loop l) {
      out.add(l.index().name());
      for (Stmt.Carried c : l.carried()) {
        out.add(c.phi().name());
        out.add(c.result().name());
      }
      l.body().forEach(inner -> collectVars(inner, out));
    }
  }
}
