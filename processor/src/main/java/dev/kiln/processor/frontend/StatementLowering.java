package dev.kiln.processor.frontend;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Reporter;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Poly;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lowers statements of an operator body to IR. Locals become SSA values; {@code if} statements
 * become guards on effects and selects of locals; sequential {@code for} loops become {@link
 * Stmt.Loop}s whose carried values are the outer locals the body assigns; in elementwise
 * operators, {@code return}s fold into one result expression. An error in one statement is
 * reported and lowering goes on with the next, so one compile shows every problem.
 */
final class StatementLowering {
  private final LoweringState state;
  private final ExpressionLowering expressions;
  private final Reporter reporter;
  private final OperatorSource op;
  private final boolean elementwise;
  private final Map<Param.Array, ReduceKind> reduceKinds = new HashMap<>();
  private final RecordArrayLowering monoids;

  /** Elementwise only: whether a return has been taken, and the value returned. */
  private Expr done;
  private Expr result;
  /** A record method returning a record: that record, and the value returned, a component each. */
  private final RecordType resultRecord;
  private final ScalarType resultType;
  private List<Expr> recordResult;

  StatementLowering(LoweringState state, Reporter reporter, OperatorSource op, boolean elementwise) {
    this(state, reporter, op, elementwise, null, elementwise ? state.signature.resultType() : null);
  }

  /** Lowers the body of a record's method (returning {@code resultRecord}, or else a {@code resultType}) to inline it. */
  StatementLowering(LoweringState state, OperatorSource method, RecordType resultRecord, ScalarType resultType) {
    this(state, state.reporter, method, true, resultRecord, resultType);
  }

  private StatementLowering(LoweringState state, Reporter reporter, OperatorSource op, boolean elementwise,
      RecordType resultRecord, ScalarType resultType) {
    this.state = state;
    this.expressions = new ExpressionLowering(state);
    this.monoids = new RecordArrayLowering(state, expressions);
    this.reporter = reporter;
    this.op = op;
    this.elementwise = elementwise;
    this.resultRecord = resultRecord;
    this.resultType = resultType;
    if (elementwise) {
      done = state.f.bool(false);
      if (resultRecord != null) {
        recordResult = new ArrayList<>();
        resultRecord.components().forEach(c -> recordResult.add(state.f.constant(c.type(), 0)));
      } else {
        result = state.f.constant(resultType, 0);
      }
    }
  }

  Expr result() {
    return result;
  }

  /** The {@code @Reduce} arrays of records that the lowered statements never updated. */
  List<Signature.RecordArray> neverCombined() {
    return monoids.neverCombined();
  }

  /** The components of the record a record method returns. */
  List<Expr> recordResult() {
    return recordResult;
  }

  /** Lowers a statement; reports (and swallows) a user error in it. */
  void statement(StatementTree t) {
    try {
      lower(t);
    } catch (KilnDiagnostic d) {
      reporter.report(d.tree() != null ? d.tree() : t, op.unit(), d.kilnMessage(), d.args());
    }
  }

  void statements(List<? extends StatementTree> list) {
    List<String> declared = new ArrayList<>();
    Expr base = state.path;
    try {
      for (StatementTree s : list) {
        if (s instanceof VariableTree v) {
          declared.add(v.getName().toString());
        }
        if (elementwise) {
          // after a conditional return, the rest runs only where it was not taken
          state.path = state.f.binary(BinaryOp.LAND, base, state.f.unary(UnaryOp.NOT, done), state.scope);
        }
        statement(s);
      }
    } finally {
      state.path = base;
    }
    declared.forEach(state::forget);
  }

  private void lower(StatementTree t) {
    switch (t.getKind()) {
      case BLOCK:
        statements(((BlockTree) t).getStatements());
        return;
      case EMPTY_STATEMENT:
        return;
      case VARIABLE:
        declare((VariableTree) t);
        return;
      case EXPRESSION_STATEMENT:
        expressionStatement((ExpressionStatementTree) t);
        return;
      case IF:
        ifStatement((IfTree) t);
        return;
      case FOR_LOOP:
        forLoop((ForLoopTree) t);
        return;
      case RETURN:
        if (elementwise) {
          returnStatement((ReturnTree) t);
          return;
        }
        throw new KilnDiagnostic(t, Message.UNSUPPORTED_STATEMENT, "return in a grid operator (guard the work with if instead)");
      default:
        throw new KilnDiagnostic(t, Message.UNSUPPORTED_STATEMENT, TreeText.describe(t));
    }
  }

  // ---- locals ----

  void declare(VariableTree t) {
    String name = t.getName().toString();
    Tree typeTree = t.getType();
    ExpressionTree init = t.getInitializer();
    if (init instanceof NewArrayTree) {
      throw new KilnDiagnostic(init, Message.ALLOCATION_IN_WORKER);
    }
    RecordType record = recordType(typeTree, init);
    if (record != null) {
      state.putRecord(name, record, init == null ? null : expressions.records.lower(init, record), null);
      return;
    }
    ScalarType type = null;
    if (typeTree instanceof PrimitiveTypeTree p) {
      type = ScalarType.ofJavaName(p.getPrimitiveTypeKind().name().toLowerCase(java.util.Locale.ROOT));
    } else if (typeTree != null && !typeTree.toString().equals("var")) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_LOCAL_TYPE, name, typeTree);
    }
    Expr value = init == null ? null : expressions.lower(init);
    if (type == null && typeTree instanceof PrimitiveTypeTree p) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_LOCAL_TYPE, name, p);
    }
    if (type == null) {
      if (value == null) {
        throw new KilnDiagnostic(t, Message.UNSUPPORTED_LOCAL_TYPE, name, "var");
      }
      type = value.type();
    }
    if (value != null) {
      value = convert(init, type, value);
      state.name(value, name);
    }
    state.env.put(name, new Local(type, value, null));
  }

  /** The record type of a local declared with {@code typeTree} (or {@code var} and {@code init}), or null. */
  private RecordType recordType(Tree typeTree, ExpressionTree init) {
    if (typeTree == null || typeTree.toString().equals("var")) {
      return init == null ? null : expressions.records.typeOf(init);
    }
    if (typeTree instanceof PrimitiveTypeTree || !(typeTree instanceof ExpressionTree named)) {
      return null;
    }
    javax.lang.model.element.TypeElement type = state.names.type(named);
    return type != null && type.getKind() == javax.lang.model.element.ElementKind.RECORD
        ? RecordType.of(type, typeTree, state.inliner)
        : null;
  }

  /** Java's assignment conversion; narrowing only where Java allows it implicitly (constants). */
  private Expr convert(Tree at, ScalarType to, Expr value) {
    if ((to == ScalarType.BOOL) != (value.type() == ScalarType.BOOL)) {
      throw new KilnDiagnostic(at, Message.UNSUPPORTED_EXPRESSION, "assigning a " + value.type().javaName() + " to a " + to.javaName());
    }
    return state.f.cast(to, value);
  }

  // ---- assignments ----

  private void expressionStatement(ExpressionStatementTree s) {
    ExpressionTree e = s.getExpression();
    switch (e.getKind()) {
      case ASSIGNMENT:
        assign((AssignmentTree) e);
        return;
      case PREFIX_INCREMENT:
      case POSTFIX_INCREMENT:
      case PREFIX_DECREMENT:
      case POSTFIX_DECREMENT: {
        UnaryTree u = (UnaryTree) e;
        boolean inc = e.getKind() == Tree.Kind.PREFIX_INCREMENT || e.getKind() == Tree.Kind.POSTFIX_INCREMENT;
        update(u, u.getExpression(), inc ? BinaryOp.ADD : BinaryOp.SUB, state.f.integral(ScalarType.INT, 1), null);
        return;
      }
      default:
        if (e instanceof CompoundAssignmentTree c) {
          update(c, c.getVariable(), compoundOp(c), null, c.getExpression());
          return;
        }
        if (e instanceof MethodInvocationTree call
            && state.names.callee(call) instanceof Callee.Operator target
            && !target.element().getReturnType().getKind().isPrimitive()) {
          throw new KilnDiagnostic(e, Message.GRID_OPERATOR_CALL, target.element().getSimpleName());
        }
        throw new KilnDiagnostic(e, Message.UNSUPPORTED_STATEMENT, TreeText.describe(e));
    }
  }

  private static BinaryOp compoundOp(CompoundAssignmentTree c) {
    switch (c.getKind()) {
      case PLUS_ASSIGNMENT: return BinaryOp.ADD;
      case MINUS_ASSIGNMENT: return BinaryOp.SUB;
      case MULTIPLY_ASSIGNMENT: return BinaryOp.MUL;
      case DIVIDE_ASSIGNMENT: return BinaryOp.DIV;
      case REMAINDER_ASSIGNMENT: return BinaryOp.REM;
      case AND_ASSIGNMENT: return BinaryOp.AND;
      case OR_ASSIGNMENT: return BinaryOp.OR;
      case XOR_ASSIGNMENT: return BinaryOp.XOR;
      case LEFT_SHIFT_ASSIGNMENT: return BinaryOp.SHL;
      case RIGHT_SHIFT_ASSIGNMENT: return BinaryOp.SHR;
      default: return BinaryOp.USHR;
    }
  }

  private void assign(AssignmentTree a) {
    ExpressionTree target = a.getVariable();
    if (target instanceof ArrayAccessTree access) {
      arrayAssign(a, access);
      return;
    }
    if (target instanceof IdentifierTree id && state.records.containsKey(id.getName().toString())
        && !state.env.containsKey(id.getName().toString())) {
      assignRecord(id, a.getExpression());
      return;
    }
    Local local = localTarget(target);
    String name = ((IdentifierTree) target).getName().toString();
    Expr value = convert(a.getExpression(), local.type(), expressions.lower(a.getExpression()));
    state.name(value, name);
    state.env.put(name, local.with(value));
  }

  /** {@code s = e} for a record local {@code s}: each component takes {@code e}'s. */
  private void assignRecord(IdentifierTree target, ExpressionTree value) {
    String name = target.getName().toString();
    RecordType type = state.records.get(name);
    for (RecordType.Component c : type.components()) {
      Local component = state.env.get(LoweringState.componentKey(name, c.name()));
      if (component.readOnly() != null) {
        if (component.readOnly().error() == Message.SHARED_LOCAL) {
          throw new KilnDiagnostic(target, Message.SHARED_LOCAL, name);
        }
        throw new KilnDiagnostic(target, Message.RECORD_VALUE, "assigning '" + name + "' (" + component.readOnly().reason() + ")");
      }
    }
    state.putRecord(name, type, expressions.records.lower(value, type), null);
  }

  /** {@code target op= operand} (operand null: the given constant), for locals and reductions. */
  private void update(Tree at, ExpressionTree target, BinaryOp op, Expr constant, ExpressionTree operand) {
    if (target instanceof ArrayAccessTree access) {
      Param.Array array = expressions.arrayOf(access);
      if (array.role() == ArrayRole.REDUCE && (op == BinaryOp.ADD || op == BinaryOp.MUL)) {
        Expr index = expressions.index(access, array);
        Expr value = operand == null ? constant : expressions.lower(operand);
        accumulate(at, array, index, op == BinaryOp.ADD ? ReduceKind.SUM : ReduceKind.PRODUCT, value);
        return;
      }
      if (array.role() == ArrayRole.REDUCE) {
        throw new KilnDiagnostic(at, Message.REDUCE_FORM, "'" + array.name() + "' is updated with " + op.javaSymbol() + "=");
      }
      if (array.role() == ArrayRole.IN) {
        throw new KilnDiagnostic(at, Message.WRITE_TO_INPUT, array.name());
      }
      throw new KilnDiagnostic(at, Message.UPDATE_OF_OUTPUT, access, op.javaSymbol(), array.name(), array.name());
    }
    Local local = localTarget(target);
    String name = ((IdentifierTree) target).getName().toString();
    if (local.value() == null) {
      throw new KilnDiagnostic(target, Message.UNSUPPORTED_EXPRESSION, "updating local '" + name + "' before it is assigned");
    }
    Expr rhs = operand == null ? constant : expressions.lower(operand);
    Expr combined = expressions.combine(at, op, local.value(), rhs);
    Expr value = state.f.cast(local.type(), combined); // compound assignment narrows implicitly
    state.name(value, name);
    state.env.put(name, local.with(value));
  }

  private Local localTarget(ExpressionTree target) {
    if (target instanceof ParenthesizedTree p) {
      return localTarget(p.getExpression());
    }
    if (!(target instanceof IdentifierTree id)) {
      throw new KilnDiagnostic(target, Message.OBJECT_USE, "assigning '" + target + "'");
    }
    String name = id.getName().toString();
    Local local = state.env.get(name);
    if (local == null) {
      if (state.signature.param(name) != null) {
        throw new KilnDiagnostic(target, Message.ASSIGN_TO_PARAMETER, name);
      }
      throw new KilnDiagnostic(target, Message.OBJECT_USE, "assigning '" + name + "'");
    }
    Local.ReadOnly readOnly = local.readOnly();
    if (readOnly != null) {
      if (readOnly.error() == Message.SHARED_LOCAL) {
        throw new KilnDiagnostic(target, Message.SHARED_LOCAL, name);
      }
      throw new KilnDiagnostic(target, readOnly.error(), readOnly.reason());
    }
    return local;
  }

  private void arrayAssign(AssignmentTree a, ArrayAccessTree access) {
    Signature.RecordArray records = monoids.recordArrayOf(access);
    if (records != null) {
      monoids.assign(a, records, access);
      return;
    }
    Param.Array array = expressions.arrayOf(access);
    if (array.role() == ArrayRole.IN) {
      throw new KilnDiagnostic(access, Message.WRITE_TO_INPUT, array.name());
    }
    Expr index = expressions.index(access, array);
    if (array.role() == ArrayRole.REDUCE) {
      reduceAssign(a, array, index);
      return;
    }
    Expr value = convert(a.getExpression(), array.elementType(), expressions.lower(a.getExpression()));
    state.out.add(new Stmt.Store(array, index, value, state.path, TreeRef.of(a)));
  }

  /** {@code r[i] = max(r[i], e)} or {@code min}, or {@code r[i] = r[i] + e} or {@code *}, either operand order. */
  private void reduceAssign(AssignmentTree a, Param.Array array, Expr index) {
    ExpressionTree rhs = a.getExpression();
    while (rhs instanceof ParenthesizedTree p) {
      rhs = p.getExpression();
    }
    if (rhs instanceof MethodInvocationTree call && call.getArguments().size() == 2
        && state.names.callee(call) instanceof Callee.Math m
        && (m.fn() == MathFn.MAX || m.fn() == MathFn.MIN)) {
      for (int self = 0; self < 2; self++) {
        ExpressionTree mine = call.getArguments().get(self);
        if (mine instanceof ArrayAccessTree acc2
            && expressions.arrayOf(acc2) == array
            && expressions.index(acc2, array) == index) {
          Expr value = expressions.lower(call.getArguments().get(1 - self));
          accumulate(a, array, index, m.fn() == MathFn.MAX ? ReduceKind.MAX : ReduceKind.MIN, value);
          return;
        }
      }
    }
    if (rhs instanceof BinaryTree sum
        && (sum.getKind() == Tree.Kind.PLUS || sum.getKind() == Tree.Kind.MULTIPLY)) {
      // r[i] = r[i] + e, r[i] = e + r[i] (and *): the same as r[i] += e
      ExpressionTree[] sides = {sum.getLeftOperand(), sum.getRightOperand()};
      for (int self = 0; self < 2; self++) {
        ExpressionTree mine = sides[self];
        while (mine instanceof ParenthesizedTree p) {
          mine = p.getExpression();
        }
        if (mine instanceof ArrayAccessTree acc2
            && expressions.arrayOf(acc2) == array
            && expressions.index(acc2, array) == index) {
          Expr value = expressions.lower(sides[1 - self]);
          accumulate(a, array, index, sum.getKind() == Tree.Kind.PLUS ? ReduceKind.SUM : ReduceKind.PRODUCT, value);
          return;
        }
      }
    }
    throw new KilnDiagnostic(a, Message.REDUCE_FORM, "'" + array.name() + "' is assigned with =");
  }

  private void accumulate(Tree at, Param.Array array, Expr index, ReduceKind kind, Expr value) {
    ReduceKind before = reduceKinds.putIfAbsent(array, kind);
    if (before != null && before != kind) {
      throw new KilnDiagnostic(at, Message.REDUCE_FORM,
          "'" + array.name() + "' is reduced with both " + before.symbol() + " and " + kind.symbol());
    }
    if (!value.type().isNumeric()) {
      throw new KilnDiagnostic(at, Message.UNSUPPORTED_EXPRESSION, "reducing a boolean");
    }
    if (array.elementType().isIntegral() && value.type().isFloating()) {
      throw new KilnDiagnostic(at, Message.REDUCE_FORM,
          "the term is a " + value.type().javaName() + ", wider than the " + array.elementType().javaName()
              + " elements of '" + array.name() + "' (Java would truncate after each step, which no parallel"
              + " reduction can reproduce); cast the term: (" + array.elementType().javaName() + ") ...");
    }
    state.out.add(new Stmt.Accumulate(array, index, kind, state.f.cast(array.elementType(), value), state.path, TreeRef.of(at)));
  }

  // ---- control flow ----

  private void ifStatement(IfTree t) {
    Expr cond = expressions.lower(t.getCondition());
    if (cond.type() != ScalarType.BOOL) {
      throw new KilnDiagnostic(t.getCondition(), Message.UNSUPPORTED_EXPRESSION, "a condition of type " + cond.type().javaName());
    }
    LinkedHashMap<String, Local> before = new LinkedHashMap<>(state.env);
    state.underCondition(cond, () -> {
      statement(t.getThenStatement());
      return null;
    });
    LinkedHashMap<String, Local> afterThen = state.env;
    state.env = new LinkedHashMap<>(before);
    if (t.getElseStatement() != null) {
      state.underCondition(state.f.unary(UnaryOp.NOT, cond), () -> {
        statement(t.getElseStatement());
        return null;
      });
    }
    LinkedHashMap<String, Local> afterElse = state.env;
    LinkedHashMap<String, Local> merged = new LinkedHashMap<>();
    for (Map.Entry<String, Local> e : before.entrySet()) {
      Local a = afterThen.get(e.getKey());
      Local b = afterElse.get(e.getKey());
      Expr va = a == null ? null : a.value();
      Expr vb = b == null ? null : b.value();
      Expr v = va == null || vb == null ? (va == vb ? null : va == null ? vb : va) : state.f.select(cond, va, vb);
      if (v != null) {
        state.name(v, e.getKey());
      }
      merged.put(e.getKey(), e.getValue().with(v));
    }
    state.env = merged;
  }

  private void returnStatement(ReturnTree t) {
    if (resultRecord != null) {
      RecordValue value = expressions.records.lower(t.getExpression(), resultRecord);
      Expr taken = state.f.binary(BinaryOp.LAND, state.path, state.f.unary(UnaryOp.NOT, done), state.scope);
      for (int i = 0; i < recordResult.size(); i++) {
        recordResult.set(i, state.f.select(taken, value.components().get(i), recordResult.get(i)));
      }
      done = state.f.binary(BinaryOp.LOR, done, state.path, state.scope);
      return;
    }
    if (t.getExpression() != null && expressions.records.typeOf(t.getExpression()) != null) {
      throw new KilnDiagnostic(t.getExpression(), Message.RECORD_VALUE,
          "'" + t.getExpression() + "' is a record, returned where a number is expected");
    }
    Expr value = convert(t.getExpression(), resultType, expressions.lower(t.getExpression()));
    Expr taken = state.f.binary(BinaryOp.LAND, state.path, state.f.unary(UnaryOp.NOT, done), state.scope);
    result = state.f.select(taken, value, result);
    done = state.f.binary(BinaryOp.LOR, done, state.path, state.scope);
  }

  private void forLoop(ForLoopTree t) {
    if (elementwise && state.self != null) {
      throw new KilnDiagnostic(t, Message.RECORD_FORM, state.self.name(),
          "its method has a loop (record methods are inlined into the caller's worker: write the loop in the operator)");
    }
    if (elementwise) {
      throw new KilnDiagnostic(t, Message.ELEMENTWISE_LOOP, "a loop");
    }
    if (GridStructure.isParallel(t)) {
      throw new KilnDiagnostic(t, Message.NOT_PERFECTLY_NESTED, "this @Parallel loop is inside a worker");
    }
    LoopForm form = LoopForm.read(t, Message.SEQUENTIAL_LOOP_FORM, state.names::constant);
    Set<String> assigned = state.expandRecords(AssignedNames.in(t.getStatement()));
    if (assigned.contains(form.name())) {
      throw new KilnDiagnostic(t, Message.SEQUENTIAL_LOOP_FORM, "the loop variable '" + form.name() + "' is assigned in the body");
    }
    Expr lo = convertIndex(form.init(), expressions.lower(form.init()));
    ScalarType indexType = form.type();
    Expr hi = expressions.lower(form.bound());
    for (String n : AssignedNames.in(form.bound())) {
      throw new KilnDiagnostic(form.bound(), Message.SEQUENTIAL_LOOP_FORM, "the bound assigns '" + n + "'");
    }
    for (String n : assigned) {
      if (referencesLocal(form.bound(), n)) {
        throw new KilnDiagnostic(form.bound(), Message.SEQUENTIAL_LOOP_FORM, "the bound uses '" + n + "', which the body changes");
      }
    }
    if (!hi.type().isIntegral()) {
      throw new KilnDiagnostic(form.bound(), Message.SEQUENTIAL_LOOP_FORM, "the bound is a " + hi.type().javaName());
    }
    if (form.inclusive()) {
      hi = state.f.binary(BinaryOp.ADD, hi, state.f.integral(hi.type(), 1), state.scope);
    }
    hi = state.f.cast(indexType, hi);
    lo = state.f.cast(indexType, lo);

    int id = ++state.loops;
    Expr.Var index = state.f.newVar(form.name(), indexType, Expr.VarKind.LOOP_INDEX);
    List<String> carriedNames = new ArrayList<>();
    List<Expr.Var> phis = new ArrayList<>();
    List<Expr> inits = new ArrayList<>();
    for (String n : assigned) {
      Local outer = state.env.get(n);
      if (outer == null) {
        continue; // declared inside the body, or not a local (reported when lowered)
      }
      Expr init = outer.value() != null ? outer.value() : state.f.constant(outer.type(), 0);
      Expr.Var phi = state.f.newVar(LoweringState.varName(n), n, outer.type(), Expr.VarKind.CARRIED);
      carriedNames.add(n);
      phis.add(phi);
      inits.add(init);
      state.env.put(n, outer.with(phi));
    }
    Expr outerPath = state.path;
    int outerScope = state.scope;
    List<Stmt> outerOut = state.out;
    Poly loBound = AffineAnalysis.affine(lo) != null && AffineAnalysis.affine(lo).isConstant() ? AffineAnalysis.affine(lo).constantPart() : null;
    state.path = state.f.trueValue();
    state.scope = id;
    state.out = new ArrayList<>();
    state.env.put(form.name(), new Local(indexType, index, Local.ReadOnly.sequentialLoop(form.name())));
    if (loBound != null) {
      state.bounds.lowerBounds.put(index.name(), loBound);
    }
    state.bounds.sourceNames.put(index.name(), index.sourceName());
    Affine hiAffine = AffineAnalysis.affine(hi);
    Poly last = hiAffine != null && hiAffine.isConstant() ? hiAffine.constantPart().subtract(Poly.ONE) : null;
    // the body runs at every size only when the loop itself does and has an iteration at every size
    boolean everySize = outerPath instanceof Expr.Const c && c.isTrue() && loBound != null && last != null
        && last.subtract(loBound).provablyNonNegative(state.bounds.dims());
    if (everySize && form.step() == 1) {
      state.bounds.upperBounds.put(index.name(), last);
    } else {
      state.bounds.upperBounds.remove(index.name());
    }
    if (!everySize) {
      state.bounds.conditionalLoops++;
    }
    List<Stmt> body;
    try {
      statement(t.getStatement());
      body = state.out;
    } finally {
      if (!everySize) {
        state.bounds.conditionalLoops--;
      }
      state.env.remove(form.name());
      state.path = outerPath;
      state.scope = outerScope;
      state.out = outerOut;
    }
    List<Stmt.Carried> carried = new ArrayList<>();
    for (int i = 0; i < carriedNames.size(); i++) {
      String n = carriedNames.get(i);
      Local now = state.env.get(n);
      Expr.Var resultVar = state.f.newVar(LoweringState.varName(n), n, now.type(), Expr.VarKind.LOOP_RESULT);
      carried.add(new Stmt.Carried(phis.get(i), inits.get(i), now.value(), resultVar));
      state.env.put(n, now.with(resultVar));
    }
    state.out.add(new Stmt.Loop(id, index, lo, hi, form.step(), state.path, carried, body, TreeRef.of(t)));
  }

  private Expr convertIndex(Tree at, Expr e) {
    if (!e.type().isIntegral()) {
      throw new KilnDiagnostic(at, Message.SEQUENTIAL_LOOP_FORM, "the loop starts at a " + e.type().javaName());
    }
    return e;
  }

  private static boolean referencesLocal(Tree tree, String name) {
    boolean[] found = {false};
    tree.accept(new com.sun.source.util.TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        if (node.getName().contentEquals(name)) {
          found[0] = true;
        }
        return null;
      }
    }, null);
    return found[0];
  }

  /** The parts of {@code for (int k = init; k < bound; k += step)}. */
  record LoopForm(String name, ScalarType type, ExpressionTree init, ExpressionTree bound, boolean inclusive, long step) {
    static LoopForm read(ForLoopTree t, Message message, java.util.function.Function<ExpressionTree, Object> constants) {
      if (t.getInitializer().size() != 1 || !(t.getInitializer().get(0) instanceof VariableTree v)) {
        throw new KilnDiagnostic(t, message, "it must declare exactly one loop variable");
      }
      String name = v.getName().toString();
      ScalarType type = v.getType() instanceof PrimitiveTypeTree p
          ? ScalarType.ofJavaName(p.getPrimitiveTypeKind().name().toLowerCase(java.util.Locale.ROOT))
          : null;
      if (type != ScalarType.INT && type != ScalarType.LONG) {
        throw new KilnDiagnostic(v, message, "the loop variable '" + name + "' must be an int");
      }
      if (v.getInitializer() == null) {
        throw new KilnDiagnostic(v, message, "the loop variable '" + name + "' has no initial value");
      }
      ExpressionTree cond = t.getCondition();
      while (cond instanceof ParenthesizedTree p) {
        cond = p.getExpression();
      }
      if (!(cond instanceof BinaryTree b)
          || (b.getKind() != Tree.Kind.LESS_THAN && b.getKind() != Tree.Kind.LESS_THAN_EQUAL)
          || !(b.getLeftOperand() instanceof IdentifierTree left)
          || !left.getName().contentEquals(name)) {
        throw new KilnDiagnostic(cond == null ? t : cond, message, "the condition must be " + name + " < bound");
      }
      long step = step(t, name, message, constants);
      return new LoopForm(name, type, v.getInitializer(), b.getRightOperand(), b.getKind() == Tree.Kind.LESS_THAN_EQUAL, step);
    }

    /** The loop's step: 1 for {@code k++}, c for {@code k += c} with c a positive int literal or constant ({@code static final}). */
    private static long step(ForLoopTree t, String name, Message message,
        java.util.function.Function<ExpressionTree, Object> constants) {
      if (t.getUpdate().size() == 1) {
        ExpressionTree u = t.getUpdate().get(0).getExpression();
        if ((u.getKind() == Tree.Kind.POSTFIX_INCREMENT || u.getKind() == Tree.Kind.PREFIX_INCREMENT)
            && ((UnaryTree) u).getExpression() instanceof IdentifierTree id && id.getName().contentEquals(name)) {
          return 1;
        }
        if (u.getKind() == Tree.Kind.PLUS_ASSIGNMENT
            && ((CompoundAssignmentTree) u).getVariable() instanceof IdentifierTree id
            && id.getName().contentEquals(name)
            && stepValue(((CompoundAssignmentTree) u).getExpression(), constants) instanceof Integer step
            && step > 0) {
          return step;
        }
      }
      throw new KilnDiagnostic(t, message, "the update must be " + name + "++ or " + name
          + " += c with c a positive int literal or constant");
    }

    private static Object stepValue(ExpressionTree e, java.util.function.Function<ExpressionTree, Object> constants) {
      while (e instanceof ParenthesizedTree p) {
        e = p.getExpression();
      }
      return e instanceof LiteralTree lit ? lit.getValue() : constants.apply(e);
    }
  }
}
