package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ScalarType;

/**
 * The right-hand side of a node line: the node's kind, its type, then its payload and operands, for
 * example {@code mul f32 n3 n2}, {@code load f32 x n0 n1 @0}, {@code const f32 0x1.8p1}, {@code
 * call f32 exp n1}, {@code var i32 grid i}.
 */
final class NodeText {
  private NodeText() {}

  static String definition(Expr e, NodeOrder order) {
    String type = e.type().irName();
    if (e instanceof Expr.Const c) {
      return "const " + type + " " + constant(c);
    }
    if (e instanceof Expr.ScalarRef s) {
      return "scalar " + type + " " + IrSyntax.word(s.param().name());
    }
    if (e instanceof Expr.Var v) {
      return "var " + type + " " + OperatorWriter.lower(v.kind()) + " " + IrSyntax.word(v.name());
    }
    if (e instanceof Expr.Load l) {
      return "load " + type + " " + IrSyntax.word(l.array().name()) + " " + order.ref(l.index()) + " "
          + order.ref(l.guard()) + " @" + l.scope();
    }
    if (e instanceof Expr.Unary u) {
      return u.op().irName() + " " + type + " " + order.ref(u.operand());
    }
    if (e instanceof Expr.Binary b) {
      return b.op().irName() + " " + type + " " + order.ref(b.left()) + " " + order.ref(b.right())
          + (b.scope() < 0 ? "" : " @" + b.scope());
    }
    if (e instanceof Expr.Select s) {
      return "select " + type + " " + order.ref(s.cond()) + " " + order.ref(s.ifTrue()) + " "
          + order.ref(s.ifFalse());
    }
    if (e instanceof Expr.Cast c) {
      return "cast " + type + " " + order.ref(c.operand());
    }
    Expr.Call c = (Expr.Call) e;
    StringBuilder b = new StringBuilder("call ").append(type).append(' ').append(c.fn().javaName());
    for (Expr a : c.args()) {
      b.append(' ').append(order.ref(a));
    }
    return b.toString();
  }

  /**
   * A literal, exactly: {@code true}, {@code 42}, and floating values in Java's hexadecimal form
   * ({@code 0x1.8p1}, {@code -0x0.0p0}, {@code NaN}, {@code Infinity}), which parse back to the
   * same bits.
   */
  static String constant(Expr.Const c) {
    if (c.type() == ScalarType.BOOL) {
      return Boolean.toString(c.booleanValue());
    }
    if (c.type().isFloating()) {
      return Double.toHexString(c.floatingValue());
    }
    return Long.toString(c.integralValue());
  }
}
