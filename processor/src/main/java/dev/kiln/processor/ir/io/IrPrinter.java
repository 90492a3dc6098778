package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Prints an operator's IR as text, one SSA value per line: the form tests assert on and the
 * resource {@code META-INF/kiln/<package>/<Class>.ir.txt} holds. Leaves (literals, parameters,
 * variables) print inline; every other node prints once, before its first use, named after the
 * source local it was bound to where there is one, else numbered in order. Array indices print per dimension of the
 * array's shape when they are affine: {@code gates[b, H + h]}. A carried sum that a CPU kernel may
 * add in its own fixed order ({@link Stmt.Carried#anyOrder}) says {@code (any order)} after its
 * next value.
 */
public final class IrPrinter {
  private final StringBuilder out = new StringBuilder();
  private final Map<Expr, String> printed = new HashMap<>();
  private final Set<String> usedNames = new HashSet<>();
  private final Map<Expr, String> names;
  private int counter;

  private IrPrinter(Map<Expr, String> names) {
    this.names = names;
  }

  public static String print(OperatorIr op) {
    IrPrinter p = new IrPrinter(op.names());
    p.operator(op);
    return p.out.toString();
  }

  private void operator(OperatorIr op) {
    out.append("operator ").append(op.name()).append(' ')
        .append(op.kind().name().toLowerCase(Locale.ROOT));
    if (op instanceof OperatorIr.Elementwise map) {
      out.append(" -> ").append(map.resultType().irName());
    }
    out.append('\n');
    for (Param p : op.params()) {
      out.append("  param ").append(p.name()).append(": ");
      if (p instanceof Param.Scalar s) {
        out.append(s.type().irName()).append(s.dim() ? " dim" : "");
      } else {
        Param.Array a = (Param.Array) p;
        out.append(a.role().text()).append(' ').append(a.elementType().irName()).append(a.shape());
      }
      out.append('\n');
      usedNames.add(p.name());
    }
    String indent = "  ";
    List<GridDim> grid = op instanceof OperatorIr.Grid g ? g.grid() : List.of();
    for (GridDim d : grid) {
      out.append(indent).append("parallel ").append(d.var().name()).append(" < ")
          .append(d.bound()).append('\n');
      usedNames.add(d.var().name());
    }
    if (op instanceof OperatorIr.Elementwise map) {
      String r = value(map.result(), indent);
      out.append(indent).append("return ").append(r).append('\n');
    } else if (op instanceof OperatorIr.Grid g) {
      monoids(g.body(), new java.util.ArrayList<>(), indent);
      statements(g.body(), indent);
      if (g.finishes()) {
        out.append(indent).append("after every worker {\n");
        statements(g.finish(), indent + "  ");
        out.append(indent).append("}\n");
      }
    }
  }

  /**
   * Each user monoid the body combines with, once, before the statements: its operands, its
   * method's nodes and results, and its identity.
   */
  private void monoids(List<Stmt> body, List<dev.kiln.processor.ir.Monoid> done, String indent) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Loop l) {
        monoids(l.body(), done, indent);
      }
      if (!(s instanceof Stmt.Combine c) || done.contains(c.monoid())) {
        continue;
      }
      dev.kiln.processor.ir.Monoid m = c.monoid();
      done.add(m);
      out.append(indent).append("monoid ").append(m).append(" (")
          .append(String.join(", ", m.left().stream().map(Expr.Var::name).toList())).append(") (")
          .append(String.join(", ", m.right().stream().map(Expr.Var::name).toList())).append(") {\n");
      String inner = indent + "  ";
      List<String> results = new java.util.ArrayList<>();
      m.combined().forEach(e -> results.add(value(e, inner)));
      List<String> identity = new java.util.ArrayList<>();
      m.identity().forEach(e -> identity.add(value(e, inner)));
      out.append(inner).append("-> (").append(String.join(", ", results)).append(")\n");
      out.append(inner).append("identity (").append(String.join(", ", identity)).append(")\n");
      if (m.gradient() != null) {
        dev.kiln.processor.ir.Monoid.Gradient g = m.gradient();
        List<String> grads = new java.util.ArrayList<>();
        g.result().forEach(e -> grads.add(value(e, inner)));
        out.append(inner).append("gradient ").append(g.method()).append(" (")
            .append(String.join(", ", g.total().stream().map(Expr.Var::name).toList())).append(") (")
            .append(String.join(", ", g.totalGradient().stream().map(Expr.Var::name).toList())).append(") (")
            .append(String.join(", ", g.element().stream().map(Expr.Var::name).toList())).append(") -> (")
            .append(String.join(", ", grads)).append(")\n");
      }
      out.append(indent).append("}\n");
    }
  }

  private void statements(List<Stmt> body, String indent) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        String idx = index(st.array(), st.index(), indent);
        String v = value(st.value(), indent);
        String g = guard(st.guard(), indent);
        out.append(indent).append("store ").append(st.array().name()).append(idx).append(" = ")
            .append(v).append(g).append('\n');
      } else if (s instanceof Stmt.Accumulate acc) {
        String idx = index(acc.array(), acc.index(), indent);
        String v = value(acc.value(), indent);
        String g = guard(acc.guard(), indent);
        out.append(indent).append("accumulate ").append(acc.op().symbol()).append(' ')
            .append(acc.array().name()).append(idx).append(" <- ").append(v).append(g).append('\n');
      } else if (s instanceof Stmt.Combine c) {
        String idx = index(c.arrays().get(0), c.index(), indent);
        StringBuilder values = new StringBuilder();
        for (Expr v : c.values()) {
          values.append(values.length() == 0 ? "" : ", ").append(value(v, indent));
        }
        String g = guard(c.guard(), indent);
        out.append(indent).append("combine ").append(c.monoid()).append(" (")
            .append(c.arrays().stream().map(Param.Array::name).collect(java.util.stream.Collectors.joining(", ")))
            .append(')').append(idx).append(" <- (").append(values).append(')').append(g).append('\n');
      } else {
        loop((Stmt.Loop) s, indent);
      }
    }
  }

  private void loop(Stmt.Loop loop, String indent) {
    String lo = value(loop.lo(), indent);
    String hi = value(loop.hi(), indent);
    String g = guard(loop.guard(), indent);
    StringBuilder inits = new StringBuilder();
    for (Stmt.Carried c : loop.carried()) {
      inits.append(inits.length() == 0 ? "" : ", ").append(c.phi().name()).append(" = ")
          .append(value(c.init(), indent));
    }
    usedNames.add(loop.index().name());
    out.append(indent).append("loop ").append(loop.index().name()).append(" in [").append(lo)
        .append(", ").append(hi).append(')');
    if (loop.step() != 1) {
      out.append(" step ").append(loop.step());
    }
    if (inits.length() > 0) {
      out.append(" carry (").append(inits).append(')');
    }
    out.append(g).append(" {\n");
    String inner = indent + "  ";
    statements(loop.body(), inner);
    StringBuilder nexts = new StringBuilder();
    for (Stmt.Carried c : loop.carried()) {
      nexts.append(nexts.length() == 0 ? "" : ", ").append(c.phi().name()).append(" = ")
          .append(value(c.next(), inner)).append(c.anyOrder() ? " (any order)" : "");
    }
    if (nexts.length() > 0) {
      out.append(inner).append("next ").append(nexts).append('\n');
    }
    out.append(indent).append('}');
    if (!loop.carried().isEmpty()) {
      out.append(" -> ");
      for (int i = 0; i < loop.carried().size(); i++) {
        out.append(i == 0 ? "" : ", ").append(loop.carried().get(i).result().name());
      }
    }
    out.append('\n');
  }

  private String guard(Expr guard, String indent) {
    return guard instanceof Expr.Const c && c.isTrue() ? "" : " if " + value(guard, indent);
  }

  private String index(Param.Array array, Expr index, String indent) {
    Affine flat = AffineAnalysis.affine(index);
    if (flat == null) {
      return "[" + value(index, indent) + "]";
    }
    List<Affine> parts = AffineAnalysis.delinearize(flat, array.shape());
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < parts.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(parts.get(i));
    }
    return sb.append(']').toString();
  }

  /** The text of a value, printing its definition (and its operands') first if needed. */
  private String value(Expr e, String indent) {
    String done = printed.get(e);
    if (done != null) {
      return done;
    }
    String leaf = leaf(e);
    if (leaf != null) {
      return leaf;
    }
    StringBuilder def = new StringBuilder();
    if (e instanceof Expr.Load l) {
      String idx = index(l.array(), l.index(), indent);
      def.append("load ").append(l.array().name()).append(idx).append(guard(l.guard(), indent));
    } else if (e instanceof Expr.Unary u) {
      def.append(u.op().irName()).append(' ').append(e.type().irName()).append(' ')
          .append(value(u.operand(), indent));
    } else if (e instanceof Expr.Binary b) {
      String l = value(b.left(), indent);
      String r = value(b.right(), indent);
      def.append(b.op().irName()).append(' ')
          .append((b.op().isComparison() ? b.left().type() : e.type()).irName()).append(' ')
          .append(l).append(", ").append(r);
    } else if (e instanceof Expr.Select s) {
      String c = value(s.cond(), indent);
      String t = value(s.ifTrue(), indent);
      String f = value(s.ifFalse(), indent);
      def.append("select ").append(e.type().irName()).append(' ').append(c).append(", ")
          .append(t).append(", ").append(f);
    } else if (e instanceof Expr.Cast c) {
      def.append("cast ").append(e.type().irName()).append(' ').append(value(c.operand(), indent));
    } else if (e instanceof Expr.Call c) {
      StringBuilder args = new StringBuilder();
      for (Expr a : c.args()) {
        args.append(args.length() == 0 ? "" : ", ").append(value(a, indent));
      }
      def.append("call ").append(c.fn().javaName()).append(' ').append(e.type().irName())
          .append(" (").append(args).append(')');
    }
    String name = "%" + freshName(e);
    printed.put(e, name);
    out.append(indent).append(name).append(" = ").append(def).append('\n');
    return name;
  }

  private String freshName(Expr e) {
    String base = names.get(e);
    if (base == null) {
      base = Integer.toString(counter++);
    }
    String name = base;
    for (int n = 2; !usedNames.add(name); n++) {
      name = base + "_" + n;
    }
    return name;
  }

  private static String leaf(Expr e) {
    if (e instanceof Expr.Const c) {
      return literal(c);
    }
    if (e instanceof Expr.ScalarRef s) {
      return s.param().name();
    }
    if (e instanceof Expr.Var v) {
      return v.name();
    }
    return null;
  }

  private static String floating(double v) {
    if (Double.isNaN(v)) {
      return "nan";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    return c2s(v);
  }

  private static String c2s(double v) {
    float f = (float) v;
    return f == v ? Float.toString(f) : Double.toString(v);
  }

  /** A literal as the IR prints it: {@code 1.0f}, {@code 0.5}, {@code 3}, {@code 3L}, {@code true}. */
  public static String literal(Expr.Const c) {
    switch (c.type()) {
      case BOOL:
        return Boolean.toString(c.booleanValue());
      case BYTE:
      case SHORT:
      case INT:
        return Long.toString(c.integralValue());
      case LONG:
        return c.integralValue() + "L";
      case FLOAT:
        return floating(c.floatingValue()) + "f";
      default:
        return floating(c.floatingValue());
    }
  }
}
