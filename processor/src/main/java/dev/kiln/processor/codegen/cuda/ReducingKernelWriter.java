package dev.kiln.processor.codegen.cuda;

import com.palantir.javapoet.CodeBlock;
import dev.kiln.processor.check.IndexTerms;
import dev.kiln.processor.check.Injectivity;
import dev.kiln.processor.check.Term;
import dev.kiln.processor.codegen.BodyEmitter;
import dev.kiln.processor.codegen.Names;
import dev.kiln.processor.ir.Affine;
import dev.kiln.processor.ir.AffineAnalysis;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.ExprFactory;
import dev.kiln.processor.ir.GridDim;
import dev.kiln.processor.ir.OperatorIr;
import dev.kiln.processor.ir.Param;
import dev.kiln.processor.ir.ReduceKind;
import dev.kiln.processor.ir.ScalarType;
import dev.kiln.processor.ir.Stmt;
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
final class ReducingKernelWriter {
  /** The split of the grid, and the one index at which each reduced array is accumulated. */
  record Plan(List<GridDim> kept, List<GridDim> reduced, Map<Param.Array, Stmt.Accumulate> accumulations) {}

  private ReducingKernelWriter() {}

  /** The plan for {@code op}, or the reason this kernel shape does not fit it. */
  static Object plan(OperatorIr op) {
    Map<Param.Array, Stmt.Accumulate> accumulations = new LinkedHashMap<>();
    String problem = collect(op.body(), accumulations);
    if (problem != null) {
      return problem;
    }
    Set<String> gridVars = new LinkedHashSet<>();
    op.grid().forEach(g -> gridVars.add(g.var().name()));
    Set<String> kept = null;
    for (Stmt.Accumulate a : accumulations.values()) {
      Affine index = AffineAnalysis.affine(a.index());
      if (index == null || !gridVars.containsAll(index.coefficients().keySet())) {
        return "the index of '" + a.array().name() + "' is not an affine function of the @Parallel variables alone";
      }
      if (kept != null && !kept.equals(index.coefficients().keySet())) {
        return "its @Reduce outputs reduce over different dimensions";
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
        return "the index of '" + a.array().name() + "' may give two output elements' blocks the same element";
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

  /** The kernel; {@code op} has 64-bit indices already ({@link IndexWidening}). */
  static CodeBlock write(OperatorIr op, Plan plan, Names names, List<CodeBlock> params) {
    List<Expr> roots = new ArrayList<>();
    plan.accumulations().values().forEach(a -> roots.add(a.index()));
    BodyEmitter emitter = new BodyEmitter(CudaSyntax.INSTANCE, names, op.names());
    emitter.countUses(op.body(), roots);
    ExprFactory constants = new ExprFactory();

    emitter.openScope(); // prologue
    Map<Param.Array, String[]> registers = new LinkedHashMap<>(); // array -> {register, shared}
    for (Param.Array a : plan.accumulations().keySet()) {
      String id = CudaNames.identifier(a.name());
      registers.put(a, new String[] {names.fresh(id + "_acc"), names.fresh(id + "_shared")});
    }
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
        .beginControlFlow("for (long long $N = threadIdx.x; $N < $L; $N += blockDim.x)", inner, inner, total(plan.reduced()), inner)
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
          .addStatement("$N[$L] = $L", array, index,
              CudaSyntax.INSTANCE.combine(acc.op(), t, CodeBlock.of("$N[$L]", array, index), CodeBlock.of("$N", register)))
          .endControlFlow()
          .build());
    }
    CodeBlock keptBody = emitter.closeScope();

    String outer = names.fresh("k_");
    CodeBlock.Builder registersInit = CodeBlock.builder();
    for (Map.Entry<Param.Array, String[]> r : registers.entrySet()) {
      ScalarType t = r.getKey().elementType();
      registersInit.addStatement("$L $N = $L", CudaSyntax.typeName(t), r.getValue()[0],
          CudaSyntax.INSTANCE.literal(identity(constants, plan.accumulations().get(r.getKey()).op(), t)));
    }
    emitter.add(CodeBlock.builder()
        .beginControlFlow("for (long long $N = blockIdx.x; $N < $L; $N += gridDim.x)", outer, outer, total(plan.kept()), outer)
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
        .add("// Reducing kernel: launch with 1-D blocks of at most KILN_MAX_BLOCK threads, any grid size.\n")
        .add("extern \"C\" __global__ void $N($L) {\n$>", CudaNames.identifier(op.name()), CodeBlock.join(params, ", "))
        .add(shared.build())
        .add(body)
        .add("$<}\n")
        .build();
  }

  private static List<String> bind(BodyEmitter emitter, Names names, List<GridDim> dims, int depth) {
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
      CodeBlock extent = CodeBlock.of("(long long) $N", CudaNames.identifier(g.extent().name()));
      total = total == null ? extent : CodeBlock.of("$L * $L", total, extent);
    }
    return total == null ? CodeBlock.of("1LL") : total;
  }

  /** Declarations of the dimensions' variables from a row-major flat counter. */
  static CodeBlock decompose(String counter, List<GridDim> dims, List<String> vars) {
    CodeBlock.Builder out = CodeBlock.builder();
    for (int j = 0; j < dims.size(); j++) {
      String extent = CudaNames.identifier(dims.get(j).extent().name());
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
      case SUM: return f.constant(t, 0);
      case PRODUCT: return f.constant(t, 1);
      case MAX:
        return t.isFloating() ? f.constant(t, Double.NEGATIVE_INFINITY) : f.integral(t, t == ScalarType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE);
      default:
        return t.isFloating() ? f.constant(t, Double.POSITIVE_INFINITY) : f.integral(t, t == ScalarType.INT ? Integer.MAX_VALUE : Long.MAX_VALUE);
    }
  }
}
