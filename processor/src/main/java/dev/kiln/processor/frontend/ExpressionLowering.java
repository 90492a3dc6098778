package dev.kiln.processor.frontend;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import dev.kiln.processor.diag.KilnDiagnostic;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.ArrayRole;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Lowers expression trees to IR under the current {@link LoweringState}: types them (javac has not
 * attributed them yet), inserts Java's implicit conversions as casts, guards array reads with the
 * path condition, and inlines elementwise operators.
 */
final class ExpressionLowering {
  private final LoweringState state;
  final RecordExpressions records;

  ExpressionLowering(LoweringState state) {
    this.state = state;
    this.records = new RecordExpressions(state, this);
  }

  Expr lower(ExpressionTree t) {
    switch (t.getKind()) {
      case PARENTHESIZED:
        return lower(((ParenthesizedTree) t).getExpression());
      case INT_LITERAL:
      case LONG_LITERAL:
      case FLOAT_LITERAL:
      case DOUBLE_LITERAL:
      case BOOLEAN_LITERAL:
        return literal(((LiteralTree) t).getValue());
      case CHAR_LITERAL:
        throw new KilnDiagnostic(t, Message.OBJECT_USE, "a char literal");
      case STRING_LITERAL:
        throw new KilnDiagnostic(t, Message.OBJECT_USE, "a string literal");
      case NULL_LITERAL:
        throw new KilnDiagnostic(t, Message.OBJECT_USE, "null");
      case IDENTIFIER:
        return identifier((IdentifierTree) t);
      case MEMBER_SELECT:
        return memberSelect((MemberSelectTree) t);
      case TYPE_CAST:
        return typeCast((TypeCastTree) t);
      case UNARY_MINUS:
      case UNARY_PLUS:
      case LOGICAL_COMPLEMENT:
      case BITWISE_COMPLEMENT:
        return unary((UnaryTree) t);
      case PREFIX_INCREMENT:
      case PREFIX_DECREMENT:
      case POSTFIX_INCREMENT:
      case POSTFIX_DECREMENT:
        throw new KilnDiagnostic(
            t, Message.UNSUPPORTED_EXPRESSION, "++ or -- inside an expression (write it as a statement of its own)");
      case CONDITIONAL_EXPRESSION:
        if (records.typeOf(t) != null) {
          throw recordAsNumber(t);
        }
        return conditional((ConditionalExpressionTree) t);
      case ARRAY_ACCESS:
        return arrayRead((ArrayAccessTree) t);
      case METHOD_INVOCATION:
        return call((MethodInvocationTree) t);
      case NEW_CLASS:
        if (records.typeOf(t) != null) {
          throw recordAsNumber(t);
        }
        throw new KilnDiagnostic(t, Message.ALLOCATION_IN_WORKER);
      case NEW_ARRAY:
        throw new KilnDiagnostic(t, Message.ALLOCATION_IN_WORKER);
      case INSTANCE_OF:
        throw new KilnDiagnostic(t, Message.OBJECT_USE, "instanceof");
      default:
        if (t instanceof BinaryTree b) {
          return binary(b);
        }
        throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, TreeText.describe(t));
    }
  }

  Expr literal(Object value) {
    if (value instanceof Integer i) return state.f.integral(ScalarType.INT, i);
    if (value instanceof Long l) return state.f.integral(ScalarType.LONG, l);
    if (value instanceof Float x) return state.f.constant(ScalarType.FLOAT, x);
    if (value instanceof Double d) return state.f.constant(ScalarType.DOUBLE, d);
    if (value instanceof Boolean b) return state.f.bool(b);
    if (value instanceof Short s) return state.f.integral(ScalarType.INT, s);
    if (value instanceof Byte b) return state.f.integral(ScalarType.INT, b);
    if (value instanceof Character c) return state.f.integral(ScalarType.INT, c);
    return null;
  }

  private KilnDiagnostic recordAsNumber(ExpressionTree t) {
    RecordType type = records.typeOf(t);
    String hint = type.components().isEmpty() ? "" : " (read a component: " + t + "." + type.components().get(0).name() + "())";
    return new KilnDiagnostic(t, Message.RECORD_VALUE, "'" + t + "' is a " + type.name() + " where a number is expected" + hint);
  }

  private Expr identifier(IdentifierTree t) {
    String name = t.getName().toString();
    if (records.typeOf(t) != null) {
      throw recordAsNumber(t);
    }
    Local local = state.env.get(name);
    if (local == null) {
      Expr field = records.implicitField(name);
      if (field != null && state.signature.param(name) == null) {
        return field;
      }
    }
    if (local != null) {
      if (local.value() == null) {
        throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "reading local '" + name + "' before it is assigned");
      }
      return local.value();
    }
    Param p = state.signature.param(name);
    if (p instanceof Param.Scalar s) {
      return state.f.scalar(s);
    }
    if (p instanceof Param.Array) {
      throw new KilnDiagnostic(
          t, Message.UNSUPPORTED_EXPRESSION, "the array '" + name + "' used as a value (index it: " + name + "[i])");
    }
    return constant(t, "'" + name + "'");
  }

  private Expr memberSelect(MemberSelectTree t) {
    Expr field = records.field(t);
    if (field != null) {
      return field;
    }
    if (t.getIdentifier().contentEquals("length")
        && t.getExpression() instanceof IdentifierTree id
        && state.signature.param(id.getName().toString()) instanceof Param.Array) {
      throw new KilnDiagnostic(
          t, Message.UNSUPPORTED_EXPRESSION, "'" + t + "' (use the @Dim sizes of its @Shape instead)");
    }
    return constant(t, "'" + t + "'");
  }

  private Expr constant(ExpressionTree t, String what) {
    Object value = state.names.constant(t);
    Expr c = value == null ? null : literal(value);
    if (c == null) {
      throw new KilnDiagnostic(t, Message.OBJECT_USE, what);
    }
    return c;
  }

  private Expr typeCast(TypeCastTree t) {
    if (!(t.getType() instanceof PrimitiveTypeTree p)) {
      throw new KilnDiagnostic(t, Message.OBJECT_USE, "a cast to " + t.getType());
    }
    ScalarType to = ScalarType.ofJavaName(p.getPrimitiveTypeKind().name().toLowerCase(java.util.Locale.ROOT));
    if (to == null) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "a cast to " + p);
    }
    Expr x = lower(t.getExpression());
    if ((to == ScalarType.BOOL) != (x.type() == ScalarType.BOOL)) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "a cast between boolean and a number");
    }
    return state.f.cast(to, x);
  }

  private Expr unary(UnaryTree t) {
    Expr x = lower(t.getExpression());
    switch (t.getKind()) {
      case UNARY_PLUS:
        return numeric(t, x, "unary +");
      case UNARY_MINUS:
        return state.f.unary(UnaryOp.NEG, numeric(t, x, "unary -"));
      case LOGICAL_COMPLEMENT:
        requireBool(t, x, "!");
        return state.f.unary(UnaryOp.NOT, x);
      default:
        if (!x.type().isIntegral()) {
          throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "~ on a " + x.type().javaName());
        }
        return state.f.unary(UnaryOp.BIT_NOT, numeric(t, x, "~"));
    }
  }

  /** Unary numeric promotion. */
  private Expr numeric(Tree t, Expr x, String what) {
    if (!x.type().isNumeric()) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, what + " on a boolean");
    }
    return state.f.cast(ScalarType.promote(x.type(), ScalarType.INT), x);
  }

  private static void requireBool(Tree t, Expr x, String what) {
    if (x.type() != ScalarType.BOOL) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, what + " on a " + x.type().javaName());
    }
  }

  private Expr binary(BinaryTree t) {
    BinaryOp op = binaryOp(t);
    Expr a = lower(t.getLeftOperand());
    if (op == BinaryOp.LAND || op == BinaryOp.LOR) {
      requireBool(t, a, t.getKind() == Tree.Kind.CONDITIONAL_AND ? "&&" : "||");
      Expr cond = op == BinaryOp.LAND ? a : state.f.unary(UnaryOp.NOT, a);
      Expr b = state.underCondition(cond, () -> lower(t.getRightOperand()));
      requireBool(t, b, op == BinaryOp.LAND ? "&&" : "||");
      return state.f.binary(op, a, b, state.scope);
    }
    Expr b = lower(t.getRightOperand());
    return combine(t, op, a, b);
  }

  /** {@code a op b} with Java's promotions, also used by compound assignments. */
  Expr combine(Tree t, BinaryOp op, Expr a, Expr b) {
    if (op.isShift()) {
      if (!a.type().isIntegral() || !b.type().isIntegral()) {
        throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "a shift of a non-integer");
      }
      return state.f.binary(op, numeric(t, a, op.javaSymbol()), numeric(t, b, op.javaSymbol()), state.scope);
    }
    boolean bools = a.type() == ScalarType.BOOL && b.type() == ScalarType.BOOL;
    if (bools) {
      switch (op) {
        case EQ: case NE: case AND: case OR: case XOR:
          return state.f.binary(op, a, b, state.scope);
        default:
          throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "'" + op.javaSymbol() + "' on booleans");
      }
    }
    if (!a.type().isNumeric() || !b.type().isNumeric()) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "'" + op.javaSymbol() + "' between a boolean and a number");
    }
    ScalarType type = ScalarType.promote(a.type(), b.type());
    if ((op == BinaryOp.AND || op == BinaryOp.OR || op == BinaryOp.XOR) && !type.isIntegral()) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "'" + op.javaSymbol() + "' on a " + type.javaName());
    }
    Expr result = state.f.binary(op, state.f.cast(type, a), state.f.cast(type, b), state.scope);
    boolean nonZeroDivisor = b instanceof Expr.Const d && d.integralValue() != 0;
    if (type.isIntegral() && (op == BinaryOp.DIV || op == BinaryOp.REM) && !nonZeroDivisor
        && !(state.path instanceof Expr.Const c && c.isTrue())) {
      // integer division traps on zero: evaluate it only where the source would (a constant
      // divisor other than 0 cannot trap, and leaves N / 2 a size the gradient can read)
      result = state.f.select(state.path, result, state.f.integral(type, 0));
    }
    return result;
  }

  private static BinaryOp binaryOp(BinaryTree t) {
    switch (t.getKind()) {
      case PLUS: return BinaryOp.ADD;
      case MINUS: return BinaryOp.SUB;
      case MULTIPLY: return BinaryOp.MUL;
      case DIVIDE: return BinaryOp.DIV;
      case REMAINDER: return BinaryOp.REM;
      case AND: return BinaryOp.AND;
      case OR: return BinaryOp.OR;
      case XOR: return BinaryOp.XOR;
      case LEFT_SHIFT: return BinaryOp.SHL;
      case RIGHT_SHIFT: return BinaryOp.SHR;
      case UNSIGNED_RIGHT_SHIFT: return BinaryOp.USHR;
      case LESS_THAN: return BinaryOp.LT;
      case LESS_THAN_EQUAL: return BinaryOp.LE;
      case GREATER_THAN: return BinaryOp.GT;
      case GREATER_THAN_EQUAL: return BinaryOp.GE;
      case EQUAL_TO: return BinaryOp.EQ;
      case NOT_EQUAL_TO: return BinaryOp.NE;
      case CONDITIONAL_AND: return BinaryOp.LAND;
      case CONDITIONAL_OR: return BinaryOp.LOR;
      default:
        throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, TreeText.describe(t));
    }
  }

  private Expr conditional(ConditionalExpressionTree t) {
    Expr c = lower(t.getCondition());
    requireBool(t.getCondition(), c, "?:");
    Expr a = state.underCondition(c, () -> lower(t.getTrueExpression()));
    Expr b = state.underCondition(state.f.unary(UnaryOp.NOT, c), () -> lower(t.getFalseExpression()));
    ScalarType type;
    if (a.type() == b.type()) {
      type = a.type();
    } else if (a.type().isNumeric() && b.type().isNumeric()) {
      type = ScalarType.promote(a.type(), b.type());
    } else {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "?: between a boolean and a number");
    }
    return state.f.select(c, state.f.cast(type, a), state.f.cast(type, b));
  }

  /** The array parameter an array-access tree indexes. */
  Param.Array arrayOf(ArrayAccessTree t) {
    if (t.getExpression() instanceof IdentifierTree id
        && state.signature.param(id.getName().toString()) instanceof Param.Array a) {
      return a;
    }
    if (t.getExpression() instanceof IdentifierTree id && state.env.containsKey(id.getName().toString())) {
      throw new KilnDiagnostic(t, Message.UNSUPPORTED_EXPRESSION, "indexing the local '" + id + "'");
    }
    Signature.RecordArray records = state.recordArray(t);
    if (records != null) {
      throw new KilnDiagnostic(t, Message.RECORD_ARRAY_FORM, records.role() == dev.kiln.processor.ir.ArrayRole.REDUCE
          ? "'" + t + "' is used outside an update r[i] = r[i].m(e)"
          : "'" + t + "' is a " + records.record().getSimpleName() + " where a number is expected (read a component, as "
              + t + "." + records.components().get(0).record().component() + "())");
    }
    throw new KilnDiagnostic(
        t.getExpression(), Message.UNSUPPORTED_EXPRESSION, "indexing '" + t.getExpression() + "' (only array parameters can be indexed)");
  }

  /** The index of an array access, typed and checked against the array's bounds. */
  Expr index(ArrayAccessTree t, Param.Array array) {
    Expr index = lower(t.getIndex());
    if (index.type() != ScalarType.INT) {
      throw new KilnDiagnostic(t.getIndex(), Message.UNSUPPORTED_EXPRESSION, "an index of type " + index.type().javaName());
    }
    state.bounds.check(t, array, index, state.path);
    return index;
  }

  private Expr arrayRead(ArrayAccessTree t) {
    Param.Array array = arrayOf(t);
    if (array.role() != ArrayRole.IN) {
      throw new KilnDiagnostic(t, Message.READ_OF_OUTPUT, array.name());
    }
    return state.f.load(array, index(t, array), state.path, state.scope);
  }

  private Expr call(MethodInvocationTree t) {
    RecordExpressions.Call recordCall = records.resolve(t);
    if (recordCall != null) {
      Object value = records.call(recordCall, t);
      if (value instanceof Expr e) {
        return e;
      }
      throw recordAsNumber(t);
    }
    Callee callee = state.names.callee(t);
    if (callee instanceof Callee.Unknown u) {
      throw new KilnDiagnostic(t, Message.UNKNOWN_CALL, u.description());
    }
    List<Expr> args = new ArrayList<>();
    for (ExpressionTree a : t.getArguments()) {
      args.add(lower(a));
    }
    if (callee instanceof Callee.Math m) {
      return mathCall(t, m, args);
    }
    OperatorIr.Elementwise target = state.inliner.elementwise(((Callee.Operator) callee).element(), t);
    List<Param> params = target.params();
    if (params.size() != args.size()) {
      throw new KilnDiagnostic(t, Message.ARGUMENT_MISMATCH, target.name(),
          "it takes " + params.size() + " arguments, " + args.size() + " given");
    }
    Map<Expr, Expr> replace = new HashMap<>();
    for (int i = 0; i < params.size(); i++) {
      Param.Scalar p = (Param.Scalar) params.get(i);
      Expr a = args.get(i);
      if (!a.type().widensTo(p.type())) {
        throw new KilnDiagnostic(t.getArguments().get(i), Message.ARGUMENT_MISMATCH, target.name(),
            "parameter '" + p.name() + "' is a " + p.type().javaName() + " but the argument is a " + a.type().javaName());
      }
      replace.put(state.f.scalar(p), state.f.cast(p.type(), a));
    }
    return state.f.substitute(target.result(), replace, state.scope);
  }

  private Expr mathCall(MethodInvocationTree t, Callee.Math m, List<Expr> args) {
    if (m.fn().random()) {
      return randomCall(t, m.fn(), args);
    }
    for (int i = 0; i < args.size(); i++) {
      if (!args.get(i).type().isNumeric()) {
        throw new KilnDiagnostic(t.getArguments().get(i), Message.UNSUPPORTED_EXPRESSION, "a boolean argument to " + m.fn().javaName());
      }
    }
    ScalarType widest = ScalarType.INT;
    for (Expr a : args) {
      widest = ScalarType.promote(widest, a.type());
    }
    ScalarType type;
    MathFn fn = m.fn();
    if (!m.kmath() && (fn == MathFn.ABS || fn == MathFn.MIN || fn == MathFn.MAX)) {
      type = widest;
    } else if (m.kmath() || fn == MathFn.SIGNUM || fn == MathFn.FMA) {
      type = widest == ScalarType.DOUBLE ? ScalarType.DOUBLE : ScalarType.FLOAT;
    } else {
      type = ScalarType.DOUBLE;
    }
    List<Expr> cast = new ArrayList<>();
    for (Expr a : args) {
      cast.add(state.f.cast(type, a));
    }
    return state.f.call(fn, type, cast);
  }

  /** {@code KRandom.uniform/normal(seed, stream, index)}: each argument an int (or narrower), the value a float. */
  private Expr randomCall(MethodInvocationTree t, MathFn fn, List<Expr> args) {
    String[] roles = {"seed", "stream", "index"};
    List<Expr> cast = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      Expr a = args.get(i);
      if (!a.type().isIntegral() || !a.type().widensTo(ScalarType.INT)) {
        throw new KilnDiagnostic(t.getArguments().get(i), Message.UNSUPPORTED_EXPRESSION,
            "a " + a.type().javaName() + " as the " + roles[i] + " of KRandom." + fn.javaName() + " (it takes int seed, stream and index)");
      }
      cast.add(state.f.cast(ScalarType.INT, a));
    }
    return state.f.call(fn, ScalarType.FLOAT, cast);
  }
}
