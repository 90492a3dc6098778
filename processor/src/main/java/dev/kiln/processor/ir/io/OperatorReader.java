package dev.kiln.processor.ir.io;

import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.Monoid;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.OperatorKind;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Shape;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the lines of one operator's block, from its parameters to its {@code end}. */
final class OperatorReader {
  /** A loop whose body is being read. */
  private record OpenLoop(Cursor header, int id, Expr.Var index, Expr lo, Expr hi, long step, Expr guard,
      List<Stmt.Carried> carried, List<Stmt> body) {}

  private final String owner;
  private final String name;
  private final OperatorKind kind;
  private final int line;
  private final NodeReader nodes;
  private final Map<String, Param> params = new LinkedHashMap<>();
  private final List<GridDim> grid = new ArrayList<>();
  private final Map<Expr, String> names = new LinkedHashMap<>();
  private final List<Stmt> body = new ArrayList<>();
  private final Deque<OpenLoop> loops = new ArrayDeque<>();
  private final List<Monoid> monoids = new ArrayList<>();
  /** The position of the parameter read last (-1 before the first). */
  private int lastPosition = -1;
  private ScalarType resultType;
  private Expr result;
  private OperatorIr done;

  OperatorReader(ExprFactory factory, String owner, String name, OperatorKind kind, int line) {
    this.owner = owner;
    this.name = name;
    this.kind = kind;
    this.line = line;
    this.nodes = new NodeReader(factory, params);
  }

  /** {@code grid <var> <@Dim>}, or {@code grid <var> size [<polynomial>]} for a bound made of @Dims. */
  private GridDim gridDim(Cursor c) throws IrFormatException {
    Expr.Var v = nodes.var(c, "a grid variable");
    IrSyntax.Token t = c.peek();
    if (t != null && !t.quoted() && !t.list() && t.text().equals("size")) {
      c.keyword("size");
      List<Poly> size = PolyText.parseList(c.list("the grid bound"), c);
      if (size.size() != 1) {
        throw c.error("a grid bound is one polynomial, not " + size.size());
      }
      return new GridDim(v, GridDim.derivedExtent(v.name()), size.get(0));
    }
    return new GridDim(v, nodes.scalarParam(c));
  }

  /** Reads one line; true when it was the operator's {@code end}. */
  boolean line(Cursor c) throws IrFormatException {
    String first = c.word("a keyword or a node");
    switch (first) {
      case "param" -> param(c);
      case "result-type" -> resultType = c.type();
      case "grid" -> grid.add(gridDim(c));
      case "name" -> names.put(nodes.ref(c), c.text("a name"));
      case "result" -> result = nodes.ref(c);
      case "store" -> statements().add(new Stmt.Store(nodes.arrayParam(c, ArrayRole.OUT), index(c), nodes.ref(c), guard(c), null));
      case "accumulate" -> {
        ReduceKind op = c.choice(ReduceKind.class, "reduction (sum, product, max or min)");
        statements().add(new Stmt.Accumulate(nodes.arrayParam(c, ArrayRole.REDUCE), index(c), op, nodes.ref(c), guard(c), null));
      }
      case "monoid" -> monoids.add(monoid(c));
      case "combine" -> statements().add(combine(c));
      case "loop" -> loop(c);
      case "carry" -> carry(c);
      case "}" -> closeLoop(c);
      case "end" -> {
        c.end();
        finish(c);
        return true;
      }
      default -> {
        nodes.define(first, c);
        return false; // define checked the end of the line
      }
    }
    c.end();
    return false;
  }

  OperatorIr result() {
    return done;
  }

  private void param(Cursor c) throws IrFormatException {
    String what = c.word("'scalar' or 'array'");
    String pname = c.text("the parameter's name");
    int position = c.smallInteger("the parameter's position");
    // each Java parameter once, in order; the components of an array of records share its position
    if (position != lastPosition + 1 && !(position == lastPosition && what.equals("array"))) {
      throw c.error("parameter '" + pname + "' is at position " + position + ", expected " + (lastPosition + 1));
    }
    lastPosition = position;
    Param p;
    if (what.equals("scalar")) {
      ScalarType type = c.type();
      boolean dim = !c.atEnd();
      if (dim) {
        c.keyword("dim");
      }
      p = new Param.Scalar(pname, position, type, dim);
    } else if (what.equals("array")) {
      String role = c.word("in, out or reduce");
      ArrayRole r = null;
      for (ArrayRole a : ArrayRole.values()) {
        r = a.text().equals(role) ? a : r;
      }
      if (r == null) {
        throw c.error("unknown array role '" + role + "'; roles are in, out and reduce");
      }
      ScalarType type = c.type();
      List<Poly> extents = PolyText.parseList(c.list("the shape's extents"), c);
      Shape shape = new Shape(c.text("the shape's text"), extents);
      Param.RecordSlot slot = null;
      if (!c.atEnd()) {
        c.keyword("record");
        String recordParam = c.text("the record parameter's name");
        String recordClass = c.text("the record's class");
        String component = c.text("the component's name");
        int index = c.smallInteger("the component's index");
        int count = c.smallInteger("the record's component count");
        if (index < 0 || index >= count) {
          throw c.error("component " + index + " of a record of " + count + " components");
        }
        slot = new Param.RecordSlot(recordParam, recordClass, component, index, count);
      }
      p = new Param.Array(pname, position, type, shape, r, slot);
    } else {
      throw c.error("expected 'scalar' or 'array', found '" + what + "'");
    }
    if (params.putIfAbsent(pname, p) != null) {
      throw c.error("parameter '" + pname + "' is declared twice");
    }
  }

  /** See {@code OperatorWriter.monoid} for the line's form. */
  private Monoid monoid(Cursor c) throws IrFormatException {
    int k = c.smallInteger("the monoid's number");
    if (k != monoids.size()) {
      throw c.error("monoid " + k + " is out of order: the next monoid is " + monoids.size());
    }
    String record = c.text("the record's name");
    String method = c.text("the combining method's name");
    int size = c.smallInteger("the number of components");
    if (size < 1) {
      throw c.error("a monoid has at least one component, not " + size);
    }
    c.keyword("components");
    List<String> components = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      components.add(c.text("a component's name"));
    }
    c.keyword("left");
    List<Expr.Var> left = vars(c, size);
    c.keyword("right");
    List<Expr.Var> right = vars(c, size);
    c.keyword("combined");
    List<Expr> combined = refs(c, size);
    c.keyword("identity");
    List<Expr.Const> identity = new ArrayList<>();
    for (Expr e : refs(c, size)) {
      if (!(e instanceof Expr.Const k2)) {
        throw c.error("a monoid's identity is a constant per component");
      }
      identity.add(k2);
    }
    Monoid.Gradient gradient = null;
    if (!c.atEnd()) {
      c.keyword("gradient");
      String g = c.text("the gradient method's name");
      c.keyword("total");
      List<Expr.Var> total = vars(c, size);
      c.keyword("dtotal");
      List<Expr.Var> dtotal = vars(c, size);
      c.keyword("element");
      List<Expr.Var> element = vars(c, size);
      c.keyword("result");
      gradient = new Monoid.Gradient(g, total, dtotal, element, refs(c, size));
    }
    for (int i = 0; i < size; i++) {
      if (combined.get(i).type() != left.get(i).type() || identity.get(i).type() != left.get(i).type()) {
        throw c.error("component '" + components.get(i) + "' of monoid " + k + " has values of different types");
      }
    }
    return new Monoid(record, method, components, left, right, combined, identity, gradient);
  }

  private List<Expr.Var> vars(Cursor c, int n) throws IrFormatException {
    List<Expr.Var> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(nodes.var(c, "a monoid's operand"));
    }
    return out;
  }

  private List<Expr> refs(Cursor c, int n) throws IrFormatException {
    List<Expr> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(nodes.ref(c));
    }
    return out;
  }

  /** {@code combine <monoid k> <record parameter> <component arrays> <index> <values> if <guard>}. */
  private Stmt.Combine combine(Cursor c) throws IrFormatException {
    int k = c.smallInteger("the monoid's number");
    if (k < 0 || k >= monoids.size()) {
      throw c.error("monoid " + k + " is not defined before this combine");
    }
    Monoid m = monoids.get(k);
    String param = c.text("the record parameter's name");
    List<Param.Array> arrays = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      Param.Array a = nodes.arrayParam(c, ArrayRole.REDUCE);
      if (a.elementType() != m.left().get(i).type()) {
        throw c.error("'" + a.name() + "' holds " + a.elementType().irName() + ", but component '" + m.components().get(i)
            + "' of " + m + " is " + m.left().get(i).type().irName());
      }
      arrays.add(a);
    }
    Expr index = index(c);
    List<Expr> values = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      values.add(nodes.ref(c, m.left().get(i).type(), "a combined value"));
    }
    return new Stmt.Combine(m, param, arrays, index, values, guard(c), null);
  }

  private Expr index(Cursor c) throws IrFormatException {
    return nodes.ref(c, ScalarType.INT, "an index");
  }

  private Expr guard(Cursor c) throws IrFormatException {
    c.keyword("if");
    return nodes.ref(c, ScalarType.BOOL, "a guard");
  }

  private List<Stmt> statements() {
    return loops.isEmpty() ? body : loops.peek().body();
  }

  private void loop(Cursor c) throws IrFormatException {
    int id = c.smallInteger("the loop's id");
    Expr.Var index = nodes.var(c, "the loop's index");
    Expr lo = nodes.ref(c);
    Expr hi = nodes.ref(c);
    c.keyword("step");
    long step = c.integer("the loop's step");
    Expr guard = guard(c);
    c.keyword("{");
    loops.push(new OpenLoop(c, id, index, lo, hi, step, guard, new ArrayList<>(), new ArrayList<>()));
  }

  private void carry(Cursor c) throws IrFormatException {
    if (loops.isEmpty() || !loops.peek().body().isEmpty()) {
      throw c.error("'carry' belongs right after a loop's header");
    }
    Expr.Var phi = nodes.var(c, "a carried variable");
    c.keyword("init");
    Expr init = nodes.ref(c);
    c.keyword("next");
    Expr next = nodes.ref(c);
    c.keyword("result");
    Expr.Var result = nodes.var(c, "a loop result");
    boolean anyOrder = !c.atEnd();
    if (anyOrder) {
      c.keyword("unordered");
    }
    loops.peek().carried().add(new Stmt.Carried(phi, init, next, result, anyOrder));
  }

  private void closeLoop(Cursor c) throws IrFormatException {
    if (loops.isEmpty()) {
      throw c.error("'}' closes no loop");
    }
    OpenLoop l = loops.pop();
    statements().add(new Stmt.Loop(l.id(), l.index(), l.lo(), l.hi(), l.step(), l.guard(), l.carried(), l.body(), null));
  }

  private void finish(Cursor c) throws IrFormatException {
    if (!loops.isEmpty()) {
      throw c.error("the loop opened on line " + loops.peek().header().lineNumber() + " is not closed");
    }
    String where = "operator '" + name + "' (line " + line + ")";
    if (kind == OperatorKind.ELEMENTWISE) {
      if (result == null || resultType == null) {
        throw c.error(where + " is elementwise but has no result or result-type");
      }
      if (result.type() != resultType) {
        throw c.error(where + " returns " + resultType.irName() + " but its result is " + result.type().irName());
      }
      if (!grid.isEmpty() || !body.isEmpty() || params.values().stream().anyMatch(p -> p instanceof Param.Array)) {
        throw c.error(where + " is elementwise but has arrays, a grid or statements");
      }
    } else if (result != null || resultType != null) {
      throw c.error(where + " is a grid operator but has a result");
    }
    done = switch (kind) {
      case ELEMENTWISE -> new OperatorIr.Elementwise(owner, name, List.copyOf(params.values()), resultType, result, names);
      case GRID -> new OperatorIr.Grid(owner, name, List.copyOf(params.values()), grid, body, names);
      case COMPOSITE -> throw c.error(where + " is a composite: IR text holds only elementwise and grid operators");
    };
  }
}
