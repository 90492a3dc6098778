package dev.kiln.processor.ir.io;

import static com.google.common.truth.Truth.assertWithMessage;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Stmt;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Asserts that two operators are the same IR, field by field: every node of the same kind, type and
 * payload (floating literals bit for bit, scopes, variable names and kinds), the same sharing (a
 * node shared in one is shared in the other), the same statements, loops, grid and names. Only
 * statement origins are not compared.
 */
final class IrAssert {
  private final Map<Expr, Expr> pairs = new HashMap<>();
  private final Map<Expr, Expr> reverse = new HashMap<>();
  private final String where;

  private IrAssert(String where) {
    this.where = where;
  }

  static void assertSameIr(OperatorIr expected, OperatorIr actual) {
    new IrAssert(expected.owner() + "." + expected.name()).operator(expected, actual);
  }

  private void operator(OperatorIr a, OperatorIr b) {
    check("owner", a.owner(), b.owner());
    check("name", a.name(), b.name());
    check("kind", a.kind(), b.kind());
    check("params", a.params(), b.params());
    if (a instanceof OperatorIr.Elementwise x && b instanceof OperatorIr.Elementwise y) {
      check("result type", x.resultType(), y.resultType());
      expr(x.result(), y.result());
    }
    if (a instanceof OperatorIr.Grid x && b instanceof OperatorIr.Grid y) {
      check("grid size", x.grid().size(), y.grid().size());
      for (int i = 0; i < x.grid().size(); i++) {
        GridDim gx = x.grid().get(i);
        GridDim gy = y.grid().get(i);
        expr(gx.var(), gy.var());
        check("grid extent", gx.extent(), gy.extent());
      }
      body(x.body(), y.body());
    }
    check("names", a.names().size(), b.names().size());
    for (Map.Entry<Expr, String> n : a.names().entrySet()) {
      Expr mapped = pairs.get(n.getKey());
      if (mapped == null) { // a name on a node nothing uses: find its twin by name and structure
        mapped = b.names().entrySet().stream()
            .filter(m -> m.getValue().equals(n.getValue()) && !reverse.containsKey(m.getKey()))
            .map(Map.Entry::getKey).findFirst().orElse(null);
        assertWithMessage("%s: named node %s", where, n.getValue()).that(mapped).isNotNull();
        expr(n.getKey(), mapped);
      }
      check("name of a node", n.getValue(), b.names().get(mapped));
    }
  }

  private void body(List<Stmt> xs, List<Stmt> ys) {
    check("statement count", xs.size(), ys.size());
    for (int i = 0; i < xs.size(); i++) {
      Stmt x = xs.get(i);
      Stmt y = ys.get(i);
      check("statement kind", x.getClass(), y.getClass());
      expr(x.guard(), y.guard());
      if (x instanceof Stmt.Store s) {
        Stmt.Store t = (Stmt.Store) y;
        check("store array", s.array(), t.array());
        expr(s.index(), t.index());
        expr(s.value(), t.value());
      } else if (x instanceof Stmt.Accumulate s) {
        Stmt.Accumulate t = (Stmt.Accumulate) y;
        check("accumulate array", s.array(), t.array());
        check("accumulate op", s.op(), t.op());
        expr(s.index(), t.index());
        expr(s.value(), t.value());
      } else if (x instanceof Stmt.Combine s) {
        Stmt.Combine t = (Stmt.Combine) y;
        monoid(s.monoid(), t.monoid());
        check("combine record", s.param(), t.param());
        check("combine arrays", s.arrays(), t.arrays());
        expr(s.index(), t.index());
        exprs(s.values(), t.values());
      } else {
        Stmt.Loop s = (Stmt.Loop) x;
        Stmt.Loop t = (Stmt.Loop) y;
        check("loop id", s.id(), t.id());
        check("loop step", s.step(), t.step());
        expr(s.index(), t.index());
        expr(s.lo(), t.lo());
        expr(s.hi(), t.hi());
        check("carried count", s.carried().size(), t.carried().size());
        for (int c = 0; c < s.carried().size(); c++) {
          expr(s.carried().get(c).phi(), t.carried().get(c).phi());
          expr(s.carried().get(c).init(), t.carried().get(c).init());
          expr(s.carried().get(c).next(), t.carried().get(c).next());
          expr(s.carried().get(c).result(), t.carried().get(c).result());
        }
        body(s.body(), t.body());
      }
    }
  }

  /** The record, method, components, operands, method's nodes, identity and gradient, alike. */
  private void monoid(dev.kiln.processor.ir.Monoid a, dev.kiln.processor.ir.Monoid b) {
    check("monoid record", a.record(), b.record());
    check("monoid method", a.method(), b.method());
    check("monoid components", a.components(), b.components());
    exprs(a.left(), b.left());
    exprs(a.right(), b.right());
    exprs(a.combined(), b.combined());
    exprs(a.identity(), b.identity());
    check("monoid gradient", a.gradient() == null, b.gradient() == null);
    if (a.gradient() != null) {
      check("gradient method", a.gradient().method(), b.gradient().method());
      exprs(a.gradient().total(), b.gradient().total());
      exprs(a.gradient().totalGradient(), b.gradient().totalGradient());
      exprs(a.gradient().element(), b.gradient().element());
      exprs(a.gradient().result(), b.gradient().result());
    }
  }

  private void exprs(List<? extends Expr> xs, List<? extends Expr> ys) {
    check("node count", xs.size(), ys.size());
    for (int i = 0; i < xs.size(); i++) {
      expr(xs.get(i), ys.get(i));
    }
  }

  private void expr(Expr x, Expr y) {
    Expr seen = pairs.get(x);
    if (seen != null) {
      assertWithMessage("%s: a shared node is shared alike", where).that(y).isSameInstanceAs(seen);
      return;
    }
    assertWithMessage("%s: two nodes read back as one", where).that(reverse.containsKey(y)).isFalse();
    check("node kind", x.getClass(), y.getClass());
    check("node type", x.type(), y.type());
    check("operand count", x.operands().size(), y.operands().size());
    payload(x, y);
    for (int i = 0; i < x.operands().size(); i++) {
      expr(x.operands().get(i), y.operands().get(i));
    }
    pairs.put(x, y);
    reverse.put(y, x);
  }

  private void payload(Expr x, Expr y) {
    if (x instanceof Expr.Const c) {
      Expr.Const d = (Expr.Const) y;
      check("literal bits", Double.doubleToRawLongBits(c.floatingValue()), Double.doubleToRawLongBits(d.floatingValue()));
      check("literal", c.integralValue(), d.integralValue());
    } else if (x instanceof Expr.ScalarRef s) {
      check("parameter", s.param(), ((Expr.ScalarRef) y).param());
    } else if (x instanceof Expr.Var v) {
      check("variable name", v.name(), ((Expr.Var) y).name());
      check("variable kind", v.kind(), ((Expr.Var) y).kind());
    } else if (x instanceof Expr.Load l) {
      check("load array", l.array(), ((Expr.Load) y).array());
      check("load scope", l.scope(), ((Expr.Load) y).scope());
    } else if (x instanceof Expr.Unary u) {
      check("unary op", u.op(), ((Expr.Unary) y).op());
    } else if (x instanceof Expr.Binary b) {
      check("binary op", b.op(), ((Expr.Binary) y).op());
      check("binary scope", b.scope(), ((Expr.Binary) y).scope());
    } else if (x instanceof Expr.Call c) {
      check("function", c.fn(), ((Expr.Call) y).fn());
    }
  }

  private void check(String what, Object expected, Object actual) {
    assertWithMessage("%s: %s", where, what).that(actual).isEqualTo(expected);
  }
}
