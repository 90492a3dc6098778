package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * Writes the SIMD form of a grid kernel that {@link SimdPlan} accepts: one chunk
 * {@code [lo, hi)} of the outermost grid dimension, with the innermost dimension stepped a vector
 * at a time ({@code FloatVector.SPECIES_PREFERRED}) and its remainder run as one masked vector. Values
 * that do not depend on the innermost index are scalar code, as in the scalar kernel.
 */
final class SimdKernelWriter {
  static final ClassName FLOAT_VECTOR = ClassName.get("jdk.incubator.vector", "FloatVector");
  static final ClassName VECTOR_MASK = ClassName.get("jdk.incubator.vector", "VectorMask");
  static final ClassName VECTOR_SPECIES = ClassName.get("jdk.incubator.vector", "VectorSpecies");
  static final ClassName VECTOR_OPERATORS = ClassName.get("jdk.incubator.vector", "VectorOperators");
  static final ClassName VECTOR_MATH = ClassName.get("dev.kiln.runtime.simd", "VectorMath");
  static final TypeName FLOAT_MASK = ParameterizedTypeName.get(VECTOR_MASK, TypeName.FLOAT.box());
  static final TypeName FLOAT_SPECIES = ParameterizedTypeName.get(VECTOR_SPECIES, TypeName.FLOAT.box());
  /** The species field of the generated class. */
  static final String SPECIES = "SPECIES";

  private SimdKernelWriter() {}

  /** {@code static void <op>(int lo, int hi, <op's parameters>)}. */
  static MethodSpec write(OperatorIr op, ClassName owner) {
    List<String> reserved = new ArrayList<>();
    op.params().forEach(p -> reserved.add(p.name()));
    reserved.add(SPECIES);
    Names names = new Names(reserved);
    String lo = names.fresh("lo");
    String hi = names.fresh("hi");
    MethodSpec.Builder m = MethodSpec.methodBuilder(op.name())
        .addModifiers(Modifier.STATIC)
        .addJavadoc("SIMD form of {@link $T#$L} over outer indices {@code [lo, hi)}.\n", owner, op.name())
        .addParameter(TypeName.INT, lo)
        .addParameter(TypeName.INT, hi);
    for (Param p : op.params()) {
      m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
    }
    int last = op.grid().size() - 1;
    Map<Expr, String> bound = new HashMap<>();
    List<String> outerVars = new ArrayList<>();
    for (int k = 0; k < last; k++) {
      String v = names.fresh(op.grid().get(k).var().name());
      outerVars.add(v);
      bound.put(op.grid().get(k).var(), v);
    }
    GridDim inner = op.grid().get(last);
    String v = names.fresh(inner.var().name());
    bound.put(inner.var(), v);
    String start = last == 0 ? lo : "0";
    String end = last == 0 ? hi : inner.extent().name();
    String limit = names.fresh("vectorEnd");
    String mask = names.fresh("tail");

    CodeBlock.Builder rows = CodeBlock.builder();
    rows.addStatement("final int $N = $N + $N.loopBound($N - $N)", limit, start, SPECIES, end, start);
    rows.addStatement("int $N = $N", v, start);
    rows.beginControlFlow("for (; $N < $N; $N += $N.length())", v, limit, v, SPECIES);
    rows.add(new Body(op, names, bound, null).code());
    rows.endControlFlow();
    rows.beginControlFlow("if ($N < $N)", v, end);
    rows.addStatement("final $T $N = $N.indexInRange($N, $N)", FLOAT_MASK, mask, SPECIES, v, end);
    rows.add(new Body(op, names, bound, mask).code());
    rows.endControlFlow();
    CodeBlock code = rows.build();
    for (int k = last - 1; k >= 0; k--) {
      String var = outerVars.get(k);
      code = k == 0
          ? CodeBlock.of("for (int $N = $N; $N < $N; $N++) {\n$>$L$<}\n", var, lo, var, hi, var, code)
          : CodeBlock.of("for (int $N = 0; $N < $N; $N++) {\n$>$L$<}\n", var, var, op.grid().get(k).extent().name(), var, code);
    }
    return m.addCode(code).build();
  }

  /** One vector step of every worker statement; each expression a local, computed once. */
  private static final class Body {
    private final OperatorIr op;
    private final Names names;
    private final Map<Expr, String> bound;
    private final String mask;
    private final SimdPlan plan;
    private final Map<Expr, CodeBlock> scalars = new HashMap<>();
    private final Map<Expr, CodeBlock> vectors = new HashMap<>();
    private final CodeBlock.Builder out = CodeBlock.builder();

    Body(OperatorIr op, Names names, Map<Expr, String> bound, String mask) {
      this.op = op;
      this.names = names;
      this.bound = bound;
      this.mask = mask;
      this.plan = SimdPlan.forLane(op.grid().get(op.grid().size() - 1).var());
    }

    CodeBlock code() {
      for (Stmt s : op.body()) {
        Stmt.Store store = (Stmt.Store) s;
        CodeBlock value = vector(store.value());
        CodeBlock index = scalar(store.index());
        CodeBlock lanes = lanes(store.guard());
        if (lanes == null) {
          out.addStatement("$L.intoArray($N, $L)", value, store.array().name(), index);
        } else {
          out.addStatement("$L.intoArray($N, $L, $L)", value, store.array().name(), index, lanes);
        }
      }
      return out.build();
    }

    /** The lanes an access under {@code guard} touches: null for all of them. */
    private CodeBlock lanes(Expr guard) {
      if (SimdPlan.isTrue(guard)) {
        return mask == null ? null : CodeBlock.of("$N", mask);
      }
      CodeBlock g = vector(guard);
      if (mask == null) {
        return g;
      }
      String name = names.fresh("lanes");
      out.addStatement("final $T $N = $L.and($N)", FLOAT_MASK, name, g, mask);
      return CodeBlock.of("$N", name);
    }

    private String local(Expr e, String base) {
      return names.fresh(op.names().getOrDefault(e, base));
    }

    /** Java for a value the same in every lane (with the lane variable at the vector's first lane). */
    private CodeBlock scalar(Expr e) {
      CodeBlock known = scalars.get(e);
      if (known != null) {
        return known;
      }
      CodeBlock code;
      if (e instanceof Expr.Const c) {
        return JavaLiterals.of(c);
      } else if (e instanceof Expr.ScalarRef s) {
        return CodeBlock.of("$N", s.param().name());
      } else if (e instanceof Expr.Var var) {
        return CodeBlock.of("$N", bound.get(var));
      } else if (e instanceof Expr.Load load) {
        code = SimdPlan.isTrue(load.guard())
            ? CodeBlock.of("$N[$L]", load.array().name(), scalar(load.index()))
            : CodeBlock.of("($L ? $N[$L] : $L)", scalar(load.guard()), load.array().name(), scalar(load.index()),
                JavaLiterals.zero(load.type()));
      } else if (e instanceof Expr.Unary u) {
        code = CodeBlock.of("($L$L)", u.op().javaSymbol(), scalar(u.operand()));
      } else if (e instanceof Expr.Binary b) {
        code = JavaSyntax.INSTANCE.binary(b.op(), b.left().type(), scalar(b.left()), scalar(b.right()));
      } else if (e instanceof Expr.Select s) {
        code = CodeBlock.of("($L ? $L : $L)", scalar(s.cond()), scalar(s.ifTrue()), scalar(s.ifFalse()));
      } else if (e instanceof Expr.Cast c) {
        code = JavaSyntax.INSTANCE.cast(c.type(), scalar(c.operand()));
      } else {
        Expr.Call call = (Expr.Call) e;
        List<CodeBlock> args = new ArrayList<>();
        call.args().forEach(a -> args.add(scalar(a)));
        code = JavaSyntax.INSTANCE.call(call, args);
      }
      String name = local(e, "s");
      out.addStatement("final $T $N = $L", JavaTypes.of(e.type()), name, code);
      CodeBlock ref = CodeBlock.of("$N", name);
      scalars.put(e, ref);
      return ref;
    }

    /** A FloatVector (or, for a boolean, a VectorMask) of the value in every lane. */
    private CodeBlock vector(Expr e) {
      CodeBlock known = vectors.get(e);
      if (known != null) {
        return known;
      }
      boolean isMask = e.type() == ScalarType.BOOL;
      CodeBlock code;
      if (!plan.varying(e)) {
        code = isMask
            ? CodeBlock.of("$N.maskAll($L)", SPECIES, scalar(e))
            : CodeBlock.of("$T.broadcast($N, $L)", FLOAT_VECTOR, SPECIES, scalar(e));
      } else if (e instanceof Expr.Load load) {
        CodeBlock lanes = lanes(load.guard());
        code = lanes == null
            ? CodeBlock.of("$T.fromArray($N, $N, $L)", FLOAT_VECTOR, SPECIES, load.array().name(), scalar(load.index()))
            : CodeBlock.of("$T.fromArray($N, $N, $L, $L)", FLOAT_VECTOR, SPECIES, load.array().name(),
                scalar(load.index()), lanes);
      } else if (e instanceof Expr.Unary u) {
        code = CodeBlock.of(u.op() == UnaryOp.NEG ? "$L.neg()" : "$L.not()", vector(u.operand()));
      } else if (e instanceof Expr.Binary b) {
        code = binary(b);
      } else if (e instanceof Expr.Select s) {
        code = plan.varying(s.cond())
            ? CodeBlock.of("$L.blend($L, $L)", vector(s.ifFalse()), vector(s.ifTrue()), vector(s.cond()))
            : CodeBlock.of("($L ? $L : $L)", scalar(s.cond()), vector(s.ifTrue()), vector(s.ifFalse()));
      } else if (e instanceof Expr.Cast c) {
        return vector(c.operand()); // float to float
      } else {
        code = call((Expr.Call) e);
      }
      String name = local(e, isMask ? "m" : "v");
      out.addStatement("final $T $N = $L", isMask ? FLOAT_MASK : FLOAT_VECTOR, name, code);
      CodeBlock ref = CodeBlock.of("$N", name);
      vectors.put(e, ref);
      return ref;
    }

    private CodeBlock binary(Expr.Binary b) {
      CodeBlock l = vector(b.left());
      CodeBlock r = vector(b.right());
      switch (b.op()) {
        case ADD: return CodeBlock.of("$L.add($L)", l, r);
        case SUB: return CodeBlock.of("$L.sub($L)", l, r);
        case MUL: return CodeBlock.of("$L.mul($L)", l, r);
        case DIV: return CodeBlock.of("$L.div($L)", l, r);
        case LAND: return CodeBlock.of("$L.and($L)", l, r);
        case LOR: return CodeBlock.of("$L.or($L)", l, r);
        default:
          return CodeBlock.of("$L.compare($T.$L, $L)", l, VECTOR_OPERATORS, comparison(b.op()), r);
      }
    }

    private static String comparison(BinaryOp op) {
      switch (op) {
        case LT: return "LT";
        case LE: return "LE";
        case GT: return "GT";
        case GE: return "GE";
        case EQ: return "EQ";
        case NE: return "NE";
        default: throw new IllegalArgumentException("no vector comparison for " + op);
      }
    }

    private CodeBlock call(Expr.Call call) {
      MathFn fn = call.fn();
      CodeBlock a = vector(call.args().get(0));
      switch (fn) {
        case MAX: return CodeBlock.of("$L.max($L)", a, vector(call.args().get(1)));
        case MIN: return CodeBlock.of("$L.min($L)", a, vector(call.args().get(1)));
        case ABS: return CodeBlock.of("$L.abs()", a);
        case SQRT: return CodeBlock.of("$L.sqrt()", a);
        default: return CodeBlock.of("$T.$L($L)", VECTOR_MATH, fn.javaName(), a);
      }
    }
  }
}
