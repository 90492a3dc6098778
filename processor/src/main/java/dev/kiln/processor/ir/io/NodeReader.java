package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds the numbered nodes of one operator through the caller's {@link ExprFactory} and resolves
 * references to them and to the operator's parameters.
 */
final class NodeReader {
  private final ExprFactory f;
  private final Map<String, Param> params;
  private final List<Expr> nodes = new ArrayList<>();

  NodeReader(ExprFactory f, Map<String, Param> params) {
    this.f = f;
    this.params = params;
  }

  /** Reads {@code nK = <definition>}; {@code number} is the {@code nK} already taken. */
  void define(String number, Cursor c) throws IrFormatException {
    if (!number.matches("n\\d+")) {
      throw c.error("expected a keyword or a node definition, found '" + number + "'");
    }
    if (!number.equals("n" + nodes.size())) {
      throw c.error("node " + number + " is out of order: the next node is n" + nodes.size());
    }
    c.keyword("=");
    String kind = c.word("a node kind");
    ScalarType type = c.type();
    Expr e = build(kind, type, c);
    c.end();
    if (e.type() != type) {
      throw c.error("node " + number + " is declared " + type.irName() + " but is " + e.type().irName());
    }
    nodes.add(e);
  }

  private Expr build(String kind, ScalarType type, Cursor c) throws IrFormatException {
    switch (kind) {
      case "const":
        return constant(type, c);
      case "scalar": {
        Param.Scalar p = scalarParam(c);
        return f.scalar(p);
      }
      case "var": {
        Expr.VarKind vk = c.choice(Expr.VarKind.class, "variable kind (grid, loop_index, carried or loop_result)");
        String name = c.text("the variable's name");
        Expr.Var v = f.newVar(name, type, vk);
        if (!v.name().equals(name)) {
          throw c.error("variable '" + name + "' is defined twice in this operator");
        }
        return v;
      }
      case "load": {
        Param.Array a = arrayParam(c, ArrayRole.IN);
        Expr index = ref(c, ScalarType.INT, "an index");
        Expr guard = ref(c, ScalarType.BOOL, "a guard");
        return f.load(a, index, guard, scope(c, true));
      }
      case "select": {
        Expr cond = ref(c, ScalarType.BOOL, "a condition");
        Expr t = ref(c);
        return f.select(cond, t, ref(c, t.type(), "the other value"));
      }
      case "cast":
        return f.cast(type, ref(c));
      case "call":
        return call(type, c);
      default:
        return operator(kind, type, c);
    }
  }

  private Expr operator(String kind, ScalarType type, Cursor c) throws IrFormatException {
    for (UnaryOp op : UnaryOp.values()) {
      if (op.irName().equals(kind)) {
        return f.unary(op, ref(c, type, "the operand"));
      }
    }
    for (BinaryOp op : BinaryOp.values()) {
      if (op.irName().equals(kind)) {
        Expr a = ref(c);
        Expr b = op.isShift() ? ref(c) : ref(c, a.type(), "the right operand");
        return f.binary(op, a, b, scope(c, false));
      }
    }
    throw c.error("unknown node kind '" + kind + "'");
  }

  /** {@code call f32 exp n1}: the function, then its arguments. */
  private Expr call(ScalarType type, Cursor c) throws IrFormatException {
    String name = c.word("a math function");
    MathFn fn = MathFn.byJavaName(name);
    if (fn == null) {
      throw c.error("unknown math function '" + name + "'");
    }
    List<Expr> args = new ArrayList<>();
    for (int i = 0; i < fn.arity(); i++) {
      args.add(ref(c, fn.random() ? ScalarType.INT : type, "argument " + (i + 1) + " of " + name));
    }
    return f.call(fn, type, args);
  }

  /** A literal's value, written as {@link NodeText#constant} writes it. */
  private Expr constant(ScalarType type, Cursor c) throws IrFormatException {
    String w = c.word("a literal");
    if (type == ScalarType.BOOL) {
      if (!w.equals("true") && !w.equals("false")) {
        throw c.error("a bool literal is true or false, found '" + w + "'");
      }
      return f.bool(w.equals("true"));
    }
    if (type.isIntegral()) {
      long v;
      try {
        v = Long.parseLong(w);
      } catch (NumberFormatException e) {
        throw c.error("expected an integer literal, found '" + w + "'");
      }
      if (type == ScalarType.INT && v != (int) v) {
        throw c.error("literal " + w + " does not fit an i32");
      }
      return f.integral(type, v);
    }
    if (!w.matches("-?(0x[0-9a-f]+(\\.[0-9a-f]*)?p-?\\d+|NaN|Infinity)")) {
      throw c.error("expected a floating literal in Java's hexadecimal form (like 0x1.8p1, NaN, -Infinity), found '" + w + "'");
    }
    double v = Double.parseDouble(w);
    if (type == ScalarType.FLOAT && !Double.isNaN(v) && (double) (float) v != v) {
      throw c.error("literal " + w + " is not a float value");
    }
    return f.constant(type, v);
  }

  private static int scope(Cursor c, boolean required) throws IrFormatException {
    IrSyntax.Token t = c.peek();
    if (t == null && !required) {
      return -1;
    }
    String w = c.word("a loop scope (@k)");
    try {
      if (w.startsWith("@")) {
        return Integer.parseInt(w.substring(1));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw c.error("expected a loop scope (@k), found '" + w + "'");
  }

  /** A reference {@code nK} to a node defined before. */
  Expr ref(Cursor c) throws IrFormatException {
    String w = c.word("a node (n<number>)");
    if (!w.matches("n\\d{1,9}")) {
      throw c.error("expected a node (n<number>), found '" + w + "'");
    }
    int n = Integer.parseInt(w.substring(1));
    if (n >= nodes.size()) {
      throw c.error("node " + w + " is used before it is defined");
    }
    return nodes.get(n);
  }

  /** A reference to a node of type {@code type}. */
  Expr ref(Cursor c, ScalarType type, String what) throws IrFormatException {
    Expr e = ref(c);
    if (e.type() != type) {
      throw c.error(what + " must be " + type.irName() + ", but it is " + e.type().irName());
    }
    return e;
  }

  Expr.Var var(Cursor c, String what) throws IrFormatException {
    Expr e = ref(c);
    if (!(e instanceof Expr.Var v)) {
      throw c.error(what + " must be a variable node");
    }
    return v;
  }

  Param.Scalar scalarParam(Cursor c) throws IrFormatException {
    String name = c.text("a scalar parameter");
    if (!(params.get(name) instanceof Param.Scalar s)) {
      throw c.error("'" + name + "' is not a scalar parameter of this operator");
    }
    return s;
  }

  /** An array parameter of role {@code role}: loads read inputs, stores write outputs. */
  Param.Array arrayParam(Cursor c, ArrayRole role) throws IrFormatException {
    String name = c.text("an array parameter");
    if (!(params.get(name) instanceof Param.Array a)) {
      throw c.error("'" + name + "' is not an array parameter of this operator");
    }
    if (a.role() != role) {
      throw c.error("'" + name + "' is an array of role " + a.role().text() + ", here one of role "
          + role.text() + " is expected");
    }
    return a;
  }
}
