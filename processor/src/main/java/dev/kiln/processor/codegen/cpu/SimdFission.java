package dev.kiln.processor.codegen.cpu;

import static dev.kiln.processor.codegen.cpu.SimdKernelWriter.SPECIES;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MathFn;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.lang.model.element.Modifier;

/**
 * The lanes form of a kernel with several exp/tanh/sigmoid/erf calls (the LSTM cell and its
 * gradient), split into stages, each a method of its own: stage {@code i} computes the
 * {@code i}-th call over a block of a row (256 workers) and stores it in a scratch array, later stages
 * read it back, and the last stage computes the last call itself and does the stores. The same
 * operations on the same floats, so the same results; what changes is that no method is large
 * enough to spend C2's inlining budget (past which the Vector API's calls are not inlined and every
 * vector is boxed: such a kernel ran no faster than scalar code). The scratch rows stay in cache.
 */
final class SimdFission {
  /**
   * Workers a stage runs at a time: scratch rows of 1 KB, which stay in L1 with the block's inputs
   * however many stages there are. Rows of 2048 (8 KB each; the LSTM cell's five made 20 KB at
   * H = 1024, 40 KB from H = 2048, beside the block's inputs) left its forward kernel about 1.35x as
   * long on an AMD EPYC with 48 KB of L1 (B = H = 1024, over several runs: 2048 workers 1.07-1.24
   * ms, 512 0.96-1.11, 256 0.71-0.96, 128 0.76-0.82, 64 0.91-0.97).
   */
  private static final int BLOCK = 256;

  static final Set<MathFn> HEAVY = EnumSet.of(MathFn.EXP, MathFn.TANH, MathFn.SIGMOID, MathFn.ERF);

  private SimdFission() {}

  /** The calls to stage, operands first; empty unless every statement is a store. */
  static List<Expr.Call> stages(OperatorIr.Grid op) {
    if (op.body().stream().anyMatch(s -> !(s instanceof Stmt.Store))) {
      return List.of();
    }
    SimdPlan plan = SimdPlan.forLanes(op);
    Map<Integer, Expr.Call> byId = new TreeMap<>();
    for (Stmt s : op.body()) {
      Stmt.Store store = (Stmt.Store) s;
      collect(store.value(), plan, byId, new java.util.HashSet<>());
      collect(store.guard(), plan, byId, new java.util.HashSet<>());
    }
    return new ArrayList<>(byId.values()); // ids grow from operands to users
  }

  private static void collect(Expr e, SimdPlan plan, Map<Integer, Expr.Call> out, Set<Expr> seen) {
    if (!seen.add(e) || !plan.varying(e) || e instanceof Expr.Load) {
      return;
    }
    if (e instanceof Expr.Call c && HEAVY.contains(c.fn())) {
      out.put(c.id(), c);
    }
    e.operands().forEach(o -> collect(o, plan, out, seen));
  }

  /** The kernel's method, which allocates the scratch rows and calls the stages row by row, and the stages. */
  static List<MethodSpec> write(OperatorIr.Grid op, DocLinks owner, List<Expr.Call> calls) {
    Names names = SimdKernelWriter.names(op);
    String lo = names.fresh("lo");
    String hi = names.fresh("hi");
    MethodSpec.Builder m = SimdKernelWriter.header(op, owner, lo, hi);
    int last = op.grid().size() - 1;
    List<String> outer = new ArrayList<>();
    for (int k = 0; k < last; k++) {
      outer.add(names.fresh(op.grid().get(k).var().name()));
    }
    List<String> scratch = new ArrayList<>();
    String first = last == 0 ? lo : "0";
    String end = last == 0 ? hi : op.grid().get(last).extentText();
    for (int i = 0; i < calls.size() - 1; i++) {
      String t = names.fresh("stage" + i);
      scratch.add(t);
      m.addStatement("final float[] $N = new float[$T.min($L, $N - $N)]", t, Math.class, BLOCK, end, first);
    }
    // the row in blocks, so that the scratch rows stay small and in cache whatever the row's length
    String block = names.fresh("block");
    String blockEnd = names.fresh("blockEnd");
    CodeBlock.Builder row = CodeBlock.builder();
    row.beginControlFlow("for (int $N = $N; $N < $N; $N += $L)", block, first, block, end, block, BLOCK);
    row.addStatement("final int $N = $T.min($N + $L, $N)", blockEnd, Math.class, block, BLOCK, end);
    for (int i = 0; i < calls.size(); i++) {
      List<CodeBlock> args = new ArrayList<>(List.of(CodeBlock.of("$N", block), CodeBlock.of("$N", block),
          CodeBlock.of("$N", blockEnd)));
      outer.forEach(v -> args.add(CodeBlock.of("$N", v)));
      scratch.forEach(t -> args.add(CodeBlock.of("$N", t)));
      op.params().forEach(p -> args.add(CodeBlock.of("$N", p.name())));
      row.addStatement("$N($L)", stageName(op, i), CodeBlock.join(args, ", "));
    }
    row.endControlFlow();
    CodeBlock code = row.build();
    for (int k = last - 1; k >= 0; k--) {
      code = GridKernelWriter.gridLoop(op, k, outer.get(k), lo, hi, code);
    }
    List<MethodSpec> methods = new ArrayList<>();
    methods.add(m.addCode(code).build());
    for (int i = 0; i < calls.size(); i++) {
      methods.add(stage(op, calls, i));
    }
    return methods;
  }

  private static String stageName(OperatorIr.Grid op, int i) {
    return op.name() + "$stage" + i;
  }

  /**
   * Stage {@code i}: call {@code i} over {@code [start, end)} into its scratch row; the last stage,
   * the last call and the stores (a scratch row and a pass over the block fewer than a stage of
   * stores alone: the LSTM cell's forward kernel about 8% faster in a hand-written A/B).
   */
  private static MethodSpec stage(OperatorIr.Grid op, List<Expr.Call> calls, int i) {
    Names names = SimdKernelWriter.names(op);
    String base = names.fresh("base");
    String start = names.fresh("start");
    String end = names.fresh("end");
    MethodSpec.Builder m = MethodSpec.methodBuilder(stageName(op, i))
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .addParameter(TypeName.INT, base)
        .addParameter(TypeName.INT, start)
        .addParameter(TypeName.INT, end);
    int last = op.grid().size() - 1;
    Map<Expr, String> bound = new HashMap<>();
    for (int k = 0; k < last; k++) {
      String v = names.fresh(op.grid().get(k).var().name());
      bound.put(op.grid().get(k).var(), v);
      m.addParameter(TypeName.INT, v);
    }
    List<String> scratch = new ArrayList<>();
    for (int j = 0; j < calls.size() - 1; j++) {
      String t = names.fresh("stage" + j);
      scratch.add(t);
      m.addParameter(ArrayTypeName.of(TypeName.FLOAT), t);
    }
    for (Param p : op.params()) {
      m.addParameter(ParameterSpec.builder(JavaTypes.of(p), p.name()).build());
    }
    String v = names.fresh(op.grid().get(last).var().name());
    bound.put(op.grid().get(last).var(), v);
    String limit = names.fresh("vectorEnd");
    boolean stores = i == calls.size() - 1;
    if (stores) {
      m.addJavadoc("Call $L and the stores of {@code $L}, its other calls read from the scratch rows.\n", i,
          op.name());
    } else {
      m.addJavadoc("Call $L of {@code $L} into its scratch row.\n", i, op.name());
    }

    CodeBlock.Builder vec = CodeBlock.builder();
    VectorBody body = new VectorBody(SimdPlan.forLanes(op), names, op.names(), x -> CodeBlock.of("$N", bound.get(x)),
        vec);
    CodeBlock offset = CodeBlock.of("$N - $N", v, base);
    for (int j = 0; j < i; j++) {
      body.load(calls.get(j), scratch.get(j), offset);
    }
    if (stores) {
      body.statements(op.body());
    } else {
      vec.addStatement("$L.intoArray($N, $L)", body.vector(calls.get(i)), scratch.get(i), offset);
    }
    m.addStatement("final int $N = $N + $N.loopBound($N - $N)", limit, start, SPECIES, end, start);
    m.addStatement("int $N = $N", v, start);
    m.beginControlFlow("for (; $N < $N; $N += $N.length())", v, limit, v, SPECIES).addCode(vec.build()).endControlFlow();
    // the last workers of the row (fewer than a vector) as scalar code, as the lanes form's
    m.beginControlFlow("for (; $N < $N; $N++)", v, end, v);
    if (stores) {
      m.addCode(SimdKernelWriter.scalarWorker(op, names, bound));
    } else {
      CodeBlock.Builder one = CodeBlock.builder();
      VectorBody scalar = new VectorBody(SimdPlan.forLanes(op), names, op.names(),
          x -> CodeBlock.of("$N", bound.get(x)), one);
      CodeBlock value = scalar.scalar(calls.get(i));
      m.addCode(one.build()).addStatement("$N[$L] = $L", scratch.get(i), offset, value);
    }
    return m.endControlFlow().build();
  }
}
