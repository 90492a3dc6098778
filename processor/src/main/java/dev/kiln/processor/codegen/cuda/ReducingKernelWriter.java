package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.analysis.Affine;
import dev.kiln.processor.ir.analysis.AffineAnalysis;
import dev.kiln.processor.ir.analysis.IndexTerms;
import dev.kiln.processor.ir.analysis.Injectivity;
import dev.kiln.processor.ir.analysis.Term;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CUDA kernel of an operator with {@code @Reduce} outputs. The grid's dimensions split in two:
 * those the reduced index uses (kept: one output element per point) and the others (reduced).
 * Each thread block takes kept points in a grid-stride loop; its threads stride over the reduced
 * points running the worker, folding contributions into registers; {@code kiln::block_reduce}
 * combines the registers in a fixed tree and thread 0 folds the total into the output element.
 * Deterministic for a given block size, whatever the grid size or scheduling.
 */
public final class ReducingKernelWriter {
  /** The split of the grid, and the one index at which each reduced array is accumulated. */
  record Plan(List<GridDim> kept, List<GridDim> reduced, Map<Param.Array, Stmt.Accumulate> accumulations)
      implements CudaPlan {}

  private ReducingKernelWriter() {}

  /** The plan for {@code op}, or the reason this kernel shape does not fit it. */
  static CudaPlan plan(OperatorIr.Grid op) {
    Map<Param.Array, Stmt.Accumulate> accumulations = new LinkedHashMap<>();
    String problem = collect(op.body(), accumulations);
    if (problem != null) {
      return new CudaPlan.Refused(problem);
    }
    if (PartialsKernelWriter.plan(op) instanceof CudaPlan.Refused refusal) {
      return refusal; // an array stored as well as accumulated, or accumulated with two operations
    }
    Set<String> gridVars = new LinkedHashSet<>();
    op.grid().forEach(g -> gridVars.add(g.var().name()));
    Set<String> kept = null;
    for (Stmt.Accumulate a : accumulations.values()) {
      Affine index = AffineAnalysis.affine(a.index());
      if (index == null || !gridVars.containsAll(index.coefficients().keySet())) {
        return new CudaPlan.Refused("the index of '" + a.array().name() + "' is not an affine function of the @Parallel variables alone");
      }
      if (kept != null && !kept.equals(index.coefficients().keySet())) {
        return new CudaPlan.Refused("its @Reduce outputs reduce over different dimensions");
      }
      kept = index.coefficients().keySet();
    }
    // One block per kept point writes its element: two kept points must never share one, or two
    // blocks would update it at once (s[i + j] over grid i, j). Such operators take partial results.
    Set<String> dims = new LinkedHashSet<>();
    op.dims().forEach(d -> dims.add(d.name()));
    for (Stmt.Accumulate a : accumulations.values()) {
      Affine index = AffineAnalysis.affine(a.index());
      List<Term> terms = IndexTerms.of(index, IndexTerms.gridRanges(op), kept, dims);
      if (terms == null || !Injectivity.provable(terms, dims)) {
        return new CudaPlan.Refused("the index of '" + a.array().name() + "' may give two output elements' blocks the same element");
      }
    }
    List<GridDim> keptDims = new ArrayList<>();
    List<GridDim> reducedDims = new ArrayList<>();
    for (GridDim g : op.grid()) {
      (kept.contains(g.var().name()) ? keptDims : reducedDims).add(g);
    }
    return new Plan(keptDims, reducedDims, accumulations);
  }

  private static String collect(List<Stmt> body, Map<Param.Array, Stmt.Accumulate> out) {
    for (Stmt s : body) {
      if (s instanceof Stmt.Combine c) {
        return "'" + c.param() + "' is an array of records, combined by " + c.monoid() + " in partial results";
      }
      if (s instanceof Stmt.Accumulate a) {
        Stmt.Accumulate first = out.putIfAbsent(a.array(), a);
        if (first != null && first.index() != a.index()) {
          return "'" + a.array().name() + "' is accumulated at more than one index";
        }
      } else if (s instanceof Stmt.Loop l) {
        String p = collect(l.body(), out);
        if (p != null) {
          return p;
        }
      }
    }
    return null;
  }

  /** The name of the kernel that folds a segmented launch's partial results: {@code <op>_fold}. */
  public static String foldKernel(String op) {
    return CudaNames.identifier(op) + "_fold";
  }

  /**
   * The kernel; {@code op} has 64-bit indices already ({@link dev.kiln.processor.ir.transform.IndexWidening}). After the operator's
   * parameters it takes {@code segments} and, per accumulated array, a partial-results array: with
   * one segment a block folds its kept point's total into the output; with more, blocks {@code q}
   * take kept point {@code q / segments} and every {@code segments}-th stretch of its reduced
   * points, and write their totals to {@code partials[q]}, which {@link #fold} then folds in order.
   */
  static CodeBlock write(OperatorIr.Grid op, Plan plan, Names names, List<CodeBlock> params) {
    List<Expr> roots = new ArrayList<>();
    plan.accumulations().values().forEach(a -> roots.add(a.index()));
    BodyEmitter emitter = new BodyEmitter(CudaSyntax.INSTANCE, names, op.names());
    emitter.countUses(op.body(), roots);
    ExprFactory constants = new ExprFactory();
    String segments = names.fresh("segments");
    String point = names.fresh("q_");
    String outer = names.fresh("k_");
    String segment = names.fresh("g_");
    List<CodeBlock> all = new ArrayList<>(params);
    all.add(CodeBlock.of("long long $N", segments));

    emitter.openScope(); // prologue
    Map<Param.Array, String[]> registers = new LinkedHashMap<>(); // array -> {register, shared, partials}
    for (Param.Array a : plan.accumulations().keySet()) {
      String id = CudaNames.identifier(a.name());
      String[] n = {names.fresh(id + "_acc"), names.fresh(id + "_shared"), names.fresh(id + "_partials")};
      registers.put(a, n);
      all.add(CodeBlock.of("$L* __restrict__ $N", CudaSyntax.typeName(a.elementType()), n[2]));
    }
    all.addAll(CheckedReads.declare(op, emitter, names));
    emitter.openScope(); // one kept point
    List<String> keptVars = bind(emitter, names, plan.kept(), 1);
    for (Map.Entry<Param.Array, String[]> r : registers.entrySet()) {
      emitter.accumulator(r.getKey(), r.getValue()[0]);
    }
    emitter.openScope(); // one reduced point: the worker
    List<String> reducedVars = bind(emitter, names, plan.reduced(), 2);
    emitter.setWorkerDepth(2);
    emitter.statements(op.body());
    CodeBlock worker = emitter.closeScope();

    String inner = names.fresh("r_");
    emitter.add(CodeBlock.builder()
        .beginControlFlow("for (long long $N = $N * blockDim.x + threadIdx.x; $N < $L; $N += $N * blockDim.x)",
            inner, segment, inner, total(plan.reduced()), inner, segments)
        .add(decompose(inner, plan.reduced(), reducedVars))
        .add(worker)
        .endControlFlow()
        .build());
    for (Map.Entry<Param.Array, String[]> r : registers.entrySet()) {
      Param.Array a = r.getKey();
      String register = r.getValue()[0];
      Stmt.Accumulate acc = plan.accumulations().get(a);
      ScalarType t = a.elementType();
      emitter.add(CodeBlock.builder()
          .addStatement("$N = kiln::block_reduce($N, $N, $L)", register, register, r.getValue()[1], CudaSyntax.functor(acc.op(), t))
          .build());
      CodeBlock index = emitter.expr(acc.index());
      String array = CudaNames.identifier(a.name());
      emitter.add(CodeBlock.builder()
          .beginControlFlow("if (threadIdx.x == 0)")
          .beginControlFlow("if ($N == 1)", segments)
          .addStatement("$N[$L] = $L", array, index,
              CudaSyntax.INSTANCE.combine(acc.op(), t, CodeBlock.of("$N[$L]", array, index), CodeBlock.of("$N", register)))
          .nextControlFlow("else")
          .addStatement("$N[$N] = $N", r.getValue()[2], point, register)
          .endControlFlow()
          .endControlFlow()
          .build());
    }
    if (op.finishes()) {
      // one kept point (plan.kept() is empty): its block's thread 0 has stored every total
      emitter.add(CodeBlock.builder()
          .beginControlFlow("if (threadIdx.x == 0 && $N == 1)", segments)
          .add(BodyEmitter.finish(CudaSyntax.INSTANCE, op, names))
          .endControlFlow()
          .build());
    }
    CodeBlock keptBody = emitter.closeScope();

    CodeBlock.Builder registersInit = CodeBlock.builder();
    for (Map.Entry<Param.Array, String[]> r : registers.entrySet()) {
      ScalarType t = r.getKey().elementType();
      registersInit.addStatement("$L $N = $L", CudaSyntax.typeName(t), r.getValue()[0],
          CudaSyntax.INSTANCE.literal(identity(constants, plan.accumulations().get(r.getKey()).op(), t)));
    }
    emitter.add(CodeBlock.builder()
        .beginControlFlow("for (long long $N = blockIdx.x; $N < ($L) * $N; $N += gridDim.x)", point, point, total(plan.kept()),
            segments, point)
        .addStatement("const long long $N = $N / $N", outer, point, segments)
        .addStatement("const long long $N = $N % $N", segment, point, segments)
        .add(decompose(outer, plan.kept(), keptVars))
        .add(registersInit.build())
        .add(keptBody)
        .endControlFlow()
        .build());
    CodeBlock body = emitter.closeScope();

    CodeBlock.Builder shared = CodeBlock.builder();
    for (Map.Entry<Param.Array, String[]> r : registers.entrySet()) {
      shared.addStatement("__shared__ $L $N[KILN_MAX_BLOCK]", CudaSyntax.typeName(r.getKey().elementType()), r.getValue()[1]);
    }
    return CodeBlock.builder()
        .add("// Reducing kernel: launch with 1-D blocks of at most KILN_MAX_BLOCK threads, any grid size;\n")
        .add("// with segments > 1, over kept points x segments blocks, then $L.\n", foldKernel(op.name()))
        .add("extern \"C\" __global__ void $N($L) {\n$>", CudaNames.identifier(op.name()), CodeBlock.join(all, ", "))
        .add(shared.build())
        .add(body)
        .add("$<}\n")
        .build();
  }

  /**
   * Folds a segmented launch's partial results into the outputs: one thread a kept point, the
   * output's value then the segments' totals in segment order. Same parameters as {@link #write}'s
   * kernel.
   */
  static CodeBlock fold(OperatorIr.Grid op, Plan plan, Names names, List<CodeBlock> params) {
    List<Expr> roots = new ArrayList<>();
    plan.accumulations().values().forEach(a -> roots.add(a.index()));
    BodyEmitter emitter = new BodyEmitter(CudaSyntax.INSTANCE, names, op.names());
    emitter.countUses(List.of(), roots);
    String segments = names.fresh("segments");
    String outer = names.fresh("k_");
    String segment = names.fresh("g_");
    List<CodeBlock> all = new ArrayList<>(params);
    all.add(CodeBlock.of("long long $N", segments));
    Map<Param.Array, String> partials = new LinkedHashMap<>();
    for (Param.Array a : plan.accumulations().keySet()) {
      String n = names.fresh(CudaNames.identifier(a.name()) + "_partials");
      partials.put(a, n);
      all.add(CodeBlock.of("$L* __restrict__ $N", CudaSyntax.typeName(a.elementType()), n));
    }
    emitter.openScope(); // prologue
    emitter.openScope(); // one kept point
    List<String> keptVars = bind(emitter, names, plan.kept(), 1);
    for (Map.Entry<Param.Array, String> p : partials.entrySet()) {
      Param.Array a = p.getKey();
      Stmt.Accumulate acc = plan.accumulations().get(a);
      ScalarType t = a.elementType();
      String array = CudaNames.identifier(a.name());
      String value = names.fresh(array + "_acc");
      CodeBlock index = emitter.expr(acc.index());
      emitter.add(CodeBlock.builder()
          .addStatement("$L $N = $N[$L]", CudaSyntax.typeName(t), value, array, index)
          .beginControlFlow("for (long long $N = 0; $N < $N; $N++)", segment, segment, segments, segment)
          .addStatement("$N = $L", value, CudaSyntax.INSTANCE.combine(acc.op(), t, CodeBlock.of("$N", value),
              CodeBlock.of("$N[$N * $N + $N]", p.getValue(), outer, segments, segment)))
          .endControlFlow()
          .addStatement("$N[$L] = $N", array, index, value)
          .build());
    }
    if (op.finishes()) {
      emitter.add(BodyEmitter.finish(CudaSyntax.INSTANCE, op, names)); // one kept point: this thread has folded every total
    }
    CodeBlock keptBody = emitter.closeScope();
    emitter.add(CodeBlock.builder()
        .beginControlFlow("for (long long $N = kiln::first_x(); $N < $L; $N += kiln::stride_x())", outer, outer,
            total(plan.kept()), outer)
        .add(decompose(outer, plan.kept(), keptVars))
        .add(keptBody)
        .endControlFlow()
        .build());
    CodeBlock body = emitter.closeScope();
    return CodeBlock.builder()
        .add("// Folds $L's segment totals into its outputs, in segment order; launch over the kept points.\n", op.name())
        .add("extern \"C\" __global__ void $N($L) {\n$>", foldKernel(op.name()), CodeBlock.join(all, ", "))
        .add(body)
        .add("$<}\n")
        .build();
  }

  static List<String> bind(BodyEmitter emitter, Names names, List<GridDim> dims, int depth) {
    List<String> vars = new ArrayList<>();
    for (GridDim g : dims) {
      String v = names.fresh(CudaNames.identifier(g.var().name()));
      vars.add(v);
      emitter.bind(g.var(), v, depth);
    }
    return vars;
  }

  /** The number of points of these dimensions, as a 64-bit product (1 for none). */
  static CodeBlock total(List<GridDim> dims) {
    CodeBlock total = null;
    for (GridDim g : dims) {
      CodeBlock extent = CodeBlock.of("(long long) $N", g.extentText(CudaNames::identifier));
      total = total == null ? extent : CodeBlock.of("$L * $L", total, extent);
    }
    return total == null ? CodeBlock.of("1LL") : total;
  }

  /** Declarations of the dimensions' variables from a row-major flat counter. */
  static CodeBlock decompose(String counter, List<GridDim> dims, List<String> vars) {
    CodeBlock.Builder out = CodeBlock.builder();
    for (int j = 0; j < dims.size(); j++) {
      String extent = dims.get(j).extentText(CudaNames::identifier);
      if (j == dims.size() - 1) {
        out.addStatement("const int $N = (int) ($N % $N)", vars.get(j), counter, extent);
      } else {
        out.addStatement("const int $N = (int) (($N / ($L)) % $N)", vars.get(j), counter, total(dims.subList(j + 1, dims.size())), extent);
      }
    }
    return out.build();
  }

  static Expr.Const identity(ExprFactory f, ReduceKind op, ScalarType t) {
    switch (op) {
      case SUM: return t.isFloating() ? f.constant(t, -0.0) : f.constant(t, 0); // -0.0 + x == x, even for x = -0.0
      case PRODUCT: return f.constant(t, 1);
      case MAX:
        return t.isFloating() ? f.constant(t, Double.NEGATIVE_INFINITY) : f.integral(t, t == ScalarType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE);
      default:
        return t.isFloating() ? f.constant(t, Double.POSITIVE_INFINITY) : f.integral(t, t == ScalarType.INT ? Integer.MAX_VALUE : Long.MAX_VALUE);
    }
  }
}
