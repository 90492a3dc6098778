package dev.kiln.processor.codegen.cpu;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.codegen.PartialSums;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_MASK;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.FLOAT_VECTOR;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;
import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.VECTOR_OPERATORS;

/**
 * Java for one vector step of IR statements whose lanes are consecutive values of one variable
 * (the innermost grid index, or a sequential loop's index): values that depend on it become
 * {@code FloatVector}s (booleans {@code VectorMask}s), the rest scalar code, each expression a
 * local computed once. Whole vectors only: what is left of a row runs as scalar code elsewhere.
 */
final class VectorBody {
  private final SimdPlan plan;
  private final Names names;
  private final Map<Expr, String> sourceNames;
  private final Function<Expr.Var, CodeBlock> vars;
  private final CodeBlock.Builder out;
  private final Map<Expr, CodeBlock> scalars = new HashMap<>();
  private final Map<Expr, CodeBlock> vectors = new HashMap<>();
  /** The enclosing body, for a sequential loop's body: its locals are visible here. */
  private final VectorBody parent;

  /**
   * @param plan says which values depend on the lane variable
   * @param vars Java for each variable, the lane variable at the vector's first lane
   * @param out where the statements go
   */
  VectorBody(SimdPlan plan, Names names, Map<Expr, String> sourceNames, Function<Expr.Var, CodeBlock> vars,
      CodeBlock.Builder out) {
    this.plan = plan;
    this.names = names;
    this.sourceNames = sourceNames;
    this.vars = vars;
    this.out = out;
    this.parent = null;
  }

  /** The body of a sequential loop inside {@code parent}, written to {@code out}. */
  private VectorBody(VectorBody parent, CodeBlock.Builder out) {
    this.plan = parent.plan;
    this.names = parent.names;
    this.sourceNames = parent.sourceNames;
    this.vars = parent.vars;
    this.out = out;
    this.parent = parent;
  }

  /** Takes the scalars {@code computed} before this body (a loop's invariant values, {@link LoopInvariants}). */
  void adopt(Map<Expr, CodeBlock> computed) {
    scalars.putAll(computed);
  }

  /** The scalars this body has computed into locals, by value. */
  Map<Expr, CodeBlock> computedScalars() {
    return Map.copyOf(scalars);
  }

  /** Takes {@code code} for {@code e}'s vector (or mask), computed by the caller. */
  void bind(Expr e, CodeBlock code) {
    vectors.put(e, code);
  }

  /** Takes {@code e}'s vector from {@code array} at {@code index} (computed by an earlier stage). */
  void load(Expr e, String array, CodeBlock index) {
    String name = names.fresh("stage");
    out.addStatement("final $T $N = $T.fromArray($N, $N, $L)", FLOAT_VECTOR, name, FLOAT_VECTOR, SPECIES, array, index);
    vectors.put(e, CodeBlock.of("$N", name));
  }

  /** Every statement in order: stores, and sequential loops whose carried values are vectors. */
  void statements(List<Stmt> body) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Store store) {
        store(store);
      } else {
        loop((Stmt.Loop) s);
      }
    }
  }

  /**
   * A sequential loop run by every lane at once (its bounds are the same in every lane): each
   * carried value a vector, so each lane updates its own in the loop's order.
   */
  private void loop(Stmt.Loop l) {
    List<String> carried = new ArrayList<>();
    // a derived gradient's sum in sixteen partials (PartialSums), each lane's in its own column:
    // partial j of every lane is the vector at j * lanes
    List<PartialSums.Sum> sums = new ArrayList<>();
    List<String> parts = new ArrayList<>();
    for (Stmt.Carried c : l.carried()) {
      String name = names.fresh(c.phi().name());
      out.addStatement("$T $N = $L", FLOAT_VECTOR, name, vector(c.init()));
      carried.add(name);
      vectors.put(c.phi(), CodeBlock.of("$N", name));
      PartialSums.Sum sum = PartialSums.of(l, c);
      sums.add(sum);
      parts.add(sum == null ? null : names.fresh(name + "Parts"));
      if (sum != null) {
        out.addStatement("final float[] $N = new float[$L * $N.length()]", parts.get(parts.size() - 1), PartialSums.PARTS,
            SPECIES);
      }
    }
    CodeBlock lo = scalar(l.lo());
    String first = null;
    if (sums.stream().anyMatch(java.util.Objects::nonNull)) {
      first = names.fresh("first");
      out.addStatement("final int $N = $L", first, lo);
    }
    CodeBlock hi = scalar(l.hi());
    CodeBlock guard = SimdPlan.isTrue(l.guard()) ? null : scalar(l.guard());
    String k = names.fresh(l.index().name());
    scalars.put(l.index(), CodeBlock.of("$N", k));
    CodeBlock.Builder inner = CodeBlock.builder();
    VectorBody body = new VectorBody(this, inner);
    body.statements(l.body());
    List<CodeBlock> nexts = new ArrayList<>();
    for (int i = 0; i < l.carried().size(); i++) {
      Stmt.Carried c = l.carried().get(i);
      if (sums.get(i) != null) {
        String slot = names.fresh("slot");
        inner.addStatement("final int $N = (($N - $N) & $L) * $N.length()", slot, k, first, PartialSums.PARTS - 1, SPECIES);
        inner.addStatement("$T.fromArray($N, $N, $N).add($L).intoArray($N, $N)", FLOAT_VECTOR, SPECIES, parts.get(i), slot,
            body.vector(sums.get(i).term()), parts.get(i), slot);
        nexts.add(null);
        continue;
      }
      if (c.next() == c.phi()) {
        nexts.add(null);
        continue;
      }
      String next = names.fresh(carried.get(i) + "Next");
      inner.addStatement("final $T $N = $L", FLOAT_VECTOR, next, body.vector(c.next()));
      nexts.add(CodeBlock.of("$N", next));
    }
    for (int i = 0; i < nexts.size(); i++) {
      if (nexts.get(i) != null) {
        inner.addStatement("$N = $L", carried.get(i), nexts.get(i));
      }
    }
    String step = l.step() == 1 ? k + "++" : k + " += " + l.step();
    CodeBlock loop = CodeBlock.of("for (int $N = $L; $N < $L; $L) {\n$>$L$<}\n", k, lo, k, hi, step, inner.build());
    // a sum in partials takes its total after the loop, under the loop's guard (as the scalar kernel does)
    CodeBlock.Builder run = CodeBlock.builder().add(loop);
    for (int i = 0; i < l.carried().size(); i++) {
      if (sums.get(i) != null) {
        CodeBlock total = total(parts.get(i), run);
        run.addStatement("$N = $N.$L($L)", carried.get(i), carried.get(i), sums.get(i).subtract() ? "sub" : "add", total);
      }
    }
    if (guard == null) {
      out.add(run.build());
    } else {
      out.beginControlFlow("if ($L)", guard).add(run.build()).endControlFlow();
    }
    for (int i = 0; i < l.carried().size(); i++) {
      vectors.put(l.carried().get(i).result(), CodeBlock.of("$N", carried.get(i)));
    }
  }

  /**
   * Each lane's total of its sixteen partials in {@code parts}, written to {@code code}, in the tree of the runtime's
   * {@code UnorderedSums.total}: partial j and j + 8, then j and j + 4, j and j + 2, the two left.
   */
  private CodeBlock total(String parts, CodeBlock.Builder code) {
    List<String> level = new ArrayList<>();
    for (int j = 0; j < PartialSums.PARTS; j++) {
      String v = names.fresh("part");
      code.addStatement("final $T $N = $T.fromArray($N, $N, $L * $N.length())", FLOAT_VECTOR, v, FLOAT_VECTOR, SPECIES, parts,
          j, SPECIES);
      level.add(v);
    }
    while (level.size() > 1) {
      int half = level.size() / 2;
      List<String> next = new ArrayList<>();
      for (int j = 0; j < half; j++) {
        String v = names.fresh("part");
        code.addStatement("final $T $N = $N.add($N)", FLOAT_VECTOR, v, level.get(j), level.get(j + half));
        next.add(v);
      }
      level = next;
    }
    return CodeBlock.of("$N", level.get(0));
  }

  private CodeBlock knownScalar(Expr e) {
    for (VectorBody b = this; b != null; b = b.parent) {
      CodeBlock known = b.scalars.get(e);
      if (known != null) {
        return known;
      }
    }
    return null;
  }

  private CodeBlock knownVector(Expr e) {
    for (VectorBody b = this; b != null; b = b.parent) {
      CodeBlock known = b.vectors.get(e);
      if (known != null) {
        return known;
      }
    }
    return null;
  }

  /** {@code value.intoArray(array, index[, lanes])}. */
  void store(Stmt.Store store) {
    CodeBlock value = vector(store.value());
    CodeBlock index = scalar(store.index());
    CodeBlock lanes = lanes(store.guard());
    if (lanes == null) {
      out.addStatement("$L.intoArray($N, $L)", value, store.array().name(), index);
    } else {
      out.addStatement("$L.intoArray($N, $L, $L)", value, store.array().name(), index, lanes);
    }
  }

  /** The lanes an access under {@code guard} touches: null for all of them. */
  CodeBlock lanes(Expr guard) {
    return SimdPlan.isTrue(guard) ? null : vector(guard);
  }

  private String local(Expr e, String base) {
    return names.fresh(sourceNames.getOrDefault(e, base));
  }

  /** Whether computing {@code e} (not yet computed) can throw: an integer division or remainder, or an array read. */
  private boolean traps(Expr e) {
    if (knownScalar(e) != null) {
      return false;
    }
    if (e instanceof Expr.Load
        || (e instanceof Expr.Binary b && b.left().type().isIntegral()
            && (b.op() == BinaryOp.DIV || b.op() == BinaryOp.REM))) {
      return true;
    }
    for (Expr o : e.operands()) {
      if (traps(o)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code e} as one Java expression whose parts that can throw are computed only where Java
   * computes them; parts that cannot throw are computed ahead as locals (shared, so a DAG does not
   * grow into a tree), values already computed are reused.
   */
  private CodeBlock inline(Expr e) {
    return traps(e) ? node(e, this::inline) : scalar(e);
  }

  /** Java for a value the same in every lane (with the lane variable at the vector's first lane). */
  CodeBlock scalar(Expr e) {
    CodeBlock known = knownScalar(e);
    if (known != null) {
      return known;
    }
    CodeBlock code = node(e, this::scalar);
    if (e instanceof Expr.Const || e instanceof Expr.ScalarRef || e instanceof Expr.Var) {
      return code;
    }
    String name = local(e, "s");
    out.addStatement("final $T $N = $L", JavaTypes.of(e.type()), name, code);
    CodeBlock ref = CodeBlock.of("$N", name);
    scalars.put(e, ref);
    return ref;
  }

  /**
   * Java for the node {@code e} of a scalar value, its operands written by {@code operand}; a
   * {@code ?:}'s branches through {@link #inline}: one that can throw (an integer division, a
   * read) is evaluated only when taken, as in Java's ?: and the scalar kernel.
   */
  private CodeBlock node(Expr e, Function<Expr, CodeBlock> operand) {
    if (e instanceof Expr.Const c) {
      return JavaLiterals.of(c);
    } else if (e instanceof Expr.ScalarRef s) {
      return CodeBlock.of("$N", s.param().name());
    } else if (e instanceof Expr.Var var) {
      return vars.apply(var);
    } else if (e instanceof Expr.Load load) {
      return SimdPlan.isTrue(load.guard())
          ? CodeBlock.of("$N[$L]", load.array().name(), operand.apply(load.index()))
          : CodeBlock.of("($L ? $N[$L] : $L)", operand.apply(load.guard()), load.array().name(),
              operand.apply(load.index()), JavaLiterals.zero(load.type()));
    } else if (e instanceof Expr.Unary u) {
      return CodeBlock.of("($L$L)", u.op().javaSymbol(), operand.apply(u.operand()));
    } else if (e instanceof Expr.Binary b) {
      return JavaSyntax.INSTANCE.binary(b.op(), b.left().type(), operand.apply(b.left()), operand.apply(b.right()));
    } else if (e instanceof Expr.Select s) {
      CodeBlock cond = operand.apply(s.cond());
      return CodeBlock.of("($L ? $L : $L)", cond, inline(s.ifTrue()), inline(s.ifFalse()));
    } else if (e instanceof Expr.Cast c) {
      return JavaSyntax.INSTANCE.cast(c.type(), c.operand().type(), operand.apply(c.operand()));
    }
    Expr.Call call = (Expr.Call) e;
    List<CodeBlock> args = new ArrayList<>();
    call.args().forEach(a -> args.add(operand.apply(a)));
    return JavaSyntax.INSTANCE.call(call, args);
  }

  /** A FloatVector (or, for a boolean, a VectorMask) of the value in every lane. */
  CodeBlock vector(Expr e) {
    CodeBlock known = knownVector(e);
    if (known != null) {
      return known;
    }
    boolean isMask = e.type() == ScalarType.BOOL;
    CodeBlock code;
    if (!plan.varying(e)) {
      code = isMask
          ? CodeBlock.of("$N.maskAll($L)", SPECIES, scalar(e))
          : CodeBlock.of("$T.broadcast($N, $L)", FLOAT_VECTOR, SPECIES, scalar(e));
    } else if (e instanceof Expr.Load load && !plan.varying(load.index())) {
      // one element, read only where the guard holds (so only if it holds in some lane), else zero
      CodeBlock lanes = lanes(load.guard());
      code = CodeBlock.of("($L.anyTrue() ? $T.broadcast($N, $N[$L]).blend(0f, $L.not()) : $T.zero($N))", lanes,
          FLOAT_VECTOR, SPECIES, load.array().name(), scalar(load.index()), lanes, FLOAT_VECTOR, SPECIES);
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
    if (b.op().isComparison() && b.left().type() == ScalarType.INT) {
      return laneComparison(b);
    }
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

  /**
   * An int comparison of the lane variable (plus lane-free terms, {@code v}) with a lane-free bound
   * {@code u}: lane {@code j} holds {@code v0 + j}, so {@code v0 + j <= u} is {@code j <= u - v0},
   * compared with the lane numbers as floats. The difference is computed in long and clamped to
   * {@code [-1, lanes]}, where the float comparison with lane numbers {@code 0..lanes-1} is exact
   * and gives the int comparison's answer.
   */
  private CodeBlock laneComparison(Expr.Binary b) {
    Expr moving = plan.laneCompared(b);
    boolean left = moving == b.left();
    CodeBlock bound = scalar(left ? b.right() : b.left());
    String gap = names.fresh("gap");
    out.addStatement("final float $N = (float) $T.max(-1L, $T.min((long) $N.length(), (long) $L - (long) $L))", gap,
        Math.class, Math.class, SPECIES, bound, scalar(moving));
    BinaryOp op = left ? b.op() : mirrored(b.op());
    return CodeBlock.of("$T.zero($N).addIndex(1).compare($T.$L, $N)", FLOAT_VECTOR, SPECIES, VECTOR_OPERATORS,
        comparison(op), gap);
  }

  /** {@code u op v} as {@code v op' u}. */
  private static BinaryOp mirrored(BinaryOp op) {
    switch (op) {
      case LT: return BinaryOp.GT;
      case LE: return BinaryOp.GE;
      case GT: return BinaryOp.LT;
      case GE: return BinaryOp.LE;
      default: return op;
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
    if (fn.random()) {
      VectorRandomCode random = new VectorRandomCode(out, names);
      CodeBlock seed = scalar(call.args().get(0));
      CodeBlock stream = scalar(call.args().get(1));
      CodeBlock first = scalar(call.args().get(2));
      return CodeBlock.of("$N", fn == MathFn.UNIFORM ? random.uniform(seed, stream, first) : random.normal(seed, stream, first));
    }
    CodeBlock a = vector(call.args().get(0));
    switch (fn) {
      case MAX: return CodeBlock.of("$L.max($L)", a, vector(call.args().get(1)));
      case MIN: return CodeBlock.of("$L.min($L)", a, vector(call.args().get(1)));
      case ABS: return CodeBlock.of("$L.abs()", a);
      case SQRT: return CodeBlock.of("$L.sqrt()", a);
      default: return CodeBlock.of("$N", new VectorMathCode(out, names).call(fn, a.toString()));
    }
  }
}
