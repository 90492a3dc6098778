package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.Monoid;
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
  /** The user monoids the body combines with, numbered in the order of their first combine. */
  private final List<Monoid> monoids = new ArrayList<>();

  OperatorWriter(StringBuilder out) {
    this.out = out;
  }

  void write(OperatorIr op) {
    if (op instanceof OperatorIr.Grid g && g.finishes()) {
      // only the merger's kernels run statements after every worker, and they are not exported
      throw new IllegalArgumentException(op.name() + " is a fused kernel with statements after its workers: not an operator the .kir holds");
    }
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
    for (int k = 0; k < monoids.size(); k++) {
      monoid(k, monoids.get(k));
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
      } else if (s instanceof Stmt.Combine c) {
        number(c.monoid());
        order.add(c.index());
        c.values().forEach(order::add);
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

  /** Numbers a monoid's operands, method and identity (and its gradient's), once. */
  private void number(Monoid m) {
    if (monoids.contains(m)) {
      return;
    }
    monoids.add(m);
    m.left().forEach(order::add);
    m.right().forEach(order::add);
    m.combined().forEach(order::add);
    m.identity().forEach(order::add);
    if (m.gradient() != null) {
      m.gradient().total().forEach(order::add);
      m.gradient().totalGradient().forEach(order::add);
      m.gradient().element().forEach(order::add);
      m.gradient().result().forEach(order::add);
    }
  }

  /**
   * {@code monoid <k> <record> <method> <size> components <names> left <vars> right <vars> combined
   * <nodes> identity <nodes>}, then, when the record has one, {@code gradient <method> total <vars>
   * dtotal <vars> element <vars> result <nodes>}.
   */
  private void monoid(int k, Monoid m) {
    StringBuilder b = new StringBuilder("  monoid ").append(k).append(' ').append(IrSyntax.word(m.record())).append(' ')
        .append(IrSyntax.word(m.method())).append(' ').append(m.size()).append(" components");
    m.components().forEach(c -> b.append(' ').append(IrSyntax.word(c)));
    refs(b.append(" left"), m.left());
    refs(b.append(" right"), m.right());
    refs(b.append(" combined"), m.combined());
    refs(b.append(" identity"), m.identity());
    if (m.gradient() != null) {
      Monoid.Gradient g = m.gradient();
      b.append(" gradient ").append(IrSyntax.word(g.method()));
      refs(b.append(" total"), g.total());
      refs(b.append(" dtotal"), g.totalGradient());
      refs(b.append(" element"), g.element());
      refs(b.append(" result"), g.result());
    }
    line(b.toString());
  }

  private void refs(StringBuilder b, List<? extends Expr> nodes) {
    nodes.forEach(e -> b.append(' ').append(order.ref(e)));
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
      if (a.record() != null) {
        // a component of an array of records: record <parameter> <record class> <component> <index> <count>
        Param.RecordSlot r = a.record();
        b.append(" record ").append(IrSyntax.word(r.param())).append(' ').append(IrSyntax.word(r.recordClass()))
            .append(' ').append(IrSyntax.word(r.component())).append(' ').append(r.index()).append(' ').append(r.count());
      }
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
      } else if (s instanceof Stmt.Combine c) {
        // combine <monoid k> <record parameter> <component arrays> <index> <values> if <guard>
        StringBuilder b = new StringBuilder(indent).append("combine ").append(monoids.indexOf(c.monoid())).append(' ')
            .append(IrSyntax.word(c.param()));
        c.arrays().forEach(a -> b.append(' ').append(IrSyntax.word(a.name())));
        b.append(' ').append(order.ref(c.index()));
        refs(b, c.values());
        line(b.append(" if ").append(order.ref(c.guard())).toString());
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
