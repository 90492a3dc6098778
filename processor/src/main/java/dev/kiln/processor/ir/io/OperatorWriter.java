package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes one operator's block of IR text; see {@link IrWriter} for the format. */
final class OperatorWriter {
  private final StringBuilder out;
  private final NodeOrder order = new NodeOrder();

  OperatorWriter(StringBuilder out) {
    this.out = out;
  }

  void write(OperatorIr op) {
    out.append("operator ").append(IrSyntax.word(op.owner())).append(' ')
        .append(IrSyntax.word(op.name())).append(' ').append(lower(op.kind())).append('\n');
    for (Param p : op.params()) {
      param(p);
    }
    OperatorIr.Elementwise map = op instanceof OperatorIr.Elementwise e ? e : null;
    List<GridDim> grid = op instanceof OperatorIr.Grid g ? g.grid() : List.of();
    List<Stmt> body = op instanceof OperatorIr.Grid g ? g.body() : List.of();
    if (map != null) {
      line("  result-type " + map.resultType().irName());
    }
    List<Map.Entry<Expr, String>> names = number(op);
    for (Expr e : order.nodes()) {
      line("  " + order.ref(e) + " = " + NodeText.definition(e, order));
    }
    for (GridDim d : grid) {
      line("  grid " + order.ref(d.var()) + " " + (d.derived()
          ? "size " + PolyText.writeList(List.of(d.size())) // a bound made of @Dims: j < 4*H
          : IrSyntax.word(d.extent().name())));
    }
    for (Map.Entry<Expr, String> n : names) {
      line("  name " + order.ref(n.getKey()) + " " + IrSyntax.word(n.getValue()));
    }
    if (map != null) {
      line("  result " + order.ref(map.result()));
    }
    statements(body, "  ");
    line("end");
  }

  /** Numbers every node the operator refers to; returns its names in a stable order. */
  private List<Map.Entry<Expr, String>> number(OperatorIr op) {
    if (op instanceof OperatorIr.Elementwise map) {
      order.add(map.result());
    } else if (op instanceof OperatorIr.Grid g) {
      g.grid().forEach(d -> order.add(d.var()));
      number(g.body());
    }
    // names iterate in a per-JVM order: sort them, so that a build writes the same bytes each time
    // and a read-back operator the same text (nodes nothing uses are numbered by name)
    List<Map.Entry<Expr, String>> names = new ArrayList<>(op.names().entrySet());
    names.sort(Map.Entry.<Expr, String>comparingByValue()
        .thenComparingInt((Map.Entry<Expr, String> n) -> n.getKey().id()));
    names.forEach(n -> order.add(n.getKey()));
    names.sort(Comparator.comparingInt((Map.Entry<Expr, String> n) -> order.number(n.getKey()))
        .thenComparing(Map.Entry::getValue));
    return names;
  }

  private void number(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        order.add(st.index());
        order.add(st.value());
      } else if (s instanceof Stmt.Accumulate a) {
        order.add(a.index());
        order.add(a.value());
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        order.add(l.index());
        order.add(l.lo());
        order.add(l.hi());
        for (Stmt.Carried c : l.carried()) {
          order.add(c.phi());
          order.add(c.init());
        }
        number(l.body());
        for (Stmt.Carried c : l.carried()) {
          order.add(c.next());
          order.add(c.result());
        }
      }
      order.add(s.guard());
    }
  }

  private void param(Param p) {
    StringBuilder b = new StringBuilder("  param ");
    if (p instanceof Param.Scalar s) {
      b.append("scalar ").append(IrSyntax.word(s.name())).append(' ').append(s.position()).append(' ')
          .append(s.type().irName()).append(s.dim() ? " dim" : "");
    } else {
      Param.Array a = (Param.Array) p;
      b.append("array ").append(IrSyntax.word(a.name())).append(' ').append(a.position()).append(' ')
          .append(a.role().text()).append(' ').append(a.elementType().irName()).append(' ')
          .append(PolyText.writeList(a.shape().extents())).append(' ')
          .append(IrSyntax.quote(a.shape().text()));
    }
    line(b.toString());
  }

  private void statements(List<Stmt> body, String indent) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store st) {
        line(indent + "store " + IrSyntax.word(st.array().name()) + " " + order.ref(st.index()) + " "
            + order.ref(st.value()) + " if " + order.ref(st.guard()));
      } else if (s instanceof Stmt.Accumulate a) {
        line(indent + "accumulate " + lower(a.op()) + " " + IrSyntax.word(a.array().name()) + " "
            + order.ref(a.index()) + " " + order.ref(a.value()) + " if " + order.ref(a.guard()));
      } else {
        Stmt.Loop l = (Stmt.Loop) s;
        line(indent + "loop " + l.id() + " " + order.ref(l.index()) + " " + order.ref(l.lo()) + " "
            + order.ref(l.hi()) + " step " + l.step() + " if " + order.ref(l.guard()) + " {");
        for (Stmt.Carried c : l.carried()) {
          line(indent + "  carry " + order.ref(c.phi()) + " init " + order.ref(c.init()) + " next "
              + order.ref(c.next()) + " result " + order.ref(c.result()) + (c.anyOrder() ? " unordered" : ""));
        }
        statements(l.body(), indent + "  ");
        line(indent + "}");
      }
    }
  }

  private void line(String s) {
    out.append(s).append('\n');
  }

  static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
